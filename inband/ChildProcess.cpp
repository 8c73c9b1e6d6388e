// ChildProcess: posix_spawn with environment/cwd/output redirection, bounded waits.
#include "inband/ChildProcess.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
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

// Spawns with the given fds for stdout/stderr (-1: /dev/null or the spec's output file).
Result<pid_t> spawn_raw(const SpawnSpec& spec, int out_fd, int err_fd) {
  if (spec.argv.empty()) return make_error(ErrorCode::InvalidArgument, "spawn: empty command");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string input = spec.input.empty() ? "/dev/null" : spec.input.string();
  posix_spawn_file_actions_addopen(&actions, 0, input.c_str(), O_RDONLY, 0);
  if (out_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
    posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  } else {
    const std::string path = spec.output.empty() ? "/dev/null" : spec.output.string();
    posix_spawn_file_actions_addopen(&actions, 1, path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  }
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());
  std::vector<std::string> args = spec.argv;
  std::vector<std::string> env = make_env(spec.env);
  auto argp = pointers(args);
  auto envp = pointers(env);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, argp[0], &actions, nullptr, argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return make_error(ErrorCode::NotFound, "spawn: cannot start " + spec.argv[0] + ": " + std::strerror(rc));
  return pid;
}

// Waits for pid up to timeout_ms; returns true and the status if it exited.
bool wait_for(pid_t pid, int timeout_ms, int& status) {
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
  OF_ASSIGN(const pid_t pid, spawn_raw(spec, -1, -1));
  return ChildProcess(pid);
}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    (void)stop(2000);
    pid_ = other.pid_;
    other.pid_ = -1;
  }
  return *this;
}

bool ChildProcess::running() {
  if (pid_ < 0) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == 0) return true;
  pid_ = -1;
  return false;
}

int ChildProcess::stop(int timeout_ms) {
  if (pid_ < 0) return -1;
  int status = 0;
  ::kill(pid_, SIGTERM);
  if (!wait_for(pid_, timeout_ms, status)) {
    ::kill(pid_, SIGKILL);
    (void)wait_for(pid_, 5000, status);
  }
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

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
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    int open_fds = 2;
    while (open_fds > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        result.timed_out = true;
        ::kill(*pid, SIGTERM);
        break;
      }
      if (::poll(fds.data(), fds.size(), static_cast<int>(left)) < 0 && errno != EINTR) break;
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
    if (!wait_for(*pid, 5000, status)) {
      ::kill(*pid, SIGKILL);
      (void)wait_for(*pid, 5000, status);
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
