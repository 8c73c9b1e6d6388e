// LibpciDevice: one PCI function's config space through libpci, with errors returned, never fatal.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "core/Result.h"
#include "mtcr/pci/PciAddress.h"

struct pci_access;
struct pci_dev;

namespace openflint {

// Owns a pci_access (method linux-sysfs, "sysfs.path" = the given root) and its pci_dev; the
// destructor frees both, closing libpci's config fd. libpci reports through callbacks that by
// default print and exit(1); here they record the message, and an error() (libpci's "fatal")
// unwinds back to the failing call with longjmp (only libpci's C frames are skipped).
// Not thread-safe: one user at a time (PciConfigAccess serializes).
class LibpciDevice {
 public:
  // Opens `<sysfs_root>/devices/<address>`: NotFound when the folder or its config file is
  // missing, PermissionDenied when config cannot be opened read-write.
  [[nodiscard]] static Result<LibpciDevice> open(const PciAddress& address,
                                                 const std::filesystem::path& sysfs_root);
  LibpciDevice(LibpciDevice&&) noexcept;
  LibpciDevice& operator=(LibpciDevice&&) noexcept;
  LibpciDevice(const LibpciDevice&) = delete;
  LibpciDevice& operator=(const LibpciDevice&) = delete;
  ~LibpciDevice();

  // Aligned config dwords (little-endian on the bus, host order here). Io on a failed access.
  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t offset);
  [[nodiscard]] Result<void> write32(std::uint32_t offset, std::uint32_t value);
  [[nodiscard]] Result<std::uint8_t> read8(std::uint32_t offset);
  // Two adjacent aligned dwords in one config access (one pread/pwrite of 8 bytes; the kernel
  // and the simulator move them in ascending order): a gateway's flag and data, or address and
  // data, in one round trip. Counted as one read/write.
  [[nodiscard]] Result<std::array<std::uint32_t, 2>> read64(std::uint32_t offset);
  [[nodiscard]] Result<void> write64(std::uint32_t offset, std::uint32_t low, std::uint32_t high);

  [[nodiscard]] const std::string& name() const { return name_; }  // "0000:03:00.0"
  [[nodiscard]] std::uint64_t config_reads() const { return reads_; }
  [[nodiscard]] std::uint64_t config_writes() const { return writes_; }

 private:
  struct Handles;
  LibpciDevice(std::unique_ptr<Handles> handles, std::string name);

  std::unique_ptr<Handles> handles_;
  std::string name_;
  std::uint64_t reads_ = 0;
  std::uint64_t writes_ = 0;
};

}  // namespace openflint
