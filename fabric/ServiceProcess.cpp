// ServiceProcess: double fork + setsid with an exec-error pipe, /proc checks, SIGTERM/SIGKILL, /proc/net/tcp.
#include "fabric/ServiceProcess.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

namespace openflint {
namespace {

std::string read_small_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text;
  char buf[4096];
  while (in && text.size() < (1u << 16)) {
    in.read(buf, sizeof buf);
    text.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  return text;
}

// The NUL-separated arguments of /proc/PID/cmdline.
std::vector<std::string> command_line(pid_t pid) {
  const std::string text = read_small_file("/proc/" + std::to_string(pid) + "/cmdline");
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto nul = text.find('\0', start);
    out.push_back(text.substr(start, nul == std::string::npos ? std::string::npos : nul - start));
    if (nul == std::string::npos) break;
    start = nul + 1;
  }
  return out;
}

// Async-signal-safe writes of the whole buffer (between fork and exec).
void write_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
}

// The grandchild: descriptors, signals, exec. Only async-signal-safe calls.
[[noreturn]] void exec_detached(char* const* argv, int log_fd, int report_fd) {
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd < 0 || ::dup2(null_fd, 0) < 0 || ::dup2(log_fd, 1) < 0 || ::dup2(log_fd, 2) < 0) {
    const int err = errno;
    write_all(report_fd, &err, sizeof err);
    ::_exit(127);
  }
  // Every descriptor but 0-2 and the report pipe (close-on-exec) closed.
  for (int fd = 3; fd < 1024; ++fd)
    if (fd != report_fd) ::close(fd);
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (const int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP}) ::signal(sig, SIG_DFL);
  ::execv(argv[0], argv);
  const int err = errno;
  write_all(report_fd, &err, sizeof err);
  ::_exit(127);
}

}  // namespace

bool process_alive(pid_t pid) {
  if (pid <= 0) return false;
  if (::kill(pid, 0) != 0 && errno != EPERM) return false;
  // A zombie (no one reaped it yet: e.g. a container's init that does not) has ended.
  const std::string stat = read_small_file("/proc/" + std::to_string(pid) + "/stat");
  const auto paren = stat.rfind(')');
  return paren == std::string::npos || paren + 2 >= stat.size() || stat[paren + 2] != 'Z';
}

ServiceStatus service_status(const std::filesystem::path& pid_file, const std::string& program,
                             const std::string& subcommand) {
  std::error_code ec;
  if (!std::filesystem::exists(pid_file, ec)) return {};
  const std::string text = read_small_file(pid_file);
  const long pid = std::strtol(text.c_str(), nullptr, 10);
  if (pid <= 0 || pid > 0x3fffffff) return ServiceStatus{.state = ServiceState::Stale, .pid = 0, .why = "the pid file holds no pid"};
  const auto p = static_cast<pid_t>(pid);
  if (!process_alive(p)) return ServiceStatus{.state = ServiceState::Stale, .pid = p, .why = "process " + std::to_string(pid) + " is gone"};
  const auto args = command_line(p);
  if (args.size() < 2 || args[0] != program || args[1] != subcommand)
    return ServiceStatus{.state = ServiceState::Stale, .pid = p,
                         .why = "pid " + std::to_string(pid) + " is another program now (" + (args.empty() ? "?" : args[0]) + ")"};
  return ServiceStatus{.state = ServiceState::Running, .pid = p, .why = {}};
}

Result<pid_t> launch_detached(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  if (argv.empty()) return make_error(ErrorCode::Internal, "launch without a program");
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
  if (log_fd < 0) return make_error(ErrorCode::Io, "cannot open " + log.string() + ": " + std::strerror(errno));
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) {
    ::close(log_fd);
    return make_error(ErrorCode::Io, std::string("pipe: ") + std::strerror(errno));
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t child = ::fork();
  if (child < 0) {
    const int err = errno;
    ::close(log_fd), ::close(report[0]), ::close(report[1]);
    return make_error(ErrorCode::Io, std::string("fork: ") + std::strerror(err));
  }
  if (child == 0) {
    ::close(report[0]);
    ::setsid();
    const pid_t grandchild = ::fork();
    if (grandchild == 0) exec_detached(args.data(), log_fd, report[1]);
    write_all(report[1], &grandchild, sizeof grandchild);
    ::_exit(grandchild < 0 ? 1 : 0);
  }
  ::close(log_fd);
  ::close(report[1]);
  std::string got;
  char buf[64];
  for (ssize_t n; (n = ::read(report[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    got.append(buf, static_cast<std::size_t>(n));
  }
  ::close(report[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  pid_t pid = -1;
  if (got.size() >= sizeof pid) std::memcpy(&pid, got.data(), sizeof pid);
  if (pid <= 0) return make_error(ErrorCode::Io, "cannot start " + argv[0] + ": fork failed");
  if (got.size() >= sizeof pid + sizeof(int)) {
    int err = 0;
    std::memcpy(&err, got.data() + sizeof pid, sizeof err);
    return make_error(ErrorCode::NotFound, "cannot run " + argv[0] + ": " + std::strerror(err));
  }
  return pid;
}

Result<void> write_pid_file(const std::filesystem::path& path, pid_t pid) {
  const auto temporary = path.string() + ".new";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << pid << '\n';
    if (!out) return make_error(ErrorCode::Io, "cannot write " + temporary);
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) return make_error(ErrorCode::Io, "cannot write " + path.string() + ": " + ec.message());
  return {};
}

Result<void> stop_process(pid_t pid, std::chrono::milliseconds grace) {
  if (!process_alive(pid)) return {};
  if (::kill(pid, SIGTERM) != 0) {
    if (errno == ESRCH) return {};
    return make_error(errno == EPERM ? ErrorCode::PermissionDenied : ErrorCode::Io,
                      "cannot signal process " + std::to_string(pid) + ": " + std::strerror(errno));
  }
  auto wait_gone = [pid](std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (process_alive(pid)) {
      if (std::chrono::steady_clock::now() >= until) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
  };
  if (wait_gone(grace)) return {};
  (void)::kill(pid, SIGKILL);
  if (wait_gone(std::chrono::seconds(5))) return {};
  return make_error(ErrorCode::Timeout, "process " + std::to_string(pid) + " did not end after SIGKILL");
}

std::vector<std::string> established_peers(std::uint16_t port) {
  std::vector<std::string> out;
  constexpr int kEstablished = 1;
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::istringstream in(read_small_file(table));
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line) && out.size() < 4096) {
      std::istringstream fields(line);
      std::string slot, local, remote, state;
      fields >> slot >> local >> remote >> state;
      const auto lc = local.rfind(':'), rc = remote.rfind(':');
      if (lc == std::string::npos || rc == std::string::npos) continue;
      if (std::strtoul(state.c_str(), nullptr, 16) != kEstablished) continue;
      if (std::strtoul(local.substr(lc + 1).c_str(), nullptr, 16) != port) continue;
      const std::string hex = remote.substr(0, rc);
      const auto remote_port = std::strtoul(remote.substr(rc + 1).c_str(), nullptr, 16);
      char text[INET6_ADDRSTRLEN] = {};
      if (hex.size() == 8) {
        in_addr a{};
        a.s_addr = static_cast<std::uint32_t>(std::strtoul(hex.c_str(), nullptr, 16));  // the kernel's byte order
        ::inet_ntop(AF_INET, &a, text, sizeof text);
        out.push_back(std::string(text) + ":" + std::to_string(remote_port));
      } else if (hex.size() == 32) {
        in6_addr a{};
        for (int w = 0; w < 4; ++w) {
          const auto word = static_cast<std::uint32_t>(std::strtoul(hex.substr(static_cast<std::size_t>(w) * 8, 8).c_str(), nullptr, 16));
          std::memcpy(&a.s6_addr[w * 4], &word, 4);
        }
        ::inet_ntop(AF_INET6, &a, text, sizeof text);
        out.push_back("[" + std::string(text) + "]:" + std::to_string(remote_port));
      }
    }
  }
  return out;
}

}  // namespace openflint
