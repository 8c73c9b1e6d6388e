// LibpciDevice: libpci's linux-sysfs method over a chosen root, its callbacks trapped.
#include "mtcr/pci/LibpciDevice.h"

#include <endian.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern "C" {
#include <pci/pci.h>
}

#include "core/HexString.h"
#include "mtcr/pci/LibpciTrap.h"

namespace openflint {
namespace {

Result<void> check_config_file(const std::filesystem::path& config, const std::string& name,
                               const std::filesystem::path& root) {
  const int fd = ::open(config.c_str(), O_RDWR | O_CLOEXEC);
  if (fd >= 0) {
    ::close(fd);
    return {};
  }
  const int err = errno;
  const std::string why = "PCI device " + name + " under " + root.string() + ": " + config.string() +
                          ": " + std::strerror(err);
  if (err == ENOENT || err == ENOTDIR) return make_error(ErrorCode::NotFound, why);
  if (err == EACCES || err == EPERM || err == EROFS) return make_error(ErrorCode::PermissionDenied, why);
  return make_error(ErrorCode::Io, why);
}

}  // namespace

struct LibpciDevice::Handles {
  std::string root;  // "sysfs.path" points into it
  pci_access* access = nullptr;
  pci_dev* dev = nullptr;

  ~Handles() {
    LibpciTrap trap;
    (void)trapped(trap, [this] {
      if (dev != nullptr) pci_free_dev(dev);
      if (access != nullptr) pci_cleanup(access);  // closes the config fd
    });
  }
};

LibpciDevice::LibpciDevice(std::unique_ptr<Handles> handles, std::string name)
    : handles_(std::move(handles)), name_(std::move(name)) {}
LibpciDevice::LibpciDevice(LibpciDevice&&) noexcept = default;
LibpciDevice& LibpciDevice::operator=(LibpciDevice&&) noexcept = default;
LibpciDevice::~LibpciDevice() = default;

Result<LibpciDevice> LibpciDevice::open(const PciAddress& address, const std::filesystem::path& sysfs_root) {
  const std::string name = address.to_string();
  OF_TRY(check_config_file(sysfs_root / "devices" / name / "config", name, sysfs_root));

  auto handles = std::make_unique<Handles>();
  handles->root = sysfs_root.string();
  LibpciTrap trap;
  const bool ok = trapped(trap, [&] {
    handles->access = pci_alloc();
    pci_access* a = handles->access;
    install_libpci_trap(a);
    a->method = PCI_ACCESS_SYS_BUS_PCI;
    a->writeable = 1;  // open config O_RDWR once, not again at the first write
    pci_set_param(a, const_cast<char*>("sysfs.path"), handles->root.data());
    pci_init(a);
    handles->dev = pci_get_dev(a, address.domain, address.bus, address.device, address.function);
  });
  if (!ok || handles->dev == nullptr) {
    return make_error(ErrorCode::Io, "opening PCI device " + name + " through libpci: " + trap.message);
  }
  return LibpciDevice(std::move(handles), name);
}

// One trapped libpci read: `read(dev, pos)` is pci_read_long or pci_read_byte.
template <typename T>
static Result<T> trapped_read(pci_dev* dev, std::uint32_t offset, T (*read)(pci_dev*, int),
                              const std::string& name) {
  LibpciTrap trap;
  T value = 0;
  if (!trapped(trap, [&] { value = read(dev, static_cast<int>(offset)); })) {
    return make_error(ErrorCode::Io, name + ": config read at " + hex_string(offset) + ": " + trap.message);
  }
  return value;
}

Result<std::uint32_t> LibpciDevice::read32(std::uint32_t offset) {
  ++reads_;
  return trapped_read<std::uint32_t>(handles_->dev, offset, pci_read_long, name_);
}

Result<std::uint8_t> LibpciDevice::read8(std::uint32_t offset) {
  ++reads_;
  return trapped_read<std::uint8_t>(handles_->dev, offset, pci_read_byte, name_);
}

Result<std::array<std::uint32_t, 2>> LibpciDevice::read64(std::uint32_t offset) {
  ++reads_;
  LibpciTrap trap;
  std::array<std::uint8_t, 8> bytes{};
  int ok = 0;
  pci_dev* dev = handles_->dev;
  if (!trapped(trap, [&] { ok = pci_read_block(dev, static_cast<int>(offset), bytes.data(), 8); }) || ok == 0) {
    return make_error(ErrorCode::Io, name_ + ": config read at " + hex_string(offset) + ": " +
                                         (trap.message[0] != '\0' ? trap.message : "short read"));
  }
  std::array<std::uint32_t, 2> out{};
  std::memcpy(out.data(), bytes.data(), bytes.size());  // little-endian bus, as pci_read_long on x86
  out[0] = le32toh(out[0]);
  out[1] = le32toh(out[1]);
  return out;
}

Result<void> LibpciDevice::write64(std::uint32_t offset, std::uint32_t low, std::uint32_t high) {
  ++writes_;
  LibpciTrap trap;
  std::array<std::uint32_t, 2> words{htole32(low), htole32(high)};
  std::array<std::uint8_t, 8> bytes{};
  std::memcpy(bytes.data(), words.data(), bytes.size());
  int written = 0;
  pci_dev* dev = handles_->dev;
  if (!trapped(trap, [&] { written = pci_write_block(dev, static_cast<int>(offset), bytes.data(), 8); }) ||
      written == 0) {
    return make_error(ErrorCode::Io, name_ + ": config write at " + hex_string(offset) + ": " +
                                         (trap.message[0] != '\0' ? trap.message : "short write"));
  }
  return {};
}

Result<void> LibpciDevice::write32(std::uint32_t offset, std::uint32_t value) {
  ++writes_;
  LibpciTrap trap;
  int written = 0;
  pci_dev* dev = handles_->dev;
  if (!trapped(trap, [&] { written = pci_write_long(dev, static_cast<int>(offset), value); }) || written == 0) {
    return make_error(ErrorCode::Io, name_ + ": config write at " + hex_string(offset) + ": " +
                                         (trap.message[0] != '\0' ? trap.message : "short write"));
  }
  return {};
}

}  // namespace openflint
