// PeerProcess: fork/execve with the stdio socket, a stderr-tail reader thread, bounded stop and reap.
#include "mtcr/remote/PeerProcess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace openflint {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kPollStep = std::chrono::milliseconds(10);
constexpr int kReaderPollMs = 100;  // how soon the reader notices stop_reading_

// argv[0] as execve wants it: as given when it holds a '/', else the first executable match on
// PATH (resolved here, not in the child, where only async-signal-safe calls are allowed).
std::optional<std::string> resolve_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const std::size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    struct stat st{};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (colon == std::string_view::npos) return std::nullopt;
    dirs.remove_prefix(colon + 1);
  }
}

// A pipe that is closed on exec: {read, write}.
Result<std::array<int, 2>> cloexec_pipe() {
  std::array<int, 2> fds{-1, -1};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) return make_error(ErrorCode::Io, "pipe: " + errno_text(errno));
  return fds;
}

// In the child, between fork and exec: async-signal-safe calls only. On failure the errno goes
// to `status_fd` (closed on a successful exec, so the parent reads EOF then).
[[noreturn]] void exec_child(const char* program, char* const* argv, int stdio_fd, int stderr_fd, int status_fd) {
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);  // mst server blocks SIGTERM in its threads
  ::signal(SIGPIPE, SIG_DFL);                  // an ignored SIGPIPE would survive the exec
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  // A process group of its own: a Ctrl-C at the terminal goes to the tool alone, which stops at
  // a safe point and ends the session itself over the channel still open (core/Interrupt.h),
  // instead of losing the channel under a half-done access. (ssh runs with BatchMode: it never
  // reads the terminal.)
  ::setpgid(0, 0);
  bool ok = ::dup2(stdio_fd, STDIN_FILENO) >= 0 && ::dup2(stdio_fd, STDOUT_FILENO) >= 0 &&
            ::dup2(stderr_fd, STDERR_FILENO) >= 0;
  if (ok) {
    // Every other descriptor, the status pipe included, is closed by the exec: no lock file,
    // device or listening socket of ours leaks into ssh.
    if (status_fd <= STDERR_FILENO) ok = false;
    for (int fd = STDERR_FILENO + 1; ok && fd < status_fd; ++fd) ::close(fd);
    if (ok) ::syscall(SYS_close_range, static_cast<unsigned>(status_fd + 1), ~0U, 0U);
  }
  if (ok) ::execve(program, argv, environ);
  const int err = errno;
  (void)!::write(status_fd, &err, sizeof err);
  ::_exit(127);
}

}  // namespace

Result<std::unique_ptr<PeerProcess>> PeerProcess::spawn(const std::vector<std::string>& argv, int stdio_fd) {
  if (argv.empty()) return make_error(ErrorCode::InvalidArgument, "an empty command");
  const auto program = resolve_program(argv[0]);
  if (!program) return make_error(ErrorCode::NotFound, "cannot run '" + argv[0] + "': not found on PATH");
  std::vector<std::string> args = argv;
  std::vector<char*> arg_pointers;
  for (auto& a : args) arg_pointers.push_back(a.data());
  arg_pointers.push_back(nullptr);

  OF_ASSIGN(const auto err_pipe, cloexec_pipe());
  auto status_pipe = cloexec_pipe();
  if (!status_pipe) {
    ::close(err_pipe[0]);
    ::close(err_pipe[1]);
    return make_error(std::move(status_pipe).error());
  }
  const pid_t pid = ::fork();
  if (pid == 0) exec_child(program->c_str(), arg_pointers.data(), stdio_fd, err_pipe[1], (*status_pipe)[1]);
  const int fork_errno = errno;
  ::close(err_pipe[1]);
  ::close((*status_pipe)[1]);
  if (pid < 0) {
    ::close(err_pipe[0]);
    ::close((*status_pipe)[0]);
    return make_error(ErrorCode::Io, "cannot start '" + argv[0] + "': fork: " + errno_text(fork_errno));
  }
  // From here the process exists: the object owns (and reaps) it whatever happens next.
  std::unique_ptr<PeerProcess> process(new PeerProcess(pid, err_pipe[0], argv[0]));
  int exec_errno = 0;
  ssize_t n = 0;
  while ((n = ::read((*status_pipe)[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  ::close((*status_pipe)[0]);
  if (n > 0) return make_error(ErrorCode::Io, "cannot run '" + *program + "': " + errno_text(exec_errno));
  return process;
}

PeerProcess::PeerProcess(pid_t pid, int stderr_fd, std::string program)
    : pid_(pid), stderr_fd_(stderr_fd), program_(std::move(program)) {
  reader_ = std::thread([this] { read_stderr(); });
}

PeerProcess::~PeerProcess() {
  if (!wait_exit(kExitGrace)) {
    ::kill(pid_, SIGTERM);
    if (!wait_exit(kTermGrace)) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  {
    // A grandchild (a ProxyCommand, a ControlMaster) may hold the stderr pipe open: do not wait
    // for its EOF, stop reading.
    std::lock_guard lock(mutex_);
    stop_reading_ = true;
  }
  reader_.join();
  ::close(stderr_fd_);
}

std::optional<int> PeerProcess::wait_exit(std::chrono::milliseconds wait) {
  if (status_) return status_;
  const auto deadline = Clock::now() + wait;
  while (true) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || (r < 0 && errno == ECHILD)) {
      status_ = r == pid_ ? status : 0;
      return status_;
    }
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(kPollStep);
  }
}

void PeerProcess::read_stderr() {
  std::array<char, 1024> chunk{};
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (stop_reading_) break;
    }
    pollfd p{stderr_fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, kReaderPollMs);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    const ssize_t n = ::read(stderr_fd_, chunk.data(), chunk.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    std::lock_guard lock(mutex_);
    if (n <= 0) break;
    stderr_tail_.append(chunk.data(), static_cast<std::size_t>(n));
    if (stderr_tail_.size() > kStderrTail) stderr_tail_.erase(0, stderr_tail_.size() - kStderrTail);
  }
  std::lock_guard lock(mutex_);
  stderr_eof_ = true;
  stderr_closed_.notify_all();
}

std::string PeerProcess::last_stderr_line() {
  std::string text;
  {
    std::lock_guard lock(mutex_);
    text = stderr_tail_;
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  if (const std::size_t nl = text.find_last_of("\r\n"); nl != std::string::npos) text.erase(0, nl + 1);
  for (char& c : text)  // one printable line in our error message
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return text;
}

std::string PeerProcess::exit_report(std::chrono::milliseconds wait) {
  const auto deadline = Clock::now() + wait;
  const auto status = wait_exit(wait);
  if (status) {
    // It has exited: what it wrote is in the pipe; wait (bounded) until the reader has it all.
    std::unique_lock lock(mutex_);
    stderr_closed_.wait_until(lock, std::max(deadline, Clock::now() + kPollStep), [this] { return stderr_eof_; });
  }
  std::string report = program_;
  if (!status) {
    report += " is still running";
  } else if (WIFEXITED(*status)) {
    report += " exited with status " + std::to_string(WEXITSTATUS(*status));
  } else if (WIFSIGNALED(*status)) {
    report += " was killed by signal " + std::to_string(WTERMSIG(*status));
  }
  const std::string line = last_stderr_line();
  if (!line.empty()) report += ": " + line;
  return report;
}

}  // namespace openflint
