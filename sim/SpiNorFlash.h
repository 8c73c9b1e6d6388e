// SpiNorFlash: a simulated SPI NOR chip built from a FlashChip record, driven one SPI command at a time.
#pragma once

#include <array>
#include <filesystem>
#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"
#include "sim/FlashCells.h"
#include "devices/FlashChip.h"

namespace openflint::sim {

struct SpiNorCounters {
  std::uint64_t erases = 0;            // erase commands that took effect
  std::uint64_t programs = 0;          // page-program commands that took effect
  std::uint64_t reads = 0;             // read commands
  std::uint64_t bytes_programmed = 0;
  std::uint64_t ignored_commands = 0;  // refused: busy, no WEL, write protected, unknown opcode
};

// Bus model: command() asserts chip select (CS) and latches an opcode; address() and data
// follow; deselect() raises CS, which is when erase and program take effect (as on real parts).
// NOR rules: erase sets 0xFF, program ANDs, a page program wraps inside its 256-byte page.
class SpiNorFlash {
 public:
  explicit SpiNorFlash(const FlashChip& chip);

  [[nodiscard]] const FlashChip& chip() const { return *chip_; }

  void command(std::uint8_t opcode);
  void address(std::uint32_t address, unsigned address_bytes);
  void write_data(std::span<const std::uint8_t> bytes);
  void read_data(std::span<std::uint8_t> out);
  void deselect();
  [[nodiscard]] bool selected() const { return selected_; }

  // Erase/program leave WIP set for this many status reads (slow flash); stuck = never ready.
  void set_busy_polls(std::uint32_t polls) { busy_polls_per_op_ = polls; }
  void set_stuck_busy(bool stuck) { stuck_busy_ = stuck; }
  void set_write_protected(bool wp) { write_protected_ = wp; }
  [[nodiscard]] bool write_protected() const { return write_protected_; }
  [[nodiscard]] bool busy() const { return stuck_busy_ || busy_polls_left_ > 0; }
  [[nodiscard]] bool write_enabled() const { return write_enable_latch_; }
  [[nodiscard]] std::uint32_t busy_polls_per_op() const { return busy_polls_per_op_; }
  [[nodiscard]] bool stuck_busy() const { return stuck_busy_; }

  [[nodiscard]] std::span<const std::uint8_t> contents() const { return memory_.view(); }
  // Writes only the 4 KiB pages that differ (a copy-on-write array keeps the others shared).
  [[nodiscard]] Result<void> set_contents(std::span<const std::uint8_t> bytes);
  // The same for the first bytes.size() bytes (at most the chip's size); the rest stays.
  [[nodiscard]] Result<void> set_prefix(std::span<const std::uint8_t> bytes);
  // The cells become a private (copy-on-write) mapping of `base`, a file of the chip's size that
  // many devices may share (sim/FlashCells.h); writes never reach the file.
  [[nodiscard]] Result<void> map_base(const std::filesystem::path& base);
  [[nodiscard]] bool mapped() const { return memory_.mapped(); }
  [[nodiscard]] const SpiNorCounters& counters() const { return counters_; }
  // Grows with every change of the cells (program, erase, set_contents): equal generations, equal
  // contents. Not saved; a save of an unchanged flash can skip flash.bin (SimDevice::save_state).
  [[nodiscard]] std::uint64_t generation() const { return generation_; }
  void set_counters(const SpiNorCounters& c) { counters_ = c; }

  // Power loss: CS, latches and an in-flight busy period are lost; the array keeps its bits.
  void reset();

  // The cell array as a parallel command interpreter (sim/CfiNorFlash) drives it, with the same
  // faults and counters: false when refused (write protected, or busy with the last operation).
  // A program ANDs `bytes` in and counts as one program; an erase sets `size` bytes at `start`.
  [[nodiscard]] bool program_cells(std::uint32_t address, std::span<const std::uint8_t> bytes);
  [[nodiscard]] bool erase_cells(std::uint32_t start, std::uint32_t size);
  // An EEPROM page write (sim/I2cEeprom) over the same cells: replaces the bytes (no erase needed)
  // and counts as one program; false when write protected. Its write cycle is the caller's.
  [[nodiscard]] bool write_cells(std::uint32_t address, std::span<const std::uint8_t> bytes);
  // One status poll of the cells: true while the last operation is still running.
  [[nodiscard]] bool poll_busy();

 private:
  [[nodiscard]] std::uint8_t status() const;
  void finish_program();
  void finish_erase(std::uint32_t size);
  [[nodiscard]] bool accepts_write_op();
  void start_busy();

  const FlashChip* chip_;
  FlashCells memory_;
  SpiNorCounters counters_;
  std::uint64_t generation_ = 0;

  bool selected_ = false;
  std::uint8_t opcode_ = 0;
  bool has_address_ = false;
  std::uint32_t address_ = 0;
  std::uint32_t cursor_ = 0;  // next byte for reads / page offset for programs
  std::uint32_t data_index_ = 0;
  std::array<std::uint8_t, 256> page_buffer_{};
  std::array<bool, 256> page_valid_{};
  bool command_ignored_ = false;

  bool write_enable_latch_ = false;
  bool write_protected_ = false;
  bool stuck_busy_ = false;
  std::uint32_t busy_polls_per_op_ = 0;
  std::uint32_t busy_polls_left_ = 0;
};

}  // namespace openflint::sim
