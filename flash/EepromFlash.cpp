// EepromFlash: ack-polled reads and page writes over an I2cAccess.
#include "flash/EepromFlash.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "core/HexString.h"

namespace openflint {
namespace {

std::string where(std::uint8_t device, std::uint32_t offset) {
  return "EEPROM " + hex_string(device) + " offset " + hex_string(offset);
}

// Runs `op` until it is acknowledged or `limit` has passed; counts the refused attempts.
template <typename Op>
Result<void> polled(Op&& op, std::chrono::milliseconds limit, EepromStats& stats, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t tries = 0;; ++tries) {
    auto r = op();
    if (r) {
      ++stats.transactions;
      return {};
    }
    if (r.error().code() != ErrorCode::Busy) return make_error(std::move(r).error().with_context(what));
    ++stats.busy_polls;
    if (std::chrono::steady_clock::now() - start >= limit) {
      return make_error(ErrorCode::Timeout, what + ": the device did not acknowledge for " +
                                                std::to_string(limit.count()) + " ms (" + std::to_string(tries + 1) +
                                                " tries): absent, or stuck in a write cycle");
    }
    if (tries >= 64) std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

}  // namespace

Result<std::unique_ptr<EepromFlash>> EepromFlash::open(I2cAccess& bus, const I2cEepromMap& map, FlashTimeouts timeouts) {
  if (map.device_count == 0 || map.page_size == 0 || map.chip_size % map.page_size != 0)
    return make_error(ErrorCode::Internal, "I2C EEPROM map without devices or with a bad page size");
  if (bus.max_transfer() == 0) return make_error(ErrorCode::Internal, "I2C bus with a zero transfer size");
  const FlashChip* chip = nullptr;
  for (const FlashChip& c : all_flash_chips())
    if (c.bus == FlashInterface::I2cEeprom && c.size == map.total_size() && c.page_size == map.page_size) chip = &c;
  if (chip == nullptr)
    return make_error(ErrorCode::NotSupported, "no catalog EEPROM set of " + std::to_string(map.total_size()) +
                                                   " bytes in " + std::to_string(map.page_size) + "-byte pages");
  std::unique_ptr<EepromFlash> flash(new EepromFlash(bus, map, *chip, timeouts));
  for (std::size_t i = 0; i < map.device_count; ++i) {  // every EEPROM must answer
    std::uint8_t byte = 0;
    OF_TRY(flash->read_polled(map.devices[i], 0, std::span(&byte, 1)));
  }
  return flash;
}

Result<void> EepromFlash::read_polled(std::uint8_t device, std::uint32_t offset, std::span<std::uint8_t> out) {
  return polled([&] { return bus_->read(device, offset, out); }, timeouts_.eeprom_write_cycle, stats_,
                "reading " + where(device, offset));
}

Result<void> EepromFlash::write_polled(std::uint8_t device, std::uint32_t offset, std::span<const std::uint8_t> bytes) {
  return polled([&] { return bus_->write(device, offset, bytes); }, timeouts_.eeprom_write_cycle, stats_,
                "writing " + where(device, offset));
}

Result<void> EepromFlash::read(std::uint32_t address, std::span<std::uint8_t> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    const std::uint64_t at = std::uint64_t{address} + done;
    if (at >= map_.total_size()) return make_error(ErrorCode::InvalidArgument, "EEPROM read past the end at " + hex_string(at));
    const std::uint32_t offset = map_.offset_of(at);
    // One transaction may cross pages but not the end of a device.
    const std::size_t n = std::min({out.size() - done, bus_->max_transfer(), std::size_t{map_.chip_size - offset}});
    OF_TRY(read_polled(map_.device_of(at), offset, out.subspan(done, n)));
    done += n;
  }
  return {};
}

Result<void> EepromFlash::write_page(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  const std::uint8_t device = map_.device_of(address);
  const std::uint32_t offset = map_.offset_of(address);
  OF_TRY(write_polled(device, offset, bytes));
  ++stats_.page_writes;
  last_written_ = device;
  if (write_checked_) return {};
  write_checked_ = true;  // the first write: did it take? (a write-protected part ignores it)
  std::vector<std::uint8_t> back(bytes.size());
  OF_TRY(read_polled(device, offset, back));
  if (!std::equal(back.begin(), back.end(), bytes.begin()))
    return make_error(ErrorCode::PermissionDenied, where(device, offset) +
                                                       " ignored a write: its write-protect pin is asserted (nothing was changed)");
  return {};
}

Result<void> EepromFlash::program(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const std::uint64_t at = std::uint64_t{address} + done;
    if (at >= map_.total_size()) return make_error(ErrorCode::InvalidArgument, "EEPROM write past the end at " + hex_string(at));
    const std::uint32_t in_page = map_.page_size - static_cast<std::uint32_t>(at % map_.page_size);
    const std::size_t n = std::min({bytes.size() - done, std::size_t{in_page}, bus_->max_transfer()});
    OF_TRY(write_page(static_cast<std::uint32_t>(at), bytes.subspan(done, n)));
    done += n;
  }
  if (last_written_ < 0) return {};
  std::uint8_t byte = 0;  // returns when the part is done: the last write cycle is over
  return read_polled(static_cast<std::uint8_t>(last_written_), 0, std::span(&byte, 1));
}

Result<void> EepromFlash::erase(std::uint32_t address) {
  const std::vector<std::uint8_t> blank(chip_->min_erase_size(), 0xff);
  return program(address, blank);
}

Result<std::uint8_t> EepromFlash::read_status() {
  const std::uint8_t device = last_written_ < 0 ? map_.devices[0] : static_cast<std::uint8_t>(last_written_);
  std::uint8_t byte = 0;
  auto r = bus_->read(device, 0, std::span(&byte, 1));
  if (r) return std::uint8_t{0};
  if (r.error().code() == ErrorCode::Busy) return std::uint8_t{1};
  return make_error(std::move(r).error().with_context("polling " + where(device, 0)));
}

}  // namespace openflint
