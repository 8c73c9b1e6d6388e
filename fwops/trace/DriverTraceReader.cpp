// DriverTraceReader: trace-file lines filtered by marker and dbdf, parsed, kept by the timestamp rule.
#include "fwops/trace/DriverTraceReader.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <thread>

namespace openflint {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kDriverTraceMarkers[] = {"mlx5_fw: ", "fw_tracer: "};

// The text after the first marker on the line; empty when there is none.
std::string_view after_trace_marker(std::string_view line) {
  std::size_t best = std::string_view::npos;
  std::size_t marker_size = 0;
  for (std::string_view marker : kDriverTraceMarkers) {
    const std::size_t at = line.find(marker);
    if (at < best) {
      best = at;
      marker_size = marker.size();
    }
  }
  return best == std::string_view::npos ? std::string_view() : line.substr(best + marker_size);
}

}  // namespace

std::string pci_function_dbdf(const fs::path& pci_dir) {
  std::string name = pci_dir.filename().string();
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

std::optional<std::string> bound_pci_driver(const fs::path& pci_dir) {
  std::error_code ec;
  const fs::path target = fs::read_symlink(pci_dir / "driver", ec);
  if (ec || target.filename().empty()) return std::nullopt;
  return target.filename().string();
}

void DriverTraceReader::take_line(std::string_view line, std::vector<TraceRecord>& out) {
  ++stats_.lines;
  std::string_view text = after_trace_marker(line);
  if (text.size() <= dbdf_.size() || !text.starts_with(dbdf_) || text[dbdf_.size()] != ' ') return;
  while (!text.empty() && (text.back() == '\r' || text.back() == '\n')) text.remove_suffix(1);
  auto parsed = parse_tracepoint_text(text);
  if (!parsed || parsed->dbdf != dbdf_) {
    ++stats_.malformed;
    return;
  }
  if (last_timestamp_ && parsed->record.timestamp <= *last_timestamp_) {
    ++stats_.not_newer;
    return;
  }
  last_timestamp_ = parsed->record.timestamp;
  out.push_back(std::move(parsed->record));
}

Result<std::vector<TraceRecord>> DriverTraceReader::read_new() {
  struct stat st {};
  if (::stat(trace_file_.c_str(), &st) != 0) {
    const int err = errno;
    return make_error(err == ENOENT ? ErrorCode::NotFound : ErrorCode::Io,
                      "cannot read " + trace_file_.string() + ": " + std::strerror(err));
  }
  // A regular file that only grew is read on; tracefs (size 0), a shrunk or another file from the start.
  const auto size = static_cast<std::uint64_t>(st.st_size);
  const bool same_file = st.st_ino == inode_;
  std::uint64_t start = S_ISREG(st.st_mode) && size > 0 && same_file && size >= offset_ ? offset_ : 0;
  inode_ = st.st_ino;
  std::ifstream in(trace_file_, std::ios::binary);
  if (!in) return make_error(ErrorCode::Io, "cannot open " + trace_file_.string() + ": " + std::strerror(errno));
  if (start > 0) in.seekg(static_cast<std::streamoff>(start));
  std::vector<TraceRecord> out;
  std::string line;
  std::uint64_t position = start;
  while (std::getline(in, line)) {
    if (in.eof()) break;  // no newline yet: the writer is mid-line; read it whole next pass
    position += line.size() + 1;
    take_line(line, out);
  }
  if (in.bad()) return make_error(ErrorCode::Io, "reading " + trace_file_.string() + " failed");
  offset_ = position;
  return out;
}

Result<void> DriverTraceReader::follow(const std::function<void(const TraceRecord&)>& emit, std::stop_token stop,
                                       std::chrono::milliseconds interval) {
  constexpr auto kStopCheck = std::chrono::milliseconds(20);
  while (!stop.stop_requested()) {
    auto records = read_new();
    if (records) {
      for (const TraceRecord& r : *records) emit(r);
    } else if (records.error().code() != ErrorCode::NotFound) {
      return make_error(std::move(records).error());
    }
    for (auto waited = std::chrono::milliseconds(0); waited < interval && !stop.stop_requested(); waited += kStopCheck)
      std::this_thread::sleep_for(std::min(kStopCheck, interval - waited));
  }
  return {};
}

}  // namespace openflint
