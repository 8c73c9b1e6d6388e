// CrSpace: register storage plus hook dispatch.
#include "sim/CrSpace.h"

#include "core/HexString.h"

namespace openflint::sim {
namespace {

Result<void> check_aligned(std::uint32_t address) {
  if (address % 4 != 0) {
    return make_error(ErrorCode::InvalidArgument,
                      "cr-space address " + hex_string(address) + " is not dword aligned");
  }
  return {};
}

}  // namespace

void CrSpace::add_hook(std::uint32_t first, std::uint32_t last, ReadHandler on_read,
                       WriteHandler on_write) {
  hooks_.push_back(Hook{first, last, std::move(on_read), std::move(on_write)});
}

const CrSpace::Hook* CrSpace::find_hook(std::uint32_t address) const {
  for (auto it = hooks_.rbegin(); it != hooks_.rend(); ++it) {
    if (address >= it->first && address <= it->last) return &*it;
  }
  return nullptr;
}

Result<std::uint32_t> CrSpace::read32(std::uint32_t address) {
  OF_TRY(check_aligned(address));
  if (const Hook* hook = find_hook(address); hook != nullptr && hook->on_read) {
    return hook->on_read(address);
  }
  return peek(address);
}

Result<void> CrSpace::write32(std::uint32_t address, std::uint32_t value) {
  OF_TRY(check_aligned(address));
  if (const Hook* hook = find_hook(address); hook != nullptr && hook->on_write) {
    return hook->on_write(address, value);
  }
  poke(address, value);
  return {};
}

std::uint32_t CrSpace::peek(std::uint32_t address) const {
  auto it = registers_.find(address);
  return it == registers_.end() ? 0 : it->second;
}

void CrSpace::poke(std::uint32_t address, std::uint32_t value) { registers_[address] = value; }

}  // namespace openflint::sim
