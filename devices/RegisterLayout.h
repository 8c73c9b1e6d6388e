// RegisterLayout: an access register's fields by name (what mst reg decodes), as catalog data.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/Result.h"

namespace openflint {

// RO: the firmware's; RW: may be set; WO: set only (reads as 0); Index: selects which instance
// a GET or SET means (every index field must be given).
enum class FieldAccess : std::uint8_t { RO, RW, WO, Index };

// Bits [lsb+width-1 : lsb] of the big-endian dword at byte `address` (mstreg's "Address (Bytes)",
// "Offset (Bits)", "Size (Bits)"). Names are the PRM's leaf names, as mstreg prints them.
struct AccessRegisterField {
  std::string_view name{};
  std::uint16_t address = 0;
  std::uint8_t lsb = 0;
  std::uint8_t width = 32;
  FieldAccess access = FieldAccess::RO;
};

struct RegisterLayout {
  std::string_view name{};  // "MGIR"
  std::uint16_t id = 0;
  std::uint16_t size = 0;   // bytes sent and received
  std::span<const AccessRegisterField> fields{};
};

[[nodiscard]] std::span<const RegisterLayout> register_layouts();
// By name, case-insensitive; NotFound naming the known ones otherwise.
[[nodiscard]] Result<const RegisterLayout*> find_register_layout(std::string_view name);
[[nodiscard]] constexpr std::string_view to_string(FieldAccess a) {
  return a == FieldAccess::RO ? "RO" : a == FieldAccess::RW ? "RW" : a == FieldAccess::WO ? "WO" : "INDEX";
}

}  // namespace openflint
