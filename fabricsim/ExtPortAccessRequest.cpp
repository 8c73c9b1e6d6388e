// ExtPortAccessRequest: decode an I2C ExtPortAccess request, run it on the bus, map the outcome to a MAD status.
#include "fabricsim/ExtPortAccessRequest.h"

#include "mtcr/inband/MadFormat.h"

namespace openflint {

std::uint16_t serve_ext_port_access(I2cAccess* bus, std::uint8_t method, std::uint32_t attr_mod,
                                    std::span<std::uint8_t> payload) {
  if (attr_mod == mad::kExtPortCpu || attr_mod == mad::kExtPortI2c2 || attr_mod == mad::kExtPortGpio)
    return mad::kStatusAttrUnsupported;  // ports these simulated devices do not model
  if (attr_mod != mad::kExtPortI2c1) return mad::kStatusInvalidValue;
  if (bus == nullptr) return mad::kStatusAttrUnsupported;
  if (payload.size() < mad::kI2cOffData) return mad::kStatusInvalidValue;
  const std::uint32_t size = mad::get32(payload.data(), mad::kI2cOffSize);
  const std::uint32_t device = mad::get32(payload.data(), mad::kI2cOffDevice);
  const std::uint32_t offset = mad::get32(payload.data(), mad::kI2cOffMemory);
  if (size > payload.size() - mad::kI2cOffData || size > bus->max_transfer() || device > 0x7f)
    return mad::kStatusInvalidValue;
  const auto data = payload.subspan(mad::kI2cOffData, size);
  const auto dev = static_cast<std::uint8_t>(device);
  const Result<void> done = method == mad::kMethodGet ? bus->read(dev, offset, data) : bus->write(dev, offset, data);
  if (done) return 0;
  switch (done.error().code()) {
    case ErrorCode::Busy: return mad::kStatusI2cNack;
    case ErrorCode::InvalidArgument: return mad::kStatusInvalidValue;
    default: return mad::kStatusI2cFailed;
  }
}

}  // namespace openflint
