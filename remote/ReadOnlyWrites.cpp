// ReadOnlyWrites: classifies one CR-space write against the device's flash gateway record.
#include "remote/ReadOnlyWrites.h"

#include <array>
#include <optional>
#include <string>

#include "core/HexString.h"
#include "devices/SpiOpcode.h"

namespace openflint {
namespace {

// The SPI commands a flash query sends (flash/FlashDriver: probe, status, array reads).
constexpr std::array<std::uint8_t, 5> kSpiReadOpcodes{spi::kRead, spi::kRead4, spi::kReadStatus, spi::kReadJedecId,
                                                      spi::kReadSignature};
// CFI bus write cycles that only switch the part between read modes (docs/legacy-devices.md
// §4-5): Intel read array and read status, AMD reset, the CFI query, read identifier. Program
// and erase need a set-up byte (0x40, 0x10, 0xe8, 0x20; AMD 0xaa 0x55 then 0xa0 or 0x80) that is
// not among them.
constexpr std::array<std::uint8_t, 5> kCfiReadModeCommands{0xff, 0xf0, 0x98, 0x90, 0x70};
// The chip-select support register's field (SwitchX, InfiniScale IV: 0xf0420 [3:0]).
constexpr std::uint32_t kChipSelectSupportBits = 0xf;
constexpr std::uint32_t kBankSelectBits = 3;  // the bank select register's 2-bit field

bool bit(std::uint32_t word, std::uint8_t n) { return ((word >> n) & 1u) != 0; }

template <std::size_t N>
bool listed(const std::array<std::uint8_t, N>& set, std::uint32_t value) {
  for (const std::uint8_t v : set)
    if (v == value) return true;
  return false;
}

Unexpected refuse(std::uint32_t address, const std::string& why) {
  return make_error(ErrorCode::PermissionDenied, "writing " + hex_string(address) + ": " + why);
}

// The write changes nothing outside `field` of the register's current value.
Result<void> only_field_changes(RegisterAccess& access, std::uint32_t address, std::uint32_t value,
                                std::uint32_t field, const char* what) {
  OF_ASSIGN(const std::uint32_t now, access.read32(address));
  if (((now ^ value) & ~field) == 0) return {};
  return refuse(address, std::string("changes bits of the ") + what + " outside " + hex_string(field));
}

Result<void> check_spi_opcode(std::uint32_t address, std::uint32_t opcode) {
  if (listed(kSpiReadOpcodes, opcode)) return {};
  return refuse(address, "flash command " + hex_string(opcode) + " is not a read");
}

Result<void> check_spi_command(RegisterAccess& access, const FlashGatewayInfo& g, std::uint32_t value) {
  const GatewayLayout& l = g.layout;
  if (!bit(value, l.busy_bit)) return {};  // starts no transaction
  if (l.style == GatewayCommandStyle::Special) {
    if (!bit(value, l.no_data_bit) && !bit(value, l.read_op_bit))
      return refuse(g.cmd_addr, "a flash gateway command that sends data to the flash");
    if (!bit(value, l.special_bit)) {
      if (bit(value, l.read_op_bit)) return {};  // the gateway's own array read
      return refuse(g.cmd_addr, "a flash gateway command that is not a read");
    }
    OF_ASSIGN(const std::uint32_t addr_word, access.read32(g.addr_addr));
    return check_spi_opcode(g.cmd_addr, addr_word >> l.addr_opcode_shift);
  }
  if (bit(value, l.data_phase_bit) && !bit(value, l.read_op_bit))
    return refuse(g.cmd_addr, "a flash gateway command that sends data to the flash");
  if (bit(value, l.cmd_phase_bit)) return check_spi_opcode(g.cmd_addr, (value >> l.opcode_shift) & 0xff);
  return {};  // address or data phases of a command already allowed (chip select held)
}

// The parallel gateway's registers; nullopt for an address that is none of them.
std::optional<Result<void>> check_parallel(RegisterAccess& access, const ParallelGatewayLayout& p,
                                           std::uint32_t address, std::uint32_t value) {
  if (address == p.cmd_addr) {
    const std::uint32_t opcode = value >> p.opcode_shift;
    if (opcode == 0 || opcode == p.read4_opcode) return Result<void>{};
    if (opcode != p.write1_opcode) return refuse(address, "parallel flash gateway opcode " + std::to_string(opcode));
    auto data = access.read32(p.data_addr);
    if (!data) return make_error(std::move(data).error());
    const std::uint32_t byte = *data >> 24;
    if (listed(kCfiReadModeCommands, byte)) return Result<void>{};
    return refuse(address, "a flash bus write of " + hex_string(byte) + ", not a read-mode command");
  }
  if (address == p.data_addr) return Result<void>{};  // staged only: CMD decides what is sent
  if (address == p.cpumode_addr) return only_field_changes(access, address, value, 3u << p.cpumode_shift, "CPUMODE");
  for (const std::uint32_t gpio : {p.gpio_data_addr, p.gpio_dir_addr, p.gpio_pol_addr, p.gpio_mod_addr})
    if (address == gpio) return only_field_changes(access, address, value, p.bank_mask(), "GPIO register");
  if (address == p.gpio_set_addr || address == p.gpio_clear_addr) {
    if ((value & ~p.bank_mask()) == 0) return Result<void>{};
    return refuse(address, "sets or clears GPIO bits other than the flash bank's");
  }
  return std::nullopt;
}

}  // namespace

Result<void> check_read_only_write(RegisterAccess& access, const FlashGatewayInfo& g, std::uint32_t address,
                                   std::uint32_t value) {
  if (g.is_spi_gateway()) {
    if (address == g.cmd_addr) return check_spi_command(access, g, value);
    if (address == g.addr_addr) return {};
    if (g.bank_select_addr != 0 && address == g.bank_select_addr)
      return only_field_changes(access, address, value, kBankSelectBits << g.bank_select_shift, "bank select");
    if (g.chip_select_support_addr != 0 && address == g.chip_select_support_addr)
      return only_field_changes(access, address, value, kChipSelectSupportBits, "chip-select support register");
  }
  if (g.is_parallel_gateway())
    if (auto parallel = check_parallel(access, g.parallel, address, value)) return std::move(*parallel);
  if (g.lock == FlashLockKind::Semaphore && address == g.semaphore_addr) {
    if (value == 0) return {};
    return refuse(address, "the flash semaphore is taken by reading it, not by writing");
  }
  if (g.cache_guard.present() && address == g.cache_guard.trigger_addr) return {};
  return refuse(address, "not part of reading the flash");
}

}  // namespace openflint
