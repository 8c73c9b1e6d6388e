// RegisterAccess: the interface every CR-space access method implements (PCI, BAR, MADs, simulator).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/Result.h"
#include "mtcr/I2cAccess.h"

namespace openflint {

// Addresses are CR-space byte addresses (dword aligned); values are host-order dwords that the
// transport has already converted from the big-endian wire order.
// One write of a sequence (RegisterAccess::write_sequence).
struct RegisterWrite {
  std::uint32_t address = 0;
  std::uint32_t value = 0;
};

class RegisterAccess {
 public:
  virtual ~RegisterAccess() = default;

  [[nodiscard]] virtual Result<std::uint32_t> read32(std::uint32_t address) = 0;
  [[nodiscard]] virtual Result<void> write32(std::uint32_t address, std::uint32_t value) = 0;

  // Consecutive dwords from `address`. The default loops over read32/write32; transports that
  // move several dwords per round trip (MADs: 56) override these.
  [[nodiscard]] virtual Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) {
    for (std::size_t i = 0; i < out.size(); ++i) {
      OF_ASSIGN(out[i], read32(address + static_cast<std::uint32_t>(4 * i)));
    }
    return {};
  }
  [[nodiscard]] virtual Result<void> write_block(std::uint32_t address,
                                                 std::span<const std::uint32_t> values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      OF_TRY(write32(address + static_cast<std::uint32_t>(4 * i), values[i]));
    }
    return {};
  }
  // Writes in this order (scattered addresses, e.g. a gateway's ADDR, DATA, then CMD). The
  // default writes one by one; MADs pack several into one round trip (mode-2 records).
  [[nodiscard]] virtual Result<void> write_sequence(std::span<const RegisterWrite> writes) {
    for (const auto& w : writes) OF_TRY(write32(w.address, w.value));
    return {};
  }
  // The writes in order, then out.size() dwords from `address`: a command and its first status
  // poll (a flash gateway's ADDR, DATA, CMD, then CMD..DATA). The default is write_sequence then
  // read_block; a transport that locks per call (the PCI VSEC semaphore) does both under one lock.
  [[nodiscard]] virtual Result<void> write_then_read(std::span<const RegisterWrite> writes, std::uint32_t address,
                                                     std::span<std::uint32_t> out) {
    OF_TRY(write_sequence(writes));
    return read_block(address, out);
  }
  // Largest block the transport moves in one round trip (callers may split on this).
  [[nodiscard]] virtual std::size_t max_block_dwords() const { return 1; }
  // True when every access costs a round trip far longer than a memory access: in-band MADs
  // (~0.1-1 ms each), the PCI config-space gateway (several config cycles per dword). Reading
  // then costs as much as writing, and callers trade reads for cheap commands (an erase is a
  // handful of accesses, reading a 4 KiB sector through the flash gateway is 512) and read
  // only what they need. A simulator in memory and a mapped BAR are not costly.
  [[nodiscard]] virtual bool costly_access() const { return false; }
  // The I2C bus of a simulated device whose firmware lives in I2C EEPROMs (sim/SimDevice: its I2C
  // master), for tests that drive the simulator as a bare RegisterAccess; null otherwise. A
  // Device's bus comes from its transport (fwops/DeviceTransport.h i2c(): in-band, ExtPortAccess
  // MADs), which fwops passes to FlashDriver::open.
  [[nodiscard]] virtual I2cAccess* i2c() { return nullptr; }

 protected:
  RegisterAccess() = default;
  RegisterAccess(const RegisterAccess&) = default;
  RegisterAccess& operator=(const RegisterAccess&) = default;
};

}  // namespace openflint
