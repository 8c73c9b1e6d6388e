// CrSpaceWords: address checks against the catalog's CR-space size, block reads, committed writes.
#include "fwops/registers/CrSpaceWords.h"

#include <algorithm>
#include <span>
#include <string>

#include "core/HexString.h"
#include "devices/CrRegisterMap.h"

namespace openflint {

Result<void> check_cr_range(const DeviceInfo& info, std::uint64_t address, std::uint64_t dwords) {
  if (address % 4 != 0)
    return make_error(ErrorCode::InvalidArgument, "address " + hex_string(address) + " is not dword aligned");
  if (dwords == 0) return make_error(ErrorCode::InvalidArgument, "the dword count must be at least 1");
  const std::uint64_t size = info.cr_space.size;
  const std::uint64_t limit = size != 0 ? size : (std::uint64_t{1} << 32);
  if (address >= limit || dwords > (limit - address) / 4) {
    const std::string end = hex_string(address + 4 * dwords - 1);
    return make_error(ErrorCode::InvalidArgument,
                      "address range " + hex_string(address) + ".." + end + " is outside the CR-space of " +
                          std::string(info.name) + " (" + hex_string(limit) + " bytes)");
  }
  return {};
}

Result<std::vector<std::uint32_t>> read_cr_words(Device& device, std::uint64_t address, std::uint64_t dwords) {
  OF_TRY(check_cr_range(device.info(), address, dwords));
  std::vector<std::uint32_t> words(static_cast<std::size_t>(dwords));
  const std::size_t block = std::max<std::size_t>(1, device.access().max_block_dwords());
  for (std::size_t done = 0; done < words.size();) {
    const std::size_t n = std::min(block, words.size() - done);
    const auto at = static_cast<std::uint32_t>(address + 4 * done);
    OF_TRY_CTX(device.access().read_block(at, std::span<std::uint32_t>(words.data() + done, n)), device.name() + ": reading " + hex_string(at));
    done += n;
  }
  return words;
}

Result<void> write_cr_word(Device& device, std::uint64_t address, std::uint32_t value) {
  OF_TRY(check_cr_range(device.info(), address, 1));
  const auto at = static_cast<std::uint32_t>(address);
  OF_TRY_CTX(device.access().write32(at, value), device.name() + ": writing " + hex_string(at));
  OF_TRY_CTX(device.commit(), device.name() + ": saving the simulated device");
  return {};
}

Result<FieldWrite> write_cr_field(Device& device, std::uint32_t address, const std::string& field,
                                  std::uint32_t value) {
  const auto registers = cr_registers(device.info());
  const CrRegister* reg = find_cr_register(registers, address);
  if (reg == nullptr)
    return make_error(ErrorCode::InvalidArgument, hex_string(address) + " is not a register the catalog names for " +
                                                      std::string(device.info().name));
  if (reg->read_effect == ReadEffect::TakesLock)
    return make_error(ErrorCode::InvalidArgument, reg->name + " is not written field by field: reading it takes a lock");
  RegisterField bits{"", 31, 0};
  if (!field.empty() || !reg->fields.empty()) {
    const auto it = std::find_if(reg->fields.begin(), reg->fields.end(), [&](const RegisterField& f) { return f.name == field; });
    if (it == reg->fields.end())
      return make_error(ErrorCode::InvalidArgument, reg->name + " has no field '" + field + "'");
    bits = *it;
  }
  const unsigned width = bits.msb - bits.lsb + 1u;
  const std::uint32_t mask = width >= 32 ? 0xffffffffu : ((1u << width) - 1u);
  if ((value & ~mask) != 0)
    return make_error(ErrorCode::InvalidArgument, hex_string(value) + " does not fit " + reg->name +
                                                      (field.empty() ? "" : "." + field) + " (" +
                                                      std::to_string(width) + " bits)");
  OF_ASSIGN(const auto words, read_cr_words(device, address, 1));
  FieldWrite w{address, reg->name, words[0], (words[0] & ~(mask << bits.lsb)) | (value << bits.lsb)};
  OF_TRY(write_cr_word(device, address, w.after));
  return w;
}

}  // namespace openflint
