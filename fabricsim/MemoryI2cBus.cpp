// MemoryI2cBus: memory EEPROMs with a write cycle that refuses the next transactions.
#include "core/HexString.h"
#include "fabricsim/MemoryI2cBus.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace openflint {
namespace {

}  // namespace

void MemoryI2cBus::add_device(std::uint8_t device, std::size_t bytes) {
  devices_[device] = Eeprom{std::vector<std::uint8_t>(bytes, 0xff), 0};
}

Result<MemoryI2cBus::Eeprom*> MemoryI2cBus::select(std::uint8_t device, std::uint32_t offset, std::size_t size) {
  const auto it = devices_.find(device);
  if (it == devices_.end()) {
    ++nacks_;
    return make_error(ErrorCode::Busy, "i2c device " + hex_string(device, 2) + " did not acknowledge (no such device)");
  }
  Eeprom& e = it->second;
  if (e.busy > 0) {
    --e.busy;
    ++nacks_;
    return make_error(ErrorCode::Busy, "i2c device " + hex_string(device, 2) + " did not acknowledge (write cycle)");
  }
  if (size > max_transfer_ || offset > e.memory.size() || size > e.memory.size() - offset)
    return make_error(ErrorCode::InvalidArgument, "i2c device " + hex_string(device, 2) + ": " + std::to_string(size) +
                                                      " bytes at " + hex_string(offset, 2) + " past its " +
                                                      std::to_string(e.memory.size()) + " bytes");
  return &e;
}

Result<void> MemoryI2cBus::read(std::uint8_t device, std::uint32_t offset, std::span<std::uint8_t> out) {
  OF_ASSIGN(Eeprom* const e, select(device, offset, out.size()));
  std::copy_n(e->memory.begin() + offset, out.size(), out.begin());
  return {};
}

Result<void> MemoryI2cBus::write(std::uint8_t device, std::uint32_t offset, std::span<const std::uint8_t> bytes) {
  OF_ASSIGN(Eeprom* const e, select(device, offset, bytes.size()));
  std::copy(bytes.begin(), bytes.end(), e->memory.begin() + offset);
  e->busy = nacks_after_write_;
  return {};
}

std::span<const std::uint8_t> MemoryI2cBus::contents(std::uint8_t device) const {
  const auto it = devices_.find(device);
  if (it == devices_.end()) return {};
  return it->second.memory;
}

}  // namespace openflint
