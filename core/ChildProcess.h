// ChildProcess: a program this process started — RAII (SIGTERM, then SIGKILL, reaped on
// destruction) — and a captured run: the one way the library (the simulated fabric) and the
// tests start programs.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.h"

namespace openflint {

struct SpawnSpec {
  std::vector<std::string> argv;           // argv[0] is searched on PATH
  std::map<std::string, std::string> env;  // added to (or replacing in) the current environment
  std::filesystem::path cwd;               // empty: inherit
  std::filesystem::path output;            // stdout (and stderr, unless `error`) appended here; empty: /dev/null
  std::filesystem::path input;             // stdin read from here (e.g. a FIFO); empty: /dev/null
  std::filesystem::path error{};           // stderr here instead of with stdout
  bool truncate = false;                   // empty `output`/`error` first instead of appending
  // SIGTERM when this process dies (PR_SET_PDEATHSIG), so nothing outlives a crashed test.
  bool die_with_parent = false;
  // Descriptors for its stdin, stdout and stderr instead of `input`, `output` and `error` (a
  // peer that talks over a socket or pipes: ssh to a bus server; a pipe this process reads);
  // -1: the files. The caller keeps and closes them.
  int stdin_fd = -1;
  int stdout_fd = -1;
  int stderr_fd = -1;
  // A process group of its own (a Ctrl-C at the terminal reaches this process alone, which can
  // then end the child's work at a safe point), the signal mask and the dispositions of SIGPIPE,
  // SIGINT and SIGTERM reset (a tool that ignores or blocks them would pass that on through
  // exec), and every descriptor but 0-2 closed, close-on-exec or not.
  bool isolate = false;
};

struct CapturedRun {
  int exit_code = -1;  // -1: killed by a signal (e.g. on timeout)
  int term_signal = 0;  // the signal that ended it (SIGSEGV, SIGKILL on timeout, ...), else 0
  pid_t pid = 0;        // the process it was
  bool timed_out = false;
  std::string out;
  std::string err;
};

class ChildProcess {
 public:
  // NotFound when the program cannot be started ("cannot run 'PROGRAM': REASON").
  [[nodiscard]] static Result<ChildProcess> spawn(const SpawnSpec& spec);
  // The same, for a caller that checks pid() (-1 when it could not start).
  explicit ChildProcess(const SpawnSpec& spec);
  // Runs to completion capturing stdout/stderr; SIGTERM (then SIGKILL) after timeout_ms (<= 0: no limit).
  [[nodiscard]] static Result<CapturedRun> run(const SpawnSpec& spec, int timeout_ms);

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess() { (void)stop(2000); }

  [[nodiscard]] pid_t pid() const { return pid_; }
  // Whether it has not exited yet (reaps it when it has: status() then holds how it ended).
  [[nodiscard]] bool running();
  // How it ended once reaped: its exit code, or minus the signal that ended it.
  [[nodiscard]] std::optional<int> status() const { return status_; }
  // Waits up to `timeout` for it to exit: status(), or nullopt while it still runs.
  std::optional<int> wait_for(std::chrono::milliseconds timeout);
  void signal(int sig) const;
  // SIGTERM, wait up to timeout_ms, then SIGKILL. Returns the exit code (-1 if signalled or not started).
  int stop(int timeout_ms);
  // What it wrote so far to its `output` / `error` file (empty without one).
  [[nodiscard]] std::string out() const;
  [[nodiscard]] std::string err() const;

 private:
  ChildProcess(const SpawnSpec& spec, int files_only);  // not started yet: its files noted
  pid_t pid_ = -1;
  std::optional<int> status_;
  std::filesystem::path output_;
  std::filesystem::path error_;
};

}  // namespace openflint
