// PciConfigFile: the sysfs config file read whole, written a dword at a time, and its capability list.
#include "mtcr/pci/PciConfigFile.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/HexString.h"

namespace openflint {
namespace {

Error file_error(int err, const std::string& what) {
  const ErrorCode code = err == ENOENT || err == ENODEV ? ErrorCode::NotFound
                         : err == EACCES || err == EPERM ? ErrorCode::PermissionDenied
                                                         : ErrorCode::Io;
  return Error(code, what + ": " + std::strerror(err));
}

// The CR-space window of the parts without a vendor-specific capability (ConnectX-3 and older,
// SwitchX, docs/pci.md): 0x58 latches a CR-space address, and a read of 0x5c is a CR-space read
// there, with its side effects.
constexpr std::uint32_t kWindowStart = 0x58;
constexpr std::uint32_t kWindowEnd = 0x60;
constexpr std::uint8_t kVendorCapabilityId = 0x09;

// Reads [from, to) of the open config file into bytes; the offset it reached (short at the end of
// what the kernel shows), or the read's error.
Result<std::size_t> read_span(int fd, std::vector<std::uint8_t>& bytes, std::size_t from, std::size_t to,
                              const std::filesystem::path& file) {
  std::size_t have = from;
  while (have < to) {
    const ssize_t n = ::pread(fd, bytes.data() + have, to - have, static_cast<off_t>(have));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(file_error(errno, "reading " + file.string()));
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
  }
  return have;
}

// Whether 0x58..0x5f of `config` (read without those bytes: they are 0 here, as is all past the
// end of the file) hold a capability rather than the CR-space window: a capability pointer lands
// there, or the function has the vendor-specific capability (the parts that have it have no window).
bool window_holds_capability(const std::vector<std::uint8_t>& config) {
  if (config.size() < 0x40 || (config[0x06] & 0x10) == 0) return false;
  std::uint32_t at = config[0x34] & 0xfc;
  for (int hops = 0; at >= 0x40 && at + 2 <= config.size() && hops < 48; ++hops) {  // 48: a loop guard
    if ((at >= kWindowStart && at < kWindowEnd) || config[at] == kVendorCapabilityId) return true;
    at = config[at + 1] & 0xfc;
  }
  return false;
}

}  // namespace

Result<std::vector<std::uint8_t>> read_pci_config(const std::filesystem::path& device_dir) {
  const std::filesystem::path file = device_dir / "config";
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error(file_error(errno, "opening " + file.string()));
  std::vector<std::uint8_t> bytes(4096, 0);
  // Everything but the window first; its 8 bytes only where they are a capability.
  auto read_all = [&]() -> Result<std::size_t> {
    OF_ASSIGN(const std::size_t low, read_span(fd, bytes, 0, kWindowStart, file));
    if (low < kWindowStart) return low;
    OF_ASSIGN(const std::size_t high, read_span(fd, bytes, kWindowEnd, bytes.size(), file));
    if (high == kWindowEnd) return kWindowStart;  // the file ends at the window
    if (window_holds_capability(bytes)) OF_TRY(read_span(fd, bytes, kWindowStart, kWindowEnd, file));
    return high;
  };
  auto have = read_all();
  ::close(fd);
  if (!have) return make_error(std::move(have).error());
  bytes.resize(*have);
  if (*have < 64) return make_error(ErrorCode::Io, file.string() + ": only " + std::to_string(*have) + " bytes of config space");
  return bytes;
}

Result<void> write_pci_config32(const std::filesystem::path& device_dir, std::uint32_t offset, std::uint32_t value) {
  if (offset % 4 != 0) return make_error(ErrorCode::InvalidArgument, "unaligned config dword " + hex_string(offset));
  const std::filesystem::path file = device_dir / "config";
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return make_error(file_error(errno, "opening " + file.string()));
  const std::uint8_t bytes[4] = {static_cast<std::uint8_t>(value), static_cast<std::uint8_t>(value >> 8),
                                 static_cast<std::uint8_t>(value >> 16), static_cast<std::uint8_t>(value >> 24)};
  const ssize_t n = ::pwrite(fd, bytes, sizeof bytes, static_cast<off_t>(offset));
  const int err = errno;
  ::close(fd);
  if (n != 4) return make_error(file_error(n < 0 ? err : EIO, "writing config " + hex_string(offset) + " of " + file.string()));
  return {};
}

Result<void> sync_pci_config(const std::filesystem::path& device_dir) {
  const std::filesystem::path file = device_dir / "config";
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  const int r = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (r != 0 && err != EINVAL && err != EROFS)  // EINVAL/EROFS: a file system without fsync
    return make_error(ErrorCode::Io, "saving the device's state (fsync of " + file.string() + "): " + std::strerror(err));
  return {};
}

std::uint32_t config_dword(const std::vector<std::uint8_t>& config, std::uint32_t offset) {
  if (offset + 4 > config.size()) return 0xffffffff;
  return std::uint32_t{config[offset]} | std::uint32_t{config[offset + 1]} << 8 | std::uint32_t{config[offset + 2]} << 16 |
         std::uint32_t{config[offset + 3]} << 24;
}

std::uint32_t find_pci_capability(const std::vector<std::uint8_t>& config, std::uint8_t id) {
  if (config.size() < 0x40 || (config[0x06] & 0x10) == 0) return 0;  // status: no capability list
  std::uint32_t at = config[0x34] & 0xfc;
  for (int hops = 0; at >= 0x40 && at + 2 <= config.size() && hops < 48; ++hops) {  // 48: a loop guard
    if (config[at] == id) return at;
    at = config[at + 1] & 0xfc;
  }
  return 0;
}

}  // namespace openflint
