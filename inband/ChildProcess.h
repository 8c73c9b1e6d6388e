// ChildProcess: RAII handle of a spawned process (SIGTERM + wait on destruction) and a captured run.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/Result.h"

namespace openflint {

struct SpawnSpec {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;  // added to (or replacing in) the current environment
  std::filesystem::path cwd;               // empty: inherit
  std::filesystem::path output;            // stdout+stderr appended here; empty: /dev/null
  std::filesystem::path input;             // stdin read from here (e.g. a FIFO); empty: /dev/null
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
  [[nodiscard]] static Result<ChildProcess> spawn(const SpawnSpec& spec);
  // Runs to completion capturing stdout/stderr; SIGTERM (then SIGKILL) after timeout_ms.
  [[nodiscard]] static Result<CapturedRun> run(const SpawnSpec& spec, int timeout_ms);

  ChildProcess(ChildProcess&& other) noexcept : pid_(other.pid_) { other.pid_ = -1; }
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess() { (void)stop(2000); }

  [[nodiscard]] pid_t pid() const { return pid_; }
  // Whether it has not exited yet (reaps it if it has; the exit status is then lost).
  [[nodiscard]] bool running();
  // SIGTERM, wait up to timeout_ms, then SIGKILL. Returns the exit code (-1 if signalled).
  int stop(int timeout_ms);

 private:
  explicit ChildProcess(pid_t pid) : pid_(pid) {}
  pid_t pid_ = -1;
};

}  // namespace openflint
