// PciConfigSpace: the 4 KiB PCI configuration space of a SimDevice, with its CR-space gateway.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <vector>

#include "core/Result.h"
#include "devices/PciConfigGateway.h"
#include "sim/IcmdMailbox.h"
#include "sim/SimDevice.h"

namespace openflint::sim {

// What the host (BIOS, OS) assigned, plus board ids; not catalog facts.
struct PciConfigSpaceOptions {
  std::uint64_t bar0_base = 0xe0000000;  // aligned to bar0_size
  std::uint64_t bar0_size = 0x4000000;   // a power of two (mstflint maps 64 MiB)
  std::uint16_t subsystem_vendor = 0x15b3;
  std::uint16_t subsystem_device = 0;    // 0: the device's normal PCI id
  std::uint8_t interrupt_line = 0;
};

// The device side of protocols.md "PCI configuration space". A type-0 header (vendor 0x15b3,
// the device's current PCI id, so the recovery id in recovery mode; class 0x020000 for HCAs,
// 0x028000 "other network controller" for switches; a 64-bit prefetchable BAR0 that sizes like
// hardware), a capability list from 0x34: power management at 0x40, PCI Express at 0x60 and, on
// PciConfigGateway::Vsec devices, the vendor-specific gateway at kVsecOffset, then on adapters
// the VPD capability at kVpdOffset (sim/BoardVpd: a write of the address with flag 0 completes at
// once with the flag set and the 4 bytes in the data register; VPD writes are ignored and
// complete, the EEPROM being write-protected). AddressWindow
// devices instead decode config 0x58 (CR-space address) / 0x5c (data).
//
// Accesses split into aligned dwords; a partial write merges with the register's latched
// value and then has the whole dword's side effect. Writable: the command register, BAR0/1,
// the interrupt line, PM control and the gateway registers; other writes are ignored, as
// read-only registers ignore them. CR-space accesses go to SimDevice::read32/write32, so the
// flash gateway, boot ROM, faults and counters all apply.
// A failing CR-space access (a powered-off device) reads as 0xffffffff and sets the VSEC ADDR
// syndrome bit 30 (and CTRL syndrome [27:24] = 1) until the next gateway command; the flag
// still toggles, so a client sees a failure and not a hang. Window writes that fail are lost.
// One mutex guards the model (the FUSE loop calls handlers from several threads).
class PciConfigSpace {
 public:
  static constexpr std::uint32_t kSize = 4096;
  static constexpr std::uint32_t kPmOffset = 0x40;
  static constexpr std::uint32_t kPcieOffset = 0x60;
  static constexpr std::uint32_t kVsecOffset = 0xc0;
  static constexpr std::uint32_t kVpdOffset = 0xd8;  // adapters: the VPD capability (id 0x03)

  // `device` must outlive this object.
  explicit PciConfigSpace(SimDevice& device, const PciConfigSpaceOptions& options = {});
  PciConfigSpace(const PciConfigSpace&) = delete;
  PciConfigSpace& operator=(const PciConfigSpace&) = delete;

  // Bytes [offset, offset + size) of config space, little-endian as on the bus.
  // InvalidArgument when the range leaves the 4 KiB space.
  [[nodiscard]] Result<void> read(std::uint32_t offset, std::span<std::uint8_t> out);
  [[nodiscard]] Result<void> write(std::uint32_t offset, std::span<const std::uint8_t> in);
  // One aligned dword (offset % 4 == 0), with its side effects.
  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t offset);
  [[nodiscard]] Result<void> write32(std::uint32_t offset, std::uint32_t value);

  // What a conventional reset does to the host's settings when nobody saves and restores them
  // (a bus reset the kernel does not wrap): BAR0, the command register, the interrupt line and
  // PM control read as at power-on (zero).
  void clear_host_settings();

  [[nodiscard]] SimDevice& device() const { return *device_; }
  [[nodiscard]] PciConfigGateway gateway() const { return gateway_; }
  [[nodiscard]] const PciConfigSpaceOptions& options() const { return options_; }
  // The board's VPD bytes (what the VPD capability and the sysfs `vpd` file read); empty: none.
  [[nodiscard]] const std::vector<std::uint8_t>& vpd() const { return vpd_; }
  // CR-space transactions performed through the VSEC or the window (for tests).
  [[nodiscard]] std::uint64_t gateway_transactions() const;
  // ICMD commands the running firmware served (for tests).
  [[nodiscard]] std::uint64_t icmd_commands() const;

 private:
  struct Vsec {
    std::uint16_t space = 0;
    bool space_ok = false;     // CTRL status: the selected space is supported
    bool syndrome = false;     // the last gateway command failed
    std::uint32_t counter = 0;
    std::uint32_t semaphore = 0;
    std::uint32_t addr = 0;    // [29:0] address, bit 31 flag
    std::uint32_t data = 0;
    std::map<std::uint32_t, std::uint32_t> semaphore_space;  // VsecSpace::Semaphore storage
  };

  void build_header();
  [[nodiscard]] std::uint32_t read_dword(std::uint32_t offset);    // with side effects
  void write_dword(std::uint32_t offset, std::uint32_t value);     // with side effects
  [[nodiscard]] std::uint32_t latched(std::uint32_t offset) const; // without
  [[nodiscard]] bool in_vsec(std::uint32_t offset) const;
  [[nodiscard]] std::uint32_t read_vsec(std::uint32_t reg);
  void write_vsec(std::uint32_t reg, std::uint32_t value);
  void run_vsec_command(std::uint32_t value);
  void write_bar(std::uint32_t offset, std::uint32_t value);
  void run_vpd_cycle(std::uint32_t value);

  SimDevice* device_;
  PciConfigSpaceOptions options_;
  PciConfigGateway gateway_;
  mutable std::mutex mutex_;
  std::array<std::uint32_t, kSize / 4> regs_{};  // plain (side-effect free) registers
  std::uint64_t bar0_ = 0;                        // BAR0/BAR1 as written (sizing masks it)
  Vsec vsec_;
  IcmdMailbox icmd_;  // the VSEC's ICMD space (the running firmware's access registers)
  std::uint32_t window_addr_ = 0;
  std::vector<std::uint8_t> vpd_;   // the board's VPD (built at construction)
  std::uint32_t vpd_addr_ = 0;      // the capability's address register [30:16] and flag [31]
  std::uint32_t vpd_data_ = 0;
  std::uint64_t transactions_ = 0;
};

}  // namespace openflint::sim
