// SimStateFile: state.json to and from JSON, with every field's type and range checked on the way in.
#include "sim/SimStateFile.h"

#include <charconv>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/HexString.h"

namespace openflint::sim {
namespace {

using nlohmann::json;

constexpr const char* kStateFormat = "openflint-sim-state";
constexpr std::uint64_t kStateVersion = 1;

Unexpected bad_field(const std::string& name, const std::string& problem) {
  return make_error(ErrorCode::InvalidImage, name + ": " + problem);
}

template <typename T>
Result<T> as_unsigned(const json& v, const std::string& name) {
  constexpr std::uint64_t max = std::numeric_limits<T>::max();
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() > max)
    return bad_field(name, "must be an unsigned integer of at most " + std::to_string(max));
  return static_cast<T>(v.get<std::uint64_t>());
}

// Typed, checked reads of one JSON object's members; an absent or null member leaves `out`.
class Fields {
 public:
  Fields(const json& object, std::string path) : object_(&object), path_(std::move(path)) {}

  [[nodiscard]] std::string name(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }
  [[nodiscard]] const json* find(std::string_view key) const {
    const auto it = object_->find(std::string(key));
    return it == object_->end() || it->is_null() ? nullptr : &*it;
  }
  template <typename T>
  [[nodiscard]] Result<void> number(std::string_view key, T& out) const {
    const json* v = find(key);
    if (v == nullptr) return {};
    OF_ASSIGN(out, as_unsigned<T>(*v, name(key)));
    return {};
  }
  [[nodiscard]] Result<void> boolean(std::string_view key, bool& out) const {
    const json* v = find(key);
    if (v == nullptr) return {};
    if (!v->is_boolean()) return bad_field(name(key), "must be true or false");
    out = v->get<bool>();
    return {};
  }
  [[nodiscard]] Result<void> text(std::string_view key, std::string& out) const {
    const json* v = find(key);
    if (v == nullptr) return {};
    if (!v->is_string()) return bad_field(name(key), "must be a string");
    out = v->get<std::string>();
    return {};
  }
  // The member as an object, nullopt when absent or null.
  [[nodiscard]] Result<std::optional<Fields>> object(std::string_view key) const {
    const json* v = find(key);
    if (v == nullptr) return std::optional<Fields>{};
    if (!v->is_object()) return bad_field(name(key), "must be an object");
    return std::optional<Fields>(Fields(*v, name(key)));
  }

 private:
  const json* object_;
  std::string path_;
};

json uid_to_json(const std::optional<UidRange>& r) {
  if (!r) return nullptr;
  return json{{"base", r->base}, {"count", r->count}};
}

Result<std::optional<UidRange>> uid_from(const Fields& parent, std::string_view key) {
  OF_ASSIGN(const auto f, parent.object(key));
  if (!f) return std::optional<UidRange>{};
  UidRange r;
  OF_TRY(f->number("base", r.base));
  OF_TRY(f->number("count", r.count));
  return std::optional<UidRange>(r);
}

// The running firmware's identity: what a CLI shows for the device until its next reset.
json query_to_json(const ImageQuery& q) {
  json j{{"format", std::string(to_string(q.format))},
         {"image_start", q.image_start},
         {"psid", q.psid},
         {"description", q.description},
         {"product_version", q.product_version},
         {"name", q.name},
         {"image_size", q.image_size},
         {"base_guid", uid_to_json(q.base_guid)},
         {"base_mac", uid_to_json(q.base_mac)}};
  if (q.fw_version) j["fw_version"] = {q.fw_version->major, q.fw_version->minor, q.fw_version->subminor};
  if (q.pci_device_id) j["pci_device_id"] = *q.pci_device_id;
  if (q.security_version) j["security_version"] = *q.security_version;
  if (q.mcc_enabled) j["mcc_enabled"] = true;
  return j;
}

Result<FwVersion> fw_version_from(const json& v, const std::string& name) {
  if (!v.is_array() || v.size() != 3) return bad_field(name, "must be an array of 3 numbers");
  FwVersion fw;
  OF_ASSIGN(fw.major, as_unsigned<std::uint16_t>(v[0], name + "[0]"));
  OF_ASSIGN(fw.minor, as_unsigned<std::uint16_t>(v[1], name + "[1]"));
  OF_ASSIGN(fw.subminor, as_unsigned<std::uint16_t>(v[2], name + "[2]"));
  return fw;
}

Result<ImageQuery> query_from(const Fields& f) {
  ImageQuery q;
  std::string format(to_string(q.format));
  OF_TRY(f.text("format", format));
  bool known = false;
  for (ImageFormat each : {ImageFormat::Fs1, ImageFormat::Fs2, ImageFormat::Fs3, ImageFormat::Fs4}) {
    if (to_string(each) != format) continue;
    q.format = each;
    known = true;
  }
  if (!known) return bad_field(f.name("format"), "unknown image format '" + format + "'");
  OF_TRY(f.number("image_start", q.image_start));
  OF_TRY(f.text("psid", q.psid));
  OF_TRY(f.text("description", q.description));
  OF_TRY(f.text("product_version", q.product_version));
  OF_TRY(f.text("name", q.name));
  OF_TRY(f.number("image_size", q.image_size));
  OF_TRY(f.boolean("mcc_enabled", q.mcc_enabled));
  OF_ASSIGN(q.base_guid, uid_from(f, "base_guid"));
  OF_ASSIGN(q.base_mac, uid_from(f, "base_mac"));
  if (const json* v = f.find("fw_version")) {
    OF_ASSIGN(q.fw_version, fw_version_from(*v, f.name("fw_version")));
  }
  if (const json* v = f.find("pci_device_id")) {
    OF_ASSIGN(q.pci_device_id, as_unsigned<std::uint16_t>(*v, f.name("pci_device_id")));
  }
  if (const json* v = f.find("security_version")) {
    OF_ASSIGN(q.security_version, as_unsigned<std::uint32_t>(*v, f.name("security_version")));
  }
  return q;
}

json boot_to_json(const BootState& b) {
  return json{{"recovery", b.recovery},
              {"booted_address", b.booted_address},
              {"pci_device_id", b.pci_device_id},
              {"firmware_hung", b.firmware_hung},
              {"running", b.running ? query_to_json(*b.running) : json()}};
}

Result<BootState> boot_from(const Fields& f) {
  BootState b;
  OF_TRY(f.boolean("recovery", b.recovery));
  OF_TRY(f.number("booted_address", b.booted_address));
  OF_TRY(f.number("pci_device_id", b.pci_device_id));
  OF_TRY(f.boolean("firmware_hung", b.firmware_hung));
  OF_ASSIGN(const auto running, f.object("running"));
  if (running) {
    OF_ASSIGN(b.running, query_from(*running));
  }
  return b;
}

Result<SimFaults> faults_from(const Fields& f) {
  SimFaults out;
  OF_TRY(f.number("power_cut_after_ops", out.power_cut_after_ops));
  OF_TRY(f.number("fail_gateway_command", out.fail_gateway_command));
  OF_TRY(f.number("flash_busy_polls", out.flash_busy_polls));
  OF_TRY(f.boolean("flash_stuck_busy", out.flash_stuck_busy));
  OF_TRY(f.boolean("flash_write_protected", out.flash_write_protected));
  OF_TRY(f.boolean("no_reset_register", out.no_reset_register));
  OF_TRY(f.boolean("cache_replacement_pending", out.cache_replacement_pending));
  return out;
}

Result<SimCounters> counters_from(const Fields& f) {
  SimCounters c;
  OF_TRY(f.number("register_reads", c.register_reads));
  OF_TRY(f.number("register_writes", c.register_writes));
  OF_TRY(f.number("gateway_commands", c.gateway_commands));
  OF_TRY(f.number("erases", c.flash.erases));
  OF_TRY(f.number("programs", c.flash.programs));
  OF_TRY(f.number("reads", c.flash.reads));
  OF_TRY(f.number("bytes_programmed", c.flash.bytes_programmed));
  OF_TRY(f.number("ignored_commands", c.flash.ignored_commands));
  OF_TRY(f.number("fw_component_locks", c.firmware.component_locks));
  OF_TRY(f.number("fw_component_writes", c.firmware.component_writes));
  OF_TRY(f.number("fw_component_activations", c.firmware.component_activations));
  OF_TRY(f.number("fw_flash_erases", c.firmware.flash_erases));
  OF_TRY(f.number("fw_flash_programs", c.firmware.flash_programs));
  OF_TRY(f.number("fw_gateway_conflicts", c.firmware.gateway_conflicts));
  OF_TRY(f.number("i2c_transactions", c.i2c.transactions));
  OF_TRY(f.number("i2c_nacks", c.i2c.nacks));
  OF_TRY(f.number("i2c_page_writes", c.i2c.page_writes));
  return c;
}

Result<std::map<std::uint32_t, std::uint32_t>> registers_from(const json& j) {
  if (!j.is_object()) return bad_field("registers", "must be an object of \"address\": value");
  std::map<std::uint32_t, std::uint32_t> out;
  for (const auto& [key, value] : j.items()) {
    std::uint32_t address = 0;
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), address);
    if (ec != std::errc() || end != key.data() + key.size())
      return bad_field("registers", "'" + key + "' is not a decimal 32-bit address");
    OF_ASSIGN(out[address], as_unsigned<std::uint32_t>(value, "registers." + key));
  }
  return out;
}

using NvItems = std::map<std::uint32_t, std::vector<std::uint8_t>>;

json nv_items_to_json(const NvItems& items) {
  json out = json::object();
  for (const auto& [type, data] : items) out[std::to_string(type)] = hex_digits(data);
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// "type": "hex bytes" pairs (decimal type dword, at most 256 data bytes each).
Result<NvItems> nv_items_from(const json& j, const std::string& name) {
  if (!j.is_object()) return bad_field(name, "must be an object of \"type\": \"hex bytes\"");
  NvItems out;
  for (const auto& [key, value] : j.items()) {
    std::uint32_t type = 0;
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), type);
    if (ec != std::errc() || end != key.data() + key.size())
      return bad_field(name, "'" + key + "' is not a decimal item type");
    if (!value.is_string()) return bad_field(name + "." + key, "must be a string of hex digits");
    const std::string hex = value.get<std::string>();
    if (hex.size() % 2 != 0 || hex.size() > 512) return bad_field(name + "." + key, "must be 0 to 256 hex bytes");
    std::vector<std::uint8_t> data;
    for (std::size_t i = 0; i < hex.size(); i += 2) {
      const int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
      if (hi < 0 || lo < 0) return bad_field(name + "." + key, "must be lower-case hex digits");
      data.push_back(static_cast<std::uint8_t>(hi << 4 | lo));
    }
    out[type] = std::move(data);
  }
  return out;
}

json tracer_to_json(const FirmwareTracerSettings& t) {
  return json{{"owner", t.owner},
              {"mask", t.mask},
              {"level", t.level},
              {"trace_mode", t.trace_mode},
              {"log_trace_buffer_size", t.log_trace_buffer_size},
              {"trace_mkey", t.trace_mkey},
              {"trace_status", t.trace_status}};
}

// The tracer's settings, each in the range its register or command accepts.
Result<FirmwareTracerSettings> tracer_from(const Fields& f) {
  FirmwareTracerSettings t;
  OF_TRY(f.boolean("owner", t.owner));
  OF_TRY(f.number("mask", t.mask));
  OF_TRY(f.number("level", t.level));
  OF_TRY(f.number("trace_mode", t.trace_mode));
  OF_TRY(f.number("log_trace_buffer_size", t.log_trace_buffer_size));
  OF_TRY(f.number("trace_mkey", t.trace_mkey));
  OF_TRY(f.number("trace_status", t.trace_status));
  if (t.level > 3) return bad_field(f.name("level"), "must be 0 (DEBUG) to 3 (ERROR)");
  if (t.trace_mode > 1) return bad_field(f.name("trace_mode"), "must be 0 (FIFO) or 1 (memory)");
  if (t.log_trace_buffer_size > FirmwareTracer::kLogMaxTraceBufferSize)
    return bad_field(f.name("log_trace_buffer_size"), "must be at most 6");
  if (t.trace_status > 1) return bad_field(f.name("trace_status"), "must be 0 (disabled) or 1 (active)");
  return t;
}

}  // namespace

std::string SimStateFile::to_json() const {
  json registers_json = json::object();
  for (const auto& [address, value] : registers) registers_json[std::to_string(address)] = value;
  const SimCounters& c = counters;
  const SimFaults& f = faults;
  json j{{"format", kStateFormat},
         {"version", kStateVersion},
         {"model", model},
         {"flash_chip", flash_chip},
         {"powered", powered},
         {"flash_locked", flash_locked},
         {"temperature_c", temperature_c},
         {"faults", json{{"power_cut_after_ops", f.power_cut_after_ops},
                         {"fail_gateway_command", f.fail_gateway_command},
                         {"flash_busy_polls", f.flash_busy_polls},
                         {"flash_stuck_busy", f.flash_stuck_busy},
                         {"flash_write_protected", f.flash_write_protected},
                         {"no_reset_register", f.no_reset_register},
                         {"cache_replacement_pending", f.cache_replacement_pending}}},
         {"counters", json{{"register_reads", c.register_reads},
                           {"register_writes", c.register_writes},
                           {"gateway_commands", c.gateway_commands},
                           {"erases", c.flash.erases},
                           {"programs", c.flash.programs},
                           {"reads", c.flash.reads},
                           {"bytes_programmed", c.flash.bytes_programmed},
                           {"ignored_commands", c.flash.ignored_commands},
                           {"fw_component_locks", c.firmware.component_locks},
                           {"fw_component_writes", c.firmware.component_writes},
                           {"fw_component_activations", c.firmware.component_activations},
                           {"fw_flash_erases", c.firmware.flash_erases},
                           {"fw_flash_programs", c.firmware.flash_programs},
                           {"fw_gateway_conflicts", c.firmware.gateway_conflicts},
                           {"i2c_transactions", c.i2c.transactions},
                           {"i2c_nacks", c.i2c.nacks},
                           {"i2c_page_writes", c.i2c.page_writes}}},
         {"registers", registers_json}};
  if (boot) j["boot"] = boot_to_json(*boot);
  if (tracer) j["tracer"] = tracer_to_json(*tracer);
  if (!nv_stored.empty() || !nv_current.empty())
    j["nv_config"] = json{{"stored", nv_items_to_json(nv_stored)}, {"current", nv_items_to_json(nv_current)}};
  return j.dump(2) + "\n";
}

Result<SimStateFile> SimStateFile::parse(std::string_view text) {
  if (text.size() > kMaxBytes)
    return make_error(ErrorCode::InvalidImage, std::to_string(text.size()) + " bytes is too large for a state file");
  const json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return make_error(ErrorCode::InvalidImage, "not a json object");
  const Fields top(j, "");
  std::string format;
  std::uint64_t version = 0;
  if (!top.text("format", format) || !top.number("version", version) || format != kStateFormat ||
      version != kStateVersion)
    return make_error(ErrorCode::InvalidImage, "not an openflint simulator state (version 1)");
  SimStateFile s;
  OF_TRY(top.text("model", s.model));
  OF_TRY(top.text("flash_chip", s.flash_chip));
  OF_TRY(top.boolean("powered", s.powered));
  OF_TRY(top.boolean("flash_locked", s.flash_locked));
  OF_TRY(top.number("temperature_c", s.temperature_c));
  OF_ASSIGN(const auto faults, top.object("faults"));
  if (faults) {
    OF_ASSIGN(s.faults, faults_from(*faults));
  }
  OF_ASSIGN(const auto counters, top.object("counters"));
  if (counters) {
    OF_ASSIGN(s.counters, counters_from(*counters));
  }
  OF_ASSIGN(const auto boot, top.object("boot"));
  if (boot) {
    OF_ASSIGN(s.boot, boot_from(*boot));
  }
  OF_ASSIGN(const auto tracer, top.object("tracer"));
  if (tracer) {
    OF_ASSIGN(s.tracer, tracer_from(*tracer));
  }
  if (const json* registers = top.find("registers")) {
    OF_ASSIGN(s.registers, registers_from(*registers));
  }
  OF_ASSIGN(const auto nv, top.object("nv_config"));
  if (nv) {
    if (const json* stored = nv->find("stored")) {
      OF_ASSIGN(s.nv_stored, nv_items_from(*stored, "nv_config.stored"));
    }
    if (const json* current = nv->find("current")) {
      OF_ASSIGN(s.nv_current, nv_items_from(*current, "nv_config.current"));
    }
  }
  return s;
}

}  // namespace openflint::sim
