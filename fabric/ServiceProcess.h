// ServiceProcess: ibadm's services as detached processes — launch (setsid, log file), pid files, status from /proc, stop.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/Result.h"

namespace openflint {

enum class ServiceState { Stopped, Running, Stale };
[[nodiscard]] constexpr const char* to_string(ServiceState s) {
  return s == ServiceState::Running ? "running" : (s == ServiceState::Stale ? "stale" : "stopped");
}

// What a service's pid file says, checked against /proc: Running when the pid lives (not a
// zombie) and its command line is `program` `subcommand` ...; Stale when the file names a pid
// that is gone or now another program's (`why` says which); Stopped without a pid file.
struct ServiceStatus {
  ServiceState state = ServiceState::Stopped;
  pid_t pid = 0;
  std::string why;  // Stale: the reason
};
[[nodiscard]] ServiceStatus service_status(const std::filesystem::path& pid_file, const std::string& program,
                                           const std::string& subcommand);

// Starts argv (argv[0] a path) detached: a session of its own (setsid, no controlling terminal,
// re-parented away from this process), stdin /dev/null, stdout and stderr appended to `log`,
// every other descriptor closed, signal mask and dispositions reset; this process's environment.
// Returns its pid once it has exec'd. NotFound "cannot run PROGRAM: why" when the exec fails.
[[nodiscard]] Result<pid_t> launch_detached(const std::vector<std::string>& argv, const std::filesystem::path& log);

// Writes `pid` and a newline to `path` (replacing it, through a temporary file).
[[nodiscard]] Result<void> write_pid_file(const std::filesystem::path& path, pid_t pid);

// Whether `pid` is a live process (a zombie is not).
[[nodiscard]] bool process_alive(pid_t pid);

// SIGTERM, then waits up to `grace` for it to end; SIGKILL after that and waits up to 5 s more.
// Timeout when even SIGKILL did not end it; PermissionDenied when it may not be signalled.
[[nodiscard]] Result<void> stop_process(pid_t pid, std::chrono::milliseconds grace);

// The remote ends ("ADDRESS:PORT") of the established TCP connections whose local port is
// `port` (/proc/net/tcp and tcp6 of this network namespace): a service's clients.
[[nodiscard]] std::vector<std::string> established_peers(std::uint16_t port);

}  // namespace openflint
