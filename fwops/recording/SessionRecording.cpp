// SessionRecording: session files written through zlib's gzip streams, read back whole for a replay.
#include "fwops/recording/SessionRecording.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>

#include <zlib.h>

#include "fwops/recording/SessionRecords.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

// A session file larger than this is refused by a replay (a recording of a whole 32 MiB burn
// through a dword gateway is about 150 MiB of text; this bounds what a bad file makes us hold).
constexpr std::size_t kMaxSessionBytes = std::size_t{1} << 30;

std::string header() { return std::string(kSessionFormat) + " " + std::to_string(kSessionVersion); }

// The first line of a file this build replays: the format and a version it knows.
bool readable_header(std::string_view line) {
  for (int version = kOldestSessionVersion; version <= kSessionVersion; ++version)
    if (line == std::string(kSessionFormat) + " " + std::to_string(version)) return true;
  return false;
}

struct ProcessLog {
  std::mutex mutex;
  bool env_read = false;
  std::unique_ptr<SessionLog> log;
};

ProcessLog& process_log() {
  static ProcessLog instance;
  return instance;
}

}  // namespace

Result<std::unique_ptr<SessionLog>> SessionLog::create(const fs::path& file) {
  gzFile gz = gzopen(file.c_str(), "wb6");
  if (gz == nullptr)
    return make_error(ErrorCode::Io, "cannot create the session recording " + file.string() + ": " + std::strerror(errno));
  std::unique_ptr<SessionLog> log(new SessionLog(file, gz));
  log->append(header());
  OF_TRY(log->flush());
  return log;
}

SessionLog::~SessionLog() {
  if (gz_ != nullptr) (void)gzclose(static_cast<gzFile>(gz_));
}

void SessionLog::append(std::string_view record) {
  std::lock_guard lock(mutex_);
  if (failed_) return;
  auto* gz = static_cast<gzFile>(gz_);
  if (gzwrite(gz, record.data(), static_cast<unsigned>(record.size())) != static_cast<int>(record.size()) ||
      gzputc(gz, '\n') != '\n')
    failed_ = true;
}

Result<void> SessionLog::flush() {
  std::lock_guard lock(mutex_);
  if (!failed_ && gzflush(static_cast<gzFile>(gz_), Z_SYNC_FLUSH) != Z_OK) failed_ = true;
  if (failed_) return make_error(ErrorCode::Io, "writing the session recording " + file_.string() + " failed");
  return {};
}

Result<void> record_sessions_to(const fs::path& file) {
  ProcessLog& process = process_log();
  std::lock_guard lock(process.mutex);
  OF_ASSIGN(process.log, SessionLog::create(file));
  process.env_read = true;  // an explicit --record wins over OPENFLINT_RECORD
  return {};
}

Result<SessionLog*> active_session_log() {
  ProcessLog& process = process_log();
  std::lock_guard lock(process.mutex);
  if (!process.env_read) {
    process.env_read = true;
    const char* variable = std::getenv("OPENFLINT_RECORD");
    const std::string file = variable != nullptr ? variable : "";
    // Taken out of the environment: a child this tool starts would truncate the same file.
    ::unsetenv("OPENFLINT_RECORD");
    if (!file.empty()) {
      OF_ASSIGN_CTX(process.log, SessionLog::create(file), "OPENFLINT_RECORD");
    }
  }
  return process.log.get();
}

Result<std::shared_ptr<SessionPlayback>> SessionPlayback::of(const fs::path& file) {
  static std::map<fs::path, std::shared_ptr<SessionPlayback>> playbacks;
  if (auto found = playbacks.find(file); found != playbacks.end()) return found->second;

  gzFile gz = gzopen(file.c_str(), "rb");
  if (gz == nullptr)
    return make_error(ErrorCode::NotFound, "cannot open the session recording " + file.string() + ": " + std::strerror(errno));
  std::string text;
  char buffer[1 << 16];
  int got = 0;
  while ((got = gzread(gz, buffer, sizeof buffer)) > 0) {
    text.append(buffer, static_cast<std::size_t>(got));
    if (text.size() > kMaxSessionBytes) break;
  }
  const bool read_failed = got < 0;
  (void)gzclose(gz);
  if (read_failed) return make_error(ErrorCode::InvalidImage, file.string() + ": not a readable gzip stream");
  if (text.size() > kMaxSessionBytes)
    return make_error(ErrorCode::InvalidImage, file.string() + ": larger than " + std::to_string(kMaxSessionBytes >> 20) + " MiB");

  std::shared_ptr<SessionPlayback> playback(new SessionPlayback(file));
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    playback->records_.emplace_back(text, start, end - start);
    start = end + 1;
  }
  if (playback->records_.empty() || !readable_header(playback->records_.front()))
    return make_error(ErrorCode::InvalidImage, file.string() + ": not an openflint session recording (versions " +
                                                   std::to_string(kOldestSessionVersion) + " to " +
                                                   std::to_string(kSessionVersion) + ")");
  playback->next_ = 1;  // past the format line
  playbacks.emplace(file, playback);
  return playback;
}

Error SessionPlayback::diverged(std::string_view asked, std::string_view recorded) const {
  const auto shown = [](std::string_view text) {
    std::string s = session_records::escape(text.substr(0, 120));
    return text.size() > 120 ? s + "..." : s;
  };
  return Error(ErrorCode::Mismatch, "replay of " + file_.string() + " diverged at record " + std::to_string(next_ + 1) +
                                        ": the tool asked '" + shown(asked) + "', the recording has '" + shown(recorded) +
                                        "'");
}

Result<std::string_view> SessionPlayback::next() {
  if (divergence_) return make_error(*divergence_);
  if (next_ >= records_.size()) {
    divergence_ = diverged("another record", "its end");
    return make_error(*divergence_);
  }
  return std::string_view(records_[next_++]);
}

bool SessionPlayback::next_starts_with(std::string_view prefix) const {
  return !divergence_ && next_ < records_.size() && records_[next_].starts_with(prefix);
}

bool SessionPlayback::skip(std::string_view record) {
  if (divergence_ || next_ >= records_.size() || records_[next_] != record) return false;
  ++next_;
  return true;
}

Result<std::string_view> SessionPlayback::answer(std::string_view request) {
  if (divergence_) return make_error(*divergence_);
  const std::string_view recorded = next_ < records_.size() ? std::string_view(records_[next_]) : "its end";
  const bool same = recorded.starts_with(request) && recorded.size() > request.size() &&
                    (recorded.substr(request.size()).starts_with(" =") || recorded.substr(request.size()).starts_with(" !"));
  if (!same) {
    divergence_ = diverged(request, recorded);
    return make_error(*divergence_);
  }
  ++next_;
  return recorded.substr(request.size());
}

}  // namespace openflint
