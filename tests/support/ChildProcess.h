// ChildProcess: a tool started in the background with its stdout/stderr in files (no pipes the
// test must drain), killed with the test process (PR_SET_PDEATHSIG) and reaped by its owner.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace openflint::test {

class ChildProcess {
 public:
  // Starts argv[0] (searched on PATH) with our environment plus `env` ("NAME=VALUE"); its
  // stdout and stderr go to the given files (truncated). pid() is -1 when it could not start.
  ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env,
               std::filesystem::path out_file, std::filesystem::path err_file);
  // Still running: SIGKILL and reap (a test should have stopped it properly first).
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  [[nodiscard]] pid_t pid() const { return pid_; }
  [[nodiscard]] bool running();  // reaps it when it has exited
  // The exit status once it has exited: the exit code, or -signal when killed by a signal.
  [[nodiscard]] std::optional<int> status() const { return status_; }
  // Waits up to `timeout` for it to exit; the status, or nullopt when it still runs.
  std::optional<int> wait_for(std::chrono::milliseconds timeout);
  void signal(int sig) const;
  [[nodiscard]] std::string out() const;  // what it wrote so far
  [[nodiscard]] std::string err() const;

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
  std::filesystem::path out_file_;
  std::filesystem::path err_file_;
};

}  // namespace openflint::test
