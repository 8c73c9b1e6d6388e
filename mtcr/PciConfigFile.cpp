// PciConfigFile: the sysfs config file read whole, written a dword at a time, and its capability list.
#include "mtcr/PciConfigFile.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "core/HexString.h"
#include "devices/PciConfigGateway.h"

namespace openflint {
namespace {

Error file_error(int err, const std::string& what) {
  const ErrorCode code = err == ENOENT || err == ENODEV ? ErrorCode::NotFound
                         : err == EACCES || err == EPERM ? ErrorCode::PermissionDenied
                                                         : ErrorCode::Io;
  return Error(code, what + ": " + std::strerror(err));
}

// The pre-VSEC CR-space window (config 0x58 address, 0x5c data): reading 0x5c is a CR-space read
// at the address 0x58 holds, and some CR-space reads take a semaphore (ConnectX-3's tools HCR
// 0xf03bc, the flash's 0xf03fc). mstflint's config save (mlxpci_lib) skips these bytes too.
constexpr std::size_t kWindowBytes = kPciWindowDataOffset + 4 - kPciWindowAddrOffset;

}  // namespace

Result<std::vector<std::uint8_t>> read_pci_config(const std::filesystem::path& device_dir) {
  const std::filesystem::path file = device_dir / "config";
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error(file_error(errno, "opening " + file.string()));
  std::vector<std::uint8_t> bytes(4096);
  std::size_t have = 0;
  while (have < bytes.size()) {
    if (have == kPciWindowAddrOffset) {  // the window is never read: 0xff
      std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(have), kWindowBytes, std::uint8_t{0xff});
      have += kWindowBytes;
      continue;
    }
    const std::size_t want = (have < kPciWindowAddrOffset ? kPciWindowAddrOffset : bytes.size()) - have;
    const ssize_t n = ::pread(fd, bytes.data() + have, want, static_cast<off_t>(have));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return make_error(file_error(err, "reading " + file.string()));
    }
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
  }
  ::close(fd);
  bytes.resize(have);
  if (have < 64) return make_error(ErrorCode::Io, file.string() + ": only " + std::to_string(have) + " bytes of config space");
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
