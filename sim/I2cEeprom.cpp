// I2cEeprom: the 24Cxx read, page-write and write-cycle rules over a window of the cell array.
#include "sim/I2cEeprom.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/HexString.h"

namespace openflint::sim {

bool I2cEeprom::refuse() {
  if (cells_->stuck_busy()) return true;
  if (cycle_left_ == 0) return false;
  --cycle_left_;
  return true;
}

Result<void> I2cEeprom::read(std::uint32_t offset, std::span<std::uint8_t> out) {
  if (refuse()) return make_error(ErrorCode::Busy, "I2C device " + hex_string(device_) + " did not acknowledge (write cycle)");
  const auto cells = cells_->contents();
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = cells[base_ + (offset + i) % size_];
  return {};
}

Result<void> I2cEeprom::write(std::uint32_t offset, std::span<const std::uint8_t> bytes, std::size_t keep) {
  if (refuse()) return make_error(ErrorCode::Busy, "I2C device " + hex_string(device_) + " did not acknowledge (write cycle)");
  if (bytes.empty()) return {};  // an address-only write: a poll
  offset %= size_;
  const std::uint32_t page = offset - offset % page_size_;
  // The page as it ends up: each byte at page + (offset - page + i) % page_size (wrapping).
  const auto cells = cells_->contents();
  std::vector<std::uint8_t> image(cells.begin() + base_ + page, cells.begin() + base_ + page + page_size_);
  const std::size_t n = std::min(keep, bytes.size());
  for (std::size_t i = 0; i < n; ++i) image[(offset - page + i) % page_size_] = bytes[i];
  if (!cells_->write_cells(base_ + page, image)) return {};  // write protected: acknowledged, ignored
  cycle_left_ = kWriteCycleTransactions + cells_->busy_polls_per_op();
  return {};
}

}  // namespace openflint::sim
