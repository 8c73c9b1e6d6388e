// Tracefs: the root chosen, the event found, its enable file read and written.
#include "fwops/trace/Tracefs.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>

namespace openflint {
namespace {

namespace fs = std::filesystem;

Result<void> write_tracefs_value(const fs::path& file, const char* value) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    return make_error(err == EACCES || err == EPERM ? ErrorCode::PermissionDenied : ErrorCode::Io,
                      "opening " + file.string() + " for writing: " + std::strerror(err));
  }
  const std::size_t n = std::strlen(value);
  const ssize_t written = ::write(fd, value, n);
  const int err = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(n)) return make_error(ErrorCode::Io, "writing " + file.string() + ": " + std::strerror(err));
  return {};
}

}  // namespace

fs::path tracefs_root() {
  const char* env = std::getenv("OPENFLINT_TRACEFS_ROOT");
  if (env != nullptr && *env != '\0') return fs::path(env);
  std::error_code ec;
  if (fs::exists("/sys/kernel/tracing/trace", ec)) return "/sys/kernel/tracing";
  return "/sys/kernel/debug/tracing";
}

std::optional<fs::path> find_driver_trace_event(const fs::path& root) {
  std::error_code ec;
  for (const char* name : {"mlx5_fw", "fw_tracer"}) {
    const fs::path dir = root / "events" / "mlx5" / name;
    if (fs::is_directory(dir, ec)) return dir;
  }
  return std::nullopt;
}

Result<bool> trace_event_enabled(const fs::path& event_dir) {
  std::ifstream in(event_dir / "enable");
  std::string value;
  if (!in || !std::getline(in, value))
    return make_error(ErrorCode::Io, "cannot read " + (event_dir / "enable").string());
  return !value.empty() && value[0] == '1';
}

Result<TraceEventEnabling> TraceEventEnabling::enable(const fs::path& event_dir) {
  OF_ASSIGN(const bool on, trace_event_enabled(event_dir));
  const fs::path file = event_dir / "enable";
  if (!on) OF_TRY(write_tracefs_value(file, "1"));
  return TraceEventEnabling(file, !on);
}

TraceEventEnabling::TraceEventEnabling(TraceEventEnabling&& other) noexcept
    : enable_file_(std::move(other.enable_file_)), restore_(std::exchange(other.restore_, false)) {}

TraceEventEnabling& TraceEventEnabling::operator=(TraceEventEnabling&& other) noexcept {
  if (this != &other) {
    if (restore_) (void)write_tracefs_value(enable_file_, "0");
    enable_file_ = std::move(other.enable_file_);
    restore_ = std::exchange(other.restore_, false);
  }
  return *this;
}

TraceEventEnabling::~TraceEventEnabling() {
  if (restore_) (void)write_tracefs_value(enable_file_, "0");
}

}  // namespace openflint
