// ChildProcess: posix_spawn (or fork/exec for a parent-death signal, an isolated peer) with environment/cwd/output redirection, bounded waits.
#include "core/ChildProcess.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <limits>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace openflint {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> make_env(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string key = entry.substr(0, entry.find('='));
    if (extra.count(key) == 0) env.push_back(entry);
  }
  for (const auto& [k, v] : extra) env.push_back(k + "=" + v);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

int output_flags(const SpawnSpec& spec) { return O_WRONLY | O_CREAT | (spec.truncate ? O_TRUNC : O_APPEND); }

// Whether the child needs fork/exec: what it asks cannot be said to posix_spawn (a parent-death
// signal, a process group with reset signals, closing inherited descriptors, given descriptors).
bool needs_fork(const SpawnSpec& spec) {
  return spec.die_with_parent || spec.isolate || spec.stdin_fd >= 0 || spec.stdout_fd >= 0 || spec.stderr_fd >= 0;
}

// In the child, between fork and exec: async-signal-safe calls only.
void isolate_child(int keep_fd) {
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::signal(SIGPIPE, SIG_DFL);
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  ::setpgid(0, 0);
  // No lock file, device or listening socket of ours leaks into the program; `keep_fd` (the
  // exec report, close-on-exec) stays until the exec.
  for (int fd = STDERR_FILENO + 1; fd < keep_fd; ++fd) ::close(fd);
  ::syscall(SYS_close_range, static_cast<unsigned>(keep_fd + 1), ~0U, 0U);
}

// fork/exec. Everything is prepared before the fork; an exec failure comes back through a
// close-on-exec pipe, so it is an error here as with posix_spawnp.
Result<pid_t> fork_exec(const SpawnSpec& spec, std::vector<char*>& argp, std::vector<char*>& envp) {
  const std::string input = spec.input.empty() ? "/dev/null" : spec.input.string();
  const std::string out_path = spec.output.empty() ? "/dev/null" : spec.output.string();
  const bool own_in = spec.stdin_fd < 0;
  const bool own_out = spec.stdout_fd < 0;
  const bool own_err = spec.stderr_fd < 0 && !spec.error.empty();
  const int in = own_in ? ::open(input.c_str(), O_RDONLY | O_CLOEXEC) : spec.stdin_fd;
  const int out = own_out ? ::open(out_path.c_str(), output_flags(spec) | O_CLOEXEC, 0644) : spec.stdout_fd;
  const int err = own_err ? ::open(spec.error.c_str(), output_flags(spec) | O_CLOEXEC, 0644)
                          : (spec.stderr_fd >= 0 ? spec.stderr_fd : out);
  int report[2] = {-1, -1};
  const auto close_all = [&] {
    for (int fd : {own_in ? in : -1, own_out ? out : -1, own_err ? err : -1, report[0], report[1]})
      if (fd >= 0) ::close(fd);
  };
  if (in < 0 || out < 0 || err < 0 || ::pipe2(report, O_CLOEXEC) != 0) {
    const int why = errno;
    close_all();
    return make_error(ErrorCode::Io, "cannot set up " + spec.argv[0] + "'s files: " + std::strerror(why));
  }
  if (report[1] <= STDERR_FILENO) {  // started with a standard descriptor closed: keep it clear of 0-2
    const int moved = ::fcntl(report[1], F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    ::close(report[1]);
    report[1] = moved;
    if (moved < 0) {
      const int why = errno;
      close_all();
      return make_error(ErrorCode::Io, "cannot set up " + spec.argv[0] + "'s files: " + std::strerror(why));
    }
  }
  const pid_t parent = ::getpid();
  const char* cwd = spec.cwd.empty() ? nullptr : spec.cwd.c_str();
  const pid_t pid = ::fork();
  if (pid == 0) {  // only async-signal-safe calls from here
    if (spec.die_with_parent) {
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (::getppid() != parent) ::_exit(127);
    }
    bool ok = ::dup2(in, 0) >= 0 && ::dup2(out, 1) >= 0 && ::dup2(err, 2) >= 0;
    if (ok && spec.isolate) isolate_child(report[1]);
    if (ok && (cwd == nullptr || ::chdir(cwd) == 0)) ::execvpe(argp[0], argp.data(), envp.data());
    const int why = errno;
    [[maybe_unused]] const ssize_t n = ::write(report[1], &why, sizeof why);
    ::_exit(127);
  }
  ::close(report[1]);
  report[1] = -1;
  int why = 0;
  ssize_t n = 0;
  const int fork_errno = errno;
  if (pid > 0) {
    while ((n = ::read(report[0], &why, sizeof why)) < 0 && errno == EINTR) {
    }
  }
  close_all();
  if (pid < 0) return make_error(ErrorCode::Io, "cannot run '" + spec.argv[0] + "': fork: " + std::strerror(fork_errno));
  if (n == static_cast<ssize_t>(sizeof why)) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return make_error(ErrorCode::NotFound, "cannot run '" + spec.argv[0] + "': " + std::strerror(why));
  }
  return pid;
}

// Spawns with the given fds for stdout/stderr (-1: the spec's files, or /dev/null).
Result<pid_t> spawn_raw(const SpawnSpec& spec, int out_fd, int err_fd) {
  if (spec.argv.empty()) return make_error(ErrorCode::InvalidArgument, "spawn: empty command");
  std::vector<std::string> args = spec.argv;
  std::vector<std::string> env = make_env(spec.env);
  auto argp = pointers(args);
  auto envp = pointers(env);
  if (needs_fork(spec) && out_fd < 0) return fork_exec(spec, argp, envp);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string input = spec.input.empty() ? "/dev/null" : spec.input.string();
  posix_spawn_file_actions_addopen(&actions, 0, input.c_str(), O_RDONLY, 0);
  if (out_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
    posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  } else {
    const std::string path = spec.output.empty() ? "/dev/null" : spec.output.string();
    posix_spawn_file_actions_addopen(&actions, 1, path.c_str(), output_flags(spec), 0644);
    if (spec.error.empty()) {
      posix_spawn_file_actions_adddup2(&actions, 1, 2);
    } else {
      posix_spawn_file_actions_addopen(&actions, 2, spec.error.c_str(), output_flags(spec), 0644);
    }
  }
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, argp[0], &actions, nullptr, argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return make_error(ErrorCode::NotFound, "cannot run '" + spec.argv[0] + "': " + std::strerror(rc));
  return pid;
}

int decode(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status); }

std::string slurp(const std::filesystem::path& path) {
  if (path.empty()) return {};
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Waits for pid up to timeout_ms; returns true and the status if it exited.
bool wait_pid(pid_t pid, int timeout_ms, int& status) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno == ECHILD)) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace

Result<ChildProcess> ChildProcess::spawn(const SpawnSpec& spec) {
  ChildProcess child(spec, 0);
  OF_ASSIGN(child.pid_, spawn_raw(spec, -1, -1));
  return child;
}

ChildProcess::ChildProcess(const SpawnSpec& spec) : ChildProcess(spec, 0) {
  auto pid = spawn_raw(spec, -1, -1);
  if (pid) pid_ = *pid;
}

ChildProcess::ChildProcess(const SpawnSpec& spec, int /*files only*/) : output_(spec.output), error_(spec.error) {}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(other.pid_), status_(other.status_), output_(std::move(other.output_)), error_(std::move(other.error_)) {
  other.pid_ = -1;
}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    (void)stop(2000);
    pid_ = other.pid_;
    status_ = other.status_;
    output_ = std::move(other.output_);
    error_ = std::move(other.error_);
    other.pid_ = -1;
  }
  return *this;
}

bool ChildProcess::running() {
  if (pid_ < 0 || status_) return false;
  int status = 0;
  const pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == 0) return true;
  status_ = r == pid_ ? decode(status) : -SIGKILL;  // ECHILD: reaped elsewhere; how it ended is unknown
  return false;
}

std::optional<int> ChildProcess::wait_for(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (running()) {
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return status_;
}

void ChildProcess::signal(int sig) const {
  if (pid_ > 0 && !status_) ::kill(pid_, sig);
}

int ChildProcess::stop(int timeout_ms) {
  if (pid_ < 0) return -1;
  if (!status_) {
    int status = 0;
    ::kill(pid_, SIGTERM);
    if (!wait_pid(pid_, timeout_ms, status)) {
      ::kill(pid_, SIGKILL);
      (void)wait_pid(pid_, 5000, status);
    }
    status_ = decode(status);
  }
  pid_ = -1;
  return *status_ >= 0 ? *status_ : -1;
}

std::string ChildProcess::out() const { return slurp(output_); }
std::string ChildProcess::err() const { return slurp(error_); }

Result<CapturedRun> ChildProcess::run(const SpawnSpec& spec, int timeout_ms) {
  int out_pipe[2];
  int err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return make_error(ErrorCode::Io, "spawn: pipe failed");
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return make_error(ErrorCode::Io, "spawn: pipe failed");
  }
  auto pid = spawn_raw(spec, out_pipe[1], err_pipe[1]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  CapturedRun result;
  if (pid) {
    result.pid = *pid;
    std::array<pollfd, 2> fds{{{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}}};
    std::array<std::string*, 2> sinks{&result.out, &result.err};
    const bool limited = timeout_ms > 0;
    const auto deadline = Clock::now() + std::chrono::milliseconds(limited ? timeout_ms : 0);
    int open_fds = 2;
    while (open_fds > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (limited && left <= 0) {
        result.timed_out = true;
        ::kill(*pid, SIGTERM);
        break;
      }
      if (::poll(fds.data(), fds.size(), limited ? static_cast<int>(left) : -1) < 0 && errno != EINTR) break;
      for (std::size_t i = 0; i < fds.size(); ++i) {
        if (fds[i].fd < 0 || fds[i].revents == 0) continue;
        char buf[16384];
        const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
        if (n <= 0) {
          fds[i].fd = -1;
          --open_fds;
        } else {
          sinks[i]->append(buf, static_cast<std::size_t>(n));
        }
      }
    }
    int status = 0;
    // Its output closed: it is ending (with a limit, 5 s more before SIGKILL; without, as long as it takes).
    if (!wait_pid(*pid, limited ? 5000 : std::numeric_limits<int>::max(), status)) {
      ::kill(*pid, SIGKILL);
      (void)wait_pid(*pid, 5000, status);
    }
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }
  ::close(out_pipe[0]);
  ::close(err_pipe[0]);
  if (!pid) return make_error(std::move(pid).error());
  return result;
}

}  // namespace openflint
