// CfiNorFlash: a simulated parallel x8 NOR part (CFI query, Intel or AMD command set) driven one bus cycle at a time.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "devices/FlashChip.h"
#include "sim/SpiNorFlash.h"

namespace openflint::sim {

// The command interpreter of a FlashInterface::ParallelCfi catalog part over the cell array, faults and
// counters of `cells` (so power cuts, write protection, slow and stuck parts work as on the SPI
// model). Facts: docs/legacy-devices.md §4-5.
// AMD (command set 2): unlock cycles 0xAA@0x555, 0x55@0x2AA; then 0xA0@0x555 + data = byte
// program, 0x80@0x555 + unlock + 0x30@sector = sector erase, 0x20@0x555 = unlock bypass (0xA0 +
// data per byte; 0x90, 0x00 leaves it). While busy, reads return data polling (DQ7 the complement
// of the final bit 7, DQ6 toggling). 0xF0 (or 0xFF) returns to array reads; 0x98@0x55 = CFI query.
// A protected part takes the sequence and returns to array reads unchanged.
// Intel (command set 1): 0xFF read array, 0x70 read status, 0x50 clear status, 0x90 read id,
// 0x98 CFI query, 0x40/0x10 + data = byte program, 0x20 + 0xD0 = block erase, 0xE8 (answered by
// status bit 7) + count-1 + data + 0xD0 = buffered program. After a program or erase every read
// returns the status (bit 7 ready, 0x10 program / 0x20 erase error, 0x02 block locked).
// x16 parts strapped x8 (cfi.stride 2) answer CFI offset n at byte address 2n, 0 at odd addresses.
class CfiNorFlash {
 public:
  CfiNorFlash(const FlashChip& chip, SpiNorFlash& cells);

  void write_byte(std::uint32_t address, std::uint8_t value);
  // Four bytes from the 4-aligned `address`, lowest address in [31:24]: one bus read (one status poll).
  [[nodiscard]] std::uint32_t read4(std::uint32_t address);
  // Power loss: back to array reads, status and buffers cleared.
  void reset();

  [[nodiscard]] bool intel() const { return chip_->cfi.command_set == 1; }

 private:
  enum class Mode : std::uint8_t {
    Array, Query, Status, Id,
    // AMD sequence states
    Unlock1, Unlock2, ProgramData, EraseSetup, EraseUnlock1, EraseUnlock2, Bypass, BypassProgram, BypassExit,
    // Intel two-cycle commands
    IntelProgram, IntelErase, BufferCount, BufferData, BufferConfirm,
  };
  void write_amd(std::uint32_t address, std::uint8_t value);
  void write_intel(std::uint32_t address, std::uint8_t value);
  [[nodiscard]] std::uint8_t query_byte(std::uint32_t address) const;
  [[nodiscard]] std::uint8_t array_byte(std::uint32_t address) const;
  void amd_program(std::uint32_t address, std::uint8_t value, Mode after);
  void amd_erase(std::uint32_t address);
  void intel_finish(bool done, std::uint8_t error_bit);
  [[nodiscard]] std::uint32_t block_start(std::uint32_t address) const;

  const FlashChip* chip_;
  SpiNorFlash* cells_;
  std::vector<std::uint8_t> query_;  // CFI table by offset
  Mode mode_ = Mode::Array;
  Mode return_to_ = Mode::Array;  // AMD: where a finished program goes (array or bypass)
  std::uint8_t status_ = 0x80;    // Intel status register
  // AMD data polling while busy: the value the last operation leaves at its address.
  bool amd_busy_ = false;
  std::uint8_t amd_busy_final_ = 0;
  bool toggle_ = false;
  // Intel write buffer
  std::uint32_t buffer_base_ = 0;
  std::uint32_t buffer_left_ = 0;
  std::vector<std::pair<std::uint32_t, std::uint8_t>> buffer_;
};

}  // namespace openflint::sim
