// MstLinks: making and removing our /dev/mst links, tracked in a record file so stop never
// touches an entry someone else (MFT's driver, an admin) made.
#include "fwops/access/MstLinks.h"

#include <cstdlib>
#include <map>
#include <sstream>
#include <system_error>

#include "core/InputFile.h"
#include "core/OutputFile.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRecord = ".openflint-links";
constexpr const char* kCreatedDirLine = "#created-dir";
constexpr std::uint64_t kMaxRecordBytes = 1 << 20;  // a line per link: a few KiB on any host

struct Record {
  bool created_dir = false;
  std::map<std::string, fs::path> links;  // name -> target
};

// The record lists names we made in `dir` ("mt4115_pciconf0"): a line naming anything else (a
// path) is not ours and is skipped. A record that is not a regular file (a link planted in the
// directory) is refused rather than read.
Result<Record> read_record(const fs::path& dir) {
  Record r;
  const fs::path path = dir / kRecord;
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  if (!fs::exists(st)) return r;
  if (!fs::is_regular_file(st))
    return make_error(ErrorCode::Io, "link record " + path.string() + " is not a regular file (" +
                                         (fs::is_symlink(st) ? "a symbolic link" : "a special file") + "): not using it");
  OF_ASSIGN(const auto bytes, read_input_file(path.string(), kMaxRecordBytes, "link record"));
  std::istringstream in(std::string(bytes.begin(), bytes.end()));
  std::string line;
  while (std::getline(in, line)) {
    if (line == kCreatedDirLine) {
      r.created_dir = true;
      continue;
    }
    const auto tab = line.find('\t');
    if (tab == std::string::npos || tab == 0) continue;
    const std::string name = line.substr(0, tab);
    if (name.find('/') != std::string::npos || name == "." || name == "..") continue;
    r.links[name] = line.substr(tab + 1);
  }
  return r;
}

// Replaced as a whole (a new temp file renamed over it), never written through a link.
Result<void> write_record(const fs::path& dir, const Record& r) {
  std::string text;
  if (r.created_dir) text += std::string(kCreatedDirLine) + '\n';
  for (const auto& [name, target] : r.links) text += name + '\t' + target.string() + '\n';
  OF_ASSIGN(OutputFile file, OutputFile::create((dir / kRecord).string(), "link record", OutputFile::Role::State));
  OF_TRY(file.write(Bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size())));
  return file.commit();
}

ErrorCode code_of(const std::error_code& ec) {
  return ec == std::errc::permission_denied || ec == std::errc::operation_not_permitted || ec == std::errc::read_only_file_system
             ? ErrorCode::PermissionDenied
             : ErrorCode::Io;
}

// A symbolic link at `path` pointing at `target`.
bool is_link_to(const fs::path& path, const fs::path& target) {
  std::error_code ec;
  return fs::is_symlink(fs::symlink_status(path, ec)) && fs::read_symlink(path, ec) == target && !ec;
}

}  // namespace

fs::path default_mst_dir() {
  const char* env = std::getenv("OPENFLINT_MST_DIR");
  return env != nullptr && *env != '\0' ? fs::path(env) : fs::path("/dev/mst");
}

const char* to_string(MstLink::State s) {
  switch (s) {
    case MstLink::State::Created: return "created";
    case MstLink::State::Kept: return "kept";
    case MstLink::State::Conflict: return "conflict";
    case MstLink::State::Removed: return "removed";
    case MstLink::State::Gone: return "gone";
  }
  return "?";
}

Result<std::vector<MstLink>> create_mst_links(const fs::path& dir, const fs::path& sysfs_root,
                                              const std::vector<PciDeviceStatus>& devices) {
  std::error_code ec;
  OF_ASSIGN(Record record, read_record(dir));
  if (!fs::is_directory(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec) return make_error(code_of(ec), "cannot create " + dir.string() + ": " + ec.message());
    record.created_dir = true;
  }
  const fs::path root = fs::absolute(sysfs_root, ec).lexically_normal();
  std::vector<MstLink> out;
  for (const PciDeviceStatus& d : devices) {
    if (d.info == nullptr) continue;  // not a catalog function: every tool refuses it, so no name for it
    const fs::path target = root / "devices" / d.function.address.to_string();
    std::vector<std::string> names{d.function.mst_name(PciMethod::Config)};
    if (d.bar.works) names.push_back(d.function.mst_name(PciMethod::Bar));
    for (const std::string& name : names) {
      MstLink link{name, target, MstLink::State::Created};
      const fs::path path = dir / name;
      const bool ours = record.links.count(name) != 0;
      if (fs::exists(fs::symlink_status(path, ec))) {
        if (ours && is_link_to(path, target)) {
          link.state = MstLink::State::Kept;
        } else if (ours && fs::is_symlink(fs::symlink_status(path, ec)) && fs::remove(path, ec)) {
          // ours, but the function moved (another BDF order): re-point it below
        } else {
          link.state = MstLink::State::Conflict;
        }
      }
      if (link.state == MstLink::State::Created) {
        fs::create_symlink(target, path, ec);
        if (ec) {
          (void)write_record(dir, record);  // what was made so far stays removable
          return make_error(code_of(ec), "cannot create " + path.string() + ": " + ec.message());
        }
        record.links[name] = target;
      }
      out.push_back(std::move(link));
    }
  }
  OF_TRY(write_record(dir, record));
  return out;
}

Result<std::vector<MstLink>> remove_mst_links(const fs::path& dir) {
  std::error_code ec;
  std::vector<MstLink> out;
  if (!fs::exists(fs::symlink_status(dir / kRecord, ec))) return out;
  OF_ASSIGN(const Record record, read_record(dir));
  for (const auto& [name, target] : record.links) {
    MstLink link{name, target, MstLink::State::Gone};
    const fs::path path = dir / name;
    if (is_link_to(path, target)) {
      if (!fs::remove(path, ec))
        return make_error(code_of(ec), "cannot remove " + path.string() + ": " + ec.message());
      link.state = MstLink::State::Removed;
    }
    out.push_back(std::move(link));
  }
  if (!fs::remove(dir / kRecord, ec) && ec)
    return make_error(code_of(ec), "cannot remove " + (dir / kRecord).string() + ": " + ec.message());
  if (record.created_dir && fs::is_empty(dir, ec)) fs::remove(dir, ec);
  return out;
}

}  // namespace openflint
