// PciConfigAccess: CR-space through PCI configuration space (the VSEC gateway or the 0x58 window).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>

#include "core/Result.h"
#include "devices/PciConfigGateway.h"
#include "mtcr/pci/LibpciDevice.h"
#include "mtcr/pci/PciAddress.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

struct PciConfigOptions {
  // VSEC semaphore: tries, `semaphore_interval` apart (mstflint: 2048 x 1 ms), then Busy.
  unsigned semaphore_attempts = 2048;
  std::chrono::microseconds semaphore_interval{1000};
  // Reads of ADDR waiting for the flag to turn (a config read is ~20 us over FUSE, more on
  // hardware); then Timeout.
  unsigned flag_polls = 1000;
  // Dwords moved under one semaphore hold by read_block/write_block.
  std::size_t max_block_dwords = 1024;
};

// What a transport did, for tests and benchmarks.
struct PciConfigCounters {
  std::uint64_t transactions = 0;     // CR-space dwords moved through the gateway
  std::uint64_t semaphore_holds = 0;  // VSEC semaphore acquisitions
  std::uint64_t config_reads = 0;     // config-space dword/byte reads issued
  std::uint64_t config_writes = 0;
};

// protocols.md "PCI configuration space". open() walks the capability list from 0x34 for the
// vendor-specific capability (0x09, vsec type 0); without one the device is a pre-VSEC part and
// the config 0x58/0x5c window is used. On the VSEC every read32/write32, and every
// read_block/write_block/write_sequence/write_then_read as a whole, runs under one semaphore hold (released on every path) with
// CR_SPACE selected and checked to echo. A gateway syndrome (ADDR bit 30) is an Io error.
// Calls are serialized by a mutex, so threads may share one object.
class PciConfigAccess final : public RegisterAccess {
 public:
  // `<sysfs_root>/devices/<address>/config`; sysfs_root is /sys/bus/pci on a real host.
  [[nodiscard]] static Result<std::unique_ptr<PciConfigAccess>> open(
      const PciAddress& address, const std::filesystem::path& sysfs_root = "/sys/bus/pci",
      const PciConfigOptions& options = {});

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override;
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override;
  [[nodiscard]] Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) override;
  [[nodiscard]] Result<void> write_block(std::uint32_t address, std::span<const std::uint32_t> values) override;
  // The writes in order under one semaphore hold (a flash gateway's ADDR, DATA, CMD).
  [[nodiscard]] Result<void> write_sequence(std::span<const RegisterWrite> writes) override;
  // The writes, then the reads, under one semaphore hold (a gateway command and its first poll).
  [[nodiscard]] Result<void> write_then_read(std::span<const RegisterWrite> writes, std::uint32_t address,
                                             std::span<std::uint32_t> out) override;
  // The window moves one dword per round trip and has no semaphore to share: blocks gain
  // nothing there, so it reports 1 (FlashDriver then polls CMD alone instead of reading
  // CMD..DATA, 8 dwords, per 16-byte flash transaction).
  [[nodiscard]] std::size_t max_block_dwords() const override {
    return gateway_ == PciConfigGateway::AddressWindow ? 1 : options_.max_block_dwords;
  }
  // Every CR-space dword is 2-11 config cycles: reads are costly (RegisterAccess::costly_access).
  [[nodiscard]] bool costly_access() const override { return true; }

  // Dwords of another VSEC address space (ICMD mailbox, semaphores, ...) under one semaphore
  // hold, CR_SPACE selected again for the next access. NotSupported on window devices and when
  // the device does not echo the space.
  [[nodiscard]] Result<void> read_space(VsecSpace space, std::uint32_t address, std::span<std::uint32_t> out);
  [[nodiscard]] Result<void> write_space(VsecSpace space, std::uint32_t address, std::span<const std::uint32_t> values);

  // The VSEC gateway semaphore (config vsec+0xc) as it reads, without taking it: 0 free, else
  // the holder's ticket. NotSupported on window devices (they have none).
  [[nodiscard]] Result<std::uint32_t> gateway_semaphore();
  // Frees the VSEC gateway semaphore whoever holds it (a tool that died holding it): writes 0
  // in config space, not through the gateway, so it works while the semaphore is held. Only
  // safe when no live agent is using the gateway. NotSupported on window devices.
  [[nodiscard]] Result<void> clear_gateway_semaphore();

  // The gateway found in the device's config space (Vsec or AddressWindow).
  [[nodiscard]] PciConfigGateway gateway() const { return gateway_; }
  // The VSEC's config offset; 0 on window devices.
  [[nodiscard]] std::uint32_t vsec_offset() const { return vsec_; }
  [[nodiscard]] PciConfigCounters counters() const;
  [[nodiscard]] const std::string& name() const { return config_.name(); }

 private:
  PciConfigAccess(LibpciDevice config, std::uint32_t vsec, const PciConfigOptions& options);
  [[nodiscard]] static Result<std::uint32_t> find_vsec(LibpciDevice& config);
  [[nodiscard]] Result<void> acquire_semaphore();
  void release_semaphore();
  [[nodiscard]] Result<void> select_space(VsecSpace space);
  // One dword through the gateway; the caller holds the semaphore (VSEC).
  [[nodiscard]] Result<std::uint32_t> gateway_read(std::uint32_t address);
  [[nodiscard]] Result<void> gateway_write(std::uint32_t address, std::uint32_t value);
  [[nodiscard]] Result<void> wait_flag(bool set, std::uint32_t address);
  // Runs `body` with the semaphore held and `space` selected (VSEC), or just runs it (window).
  template <typename Body>
  [[nodiscard]] auto with_gateway(Body&& body, VsecSpace space = VsecSpace::CrSpace) -> decltype(body());

  LibpciDevice config_;
  std::uint32_t vsec_;
  PciConfigGateway gateway_;
  PciConfigOptions options_;
  mutable std::mutex mutex_;
  std::uint64_t transactions_ = 0;
  std::uint64_t semaphore_holds_ = 0;
};

}  // namespace openflint
