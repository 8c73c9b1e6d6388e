// RegisterByName: field packing over the big-endian register bytes, index checks, GET/SET with statuses as errors.
#include "fwops/registers/RegisterByName.h"


#include "core/HexString.h"
#include "core/NumberText.h"

namespace openflint {
namespace {

using Tlv = AccessRegisterTlv;

std::uint32_t mask_of(const AccessRegisterField& f) { return f.width >= 32 ? 0xffffffffu : (1u << f.width) - 1; }

std::uint32_t get_field(const std::vector<std::uint8_t>& d, const AccessRegisterField& f) {
  if (f.address + 4u > d.size()) return 0;
  const std::uint32_t w = std::uint32_t{d[f.address]} << 24 | std::uint32_t{d[f.address + 1]} << 16 |
                          std::uint32_t{d[f.address + 2]} << 8 | d[f.address + 3];
  return w >> f.lsb & mask_of(f);
}

void put_field(std::vector<std::uint8_t>& d, const AccessRegisterField& f, std::uint32_t v) {
  if (f.address + 4u > d.size()) return;
  std::uint32_t w = std::uint32_t{d[f.address]} << 24 | std::uint32_t{d[f.address + 1]} << 16 |
                    std::uint32_t{d[f.address + 2]} << 8 | d[f.address + 3];
  const std::uint32_t m = mask_of(f) << f.lsb;
  w = (w & ~m) | (v << f.lsb & m);
  for (int i = 0; i < 4; ++i) d[f.address + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(w >> (24 - 8 * i));
}

const AccessRegisterField* field_named(const RegisterLayout& layout, const std::string& name) {
  for (const AccessRegisterField& f : layout.fields)
    if (f.name == name) return &f;
  return nullptr;
}

Result<std::vector<std::uint8_t>> transact(RegisterPort& port, const RegisterLayout& layout, std::uint8_t method,
                                           std::vector<std::uint8_t> data) {
  OF_ASSIGN(const auto answer, port.access(layout.id, method, std::move(data)));
  if (answer.status == Tlv::kStatusRegisterNotSupported)
    return make_error(ErrorCode::NotSupported, "the firmware does not support register " + std::string(layout.name));
  if (answer.status != 0)
    return make_error(answer.status == Tlv::kStatusBadParameter ? ErrorCode::InvalidArgument : ErrorCode::Io,
                      std::string(layout.name) + ": the firmware answered status " + hex_string(answer.status) +
                          (answer.status == Tlv::kStatusBadParameter ? " (bad parameter)" : ""));
  return answer.data;
}

Result<std::vector<std::uint8_t>> indexed_buffer(const RegisterLayout& layout, const FieldAssignments& indexes) {
  std::vector<std::uint8_t> data((layout.size + 3u) / 4 * 4, 0);
  for (const auto& [name, value] : indexes) {
    const AccessRegisterField* f = field_named(layout, name);
    if (f == nullptr || f->access != FieldAccess::Index)
      return make_error(ErrorCode::InvalidArgument, std::string(layout.name) + " has no index field " + name);
    put_field(data, *f, value);
  }
  for (const AccessRegisterField& f : layout.fields)
    if (f.access == FieldAccess::Index && !indexes.contains(std::string(f.name)))
      return make_error(ErrorCode::InvalidArgument, std::string(layout.name) + ": index field " + std::string(f.name) +
                                                        " must be given (--indexes " + std::string(f.name) + "=...)");
  return data;
}

std::vector<FieldValue> decode(const RegisterLayout& layout, const std::vector<std::uint8_t>& data) {
  std::vector<FieldValue> out;
  for (const AccessRegisterField& f : layout.fields) out.push_back({&f, get_field(data, f)});
  return out;
}

}  // namespace

Result<FieldAssignments> parse_field_list(std::string_view text) {
  FieldAssignments out;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view pair = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const auto eq = pair.find('=');
    if (eq == std::string_view::npos || eq == 0)
      return make_error(ErrorCode::InvalidArgument, "'" + std::string(pair) + "' is not FIELD=VALUE");
    OF_ASSIGN(const std::uint64_t v, parse_unsigned(pair.substr(eq + 1), 0xffffffff, std::string(pair.substr(0, eq))));
    out[std::string(pair.substr(0, eq))] = static_cast<std::uint32_t>(v);
  }
  return out;
}

Result<std::vector<FieldValue>> get_register(RegisterPort& port, const RegisterLayout& layout,
                                             const FieldAssignments& indexes) {
  OF_ASSIGN(auto data, indexed_buffer(layout, indexes));
  OF_ASSIGN(const auto answer, transact(port, layout, Tlv::kMethodQuery, std::move(data)));
  return decode(layout, answer);
}

Result<void> check_settable(const RegisterLayout& layout, const FieldAssignments& fields) {
  for (const auto& [name, value] : fields) {
    const AccessRegisterField* f = field_named(layout, name);
    if (f == nullptr) return make_error(ErrorCode::InvalidArgument, std::string(layout.name) + " has no field " + name);
    if (f->access == FieldAccess::RO || f->access == FieldAccess::Index)
      return make_error(ErrorCode::InvalidArgument, "field " + name + " of " + std::string(layout.name) + " is " +
                                                        (f->access == FieldAccess::RO ? "read-only" : "an index (--indexes)"));
    if ((value & ~mask_of(*f)) != 0)
      return make_error(ErrorCode::InvalidArgument, hex_string(value) + " does not fit field " + name + " (" +
                                                        std::to_string(f->width) + " bits)");
  }
  return {};
}

Result<std::vector<FieldValue>> set_register(RegisterPort& port, const RegisterLayout& layout,
                                             const FieldAssignments& indexes, const FieldAssignments& fields) {
  OF_TRY(check_settable(layout, fields));
  OF_ASSIGN(auto data, indexed_buffer(layout, indexes));
  OF_ASSIGN(auto current, transact(port, layout, Tlv::kMethodQuery, std::move(data)));
  for (const AccessRegisterField& f : layout.fields)
    if (f.access == FieldAccess::WO) put_field(current, f, 0);
  for (const auto& [name, value] : fields) put_field(current, *field_named(layout, name), value);
  const auto sent = decode(layout, current);
  OF_TRY(transact(port, layout, Tlv::kMethodWrite, std::move(current)));
  return sent;
}

}  // namespace openflint
