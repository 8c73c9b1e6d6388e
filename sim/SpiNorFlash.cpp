// SpiNorFlash: command decoding and NOR array semantics.
#include "sim/SpiNorFlash.h"

#include <algorithm>

#include "core/HexString.h"
#include "devices/SpiOpcode.h"

namespace openflint::sim {
namespace {

bool is_program(std::uint8_t op) { return op == spi::kPageProgram || op == spi::kPageProgram4; }
bool is_read(std::uint8_t op) { return op == spi::kRead || op == spi::kRead4; }
bool is_small_erase(std::uint8_t op) {
  return op == spi::kSubsectorErase || op == spi::kSubsectorErase4;
}
bool is_block_erase(std::uint8_t op) { return op == spi::kSectorErase || op == spi::kSectorErase4; }

}  // namespace

SpiNorFlash::SpiNorFlash(const FlashChip& chip)
    : chip_(&chip), memory_(static_cast<std::size_t>(chip.size), 0xff) {}

Result<void> SpiNorFlash::set_contents(std::span<const std::uint8_t> bytes) {
  if (bytes.size() != memory_.size()) {
    return make_error(ErrorCode::InvalidArgument,
                      "flash image of " + std::to_string(bytes.size()) + " bytes does not fit chip " +
                          std::string(chip_->name) + " of " + std::to_string(memory_.size()) + " bytes");
  }
  return set_prefix(bytes);
}

Result<void> SpiNorFlash::set_prefix(std::span<const std::uint8_t> bytes) {
  if (bytes.size() > memory_.size()) {
    return make_error(ErrorCode::InvalidArgument,
                      "flash image of " + std::to_string(bytes.size()) + " bytes does not fit chip " +
                          std::string(chip_->name) + " of " + std::to_string(memory_.size()) + " bytes");
  }
  constexpr std::size_t kPage = 4096;
  for (std::size_t at = 0; at < bytes.size(); at += kPage) {
    const std::size_t n = std::min(kPage, bytes.size() - at);
    if (!std::equal(bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.begin() + static_cast<std::ptrdiff_t>(at + n),
                    memory_.begin() + at))
      std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(at), n, memory_.begin() + at);
  }
  ++generation_;
  return {};
}

Result<void> SpiNorFlash::map_base(const std::filesystem::path& base) {
  OF_TRY(memory_.map_private(base));
  ++generation_;
  return {};
}

void SpiNorFlash::reset() {
  selected_ = false;
  write_enable_latch_ = false;
  busy_polls_left_ = 0;
  command_ignored_ = false;
}

std::uint8_t SpiNorFlash::status() const {
  std::uint8_t s = 0;
  if (busy()) s |= spi::kStatusWip;
  if (write_enable_latch_) s |= spi::kStatusWel;
  return s;
}

void SpiNorFlash::command(std::uint8_t opcode) {
  if (selected_) deselect();
  selected_ = true;
  opcode_ = opcode;
  has_address_ = false;
  data_index_ = 0;
  page_valid_.fill(false);
  command_ignored_ = false;
  const bool status_like = opcode == spi::kReadStatus || opcode == spi::kReadJedecId;
  if (busy() && !status_like) {
    command_ignored_ = true;  // a busy part only answers status reads
    ++counters_.ignored_commands;
    return;
  }
  if (opcode == spi::kReadStatus) {
    page_buffer_[0] = status();  // the value clocked out for this poll
    if (busy_polls_left_ > 0) --busy_polls_left_;
  } else if (opcode == spi::kWriteEnable) {
    write_enable_latch_ = true;
  } else if (is_read(opcode)) {
    ++counters_.reads;
  }
}

void SpiNorFlash::address(std::uint32_t address, unsigned address_bytes) {
  if (!selected_) return;
  const std::uint32_t mask = address_bytes >= 4 ? 0xffffffffu : 0x00ffffffu;
  address_ = static_cast<std::uint32_t>((address & mask) % memory_.size());
  cursor_ = address_;
  has_address_ = true;
}

void SpiNorFlash::write_data(std::span<const std::uint8_t> bytes) {
  if (!selected_ || command_ignored_ || !is_program(opcode_) || !has_address_) return;
  // Bytes past the end of the page wrap to its start; later bytes replace earlier ones.
  for (std::uint8_t b : bytes) {
    const std::uint32_t offset = (address_ + data_index_) & 0xff;
    page_buffer_[offset] = b;
    page_valid_[offset] = true;
    ++data_index_;
  }
}

void SpiNorFlash::read_data(std::span<std::uint8_t> out) {
  if (!selected_ || command_ignored_) {
    std::fill(out.begin(), out.end(), 0xff);
    return;
  }
  if (is_read(opcode_) && has_address_) {  // hot path: array reads, wrapping at the end
    std::size_t done = 0;
    while (done < out.size()) {
      const std::size_t n = std::min<std::size_t>(out.size() - done, memory_.size() - cursor_);
      std::copy_n(memory_.begin() + cursor_, n, out.begin() + static_cast<std::ptrdiff_t>(done));
      done += n;
      cursor_ = static_cast<std::uint32_t>((cursor_ + n) % memory_.size());
    }
    return;
  }
  for (std::uint8_t& b : out) {
    if (opcode_ == spi::kReadStatus) {
      b = page_buffer_[0];
    } else if (opcode_ == spi::kReadJedecId) {
      b = data_index_ < 3 ? static_cast<std::uint8_t>(chip_->jedec_id >> (16 - 8 * data_index_)) : 0;
      ++data_index_;
    } else if (opcode_ == spi::kReadSignature) {  // 3 dummy bytes, then the signature, repeated
      const std::uint8_t sig = chip_->electronic_signature;
      b = data_index_ < 3 || sig == 0 ? 0xff : sig;
      ++data_index_;
    } else if (is_read(opcode_) && has_address_) {
      b = memory_[cursor_];
      cursor_ = static_cast<std::uint32_t>((cursor_ + 1) % memory_.size());
    } else {
      b = 0xff;
    }
  }
}

bool SpiNorFlash::accepts_write_op() {
  const bool ok = write_enable_latch_ && !write_protected_ && has_address_;
  write_enable_latch_ = false;  // cleared whether or not the op runs
  if (!ok) ++counters_.ignored_commands;
  return ok;
}

void SpiNorFlash::start_busy() { busy_polls_left_ = busy_polls_per_op_; }

void SpiNorFlash::finish_program() {
  if (!accepts_write_op()) return;
  const std::uint32_t page = address_ & ~0xffu;
  if (std::find(page_valid_.begin(), page_valid_.end(), true) == page_valid_.end()) return;
  for (std::uint32_t i = 0; i < 256; ++i) {
    if (!page_valid_[i]) continue;
    memory_[page + i] &= page_buffer_[i];
    ++counters_.bytes_programmed;
  }
  ++counters_.programs;
  ++generation_;
  start_busy();
}

void SpiNorFlash::finish_erase(std::uint32_t size) {
  if (!accepts_write_op()) return;
  const std::uint32_t start = address_ & ~(size - 1);
  std::fill_n(memory_.begin() + start, size, 0xff);
  ++counters_.erases;
  ++generation_;
  start_busy();
}

bool SpiNorFlash::program_cells(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  if (write_protected_ || busy() || address >= memory_.size() || bytes.size() > memory_.size() - address) {
    ++counters_.ignored_commands;
    return false;
  }
  for (std::size_t i = 0; i < bytes.size(); ++i) memory_[address + i] &= bytes[i];
  counters_.bytes_programmed += bytes.size();
  ++counters_.programs;
  ++generation_;
  start_busy();
  return true;
}

bool SpiNorFlash::write_cells(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  if (write_protected_ || address >= memory_.size() || bytes.size() > memory_.size() - address) {
    ++counters_.ignored_commands;
    return false;
  }
  std::copy(bytes.begin(), bytes.end(), memory_.begin() + address);
  counters_.bytes_programmed += bytes.size();
  ++counters_.programs;
  ++generation_;
  return true;
}

bool SpiNorFlash::erase_cells(std::uint32_t start, std::uint32_t size) {
  if (write_protected_ || busy() || start >= memory_.size() || size > memory_.size() - start) {
    ++counters_.ignored_commands;
    return false;
  }
  std::fill_n(memory_.begin() + start, size, 0xff);
  ++counters_.erases;
  ++generation_;
  start_busy();
  return true;
}

bool SpiNorFlash::poll_busy() {
  const bool was = busy();
  if (busy_polls_left_ > 0) --busy_polls_left_;
  return was;
}

void SpiNorFlash::deselect() {
  if (!selected_) return;
  selected_ = false;
  if (command_ignored_) return;
  if (is_program(opcode_)) {
    finish_program();
  } else if (is_block_erase(opcode_)) {
    finish_erase(chip_->block_size);
  } else if (is_small_erase(opcode_)) {
    if (chip_->has_4k_sectors) {
      finish_erase(4096);
    } else {
      ++counters_.ignored_commands;  // the part has no 4 KiB erase
    }
  }
}

}  // namespace openflint::sim
