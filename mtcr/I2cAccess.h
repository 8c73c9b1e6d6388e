// I2cAccess: byte transactions on an I2C bus behind a device (a switch's I2C master, in-band or simulated).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/Result.h"

namespace openflint {

// One bus of 7-bit devices whose memory is addressed by an offset sent before the data (24Cxx
// EEPROMs: 2 offset bytes). How the bus is reached is the implementation's business:
//   - the simulator (sim:PATH: the switch's I2C master in memory, like an out-of-band adapter);
//   - in-band: vendor MAD ExtPortAccess (class 0x0A, attribute 0x13, I2C port #1), see
//     ../shared/reference/legacy-devices.md §2.2;
//   - a bus server (the remote protocol's I2C commands) later.
// Errors: a device that does not acknowledge (absent, or busy in its internal write cycle) is
// ErrorCode::Busy, so a caller polls for the end of a write cycle by retrying; a transport error
// is ErrorCode::Io; an offset or length the transport cannot carry is InvalidArgument.
class I2cAccess {
 public:
  virtual ~I2cAccess() = default;
  I2cAccess(const I2cAccess&) = delete;
  I2cAccess& operator=(const I2cAccess&) = delete;

  // Sets the device's address pointer to `offset` and reads out.size() bytes (a combined
  // write-then-read transaction). At most max_transfer() bytes.
  [[nodiscard]] virtual Result<void> read(std::uint8_t device, std::uint32_t offset, std::span<std::uint8_t> out) = 0;
  // One write transaction: the offset, then the bytes (an EEPROM then starts its write cycle and
  // does not acknowledge until it ends). At most max_transfer() bytes.
  [[nodiscard]] virtual Result<void> write(std::uint8_t device, std::uint32_t offset,
                                           std::span<const std::uint8_t> bytes) = 0;
  // Largest transfer the transport carries in one transaction.
  [[nodiscard]] virtual std::size_t max_transfer() const = 0;
  // As RegisterAccess::costly_access(): every transaction is a round trip (MADs).
  [[nodiscard]] virtual bool costly_access() const { return false; }

 protected:
  I2cAccess() = default;
};

}  // namespace openflint
