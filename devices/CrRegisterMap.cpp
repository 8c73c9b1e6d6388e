// CrRegisterMap: names the registers a catalog record already locates (gateway, semaphore, boot
// address, hw id) and merges the family table; field layouts come from GatewayLayout.
#include "devices/CrRegisterMap.h"

#include <algorithm>
#include <string>

namespace openflint {
namespace {

RegisterField bit_field(std::string_view name, std::uint8_t bit) { return {name, bit, bit}; }

// The CMD word's fields, from the generation's bit positions (devices/FlashGatewayInfo.h).
std::vector<RegisterField> cmd_fields(const FlashGatewayInfo& gw) {
  const GatewayLayout& l = gw.layout;
  std::vector<RegisterField> f;
  if (gw.lock == FlashLockKind::CmdBit31) f.push_back(bit_field("lock", l.lock_bit));
  f.push_back(bit_field("busy", l.busy_bit));
  const auto size_msb = static_cast<std::uint8_t>(l.data_size_shift + l.data_size_width - 1);
  if (l.style == GatewayCommandStyle::Special) {
    f.push_back(bit_field("special", l.special_bit));
    f.push_back(bit_field("no_addr", l.no_addr_bit));
    f.push_back(bit_field("no_data", l.no_data_bit));
    f.push_back({"data_size", size_msb, l.data_size_shift});
    f.push_back(bit_field("read_op", l.read_op_bit));
    return f;
  }
  if (gw.supports_4byte_address) f.push_back(bit_field("addr4", l.addr4_bit));
  f.push_back({"opcode", static_cast<std::uint8_t>(l.opcode_shift + 7), l.opcode_shift});
  if (gw.needs_flash_enable) f.push_back(bit_field("flash_enable", l.flash_enable_bit));
  f.push_back(bit_field("chip_select", l.chip_select_bit));
  f.push_back({"data_size", size_msb, l.data_size_shift});
  f.push_back(bit_field("cs_hold", l.cs_hold_bit));
  f.push_back(bit_field("data_phase", l.data_phase_bit));
  f.push_back(bit_field("addr_phase", l.addr_phase_bit));
  f.push_back(bit_field("cmd_phase", l.cmd_phase_bit));
  f.push_back(bit_field("read_op", l.read_op_bit));
  return f;
}

void add_gateway(const FlashGatewayInfo& gw, std::vector<CrRegister>& out) {
  if (gw.is_spi_gateway()) {
    const ReadEffect cmd_effect = gw.lock == FlashLockKind::CmdBit31 ? ReadEffect::TakesLock : ReadEffect::None;
    out.push_back({gw.cmd_addr, "flash_gw.cmd", cmd_effect, cmd_fields(gw)});
    std::vector<RegisterField> addr{{"address", 31, 0}};
    if (gw.layout.style == GatewayCommandStyle::Special) {
      const std::uint8_t shift = gw.layout.addr_opcode_shift;
      addr = {{"opcode", 31, shift}, {"address", static_cast<std::uint8_t>(shift - 1), 0}};
    }
    out.push_back({gw.addr_addr, "flash_gw.addr", ReadEffect::None, addr});
    for (std::uint32_t i = 0; i < gw.data_dwords; ++i)
      out.push_back({gw.data_addr + 4 * i, "flash_gw.data" + std::to_string(i), ReadEffect::None, {}});
    if (gw.bank_select_addr != 0)
      out.push_back({gw.bank_select_addr, "flash_gw.bank_select", ReadEffect::None,
                     {{"bank", static_cast<std::uint8_t>(gw.bank_select_shift + 1), gw.bank_select_shift}}});
  }
  if (gw.is_parallel_gateway()) {
    const ParallelGatewayLayout& p = gw.parallel;
    const auto shift = p.opcode_shift;
    out.push_back({p.cmd_addr, "flash_gw.cmd", ReadEffect::None,
                   {{"opcode", 31, shift}, {"address", static_cast<std::uint8_t>(p.log2_bank_size - 1), 0}}});
    out.push_back({p.data_addr, "flash_gw.data", ReadEffect::None, {}});
    out.push_back({p.cpumode_addr, "cpumode", ReadEffect::None, {{"flash_bus", 31, p.cpumode_shift}}});
    const std::uint8_t lo = p.bank_gpio_shift, hi = static_cast<std::uint8_t>(p.bank_gpio_shift + p.bank_bits - 1);
    out.push_back({p.gpio_data_addr, "gpio_data_l", ReadEffect::None, {{"flash_bank", hi, lo}}});
    out.push_back({p.gpio_dir_addr, "gpio_dir_l", ReadEffect::None, {{"flash_bank", hi, lo}}});
  }
  if (gw.lock == FlashLockKind::Semaphore)
    out.push_back({gw.semaphore_addr, "flash_semaphore", ReadEffect::TakesLock, {{"taken", 31, 0}}});
}

}  // namespace

std::vector<CrRegister> cr_registers(const DeviceInfo& info) {
  std::vector<CrRegister> out;
  out.push_back({info.hw_id_addr, "hw_id", ReadEffect::None, {{"hw_revision", 23, 16}, {"hw_id", 15, 0}}});
  add_gateway(info.flash_gateway, out);
  if (info.boot_address.address != 0)
    out.push_back({info.boot_address.address, "boot_address", ReadEffect::None,
                   {{"boot_address", 31, info.boot_address.shift}}});
  for (const CrRegisterSpec& spec : info.cr_space.registers)
    out.push_back({spec.address, std::string(spec.name), spec.read_effect, {spec.fields.begin(), spec.fields.end()}});
  // Stable: a record-derived register (pushed first) wins over a table entry at its address.
  std::stable_sort(out.begin(), out.end(), [](const CrRegister& a, const CrRegister& b) { return a.address < b.address; });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const CrRegister& a, const CrRegister& b) { return a.address == b.address; }),
            out.end());
  return out;
}

const CrRegister* find_cr_register(const std::vector<CrRegister>& registers, std::uint32_t address) {
  const auto it = std::lower_bound(registers.begin(), registers.end(), address,
                                   [](const CrRegister& r, std::uint32_t a) { return r.address < a; });
  return it != registers.end() && it->address == address ? &*it : nullptr;
}

}  // namespace openflint
