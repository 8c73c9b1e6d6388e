// UpdateJournal: ibfwmgr update's resumable record of every node's progress (docs/ibfwmgr.md, "Journal").
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

// A node's steps, in the order an update takes them. UpToDate (nothing to burn) and NotStarted
// (the failure budget was spent, or a stop signal came, before its turn) end a node as Failed does.
enum class JournalState { Planned, Started, Burned, Verified, Activated, Failed, UpToDate, NotStarted };
[[nodiscard]] const char* to_string(JournalState s);  // "planned", "started", ..., "up-to-date", "not-started"
[[nodiscard]] std::optional<JournalState> journal_state_from(std::string_view text);

// One line of the journal: what a run recorded last for a node (by node GUID).
struct JournalEntry {
  std::uint64_t guid = 0;
  std::uint16_t lid = 0;
  JournalState state = JournalState::Planned;
  std::string version;  // the image's FW version ("12.20.1000"): the entry speaks of that target
  std::string image;    // the image's label
  std::string message;
  std::int64_t unix_time = 0;
  std::int64_t pid = 0;  // the ibfwmgr that wrote it
};

// A text file, one record per line, appended and fdatasync()ed before the step it records is
// taken as done: a run killed at any point leaves every complete line, and a torn last line (no
// newline) is ignored on reading. Fields are tab-separated (tabs and newlines in values become
// spaces): "openflint-ibfwmgr-journal 1" on the first line, then
//   UNIX_TIME  PID  GUID(0x...)  LID  STATE  VERSION  IMAGE  MESSAGE
// The file is held by an exclusive flock while open, so two updates never write one journal;
// holding it also proves that no other ibfwmgr is at work on what it records (a node left
// "started" by a killed run may then have its stale flash lock freed: fabric/FabricUpdater).
class UpdateJournal {
 public:
  // Opens (creating) `path`, takes the lock (Busy "another ibfwmgr holds FILE" when taken) and
  // reads what earlier runs recorded. InvalidImage for a file that is not a journal.
  [[nodiscard]] static Result<UpdateJournal> open(const std::filesystem::path& path);

  UpdateJournal(UpdateJournal&& other) noexcept;
  UpdateJournal& operator=(UpdateJournal&&) = delete;
  UpdateJournal(const UpdateJournal&) = delete;
  UpdateJournal& operator=(const UpdateJournal&) = delete;
  ~UpdateJournal();

  // What an earlier run (or this one) recorded last for `guid` toward `version`; entries for
  // another target version are not returned (a new image starts a new story).
  [[nodiscard]] std::optional<JournalEntry> last(std::uint64_t guid, const std::string& version) const;
  // Appends one record and syncs it to disk; thread-safe. Io when it cannot be written.
  [[nodiscard]] Result<void> record(JournalEntry entry);
  // Records appended by this run, by state (the tests and the report count burns with it).
  [[nodiscard]] std::map<JournalState, std::size_t> counts() const;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  UpdateJournal(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
  [[nodiscard]] Result<void> load();
  int fd_ = -1;
  std::filesystem::path path_;
  mutable std::mutex mutex_;
  std::map<std::uint64_t, JournalEntry> last_;  // by GUID
  std::map<JournalState, std::size_t> counts_;
};

// The journal ibfwmgr keeps when --journal is not given: RUN_DIR/ibfwmgr-LOCALGUID.journal in
// the ibadm run dir (fabric/IbadmConfig.h; /run/openflint-ibadm by default) when that directory
// exists (ibadm start creates it), else none (nullopt). `local_guid` 0: "ibfwmgr-hosts.journal"
// (--no-fabric).
[[nodiscard]] std::optional<std::filesystem::path> default_journal_path(const std::string& run_dir,
                                                                        std::uint64_t local_guid);

}  // namespace openflint
