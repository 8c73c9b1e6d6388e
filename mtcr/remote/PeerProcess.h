// PeerProcess: the child process at the far end of a BusConnection (the ssh client): a
// core/ChildProcess started isolated on the connection's socket, with its stderr's tail kept for
// the error message when it goes away; stopped and reaped on destruction.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/ChildProcess.h"
#include "core/Result.h"

namespace openflint {

// Not movable (a thread reads its stderr); held by unique_ptr.
class PeerProcess {
 public:
  // How long the destructor waits for the process to exit by itself (it normally does once its
  // stdin reaches EOF: ssh then waits for the remote command, which saves its device and exits)
  // before SIGTERM, and after SIGTERM before SIGKILL.
  static constexpr std::chrono::milliseconds kExitGrace{5000};
  static constexpr std::chrono::milliseconds kTermGrace{1000};
  // How much of its stderr is kept (the end).
  static constexpr std::size_t kStderrTail = 4096;

  // Runs argv (argv[0] searched on PATH here, no shell) with `stdio_fd` as its stdin and stdout
  // and a pipe as its stderr; every other descriptor is closed, the signal mask and SIGPIPE are
  // reset. NotFound-like Io error when argv[0] cannot be run ("cannot run 'ssh': ...").
  [[nodiscard]] static Result<std::unique_ptr<PeerProcess>> spawn(const std::vector<std::string>& argv,
                                                                  int stdio_fd);

  ~PeerProcess();
  PeerProcess(const PeerProcess&) = delete;
  PeerProcess& operator=(const PeerProcess&) = delete;

  [[nodiscard]] pid_t pid() const { return pid_; }  // kept after the reap, for the caller's reports
  [[nodiscard]] const std::string& program() const { return program_; }

  // Why the peer went away, one line, for an error message: waits up to `wait` for it to exit
  // and for its stderr to close, then "ssh exited with status 255: <its last stderr line>"
  // ("ssh is still running" / "killed by signal N"; the line left out when it wrote none).
  [[nodiscard]] std::string exit_report(std::chrono::milliseconds wait);

 private:
  PeerProcess(ChildProcess child, int stderr_fd, std::string program);
  void read_stderr();
  [[nodiscard]] std::string last_stderr_line();

  ChildProcess child_;
  pid_t pid_ = -1;
  int stderr_fd_ = -1;
  std::string program_;
  std::mutex mutex_;
  std::condition_variable stderr_closed_;
  std::string stderr_tail_;
  bool stderr_eof_ = false;
  bool stop_reading_ = false;
  std::thread reader_;
};

}  // namespace openflint
