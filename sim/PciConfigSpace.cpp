// PciConfigSpace: header, capability list, BAR sizing and the two CR-space gateways.
#include "sim/PciConfigSpace.h"

#include <algorithm>
#include <string>

#include "core/HexString.h"
#include "sim/BoardVpd.h"
#include "sim/FirmwareCommands.h"
#include "sim/FirmwareRegisters.h"

namespace openflint::sim {
namespace {

constexpr std::uint16_t kMellanoxVendor = 0x15b3;
constexpr std::uint32_t kClassHca = 0x020000;     // network controller, Ethernet (mlx drivers)
constexpr std::uint32_t kClassSwitch = 0x028000;  // network controller, other
constexpr std::uint32_t kBar0Flags = 0xc;          // memory, 64-bit, prefetchable
constexpr std::uint32_t kVsecLength = 0x18;        // through DATA
constexpr std::uint32_t kAddrMask = 0x3fffffff;
constexpr std::uint32_t kSyndromeBit = 1u << 30;
constexpr std::uint32_t kAllOnes = 0xffffffff;
constexpr std::uint32_t kVpdCapabilityId = 0x03;

constexpr std::uint32_t dword(std::uint8_t b0, std::uint8_t b1, std::uint16_t hi) {
  return b0 | (std::uint32_t{b1} << 8) | (std::uint32_t{hi} << 16);
}

bool space_supported(std::uint16_t space) {
  return space == static_cast<std::uint16_t>(VsecSpace::CrSpace) ||
         space == static_cast<std::uint16_t>(VsecSpace::Icmd) ||
         space == static_cast<std::uint16_t>(VsecSpace::Semaphore);
}

Result<void> check_range(std::uint32_t offset, std::size_t size) {
  if (offset > PciConfigSpace::kSize || size > PciConfigSpace::kSize - offset) {
    return make_error(ErrorCode::InvalidArgument, "config space access at " + hex_string(offset) +
                                                      " of " + std::to_string(size) +
                                                      " bytes leaves the 4 KiB space");
  }
  return {};
}

}  // namespace

PciConfigSpace::PciConfigSpace(SimDevice& device, const PciConfigSpaceOptions& options)
    : device_(&device),
      options_(options),
      gateway_(device.info().pci_config_gateway),
      icmd_([&device](std::uint16_t opcode, std::span<std::uint8_t> mailbox) { return run_firmware_command(device, opcode, mailbox); }) {
  vpd_ = board_vpd(device);
  build_header();
}

void PciConfigSpace::build_header() {
  const DeviceInfo& info = device_->info();
  const std::uint32_t class_code = info.kind == DeviceKind::Hca ? kClassHca : kClassSwitch;
  const std::uint16_t subsystem =
      options_.subsystem_device != 0 ? options_.subsystem_device : info.pci_device_id;
  regs_[0x04 / 4] = dword(0x06, 0x00, 0x0010);  // memory + bus master; status: capability list
  regs_[0x08 / 4] = info.hw_revision.value_or(0) | (class_code << 8);
  regs_[0x2c / 4] = options_.subsystem_vendor | (std::uint32_t{subsystem} << 16);
  regs_[0x34 / 4] = kPmOffset;
  regs_[0x3c / 4] = dword(options_.interrupt_line, 0x01, 0);  // INTA#
  bar0_ = options_.bar0_base & ~(options_.bar0_size - 1);
  // Power management (id 0x01, version 3), then PCI Express (id 0x10, v2 endpoint, x16 8 GT/s).
  regs_[kPmOffset / 4] = dword(0x01, kPcieOffset, 0x0003);
  const bool vsec = gateway_ == PciConfigGateway::Vsec;
  const bool has_vpd = !vpd_.empty();
  const std::uint32_t after_pcie = vsec ? kVsecOffset : has_vpd ? kVpdOffset : 0;
  regs_[kPcieOffset / 4] = dword(0x10, static_cast<std::uint8_t>(after_pcie), 0x0002);
  regs_[(kPcieOffset + 0x0c) / 4] = 0x0103;        // link capabilities: x16, 8 GT/s
  regs_[(kPcieOffset + 0x10) / 4] = 0x0103u << 16;  // link status: the same
  if (vsec) {
    regs_[kVsecOffset / 4] =
        dword(kPciVendorCapabilityId, has_vpd ? kVpdOffset : 0, kVsecLength) | (std::uint32_t{kPciVsecTypeFunctional} << 24);
  }
}

std::uint64_t PciConfigSpace::gateway_transactions() const {
  std::lock_guard guard(mutex_);
  return transactions_;
}

std::uint64_t PciConfigSpace::icmd_commands() const {
  std::lock_guard guard(mutex_);
  return icmd_.commands();
}

bool PciConfigSpace::in_vsec(std::uint32_t offset) const {
  return gateway_ == PciConfigGateway::Vsec && offset >= kVsecOffset + kVsecCtrl &&
         offset <= kVsecOffset + kVsecData;
}

std::uint32_t PciConfigSpace::latched(std::uint32_t offset) const {
  if (offset == 0) return kMellanoxVendor | (std::uint32_t{device_->pci_device_id()} << 16);
  if (offset == 0x10) return static_cast<std::uint32_t>(bar0_) | kBar0Flags;
  if (offset == 0x14) return static_cast<std::uint32_t>(bar0_ >> 32);
  if (in_vsec(offset)) {
    switch (offset - kVsecOffset) {
      case kVsecCtrl:
        return vsec_.space | (vsec_.space_ok ? 1u << 29 : 0) | (vsec_.syndrome ? 1u << 24 : 0);
      case kVsecCounter: return vsec_.counter;
      case kVsecSemaphore: return vsec_.semaphore;
      case kVsecAddr: return vsec_.addr | (vsec_.syndrome ? kSyndromeBit : 0);
      case kVsecData: return vsec_.data;
    }
  }
  if (!vpd_.empty() && offset == kVpdOffset) return kVpdCapabilityId | vpd_addr_;
  if (!vpd_.empty() && offset == kVpdOffset + 4) return vpd_data_;
  if (gateway_ == PciConfigGateway::AddressWindow) {
    if (offset == kPciWindowAddrOffset) return window_addr_;
    if (offset == kPciWindowDataOffset) return 0;  // reading it is a CR-space access
  }
  return regs_[offset / 4];
}

std::uint32_t PciConfigSpace::read_dword(std::uint32_t offset) {
  if (in_vsec(offset) && offset - kVsecOffset == kVsecCounter) {
    if (++vsec_.counter == 0) ++vsec_.counter;  // 0 would read as "semaphore free"
    return vsec_.counter;
  }
  if (gateway_ == PciConfigGateway::AddressWindow && offset == kPciWindowDataOffset) {
    ++transactions_;
    auto value = device_->read32(window_addr_);
    return value ? *value : kAllOnes;
  }
  return latched(offset);
}

void PciConfigSpace::write_dword(std::uint32_t offset, std::uint32_t value) {
  if (in_vsec(offset)) return write_vsec(offset - kVsecOffset, value);
  if (gateway_ == PciConfigGateway::AddressWindow && offset == kPciWindowAddrOffset) {
    window_addr_ = value;
    return;
  }
  if (gateway_ == PciConfigGateway::AddressWindow && offset == kPciWindowDataOffset) {
    ++transactions_;
    (void)device_->write32(window_addr_, value);  // a failed write is lost, as on the bus
    return;
  }
  if (!vpd_.empty() && offset == kVpdOffset) return run_vpd_cycle(value);
  if (!vpd_.empty() && offset == kVpdOffset + 4) {
    vpd_data_ = value;
    return;
  }
  switch (offset) {
    case 0x04: regs_[1] = (regs_[1] & 0xffff0000) | (value & 0xffff); return;  // command
    case 0x10: case 0x14: return write_bar(offset, value);
    case 0x3c: regs_[0x3c / 4] = (regs_[0x3c / 4] & ~0xffu) | (value & 0xff); return;
    case kPmOffset + 4: regs_[(kPmOffset + 4) / 4] = value & 0xffff; return;  // PM control
    default: return;  // read-only
  }
}

void PciConfigSpace::run_vpd_cycle(std::uint32_t value) {
  const std::uint32_t address = value >> 16 & 0x7fff;
  const bool write = (value & 0x80000000u) != 0;
  if (!write) {  // a read: the data register takes the 4 bytes, the flag sets
    vpd_data_ = 0;
    for (std::uint32_t i = 0; i < 4; ++i)
      if (address + i < vpd_.size()) vpd_data_ |= std::uint32_t{vpd_[address + i]} << (8 * i);
  }
  vpd_addr_ = (address << 16) | (write ? 0 : 0x80000000u);  // a write completes: the flag clears
}

void PciConfigSpace::clear_host_settings() {
  std::lock_guard guard(mutex_);
  bar0_ = 0;
  regs_[1] &= 0xffff0000;                 // command
  regs_[0x3c / 4] &= ~0xffu;              // interrupt line
  regs_[(kPmOffset + 4) / 4] = 0;         // PM control
}

void PciConfigSpace::write_bar(std::uint32_t offset, std::uint32_t value) {
  if (offset == 0x10) {
    bar0_ = (bar0_ & ~std::uint64_t{0xffffffff}) | (value & ~0xfu);
  } else {
    bar0_ = (bar0_ & 0xffffffff) | (std::uint64_t{value} << 32);
  }
  bar0_ &= ~(options_.bar0_size - 1);  // the size's bits are hard-wired to zero (BAR sizing)
}

void PciConfigSpace::write_vsec(std::uint32_t reg, std::uint32_t value) {
  switch (reg) {
    case kVsecCtrl: {
      const auto space = static_cast<std::uint16_t>(value & 0xffff);
      if (!space_supported(space)) return;  // unsupported spaces do not echo
      vsec_.space = space;
      vsec_.space_ok = true;
      return;
    }
    case kVsecSemaphore:
      if (value == 0) {
        vsec_.semaphore = 0;
      } else if (vsec_.semaphore == 0) {
        vsec_.semaphore = value;
      }
      return;
    case kVsecAddr: return run_vsec_command(value);
    case kVsecData: vsec_.data = value; return;
    default: return;  // COUNTER is read-only
  }
}

void PciConfigSpace::run_vsec_command(std::uint32_t value) {
  ++transactions_;
  const std::uint32_t address = value & kAddrMask;
  const bool write = (value & kVsecFlagBit) != 0;
  bool ok = vsec_.space_ok;
  if (ok && vsec_.space == static_cast<std::uint16_t>(VsecSpace::Icmd)) {
    if (write) {
      icmd_.write32(address, vsec_.data);
    } else {
      vsec_.data = icmd_.read32(address);
    }
  } else if (ok && vsec_.space == static_cast<std::uint16_t>(VsecSpace::Semaphore)) {
    if (write) {
      // A semaphore: a ticket is taken only while it is free (0); writing 0 frees it.
      std::uint32_t& cell = vsec_.semaphore_space[address];
      if (vsec_.data == 0 || cell == 0) cell = vsec_.data;
    } else {
      auto it = vsec_.semaphore_space.find(address);
      vsec_.data = it == vsec_.semaphore_space.end() ? 0 : it->second;
    }
  } else if (ok && write) {
    ok = device_->write32(address, vsec_.data).has_value();
  } else if (ok) {
    auto read = device_->read32(address);
    ok = read.has_value();
    vsec_.data = ok ? *read : kAllOnes;
  }
  if (!ok && !write) vsec_.data = kAllOnes;
  vsec_.syndrome = !ok;
  vsec_.addr = address | (write ? 0 : kVsecFlagBit);  // write: flag clears; read: flag sets
}

Result<std::uint32_t> PciConfigSpace::read32(std::uint32_t offset) {
  OF_TRY(check_range(offset, 4));
  if (offset % 4 != 0) return make_error(ErrorCode::InvalidArgument, "unaligned config dword " + hex_string(offset));
  std::lock_guard guard(mutex_);
  return read_dword(offset);
}

Result<void> PciConfigSpace::write32(std::uint32_t offset, std::uint32_t value) {
  OF_TRY(check_range(offset, 4));
  if (offset % 4 != 0) return make_error(ErrorCode::InvalidArgument, "unaligned config dword " + hex_string(offset));
  std::lock_guard guard(mutex_);
  write_dword(offset, value);
  return {};
}

Result<void> PciConfigSpace::read(std::uint32_t offset, std::span<std::uint8_t> out) {
  OF_TRY(check_range(offset, out.size()));
  std::lock_guard guard(mutex_);
  const std::uint32_t end = offset + static_cast<std::uint32_t>(out.size());
  for (std::uint32_t d = offset & ~3u; d < end; d += 4) {
    const std::uint32_t value = read_dword(d);
    for (std::uint32_t b = std::max(d, offset); b < std::min(d + 4, end); ++b) {
      out[b - offset] = static_cast<std::uint8_t>(value >> (8 * (b - d)));
    }
  }
  return {};
}

Result<void> PciConfigSpace::write(std::uint32_t offset, std::span<const std::uint8_t> in) {
  OF_TRY(check_range(offset, in.size()));
  std::lock_guard guard(mutex_);
  const std::uint32_t end = offset + static_cast<std::uint32_t>(in.size());
  for (std::uint32_t d = offset & ~3u; d < end; d += 4) {
    std::uint32_t value = latched(d);  // a partial write keeps the other bytes
    for (std::uint32_t b = std::max(d, offset); b < std::min(d + 4, end); ++b) {
      const std::uint32_t shift = 8 * (b - d);
      value = (value & ~(0xffu << shift)) | (std::uint32_t{in[b - offset]} << shift);
    }
    write_dword(d, value);
  }
  return {};
}

}  // namespace openflint::sim
