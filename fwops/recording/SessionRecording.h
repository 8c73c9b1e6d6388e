// SessionRecording: the file a recorded device session is written to (OPENFLINT_RECORD, --record) and read from (replay:FILE).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"

namespace openflint {

// The format (docs/recording.md): gzip-compressed text, one record per line.
//   openflint-session 2                      the first line: format and version
//   open KEY=VALUE...                        a device opened (its name, catalog record, properties)
//   REQUEST = ANSWER | REQUEST ! CODE TEXT   one transport operation and what it answered
//   close                                    the device was released
// Every number is hexadecimal; texts are escaped (%25, %0A, %0D). A process may open several
// devices (and one device several times): each is one open..close section, in order.
inline constexpr std::string_view kSessionFormat = "openflint-session";
// Version 2 added the `fc` record (a command to the running firmware); a version 1 file has none,
// so it replays unchanged. Files are written in kSessionVersion and read from kOldestSessionVersion.
inline constexpr int kSessionVersion = 2;
inline constexpr int kOldestSessionVersion = 1;

// Appends sessions to one file. Thread-safe: a tool that works on several devices at once
// (ibfwmgr) writes whole records, never interleaved halves.
class SessionLog {
 public:
  // Creates (or truncates) `file` and writes the format line.
  [[nodiscard]] static Result<std::unique_ptr<SessionLog>> create(const std::filesystem::path& file);
  SessionLog(const SessionLog&) = delete;
  SessionLog& operator=(const SessionLog&) = delete;
  ~SessionLog();

  // One record (without its newline). A write error is kept and reported by flush().
  void append(std::string_view record);
  // Pushes what was appended to the file (a device's close, the process's end).
  [[nodiscard]] Result<void> flush();
  [[nodiscard]] const std::filesystem::path& file() const { return file_; }

 private:
  SessionLog(std::filesystem::path file, void* gz) : file_(std::move(file)), gz_(gz) {}
  std::mutex mutex_;
  std::filesystem::path file_;
  void* gz_;  // zlib's gzFile
  bool failed_ = false;
};

// From now on every device this process opens (open_device) is recorded into `file`. Tools call
// it for --record FILE (cli/ParseCommandLine.h); without a call, OPENFLINT_RECORD=FILE does the same.
[[nodiscard]] Result<void> record_sessions_to(const std::filesystem::path& file);
// The log devices are recorded into; nullptr when this process records nothing. The first call
// reads OPENFLINT_RECORD and removes it from the environment, so that a child process does not
// record into the same file (a file that cannot be created is an error the opener reports).
[[nodiscard]] Result<SessionLog*> active_session_log();

// The records of a recorded file, read whole, and where a replay of it stands. One per file and
// process: a tool that opens the device twice replays the file's sections in order. A replay
// follows one device at a time (not thread-safe).
class SessionPlayback {
 public:
  // The playback of `file` for this process (read on the first call); InvalidImage when it is not
  // a session file of a version this build reads.
  [[nodiscard]] static Result<std::shared_ptr<SessionPlayback>> of(const std::filesystem::path& file);

  // The next record, or InvalidImage/Mismatch naming the file and record number when the
  // recording has ended.
  [[nodiscard]] Result<std::string_view> next();
  // Takes the next record when it is exactly `request` and returns its answer ("= ..." or "! ...").
  // Otherwise Mismatch ("replay of FILE diverged at record N: the tool asked ..., the recording
  // has ..."); after a divergence every call fails the same way.
  [[nodiscard]] Result<std::string_view> answer(std::string_view request);
  // Whether the next record starts with `prefix` (nothing is taken).
  [[nodiscard]] bool next_starts_with(std::string_view prefix) const;
  // Takes the next record when it is exactly `record` (a bare record such as "close").
  bool skip(std::string_view record);
  [[nodiscard]] const std::filesystem::path& file() const { return file_; }
  // 1-based number of the record last taken (0 before the first).
  [[nodiscard]] std::size_t position() const { return next_; }

 private:
  explicit SessionPlayback(std::filesystem::path file) : file_(std::move(file)) {}
  [[nodiscard]] Error diverged(std::string_view asked, std::string_view recorded) const;

  std::filesystem::path file_;
  std::vector<std::string> records_;
  std::size_t next_ = 0;
  std::optional<Error> divergence_;
};

}  // namespace openflint
