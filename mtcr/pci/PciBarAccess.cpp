// PciBarAccess: sizing BAR0 from sysfs `resource`, mapping `resource0`, checked big-endian accessors.
#include "mtcr/pci/PciBarAccess.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "core/HexString.h"
#include "devices/FlashGatewayInfo.h"

namespace openflint {
namespace {

// Values the hw id register shows instead of an id (protocols.md, "PCI memory").
constexpr std::uint32_t kBarUnusableAllOnes = 0xffffffff;
constexpr std::uint32_t kBarUnusable = 0xbadacce5;
constexpr std::uint32_t kHostRestricted = 0xbad0cafe;
// Linux IORESOURCE_IO: the BAR is an I/O-port window, which cannot be mapped.
constexpr std::uint64_t kIoResourceIo = 0x100;
constexpr std::uint64_t kIoResourceMem = 0x200;

std::uint32_t from_big_endian(std::uint32_t v) {
  if constexpr (std::endian::native == std::endian::little) return __builtin_bswap32(v);
  return v;
}

Unexpected errno_error(int err, const std::string& what) {
  ErrorCode code = ErrorCode::Io;
  if (err == ENOENT) code = ErrorCode::NotFound;
  if (err == EACCES || err == EPERM) code = ErrorCode::PermissionDenied;
  return make_error(code, what + ": " + std::strerror(err));
}

// BAR0's size from line 0 of `resource`: "0x<start> 0x<end> 0x<flags>".
Result<std::uint64_t> bar0_size(const std::filesystem::path& resource) {
  std::ifstream in(resource);
  if (!in) return make_error(ErrorCode::NotFound, "cannot read " + resource.string());
  std::string line;
  std::getline(in, line);
  std::istringstream fields(line);
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t flags = 0;
  if (!(fields >> std::hex >> start >> end >> flags)) {
    return make_error(ErrorCode::InvalidArgument,
                      resource.string() + ": line 0 is not \"start end flags\" in hex: '" + line + "'");
  }
  if (end == 0 || end < start) {
    return make_error(ErrorCode::NotFound, resource.string() + ": BAR0 is not assigned ('" + line + "')");
  }
  if ((flags & kIoResourceIo) != 0 && (flags & kIoResourceMem) == 0) {
    return make_error(ErrorCode::NotSupported, resource.string() + ": BAR0 is an I/O-port BAR, not memory");
  }
  const std::uint64_t size = end - start + 1;
  if (size % 4 != 0 || size > (std::uint64_t{1} << 32)) {
    return make_error(ErrorCode::InvalidArgument, resource.string() + ": BAR0 size " + hex_string(size) +
                                                      " is not a dword multiple up to 4 GiB");
  }
  return size;
}

}  // namespace

Result<PciBarAccess> PciBarAccess::open(const std::filesystem::path& device_dir) {
  const std::string where = "BAR0 of " + device_dir.string();
  OF_ASSIGN_CTX(const std::uint64_t size, bar0_size(device_dir / "resource"), where);
  const std::filesystem::path file = device_dir / "resource0";
  const int fd = ::open(file.c_str(), O_RDWR | O_SYNC | O_CLOEXEC);
  if (fd < 0) return make_error(errno_error(errno, "opening " + file.string()).error.with_context(where));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) < size) {
    const auto have = static_cast<std::uint64_t>(st.st_size);
    ::close(fd);
    return make_error(ErrorCode::Io, where + ": " + file.string() + " holds " + hex_string(have) +
                                         " bytes, less than the BAR size " + hex_string(size) +
                                         " in resource (an access past its end would raise SIGBUS)");
  }
  void* map = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    const int err = errno;
    ::close(fd);
    return make_error(errno_error(err, "mapping " + hex_string(size) + " bytes of " + file.string())
                          .error.with_context(where));
  }
  PciBarAccess bar(device_dir, fd, static_cast<volatile std::uint32_t*>(map), size);
  OF_TRY_CTX(bar.check_range(kHwIdAddr, 1), where + ": reading the hw id");
  bar.hw_id_word_ = bar.load(kHwIdAddr);
  if (bar.hw_id_word_ == kBarUnusableAllOnes || bar.hw_id_word_ == kBarUnusable) {
    return make_error(ErrorCode::NotSupported, where + ": BAR is unusable (hw id reads " +
                                                   hex_string(bar.hw_id_word_) + "): use config-space access");
  }
  if (bar.hw_id_word_ == kHostRestricted) {
    return make_error(ErrorCode::PermissionDenied,
                      where + ": host is restricted (secure mode; hw id reads " + hex_string(kHostRestricted) + ")");
  }
  return bar;
}

PciBarAccess::PciBarAccess(PciBarAccess&& other) noexcept
    : RegisterAccess(other),
      device_dir_(std::move(other.device_dir_)),
      fd_(std::exchange(other.fd_, -1)),
      base_(std::exchange(other.base_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      hw_id_word_(other.hw_id_word_) {}

PciBarAccess& PciBarAccess::operator=(PciBarAccess&& other) noexcept {
  if (this != &other) {
    reset();
    device_dir_ = std::move(other.device_dir_);
    fd_ = std::exchange(other.fd_, -1);
    base_ = std::exchange(other.base_, nullptr);
    size_ = std::exchange(other.size_, 0);
    hw_id_word_ = other.hw_id_word_;
  }
  return *this;
}

PciBarAccess::~PciBarAccess() { reset(); }

void PciBarAccess::reset() {
  if (base_ != nullptr) ::munmap(const_cast<std::uint32_t*>(base_), size_);
  if (fd_ >= 0) ::close(fd_);
  base_ = nullptr;
  fd_ = -1;
  size_ = 0;
}

Result<void> PciBarAccess::check_range(std::uint32_t address, std::size_t dwords) const {
  if (address % 4 != 0) {
    return make_error(ErrorCode::InvalidArgument, "BAR address " + hex_string(address) + " is not dword aligned");
  }
  if (std::uint64_t{address} + 4 * std::uint64_t{dwords} > size_) {
    return make_error(ErrorCode::InvalidArgument, "BAR access of " + std::to_string(dwords) + " dword(s) at " +
                                                      hex_string(address) + " is outside the " +
                                                      hex_string(size_) + "-byte BAR");
  }
  return {};
}

std::uint32_t PciBarAccess::load(std::uint32_t address) const {
  return from_big_endian(__atomic_load_n(base_ + address / 4, __ATOMIC_ACQUIRE));
}

void PciBarAccess::store(std::uint32_t address, std::uint32_t value) {
  __atomic_store_n(base_ + address / 4, from_big_endian(value), __ATOMIC_RELEASE);
}

Result<std::uint32_t> PciBarAccess::read32(std::uint32_t address) {
  OF_TRY(check_range(address, 1));
  return load(address);
}

Result<void> PciBarAccess::write32(std::uint32_t address, std::uint32_t value) {
  OF_TRY(check_range(address, 1));
  store(address, value);
  return {};
}

Result<void> PciBarAccess::read_block(std::uint32_t address, std::span<std::uint32_t> out) {
  OF_TRY(check_range(address, out.size()));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = load(address + static_cast<std::uint32_t>(4 * i));
  return {};
}

Result<void> PciBarAccess::write_block(std::uint32_t address, std::span<const std::uint32_t> values) {
  OF_TRY(check_range(address, values.size()));
  for (std::size_t i = 0; i < values.size(); ++i) store(address + static_cast<std::uint32_t>(4 * i), values[i]);
  return {};
}

}  // namespace openflint
