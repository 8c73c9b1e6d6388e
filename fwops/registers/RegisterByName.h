// RegisterByName: one access register read or written by field name (mst reg), over a device's register port.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/Result.h"
#include "devices/RegisterLayout.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

struct FieldValue {
  const AccessRegisterField* field = nullptr;
  std::uint32_t value = 0;
};

using FieldAssignments = std::map<std::string, std::uint32_t>;  // field name → value

// "f1=v1,f2=v2" (numbers decimal or 0x hex) → assignments; InvalidArgument on a malformed pair.
[[nodiscard]] Result<FieldAssignments> parse_field_list(std::string_view text);

// GET with the index fields set from `indexes` (every index field must be given; nothing else
// may be): every field of the layout, in order. A register status other than 0 is an error
// naming it (NotSupported for "register not supported").
[[nodiscard]] Result<std::vector<FieldValue>> get_register(RegisterPort& port, const RegisterLayout& layout,
                                                           const FieldAssignments& indexes);
// Checks `fields` against the layout (known, writable, fits its width) before anything is sent.
[[nodiscard]] Result<void> check_settable(const RegisterLayout& layout, const FieldAssignments& fields);
// GET, the writable `fields` put in, SET: what was sent.
[[nodiscard]] Result<std::vector<FieldValue>> set_register(RegisterPort& port, const RegisterLayout& layout,
                                                           const FieldAssignments& indexes,
                                                           const FieldAssignments& fields);

}  // namespace openflint
