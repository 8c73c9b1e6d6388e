// NvConfig: MNVQC/MNVGC to learn what the firmware offers, MNVDA reads and writes, MNVIA (docs/nvconfig.md §2).
#include "fwops/registers/NvConfig.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <utility>

#include "core/HexString.h"
#include "core/NumberText.h"
#include "mtcr/registers/NvConfigRegisters.h"

namespace openflint {
namespace {

using Tlv = AccessRegisterTlv;

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
         });
}

std::string status_text(std::uint8_t status) {
  switch (status) {
    case 1: return "the firmware is busy";
    case 3: return "the firmware does not know the register";
    case Tlv::kStatusRegisterNotSupported: return "the firmware does not support the register";
    case Tlv::kStatusMethodNotSupported: return "the firmware does not support the method";
    case Tlv::kStatusBadParameter: return "the firmware refused it (bad parameter)";
    case Tlv::kStatusResourceNotAvailable: return "the firmware has no room or no such item";
    default: return "register status " + hex_string(status);
  }
}

std::uint32_t field_max(const NvParameter& p) {
  const std::uint32_t width_max = nv_reg::field_mask(p.field);
  return p.max_value != 0 ? std::min(p.max_value, width_max) : width_max;
}

std::string setting_name(const NvItem& item, const NvParameter& p, std::uint8_t port) {
  std::string name(p.name);
  if (item.item_class == NvItemClass::PhysicalPort) name += "_P" + std::to_string(port);
  return name;
}

// An MNVDA request for item `type` of `size` data bytes (GET: in `mode`; SET: the data follows).
AccessRegisterTlv mnvda_request(std::uint8_t method, std::uint32_t type, std::uint16_t size, nv_reg::NvReadMode mode,
                                std::uint8_t writer_id = 0) {
  AccessRegisterTlv request = AccessRegisterTlv::request(
      nv_reg::kMnvda, method, std::vector<std::uint8_t>(nv_reg::kHeaderBytes + (size + 3u) / 4 * 4, 0));
  nv_reg::NvItemHeader header;
  header.length = size;
  header.mode = mode;
  header.writer_id = writer_id;
  header.type = type;
  nv_reg::put_header(request.data, header);
  return request;
}

// The 4th-generation MNVA request for one item (GET: the header alone sized for the answer;
// SET: `data` follows).
AccessRegisterTlv mnva_request(std::uint8_t method, const NvItem& item, std::uint8_t port,
                               std::span<const std::uint8_t> data = {}) {
  const std::uint16_t dwords = static_cast<std::uint16_t>((item.size + 3u) / 4);
  AccessRegisterTlv request = AccessRegisterTlv::request(
      nv_reg::kMnva, method, std::vector<std::uint8_t>(nv_reg::kGen4HeaderBytes + std::size_t{dwords} * 4, 0));
  nv_reg::put_gen4_header(request.data, {.type = static_cast<std::uint16_t>(item.index),
                                         .length_dwords = dwords, .type_mod = port});
  std::copy(data.begin(), data.end(), request.data.begin() + nv_reg::kGen4HeaderBytes);
  return request;
}

bool is_gen4(const NvConfigTable& table) { return table.access == NvConfigAccess::Gen4Registers; }

}  // namespace

bool NvReading::pending() const {
  if (current) return next != *current;
  return factory && next != *factory;
}

Result<NvConfig> NvConfig::open(Device& device) {
  const DeviceInfo& info = device.info();
  const std::string name = device.name();
  if (info.nv_config == nullptr)
    return make_error(ErrorCode::NotSupported, name + " (" + std::string(info.name) +
                                                   "): no non-volatile configuration is known for this device family");
  OF_ASSIGN_CTX(RegisterPort* port, device.register_port(), name + ": no register channel for configuration");
  NvConfig config(*port, info, *info.nv_config);
  if (is_gen4(*info.nv_config)) {
    OF_TRY(config.open_gen4(name));
    return config;
  }
  // The probe mstconfig makes: MNVQC on a zero type; a firmware without NV access refuses it.
  OF_ASSIGN(const auto probe, config.item_caps(0));
  if (!probe)
    return make_error(ErrorCode::NotSupported, name + ": the firmware does not give access to its configuration "
                                                      "(MNVQC not supported; is firmware running?)");
  // mstconfig's order: items as the table has them; per-port items port by port.
  const unsigned ports = std::max<unsigned>(info.port_count, 1);
  for (const NvItem& item : config.table_->items) {
    const bool per_port = item.item_class == NvItemClass::PhysicalPort;
    std::vector<std::uint8_t> writable_ports;
    for (unsigned p = per_port ? 1 : 0; p <= (per_port ? ports : 0); ++p) {
      const auto port_number = static_cast<std::uint8_t>(p);
      OF_ASSIGN(const auto caps, config.item_caps(nv_reg::item_type(item.item_class, item.index, port_number)));
      if (!caps || (*caps & 1) == 0) continue;
      if (item.capability) {
        config.capabilities_.push_back(&item);
        break;
      }
      if ((*caps & 2) != 0) writable_ports.push_back(port_number);  // readable only: nothing to configure
    }
    for (const std::uint8_t port_number : writable_ports)
      for (const NvParameter& param : item.parameters)
        config.settings_.push_back({setting_name(item, param, port_number), &item, &param, port_number});
  }
  OF_ASSIGN(const auto answer, config.port_->query(nv_reg::kMnvgc, std::vector<std::uint8_t>(nv_reg::kMnvgcBytes, 0)));
  if (answer.status == 0 && answer.data.size() >= 4) {
    const std::uint32_t d0 = nv_reg::get_be32(answer.data, 0);
    config.reads_factory_ = (d0 & 1) != 0;
    config.reads_current_ = (d0 & 2) != 0;
  }
  return config;
}

// 4th generation: no query register; an item is offered when MNVA GET answers it (its stored
// data, or "resource not available": never stored, the default applies). Defaults are the
// catalog's; there is no "current" read.
Result<void> NvConfig::open_gen4(const std::string& name) {
  const unsigned ports = std::max<unsigned>(info_->port_count, 1);
  bool any_answer = false;
  for (const NvItem& item : table_->items) {
    const bool per_port = item.item_class == NvItemClass::PhysicalPort;
    for (unsigned p = per_port ? 1 : 0; p <= (per_port ? ports : 0); ++p) {
      const auto port_number = static_cast<std::uint8_t>(p);
      OF_ASSIGN(const auto answer, port_->transact(mnva_request(Tlv::kMethodQuery, item, port_number)));
      if (answer.status == Tlv::kStatusRegisterNotSupported) continue;
      any_answer = true;
      if (answer.status != 0 && answer.status != Tlv::kStatusResourceNotAvailable) continue;
      for (const NvParameter& param : item.parameters)
        settings_.push_back({setting_name(item, param, port_number), &item, &param, port_number});
    }
  }
  if (!any_answer)
    return make_error(ErrorCode::NotSupported, name + ": the firmware does not give access to its configuration "
                                                      "(MNVA not supported; is firmware 2.31.5000 or later running?)");
  reads_factory_ = true;
  return {};
}

Result<std::optional<std::uint32_t>> NvConfig::item_caps(std::uint32_t type) {
  std::vector<std::uint8_t> bytes(nv_reg::kMnvqcBytes, 0);
  nv_reg::put_be32(bytes, 0, type);
  OF_ASSIGN(const auto answer, port_->query(nv_reg::kMnvqc, std::move(bytes)));
  if (answer.status != 0 || answer.data.size() < nv_reg::kMnvqcBytes) return std::optional<std::uint32_t>{};
  return std::optional<std::uint32_t>(nv_reg::get_be32(answer.data, 4));
}

Result<NvSetting> NvConfig::find(std::string_view name) const {
  for (const NvSetting& s : settings_)
    if (same_name(s.name, name)) return s;
  for (const NvItem& item : table_->items) {
    if (item.capability) continue;
    for (const NvParameter& p : item.parameters) {
      const bool per_port = item.item_class == NvItemClass::PhysicalPort;
      const bool known = per_port ? name.size() > p.name.size() + 2 && same_name(name.substr(0, p.name.size()), p.name) &&
                                        same_name(name.substr(p.name.size(), 2), "_P")
                                  : same_name(name, p.name);
      if (known) return make_error(ErrorCode::NotSupported, "the device does not support parameter " + std::string(name));
    }
  }
  return make_error(ErrorCode::InvalidArgument, "unknown parameter " + std::string(name));
}

Result<std::vector<std::uint8_t>> NvConfig::read_item(std::uint32_t type, const NvItem& item, int mode) {
  if (is_gen4(*table_)) return read_gen4_item(type, item, mode);
  const AccessRegisterTlv request = mnvda_request(Tlv::kMethodQuery, type, item.size, static_cast<nv_reg::NvReadMode>(mode));
  OF_ASSIGN(const auto answer, port_->transact(request));
  if (answer.status != 0)
    return make_error(ErrorCode::Io, "reading " + std::string(item.title) + ": " + status_text(answer.status));
  if (answer.data.size() < nv_reg::kHeaderBytes + item.size)
    return make_error(ErrorCode::Io, "reading " + std::string(item.title) + ": a short answer");
  return std::vector<std::uint8_t>(answer.data.begin() + nv_reg::kHeaderBytes,
                                   answer.data.begin() + static_cast<std::ptrdiff_t>(nv_reg::kHeaderBytes + item.size));
}

Result<std::vector<std::uint8_t>> NvConfig::read_gen4_item(std::uint32_t type, const NvItem& item, int mode) {
  if (mode != static_cast<int>(nv_reg::NvReadMode::Next)) return nv_reg::factory_item_data(item);
  const auto port_number = static_cast<std::uint8_t>(type >> 16 & 0xff);  // item_type's port byte
  const auto port = item.item_class == NvItemClass::PhysicalPort ? port_number : std::uint8_t{0};
  OF_ASSIGN(const auto answer, port_->transact(mnva_request(Tlv::kMethodQuery, item, port)));
  if (answer.status == Tlv::kStatusResourceNotAvailable) return nv_reg::factory_item_data(item);
  if (answer.status != 0)
    return make_error(ErrorCode::Io, "reading " + std::string(item.title) + ": " + status_text(answer.status));
  if (answer.data.size() < nv_reg::kGen4HeaderBytes + item.size)
    return make_error(ErrorCode::Io, "reading " + std::string(item.title) + ": a short answer");
  return std::vector<std::uint8_t>(answer.data.begin() + nv_reg::kGen4HeaderBytes,
                                   answer.data.begin() + static_cast<std::ptrdiff_t>(nv_reg::kGen4HeaderBytes + item.size));
}

Result<std::vector<NvReading>> NvConfig::query(std::span<const NvSetting> settings) {
  using Key = std::pair<std::uint32_t, int>;  // (type, mode)
  std::map<Key, std::vector<std::uint8_t>> read;
  auto item_data = [&](const NvSetting& s, nv_reg::NvReadMode mode) -> Result<const std::vector<std::uint8_t>*> {
    const std::uint32_t type = nv_reg::item_type(s.item->item_class, s.item->index, s.port);
    const Key key{type, static_cast<int>(mode)};
    auto it = read.find(key);
    if (it == read.end()) {
      OF_ASSIGN(auto data, read_item(type, *s.item, static_cast<int>(mode)));
      it = read.emplace(key, std::move(data)).first;
    }
    return &it->second;
  };
  std::vector<NvReading> out;
  for (const NvSetting& s : settings) {
    NvReading r;
    r.setting = s;
    const NvParameter& p = *s.parameter;
    if (reads_factory_) {
      OF_ASSIGN(const auto* data, item_data(s, nv_reg::NvReadMode::Default));
      r.factory = nv_reg::get_field(*data, p.field);
    }
    if (reads_current_) {
      OF_ASSIGN(const auto* data, item_data(s, nv_reg::NvReadMode::Current));
      const bool valid = !p.valid || nv_reg::get_field(*data, *p.valid) != 0;
      r.current = valid ? nv_reg::get_field(*data, p.field) : r.factory.value_or(0);
    }
    OF_ASSIGN(const auto* data, item_data(s, nv_reg::NvReadMode::Next));
    const bool valid = !p.valid || nv_reg::get_field(*data, *p.valid) != 0;
    r.next = valid ? nv_reg::get_field(*data, p.field) : r.factory.value_or(0);
    out.push_back(std::move(r));
  }
  return out;
}

Result<NvAssignment> NvConfig::parse_assignment(std::string_view text) const {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0)
    return make_error(ErrorCode::InvalidArgument, "'" + std::string(text) + "' is not NAME=VALUE");
  OF_ASSIGN(const NvSetting setting, find(text.substr(0, eq)));
  const std::string_view value = text.substr(eq + 1);
  const NvParameter& p = *setting.parameter;
  const std::string bad = "bad value '" + std::string(value) + "' for " + setting.name + " (accepted: " +
                          nv_value_choices(p) + ")";
  NvAssignment a{setting, 0};
  if (p.kind == NvValueKind::Bool && (same_name(value, "True") || same_name(value, "False"))) {
    a.value = same_name(value, "True") ? 1 : 0;
    return a;
  }
  if (p.kind == NvValueKind::Enum) {
    for (const NvEnumName& n : p.names)
      if (same_name(value, n.name)) {
        a.value = n.value;
        return a;
      }
  }
  auto number = parse_unsigned(value, 0xffffffff, setting.name);
  if (!number) return make_error(ErrorCode::InvalidArgument, bad);
  const bool named = std::any_of(p.names.begin(), p.names.end(), [&](const NvEnumName& n) { return n.value == *number; });
  if (*number > field_max(p) || (p.kind == NvValueKind::Bool && *number > 1) || (p.kind == NvValueKind::Enum && !named))
    return make_error(ErrorCode::InvalidArgument, bad);
  a.value = *number;
  return a;
}

Result<void> NvConfig::set(std::span<const NvAssignment> assignments) {
  std::map<std::uint32_t, std::vector<const NvAssignment*>> by_item;  // in type order
  for (const NvAssignment& a : assignments)
    by_item[nv_reg::item_type(a.setting.item->item_class, a.setting.item->index, a.setting.port)].push_back(&a);
  for (const auto& [type, list] : by_item) {
    const NvItem& item = *list.front()->setting.item;
    OF_ASSIGN(std::vector<std::uint8_t> data, read_item(type, item, static_cast<int>(nv_reg::NvReadMode::Next)));
    for (const NvAssignment* a : list) {
      nv_reg::put_field(data, a->setting.parameter->field, a->value);
      if (a->setting.parameter->valid) nv_reg::put_field(data, *a->setting.parameter->valid, 1);
    }
    AccessRegisterTlv request;
    if (is_gen4(*table_)) {
      request = mnva_request(Tlv::kMethodWrite, item, list.front()->setting.port, data);
    } else {
      request = mnvda_request(Tlv::kMethodWrite, type, item.size, nv_reg::NvReadMode::Next, nv_reg::kWriterMstconfig);
      std::copy(data.begin(), data.end(), request.data.begin() + nv_reg::kHeaderBytes);
    }
    OF_ASSIGN(const auto answer, port_->transact(request));
    if (answer.status != 0)
      return make_error(answer.status == Tlv::kStatusBadParameter ? ErrorCode::InvalidArgument : ErrorCode::Io,
                        "setting " + std::string(item.title) + ": " + status_text(answer.status));
  }
  return {};
}

Result<void> NvConfig::reset_to_defaults() {
  const bool gen4 = is_gen4(*table_);
  OF_ASSIGN(const auto answer, port_->write(gen4 ? nv_reg::kGen4Mnvia : nv_reg::kMnvia,  // every item
                                            std::vector<std::uint8_t>(gen4 ? nv_reg::kGen4MnviaBytes : nv_reg::kMnviaBytes, 0)));
  if (answer.status != 0) return make_error(ErrorCode::Io, "resetting the configuration: " + status_text(answer.status));
  return {};
}

std::uint64_t NvConfig::accesses() const { return port_->accesses(); }

std::vector<std::string> running_port_protocols(Device& device) {
  const NvConfigTable* table = device.info().nv_config;
  if (table == nullptr || table->access != NvConfigAccess::AccessRegisters) return {};
  const NvItem* link = nullptr;
  for (const NvItem& item : table->items)
    if (item.name == "nv_vpi_link_type" && !item.parameters.empty()) link = &item;
  if (link == nullptr) return {};
  auto port = device.register_port();
  if (!port) return {};
  std::vector<std::string> out;
  for (unsigned n = 1; n <= device.info().port_count; ++n) {
    const AccessRegisterTlv request =
        mnvda_request(Tlv::kMethodQuery, nv_reg::item_type(link->item_class, link->index, static_cast<std::uint8_t>(n)),
                      link->size, nv_reg::NvReadMode::Current);
    auto answer = (*port)->transact(request);
    if (!answer || answer->status != 0 || answer->data.size() < request.data.size()) return {};
    const std::uint32_t v = nv_reg::get_field(std::span(answer->data).subspan(nv_reg::kHeaderBytes),
                                              link->parameters.front().field);
    const std::string name = nv_value_name(link->parameters.front(), v);
    out.push_back(name == "ETH" ? "Ethernet" : name == "IB" ? "InfiniBand" : name);
  }
  return out;
}

std::string nv_value_name(const NvParameter& p, std::uint32_t value) {
  if (p.kind == NvValueKind::Bool) return value != 0 ? "True" : "False";
  for (const NvEnumName& n : p.names)
    if (n.value == value) return std::string(n.name);
  return std::to_string(value);
}

std::string nv_value_text(const NvParameter& p, std::uint32_t value) {
  if (p.kind == NvValueKind::Unsigned) return std::to_string(value);
  const std::string name = nv_value_name(p, value);
  if (p.kind == NvValueKind::Enum && name == std::to_string(value)) return name;
  return name + "(" + std::to_string(value) + ")";
}

std::string nv_value_choices(const NvParameter& p) {
  if (p.kind == NvValueKind::Bool) return "False|True";
  if (p.kind == NvValueKind::Unsigned) return "<NUM 0.." + std::to_string(field_max(p)) + ">";
  std::string out;
  for (const NvEnumName& n : p.names) out += (out.empty() ? "" : "|") + std::string(n.name);
  return out;
}

}  // namespace openflint
