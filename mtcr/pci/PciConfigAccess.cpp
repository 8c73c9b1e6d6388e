// PciConfigAccess: the VSEC semaphore/space/flag handshake and the pre-VSEC window over libpci.
#include "mtcr/pci/PciConfigAccess.h"

#include <chrono>
#include <string>
#include <thread>

#include "core/DurationText.h"
#include "core/HexString.h"

namespace openflint {
namespace {

constexpr std::uint32_t kCapabilityPointer = 0x34;
constexpr std::uint32_t kSyndromeBit = 1u << 30;
constexpr std::uint32_t kMaxAddress = 0x3fffffff;  // ADDR [29:0]
constexpr unsigned kMaxCapabilities = 48;          // (256 - 64) / 4: a looping list ends here

}  // namespace

PciConfigAccess::PciConfigAccess(LibpciDevice config, std::uint32_t vsec, const PciConfigOptions& options)
    : config_(std::move(config)),
      vsec_(vsec),
      gateway_(vsec != 0 ? PciConfigGateway::Vsec : PciConfigGateway::AddressWindow),
      options_(options) {
  if (options_.max_block_dwords == 0) options_.max_block_dwords = 1;
}

Result<std::unique_ptr<PciConfigAccess>> PciConfigAccess::open(const PciAddress& address,
                                                               const std::filesystem::path& sysfs_root,
                                                               const PciConfigOptions& options) {
  OF_ASSIGN(LibpciDevice config, LibpciDevice::open(address, sysfs_root));
  OF_ASSIGN(const std::uint32_t vsec, find_vsec(config));
  return std::unique_ptr<PciConfigAccess>(new PciConfigAccess(std::move(config), vsec, options));
}

Result<std::uint32_t> PciConfigAccess::find_vsec(LibpciDevice& config) {
  OF_ASSIGN(const std::uint32_t id, config.read32(0));
  if ((id & 0xffff) == 0xffff) {
    return make_error(ErrorCode::Io, "PCI device " + config.name() + " does not respond (vendor id 0xffff)");
  }
  OF_ASSIGN(std::uint8_t ptr, config.read8(kCapabilityPointer));
  for (unsigned hops = 0; ptr >= 0x40 && hops < kMaxCapabilities; ++hops) {
    const std::uint32_t at = ptr & 0xfcu;
    OF_ASSIGN(const std::uint32_t head, config.read32(at));
    if ((head & 0xff) == kPciVendorCapabilityId && (head >> 24) == kPciVsecTypeFunctional) return at;
    ptr = static_cast<std::uint8_t>(head >> 8);
  }
  return 0u;  // no gateway capability: a pre-VSEC part, reached through config 0x58/0x5c
}

PciConfigCounters PciConfigAccess::counters() const {
  std::lock_guard guard(mutex_);
  return {transactions_, semaphore_holds_, config_.config_reads(), config_.config_writes()};
}

Result<void> PciConfigAccess::acquire_semaphore() {
  const std::uint32_t sem = vsec_ + kVsecSemaphore;
  std::uint32_t holder = 0;
  const auto start = std::chrono::steady_clock::now();
  for (unsigned attempt = 0; attempt < options_.semaphore_attempts; ++attempt) {
    if (attempt != 0) std::this_thread::sleep_for(options_.semaphore_interval);
    OF_ASSIGN(holder, config_.read32(sem));
    if (holder != 0) continue;
    OF_ASSIGN(const std::uint32_t ticket, config_.read32(vsec_ + kVsecCounter));
    OF_TRY(config_.write32(sem, ticket));
    OF_ASSIGN(holder, config_.read32(sem));
    if (holder == ticket) {
      ++semaphore_holds_;
      return {};
    }
  }
  return make_error(ErrorCode::Busy, "PCI device " + name() + ": the VSEC gateway semaphore (config " +
                                         hex_string(sem) + ") is held by another agent: still held after " +
                                         seconds_text(std::chrono::steady_clock::now() - start) + " (ticket " +
                                         hex_string(holder) + ", " + std::to_string(options_.semaphore_attempts) +
                                         " tries)");
}

Result<std::uint32_t> PciConfigAccess::gateway_semaphore() {
  if (gateway_ != PciConfigGateway::Vsec)
    return make_error(ErrorCode::NotSupported, "PCI device " + name() + " has no VSEC gateway semaphore");
  std::lock_guard guard(mutex_);
  return config_.read32(vsec_ + kVsecSemaphore);  // SEMAPHORE reads have no side effect (COUNTER's do)
}

Result<void> PciConfigAccess::clear_gateway_semaphore() {
  if (gateway_ != PciConfigGateway::Vsec)
    return make_error(ErrorCode::NotSupported, "PCI device " + name() + " has no VSEC gateway semaphore");
  std::lock_guard guard(mutex_);
  return config_.write32(vsec_ + kVsecSemaphore, 0);
}

void PciConfigAccess::release_semaphore() {
  (void)config_.write32(vsec_ + kVsecSemaphore, 0);  // nothing to do if it fails: the device is gone
}

Result<void> PciConfigAccess::select_space(VsecSpace space) {
  const auto want = static_cast<std::uint32_t>(space);
  OF_ASSIGN(const std::uint32_t ctrl, config_.read32(vsec_ + kVsecCtrl));
  // Already selected and reported supported (read under this hold): nothing to write. Every
  // CR-space access takes a hold, so this saves two of its ~8 config cycles.
  if ((ctrl & 0xffff) == want && (ctrl >> 29) != 0) return {};
  OF_TRY(config_.write32(vsec_ + kVsecCtrl, (ctrl & ~0xffffu) | want));
  OF_ASSIGN(const std::uint32_t back, config_.read32(vsec_ + kVsecCtrl));
  if ((back & 0xffff) != want || (back >> 29) == 0) {
    return make_error(ErrorCode::NotSupported, "PCI device " + name() + ": address space " +
                                                   hex_string(want) + " not supported (CTRL reads " +
                                                   hex_string(back) + ")");
  }
  return {};
}

template <typename Body>
auto PciConfigAccess::with_gateway(Body&& body, VsecSpace space) -> decltype(body()) {
  if (gateway_ == PciConfigGateway::AddressWindow) return body();
  OF_TRY(acquire_semaphore());
  struct Release {
    PciConfigAccess* self;
    ~Release() { self->release_semaphore(); }
  } release{this};
  OF_TRY(select_space(space));
  return body();
}

Result<void> PciConfigAccess::wait_flag(bool set, std::uint32_t address) {
  for (unsigned poll = 0; poll < options_.flag_polls; ++poll) {
    OF_ASSIGN(const std::uint32_t addr, config_.read32(vsec_ + kVsecAddr));
    if (((addr & kVsecFlagBit) != 0) != set) continue;
    if ((addr & kSyndromeBit) != 0) {
      return make_error(ErrorCode::Io, "PCI device " + name() + ": the gateway failed the access to " +
                                           hex_string(address) + " (syndrome)");
    }
    return {};
  }
  return make_error(ErrorCode::Timeout, "PCI device " + name() + ": the gateway did not finish the access to " +
                                            hex_string(address) + " in " + std::to_string(options_.flag_polls) +
                                            " polls");
}

Result<std::uint32_t> PciConfigAccess::gateway_read(std::uint32_t address) {
  if (address % 4 != 0 || address > kMaxAddress) {
    return make_error(ErrorCode::InvalidArgument, "CR-space address " + hex_string(address) + " out of range");
  }
  ++transactions_;
  if (gateway_ == PciConfigGateway::AddressWindow) {
    OF_TRY(config_.write32(kPciWindowAddrOffset, address));
    return config_.read32(kPciWindowDataOffset);
  }
  OF_TRY(config_.write32(vsec_ + kVsecAddr, address));  // flag 0: read
  // ADDR and DATA are adjacent: each poll reads both in one access, ADDR first, so DATA is the
  // answer once the flag is seen set (one round trip less per dword than poll, then DATA).
  static_assert(kVsecData == kVsecAddr + 4);
  for (unsigned poll = 0; poll < options_.flag_polls; ++poll) {
    OF_ASSIGN(const auto pair, config_.read64(vsec_ + kVsecAddr));
    if ((pair[0] & kVsecFlagBit) == 0) continue;
    if ((pair[0] & kSyndromeBit) != 0) {
      return make_error(ErrorCode::Io, "PCI device " + name() + ": the gateway failed the access to " +
                                           hex_string(address) + " (syndrome)");
    }
    return pair[1];
  }
  return make_error(ErrorCode::Timeout, "PCI device " + name() + ": the gateway did not finish the access to " +
                                            hex_string(address) + " in " + std::to_string(options_.flag_polls) +
                                            " polls");
}

Result<void> PciConfigAccess::gateway_write(std::uint32_t address, std::uint32_t value) {
  if (address % 4 != 0 || address > kMaxAddress) {
    return make_error(ErrorCode::InvalidArgument, "CR-space address " + hex_string(address) + " out of range");
  }
  ++transactions_;
  if (gateway_ == PciConfigGateway::AddressWindow) {
    static_assert(kPciWindowDataOffset == kPciWindowAddrOffset + 4);
    return config_.write64(kPciWindowAddrOffset, address, value);  // the address, then the data, in one access
  }
  OF_TRY(config_.write32(vsec_ + kVsecData, value));
  OF_TRY(config_.write32(vsec_ + kVsecAddr, address | kVsecFlagBit));
  return wait_flag(false, address);
}

Result<std::uint32_t> PciConfigAccess::read32(std::uint32_t address) {
  std::lock_guard guard(mutex_);
  return with_gateway([&] { return gateway_read(address); });
}

Result<void> PciConfigAccess::write32(std::uint32_t address, std::uint32_t value) {
  std::lock_guard guard(mutex_);
  return with_gateway([&] { return gateway_write(address, value); });
}

Result<void> PciConfigAccess::read_block(std::uint32_t address, std::span<std::uint32_t> out) {
  std::lock_guard guard(mutex_);
  return with_gateway([&]() -> Result<void> {
    for (std::size_t i = 0; i < out.size(); ++i) {
      OF_ASSIGN(out[i], gateway_read(address + static_cast<std::uint32_t>(4 * i)));
    }
    return {};
  });
}

Result<void> PciConfigAccess::write_block(std::uint32_t address, std::span<const std::uint32_t> values) {
  std::lock_guard guard(mutex_);
  return with_gateway([&]() -> Result<void> {
    for (std::size_t i = 0; i < values.size(); ++i) {
      OF_TRY(gateway_write(address + static_cast<std::uint32_t>(4 * i), values[i]));
    }
    return {};
  });
}

Result<void> PciConfigAccess::write_sequence(std::span<const RegisterWrite> writes) {
  std::lock_guard guard(mutex_);
  return with_gateway([&]() -> Result<void> {
    for (const RegisterWrite& w : writes) OF_TRY(gateway_write(w.address, w.value));
    return {};
  });
}

Result<void> PciConfigAccess::write_then_read(std::span<const RegisterWrite> writes, std::uint32_t address,
                                              std::span<std::uint32_t> out) {
  std::lock_guard guard(mutex_);
  return with_gateway([&]() -> Result<void> {
    for (const RegisterWrite& w : writes) OF_TRY(gateway_write(w.address, w.value));
    for (std::size_t i = 0; i < out.size(); ++i) {
      OF_ASSIGN(out[i], gateway_read(address + static_cast<std::uint32_t>(4 * i)));
    }
    return {};
  });
}

Result<void> PciConfigAccess::read_space(VsecSpace space, std::uint32_t address, std::span<std::uint32_t> out) {
  if (gateway_ != PciConfigGateway::Vsec)
    return make_error(ErrorCode::NotSupported, "PCI device " + name() + " has no vendor capability: no address spaces");
  std::lock_guard guard(mutex_);
  return with_gateway([&]() -> Result<void> {
    for (std::size_t i = 0; i < out.size(); ++i) {
      OF_ASSIGN(out[i], gateway_read(address + static_cast<std::uint32_t>(4 * i)));
    }
    return {};
  }, space);
}

Result<void> PciConfigAccess::write_space(VsecSpace space, std::uint32_t address, std::span<const std::uint32_t> values) {
  if (gateway_ != PciConfigGateway::Vsec)
    return make_error(ErrorCode::NotSupported, "PCI device " + name() + " has no vendor capability: no address spaces");
  std::lock_guard guard(mutex_);
  return with_gateway([&]() -> Result<void> {
    for (std::size_t i = 0; i < values.size(); ++i) {
      OF_TRY(gateway_write(address + static_cast<std::uint32_t>(4 * i), values[i]));
    }
    return {};
  }, space);
}

}  // namespace openflint
