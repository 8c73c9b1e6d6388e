// MstLinks: making and removing our /dev/mst links, tracked in a record file so stop never
// touches an entry someone else (MFT's driver, an admin) made.
#include "fwops/MstLinks.h"


#include <cstdlib>
#include <fstream>
#include <map>
#include <system_error>

namespace openflint {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRecord = ".openflint-links";
constexpr const char* kCreatedDirLine = "#created-dir";

struct Record {
  bool created_dir = false;
  std::map<std::string, fs::path> links;  // name -> target
};

Record read_record(const fs::path& dir) {
  Record r;
  std::ifstream in(dir / kRecord);
  std::string line;
  while (std::getline(in, line)) {
    if (line == kCreatedDirLine) {
      r.created_dir = true;
      continue;
    }
    const auto tab = line.find('\t');
    if (tab != std::string::npos && tab > 0) r.links[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return r;
}

Result<void> write_record(const fs::path& dir, const Record& r) {
  const fs::path tmp = dir / (std::string(kRecord) + ".tmp");
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (r.created_dir) out << kCreatedDirLine << '\n';
    for (const auto& [name, target] : r.links) out << name << '\t' << target.string() << '\n';
    if (!out.flush()) return make_error(ErrorCode::Io, "cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, dir / kRecord, ec);
  if (ec) return make_error(ErrorCode::Io, "cannot rename " + tmp.string() + ": " + ec.message());
  return {};
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
  Record record = read_record(dir);
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
  if (!fs::exists(dir / kRecord, ec)) return out;
  const Record record = read_record(dir);
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
