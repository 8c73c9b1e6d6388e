// CfiNorFlash: AMD and Intel command decoding, the CFI query table, status and data polling.
#include "sim/CfiNorFlash.h"

#include <algorithm>

namespace openflint::sim {
namespace {

constexpr std::uint8_t kStatusReady = 0x80;
constexpr std::uint8_t kStatusEraseError = 0x20;
constexpr std::uint8_t kStatusProgramError = 0x10;
constexpr std::uint8_t kStatusLocked = 0x02;

unsigned log2_of(std::uint64_t n) {
  unsigned l = 0;
  while ((std::uint64_t{1} << l) < n) ++l;
  return l;
}

// AMD x8 parts decode the unlock addresses on their low 11 address bits.
bool at(std::uint32_t address, std::uint32_t unlock) { return (address & 0x7ff) == unlock; }

}  // namespace

CfiNorFlash::CfiNorFlash(const FlashChip& chip, SpiNorFlash& cells) : chip_(&chip), cells_(&cells), query_(0x50, 0) {
  // The CFI identification, system-interface and geometry tables (JESD68) of a one-region part.
  query_[0x10] = 'Q';
  query_[0x11] = 'R';
  query_[0x12] = 'Y';
  query_[0x13] = chip.cfi.command_set;  // primary command set, little-endian 16 bits
  query_[0x15] = 0x40;                  // primary extended table at 0x40
  query_[0x1b] = 0x27;                  // Vcc min 2.7 V
  query_[0x1c] = 0x36;                  // Vcc max 3.6 V
  query_[0x1f] = 0x07;                  // typical byte program 2^7 us
  query_[0x20] = chip.cfi.log2_write_buffer != 0 ? 0x07 : 0;
  query_[0x21] = 0x0a;                  // typical block erase 2^10 ms
  query_[0x23] = 0x04;
  query_[0x25] = 0x04;
  query_[0x27] = static_cast<std::uint8_t>(log2_of(chip.size));
  query_[0x28] = chip.cfi.stride == 2 ? 0x02 : 0x00;  // x8/x16 or x8 only
  query_[0x2a] = chip.cfi.log2_write_buffer;
  query_[0x2c] = 1;  // one erase region
  const std::uint32_t blocks = static_cast<std::uint32_t>(chip.size / chip.block_size) - 1;
  const std::uint32_t unit = chip.block_size / 256;
  query_[0x2d] = static_cast<std::uint8_t>(blocks);
  query_[0x2e] = static_cast<std::uint8_t>(blocks >> 8);
  query_[0x2f] = static_cast<std::uint8_t>(unit);
  query_[0x30] = static_cast<std::uint8_t>(unit >> 8);
  query_[0x40] = 'P';
  query_[0x41] = 'R';
  query_[0x42] = 'I';
  query_[0x43] = '1';
  query_[0x44] = '0';
}

void CfiNorFlash::reset() {
  mode_ = Mode::Array;
  return_to_ = Mode::Array;
  status_ = kStatusReady;
  amd_busy_ = false;
  buffer_.clear();
  buffer_left_ = 0;
}

std::uint32_t CfiNorFlash::block_start(std::uint32_t address) const {
  return address / chip_->block_size * chip_->block_size;
}

std::uint8_t CfiNorFlash::query_byte(std::uint32_t address) const {
  const std::uint32_t stride = chip_->cfi.stride;
  if (address % stride != 0) return 0;
  const std::uint32_t offset = (address / stride) % 0x100;
  return offset < query_.size() ? query_[offset] : 0;
}

std::uint8_t CfiNorFlash::array_byte(std::uint32_t address) const {
  const auto contents = cells_->contents();
  return contents[address % contents.size()];
}

std::uint32_t CfiNorFlash::read4(std::uint32_t address) {
  address &= ~3u;
  if (amd_busy_) {
    if (cells_->poll_busy()) {
      toggle_ = !toggle_;
      const std::uint8_t poll = static_cast<std::uint8_t>((~amd_busy_final_ & 0x80) | (toggle_ ? 0x40 : 0));
      return std::uint32_t{poll} * 0x01010101u;
    }
    amd_busy_ = false;
  }
  std::uint32_t word = 0;
  if (mode_ == Mode::Status || mode_ == Mode::BufferCount) {
    const bool busy = cells_->poll_busy();
    const std::uint8_t s = busy ? static_cast<std::uint8_t>(status_ & ~kStatusReady) : (status_ | kStatusReady);
    return std::uint32_t{s} * 0x01010101u;
  }
  for (std::uint32_t i = 0; i < 4; ++i) {
    std::uint8_t b = 0xff;
    if (mode_ == Mode::Query) {
      b = query_byte(address + i);
    } else if (mode_ == Mode::Id) {
      const std::uint32_t offset = (address + i) / chip_->cfi.stride;
      b = (address + i) % chip_->cfi.stride != 0 ? 0
          : offset == 0                           ? static_cast<std::uint8_t>(chip_->jedec_id >> 16)
          : offset == 1                           ? static_cast<std::uint8_t>(chip_->jedec_id)
                                                  : 0;
    } else {
      b = array_byte(address + i);
    }
    word = (word << 8) | b;
  }
  return word;
}

void CfiNorFlash::write_byte(std::uint32_t address, std::uint8_t value) {
  address %= static_cast<std::uint32_t>(chip_->size);
  if (intel()) {
    write_intel(address, value);
  } else {
    write_amd(address, value);
  }
}

void CfiNorFlash::amd_program(std::uint32_t address, std::uint8_t value, Mode after) {
  const std::uint8_t b = value;
  mode_ = after;
  if (!cells_->program_cells(address, std::span(&b, 1))) return;  // protected: back to reads, unchanged
  amd_busy_ = true;
  amd_busy_final_ = static_cast<std::uint8_t>(array_byte(address));
}

void CfiNorFlash::amd_erase(std::uint32_t address) {
  mode_ = Mode::Array;
  const std::uint32_t start = block_start(address);
  if (!cells_->erase_cells(start, chip_->block_size)) return;
  amd_busy_ = true;
  amd_busy_final_ = 0xff;
}

void CfiNorFlash::write_amd(std::uint32_t address, std::uint8_t value) {
  if (amd_busy_ && cells_->busy()) return;  // a busy part ignores commands
  amd_busy_ = false;
  switch (mode_) {
    case Mode::ProgramData: amd_program(address, value, Mode::Array); return;
    case Mode::BypassProgram: amd_program(address, value, Mode::Bypass); return;
    case Mode::Bypass:
      mode_ = value == 0xa0 ? Mode::BypassProgram : value == 0x90 ? Mode::BypassExit : Mode::Bypass;
      return;
    case Mode::BypassExit: mode_ = value == 0x00 ? Mode::Array : Mode::Bypass; return;
    case Mode::Unlock1:
      mode_ = value == 0x55 && at(address, 0x2aa) ? Mode::Unlock2 : Mode::Array;
      return;
    case Mode::Unlock2:
      mode_ = !at(address, 0x555) ? Mode::Array
              : value == 0xa0     ? Mode::ProgramData
              : value == 0x80     ? Mode::EraseSetup
              : value == 0x20     ? Mode::Bypass
              : value == 0x90     ? Mode::Id
                                  : Mode::Array;
      return;
    case Mode::EraseSetup: mode_ = value == 0xaa && at(address, 0x555) ? Mode::EraseUnlock1 : Mode::Array; return;
    case Mode::EraseUnlock1: mode_ = value == 0x55 && at(address, 0x2aa) ? Mode::EraseUnlock2 : Mode::Array; return;
    case Mode::EraseUnlock2:
      if (value == 0x30) {
        amd_erase(address);
      } else {
        mode_ = Mode::Array;  // chip erase (0x10) and anything else: not modelled, ignored
      }
      return;
    default: break;
  }
  if (value == 0xf0 || value == 0xff) {
    mode_ = Mode::Array;
  } else if (value == 0x98 && (at(address, 0x55) || at(address, 0xaa))) {
    mode_ = Mode::Query;
  } else if (value == 0xaa && at(address, 0x555) && mode_ != Mode::Query) {
    mode_ = Mode::Unlock1;
  }
}

void CfiNorFlash::intel_finish(bool done, std::uint8_t error_bit) {
  mode_ = Mode::Status;
  if (!done) status_ |= error_bit | kStatusLocked;
}

void CfiNorFlash::write_intel(std::uint32_t address, std::uint8_t value) {
  switch (mode_) {
    case Mode::IntelProgram: {
      const std::uint8_t b = value;
      intel_finish(cells_->program_cells(address, std::span(&b, 1)), kStatusProgramError);
      return;
    }
    case Mode::IntelErase:
      if (value == 0xd0) {
        intel_finish(cells_->erase_cells(block_start(address), chip_->block_size), kStatusEraseError);
      } else {
        status_ |= kStatusEraseError | kStatusProgramError;  // command sequence error
        mode_ = Mode::Status;
      }
      return;
    case Mode::BufferCount: {
      const std::uint32_t n = std::uint32_t{value} + 1;
      if (n > (1u << chip_->cfi.log2_write_buffer)) {
        status_ |= kStatusEraseError | kStatusProgramError;
        mode_ = Mode::Status;
        return;
      }
      buffer_left_ = n;
      buffer_.clear();
      mode_ = Mode::BufferData;
      return;
    }
    case Mode::BufferData: {
      const std::uint32_t window = 1u << chip_->cfi.log2_write_buffer;
      if (buffer_.empty()) buffer_base_ = address / window * window;
      if (address / window * window != buffer_base_) {  // outside the buffer window: sequence error
        status_ |= kStatusEraseError | kStatusProgramError;
        mode_ = Mode::Status;
        return;
      }
      buffer_.emplace_back(address, value);
      if (--buffer_left_ == 0) mode_ = Mode::BufferConfirm;
      return;
    }
    case Mode::BufferConfirm: {
      if (value != 0xd0) {
        status_ |= kStatusEraseError | kStatusProgramError;
        mode_ = Mode::Status;
        return;
      }
      std::vector<std::uint8_t> bytes(1u << chip_->cfi.log2_write_buffer, 0xff);
      for (const auto& [a, b] : buffer_) bytes[a - buffer_base_] &= b;
      intel_finish(cells_->program_cells(buffer_base_, bytes), kStatusProgramError);
      return;
    }
    default: break;
  }
  switch (value) {
    case 0xff: mode_ = Mode::Array; break;
    case 0x70: mode_ = Mode::Status; break;
    case 0x50: status_ = kStatusReady; break;
    case 0x90: mode_ = Mode::Id; break;
    case 0x98: mode_ = Mode::Query; break;
    case 0x40:
    case 0x10: mode_ = Mode::IntelProgram; break;
    case 0x20: mode_ = Mode::IntelErase; break;
    case 0xe8:
      // The write buffer is free once the last operation finished; else the part stays in
      // status mode with bit 7 clear and the tool asks again.
      mode_ = cells_->busy() ? Mode::Status : Mode::BufferCount;
      break;
    default: break;  // 0xB0 / 0xD0 outside a sequence: nothing to suspend or resume
  }
}

}  // namespace openflint::sim
