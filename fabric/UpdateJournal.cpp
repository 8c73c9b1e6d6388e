// UpdateJournal: the append-only, fsync'ed record of an update's per-node steps, read back on resume.
#include "fabric/UpdateJournal.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <utility>
#include <vector>

#include "fabric/SystemNaming.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kJournalMagic = "openflint-ibfwmgr-journal 1";
constexpr std::size_t kJournalFields = 8;
constexpr std::size_t kJournalMaxBytes = 256u << 20;  // a journal this large is not ours

struct StateName {
  JournalState state;
  const char* name;
};
constexpr StateName kStateNames[] = {
    {JournalState::Planned, "planned"},     {JournalState::Started, "started"},
    {JournalState::Burned, "burned"},       {JournalState::Verified, "verified"},
    {JournalState::Activated, "activated"}, {JournalState::Failed, "failed"},
    {JournalState::UpToDate, "up-to-date"}, {JournalState::NotStarted, "not-started"},
};

std::string journal_field(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return out;
}

template <typename T>
bool parse_number(std::string_view text, T& out, int base = 10) {
  if (base == 16 && text.starts_with("0x")) text.remove_prefix(2);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return ec == std::errc() && end == text.data() + text.size();
}

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> out;
  while (true) {
    const auto tab = line.find('\t');
    out.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) return out;
    line.remove_prefix(tab + 1);
  }
}

std::optional<JournalEntry> parse_entry(std::string_view line) {
  const auto f = split_tabs(line);
  if (f.size() != kJournalFields) return std::nullopt;
  JournalEntry e;
  const auto state = journal_state_from(f[4]);
  if (!state || !parse_number(f[0], e.unix_time) || !parse_number(f[1], e.pid) || !parse_number(f[2], e.guid, 16) ||
      !parse_number(f[3], e.lid))
    return std::nullopt;
  e.state = *state;
  e.version = std::string(f[5]);
  e.image = std::string(f[6]);
  e.message = std::string(f[7]);
  return e;
}

Result<void> write_all(int fd, std::string_view text, const fs::path& path) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return make_error(ErrorCode::Io, "writing the journal " + path.string() + ": " + errno_text(errno));
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::fdatasync(fd) != 0)
    return make_error(ErrorCode::Io, "syncing the journal " + path.string() + ": " + errno_text(errno));
  return {};
}

}  // namespace

const char* to_string(JournalState s) {
  for (const auto& n : kStateNames)
    if (n.state == s) return n.name;
  return "failed";
}

std::optional<JournalState> journal_state_from(std::string_view text) {
  for (const auto& n : kStateNames)
    if (text == n.name) return n.state;
  return std::nullopt;
}

Result<UpdateJournal> UpdateJournal::open(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0)
    return make_error(errno == EACCES || errno == EPERM ? ErrorCode::PermissionDenied : ErrorCode::Io,
                      "cannot open the journal " + path.string() + ": " + errno_text(errno));
  UpdateJournal journal(fd, path);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0)
    return make_error(ErrorCode::Busy, "another ibfwmgr holds the journal " + path.string() +
                                           " (an update of this fabric is under way)");
  OF_TRY(journal.load());
  return journal;
}

UpdateJournal::UpdateJournal(UpdateJournal&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)), last_(std::move(other.last_)),
      counts_(std::move(other.counts_)) {}

UpdateJournal::~UpdateJournal() {
  if (fd_ >= 0) ::close(fd_);  // the flock goes with it
}

Result<void> UpdateJournal::load() {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) return make_error(ErrorCode::Io, "journal " + path_.string() + ": " + errno_text(errno));
  if (!S_ISREG(st.st_mode)) return make_error(ErrorCode::InvalidArgument, "journal " + path_.string() + " is not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) > kJournalMaxBytes)
    return make_error(ErrorCode::InvalidImage, "journal " + path_.string() + " is larger than 256 MiB: not a journal");
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t have = 0;
  while (have < text.size()) {
    const ssize_t n = ::pread(fd_, text.data() + have, text.size() - have, static_cast<off_t>(have));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    have += static_cast<std::size_t>(n);
  }
  text.resize(have);
  if (text.empty()) return write_all(fd_, std::string(kJournalMagic) + "\n", path_);
  std::string_view rest = text;
  const auto first = rest.find('\n');
  if (first == std::string_view::npos || rest.substr(0, first) != kJournalMagic)
    return make_error(ErrorCode::InvalidImage, path_.string() + " is not an ibfwmgr journal (first line '" +
                                                   std::string(kJournalMagic) + "' expected)");
  rest.remove_prefix(first + 1);
  while (true) {
    const auto nl = rest.find('\n');
    if (nl == std::string_view::npos) break;  // a torn last line: the run was killed while writing it
    if (auto e = parse_entry(rest.substr(0, nl))) last_[e->guid] = *e;
    rest.remove_prefix(nl + 1);
  }
  if (!rest.empty()) return write_all(fd_, "\n", path_);  // ends the torn line: the next record starts clean
  return {};
}

std::optional<JournalEntry> UpdateJournal::last(std::uint64_t guid, const std::string& version) const {
  std::lock_guard lock(mutex_);
  const auto it = last_.find(guid);
  if (it == last_.end() || it->second.version != version) return std::nullopt;
  return it->second;
}

Result<void> UpdateJournal::record(JournalEntry entry) {
  entry.unix_time = static_cast<std::int64_t>(std::time(nullptr));
  entry.pid = ::getpid();
  const std::string line = std::to_string(entry.unix_time) + "\t" + std::to_string(entry.pid) + "\t" +
                           guid_text(entry.guid) + "\t" + std::to_string(entry.lid) + "\t" + to_string(entry.state) +
                           "\t" + journal_field(entry.version) + "\t" + journal_field(entry.image) + "\t" +
                           journal_field(entry.message) + "\n";
  std::lock_guard lock(mutex_);
  OF_TRY(write_all(fd_, line, path_));
  ++counts_[entry.state];
  last_[entry.guid] = std::move(entry);
  return {};
}

std::map<JournalState, std::size_t> UpdateJournal::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

std::optional<fs::path> default_journal_path(const std::string& run_dir, std::uint64_t local_guid) {
  std::error_code ec;
  if (run_dir.empty() || !fs::is_directory(run_dir, ec)) return std::nullopt;
  const std::string name = local_guid == 0 ? "hosts" : guid_text(local_guid);
  return fs::path(run_dir) / ("ibfwmgr-" + name + ".journal");
}

}  // namespace openflint
