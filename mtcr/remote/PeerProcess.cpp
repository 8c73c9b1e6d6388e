// PeerProcess: a ChildProcess on the stdio socket, a stderr-tail reader thread, bounded stop and reap.
#include "mtcr/remote/PeerProcess.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <array>
#include <cerrno>

namespace openflint {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kPollStep = std::chrono::milliseconds(10);
constexpr int kReaderPollMs = 100;  // how soon the reader notices stop_reading_

}  // namespace

Result<std::unique_ptr<PeerProcess>> PeerProcess::spawn(const std::vector<std::string>& argv, int stdio_fd) {
  if (argv.empty()) return make_error(ErrorCode::InvalidArgument, "an empty command");
  std::array<int, 2> err_pipe{-1, -1};
  if (::pipe2(err_pipe.data(), O_CLOEXEC) != 0) return make_error(ErrorCode::Io, "pipe: " + errno_text(errno));
  SpawnSpec spec;
  spec.argv = argv;
  spec.stdin_fd = stdio_fd;
  spec.stdout_fd = stdio_fd;
  spec.stderr_fd = err_pipe[1];
  // mst server blocks SIGTERM in its threads; ssh runs with BatchMode and never reads the
  // terminal, so a Ctrl-C there goes to the tool alone, which ends the session itself over the
  // channel still open (core/Interrupt.h) instead of losing it under a half-done access.
  spec.isolate = true;
  auto child = ChildProcess::spawn(spec);
  ::close(err_pipe[1]);
  if (!child) {
    ::close(err_pipe[0]);
    return make_error(std::move(child).error());
  }
  // From here the process exists: the object owns (and reaps) it whatever happens next.
  return std::unique_ptr<PeerProcess>(new PeerProcess(std::move(*child), err_pipe[0], argv[0]));
}

PeerProcess::PeerProcess(ChildProcess child, int stderr_fd, std::string program)
    : child_(std::move(child)), pid_(child_.pid()), stderr_fd_(stderr_fd), program_(std::move(program)) {
  reader_ = std::thread([this] { read_stderr(); });
}

PeerProcess::~PeerProcess() {
  // It normally exits by itself once its stdin reaches EOF; else SIGTERM, then SIGKILL.
  if (!child_.wait_for(kExitGrace)) (void)child_.stop(static_cast<int>(kTermGrace.count()));
  {
    // A grandchild (a ProxyCommand, a ControlMaster) may hold the stderr pipe open: do not wait
    // for its EOF, stop reading.
    std::lock_guard lock(mutex_);
    stop_reading_ = true;
  }
  reader_.join();
  ::close(stderr_fd_);
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
  const auto status = child_.wait_for(wait);
  if (status) {
    // It has exited: what it wrote is in the pipe; wait (bounded) until the reader has it all.
    std::unique_lock lock(mutex_);
    stderr_closed_.wait_until(lock, std::max(deadline, Clock::now() + kPollStep), [this] { return stderr_eof_; });
  }
  std::string report = program_;
  if (!status) {
    report += " is still running";
  } else if (*status >= 0) {
    report += " exited with status " + std::to_string(*status);
  } else {
    report += " was killed by signal " + std::to_string(-*status);
  }
  const std::string line = last_stderr_line();
  if (!line.empty()) report += ": " + line;
  return report;
}

}  // namespace openflint
