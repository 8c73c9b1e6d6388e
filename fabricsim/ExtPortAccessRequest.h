// ExtPortAccessRequest: serves one vendor ExtPortAccess MAD (attribute 0x13) from a device's I2C bus.
#pragma once

#include <cstdint>
#include <span>

#include "mtcr/I2cAccess.h"

namespace openflint {

// `payload` is the request's 232-byte vendor data area (VS_Key, size, device, offset, data; see
// mtcr/inband/MadFormat.h) and becomes the answer's: a Get fills the data, a Set echoes it. Returns the
// MAD status:
//   - I2C port #1 only; CPU, GPIO and I2C port #2, or a device without a bus (`bus` null):
//     0x0c unsupported; any other port number 0x1c.
//   - a size past the data area (212 bytes) or above the bus's max_transfer(), an address
//     above 7 bits: 0x1c, and the bus is not touched.
//   - the device did not acknowledge (the bus answered Busy): openflint's kStatusI2cNack
//     (0x0101), which the client maps back to ErrorCode::Busy.
//   - another bus error: openflint's kStatusI2cFailed (0x0200): ErrorCode::Io at the client.
[[nodiscard]] std::uint16_t serve_ext_port_access(I2cAccess* bus, std::uint8_t method, std::uint32_t attr_mod,
                                                  std::span<std::uint8_t> payload);

}  // namespace openflint
