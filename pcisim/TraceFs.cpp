// TraceFs: the served tracing directory and its appends.
#include "pcisim/TraceFs.h"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace openflint::pcisim {
namespace {

namespace fs = std::filesystem;

// The kernel's print format of mlx5:mlx5_fw (fw_tracer_tracepoint.h), shown as tracefs shows a format.
constexpr std::string_view kFormat =
    "name: mlx5_fw\n"
    "print fmt: \"%s [0x%llx] %d [0x%x] %s\", __get_str(dev_name), REC->trace_timestamp, REC->lost, "
    "REC->event_id, __get_str(msg)\n";

std::int64_t monotonic_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return std::int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

Result<void> write_file(const fs::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return make_error(ErrorCode::Io, path.string() + ": cannot write");
  return {};
}

}  // namespace

TraceFs::TraceFs(fs::path root) : root_(std::move(root)), start_ns_(monotonic_ns()) {}

Result<std::unique_ptr<TraceFs>> TraceFs::create(const fs::path& root) {
  std::error_code ec;
  const fs::path event = root / "events" / "mlx5" / "mlx5_fw";
  fs::create_directories(event, ec);
  if (ec) return make_error(ErrorCode::Io, event.string() + ": " + ec.message());
  OF_TRY(write_file(event / "enable", "1\n"));
  OF_TRY(write_file(event / "format", kFormat));
  OF_TRY(write_file(root / "events" / "mlx5" / "enable", "1\n"));
  OF_TRY(write_file(root / "trace", "# tracer: nop\n#\n#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
                                    "#              | |         |   |||||     |         |\n"));
  return std::unique_ptr<TraceFs>(new TraceFs(root));
}

bool TraceFs::enabled() const {
  std::ifstream in(root_ / "events" / "mlx5" / "mlx5_fw" / "enable");
  char c = '0';
  in >> c;
  return c == '1';
}

std::uint64_t TraceFs::lines_written() const {
  const std::lock_guard guard(mutex_);
  return lines_;
}

Result<bool> TraceFs::emit_mlx5_fw(std::string_view text) {
  if (!enabled()) return false;
  const std::int64_t ns = monotonic_ns() - start_ns_;
  char prefix[96];
  // The driver's tracer runs in a kernel worker; flags as a recent kernel prints them.
  std::snprintf(prefix, sizeof prefix, "     kworker/u8:1-%-6d [000] .....  %5lld.%06lld: ", static_cast<int>(getpid()),
                static_cast<long long>(ns / 1'000'000'000), static_cast<long long>(ns % 1'000'000'000 / 1000));
  const std::lock_guard guard(mutex_);
  std::ofstream out(root_ / "trace", std::ios::binary | std::ios::app);
  out << prefix << "mlx5_fw: " << text << '\n';
  out.close();
  if (!out) return make_error(ErrorCode::Io, (root_ / "trace").string() + ": cannot append");
  ++lines_;
  return true;
}

}  // namespace openflint::pcisim
