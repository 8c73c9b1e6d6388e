// FirmwareFlashPort: erase/program/read as SPI command sequences on the simulated chip.
#include "sim/FirmwareFlashPort.h"

#include <algorithm>
#include <array>

#include "core/HexString.h"
#include "devices/SpiOpcode.h"

namespace openflint::sim {
namespace {
constexpr int kMaxPolls = 1 << 16;  // a chip still busy after this many status reads is stuck
}  // namespace

void FirmwareFlashPort::send_address(std::uint32_t address) { flash_->address(address, four_byte() ? 4 : 3); }

Result<void> FirmwareFlashPort::wait_ready() {
  std::array<std::uint8_t, 1> status{};
  for (int i = 0; i < kMaxPolls; ++i) {
    flash_->command(spi::kReadStatus);
    flash_->read_data(status);
    flash_->deselect();
    if ((status[0] & spi::kStatusWip) == 0) return {};
  }
  return make_error(ErrorCode::Timeout, "flash stays busy");
}

Result<void> FirmwareFlashPort::write_enable() {
  OF_TRY(wait_ready());
  flash_->command(spi::kWriteEnable);
  flash_->deselect();
  if (!flash_->write_enabled()) return make_error(ErrorCode::Io, "flash refused write enable");
  return {};
}

Result<void> FirmwareFlashPort::erase(std::uint32_t address, std::uint32_t size) {
  if (size == 0) return {};
  const std::uint32_t unit = flash_->chip().min_erase_size();
  const std::uint32_t first = address / unit * unit;
  for (std::uint64_t at = first; at < std::uint64_t{address} + size; at += unit) {
    OF_TRY(write_enable());
    const std::uint64_t ignored = flash_->counters().ignored_commands;
    flash_->command(flash_->chip().min_erase_opcode(four_byte()));
    send_address(static_cast<std::uint32_t>(at));
    flash_->deselect();
    if (flash_->counters().ignored_commands != ignored)
      return make_error(ErrorCode::Io, "flash ignored the erase at " + hex_string(at));
    OF_TRY(wait_ready());
  }
  return {};
}

Result<void> FirmwareFlashPort::program(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  const std::uint32_t page = flash_->chip().page_size;
  std::size_t done = 0;
  while (done < bytes.size()) {
    const std::uint32_t at = address + static_cast<std::uint32_t>(done);
    const std::size_t n = std::min<std::size_t>(bytes.size() - done, page - at % page);
    OF_TRY(write_enable());
    const std::uint64_t ignored = flash_->counters().ignored_commands;
    flash_->command(four_byte() ? spi::kPageProgram4 : spi::kPageProgram);
    send_address(at);
    flash_->write_data(bytes.subspan(done, n));
    flash_->deselect();
    if (flash_->counters().ignored_commands != ignored)
      return make_error(ErrorCode::Io, "flash ignored the program at " + hex_string(at));
    OF_TRY(wait_ready());
    done += n;
  }
  return {};
}

Result<void> FirmwareFlashPort::read(std::uint32_t address, std::span<std::uint8_t> out) {
  OF_TRY(wait_ready());
  flash_->command(four_byte() ? spi::kRead4 : spi::kRead);
  send_address(address);
  flash_->read_data(out);
  flash_->deselect();
  return {};
}

}  // namespace openflint::sim
