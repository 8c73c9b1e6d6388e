// I2cMaster: routes I2C transactions to the simulated EEPROMs under the device's power and fault rules.
#include "sim/I2cMaster.h"

#include <mutex>
#include <string>

#include "core/HexString.h"
#include "sim/SimDevice.h"

namespace openflint::sim {

I2cMaster::I2cMaster(SimDevice& device, const I2cEepromMap& map, SpiNorFlash& cells) : device_(&device) {
  for (std::size_t i = 0; i < map.device_count; ++i)
    eeproms_.emplace_back(map.devices[i], static_cast<std::uint32_t>(i * map.chip_size), map.chip_size, map.page_size,
                          cells);
}

I2cEeprom* I2cMaster::find(std::uint8_t device) {
  for (I2cEeprom& e : eeproms_)
    if (e.device() == device) return &e;
  return nullptr;
}

void I2cMaster::reset() {
  for (I2cEeprom& e : eeproms_) e.reset();
}

Result<void> I2cMaster::count(Result<void> r) {
  if (r) {
    ++counters_.transactions;
  } else if (r.error().code() == ErrorCode::Busy) {
    ++counters_.nacks;
  }
  return r;
}

Result<void> I2cMaster::read(std::uint8_t device, std::uint32_t offset, std::span<std::uint8_t> out) {
  std::lock_guard guard(device_->bus_);
  OF_TRY(device_->check_powered());
  if (out.size() > kMaxTransfer) return make_error(ErrorCode::InvalidArgument, "I2C read of more than 128 bytes");
  I2cEeprom* e = find(device);
  if (e == nullptr) return count(make_error(ErrorCode::Busy, "no I2C device acknowledges at " + hex_string(device)));
  return count(e->read(offset, out));
}

Result<void> I2cMaster::write(std::uint8_t device, std::uint32_t offset, std::span<const std::uint8_t> bytes) {
  std::lock_guard guard(device_->bus_);
  OF_TRY(device_->check_powered());
  if (bytes.size() > kMaxTransfer) return make_error(ErrorCode::InvalidArgument, "I2C write of more than 128 bytes");
  I2cEeprom* e = find(device);
  if (e == nullptr) return count(make_error(ErrorCode::Busy, "no I2C device acknowledges at " + hex_string(device)));
  // The write the power cut falls on: the write cycle stops part way through the page.
  const bool cut_now = device_->ops_until_power_cut_ == 1;
  const std::uint64_t before = device_->flash_ops();
  auto r = e->write(offset, bytes, cut_now ? bytes.size() / 2 : bytes.size());
  if (device_->flash_ops() != before) ++counters_.page_writes;
  device_->account_flash_ops(before);
  if (!device_->powered_) reset();
  return count(std::move(r));
}

}  // namespace openflint::sim
