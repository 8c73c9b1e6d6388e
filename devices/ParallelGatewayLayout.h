// ParallelGatewayLayout: the InfiniHost parallel-flash gateway in CR-space (CR_FLASH, GPIO bank select).
#pragma once

#include <cstdint>

namespace openflint {

// Facts: docs/legacy-devices.md §2 (first public flint 2005/2007, mflash ihst_*). The gateway
// runs one bus cycle per command: a 4-byte read or a 1-byte write at a 19-bit address inside the
// current 512 KiB bank; flash address bits 21:19 come out on GPIO[6:4].
struct ParallelGatewayLayout {
  std::uint32_t cmd_addr = 0;        // opcode in [31:29], byte address in [18:0]; reads 0 in [31:29] when done
  std::uint32_t data_addr = 0;       // READ4: 4 bytes, the lowest address in [31:24]; WRITE1: the byte in [31:24]
  std::uint8_t opcode_shift = 29;
  std::uint8_t read4_opcode = 1;
  std::uint8_t write1_opcode = 2;
  std::uint8_t log2_bank_size = 19;  // address bits per bank
  std::uint32_t cpumode_addr = 0;    // [31:30] set to 01 before flash access (handing the bus to the gateway)
  std::uint8_t cpumode_shift = 30;
  std::uint32_t gpio_data_addr = 0;  // GPIO_DAT_L: saved at open, restored at close
  std::uint32_t gpio_dir_addr = 0;   // GPIO_DIR_L: bank bits made outputs
  std::uint32_t gpio_pol_addr = 0;   // GPIO_POL_L: bank bits cleared
  std::uint32_t gpio_mod_addr = 0;   // GPIO_MOD_L: bank bits cleared
  std::uint32_t gpio_clear_addr = 0; // GPIO_DATACLEAR_L: write a mask to clear data bits
  std::uint32_t gpio_set_addr = 0;   // GPIO_DATASET_L: write a mask to set data bits
  std::uint8_t bank_gpio_shift = 4;  // bank number on GPIO[6:4]
  std::uint8_t bank_bits = 3;        // at most 8 banks = 4 MiB

  [[nodiscard]] constexpr std::uint32_t bank_mask() const { return ((1u << bank_bits) - 1) << bank_gpio_shift; }
  [[nodiscard]] constexpr std::uint32_t offset_mask() const { return (1u << log2_bank_size) - 1; }
};

// InfiniHost (MT23108) and InfiniHost III Ex (MT25208).
inline constexpr ParallelGatewayLayout kInfiniHostParallelLayout{.cmd_addr = 0xf01a4,
                                                                 .data_addr = 0xf01a8,
                                                                 .cpumode_addr = 0xf0150,
                                                                 .gpio_data_addr = 0xf0084,
                                                                 .gpio_dir_addr = 0xf008c,
                                                                 .gpio_pol_addr = 0xf0094,
                                                                 .gpio_mod_addr = 0xf009c,
                                                                 .gpio_clear_addr = 0xf00d4,
                                                                 .gpio_set_addr = 0xf00dc};

}  // namespace openflint
