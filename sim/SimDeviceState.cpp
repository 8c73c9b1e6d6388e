// SimDeviceState: saving a simulated device to a directory and loading it back (sim:PATH devices).
#include <charconv>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/InputFile.h"
#include "devices/DeviceCatalog.h"
#include "sim/SimDevice.h"

namespace openflint::sim {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kStateFormat = "openflint-sim-state";
constexpr int kStateVersion = 1;

json counters_to_json(const SimCounters& c) {
  return json{{"register_reads", c.register_reads},   {"register_writes", c.register_writes},
              {"gateway_commands", c.gateway_commands}, {"erases", c.flash.erases},
              {"programs", c.flash.programs},           {"reads", c.flash.reads},
              {"bytes_programmed", c.flash.bytes_programmed},
              {"ignored_commands", c.flash.ignored_commands}};
}

json faults_to_json(const SimFaults& f) {
  return json{{"power_cut_after_ops", f.power_cut_after_ops},
              {"fail_gateway_command", f.fail_gateway_command},
              {"flash_busy_polls", f.flash_busy_polls},
              {"flash_stuck_busy", f.flash_stuck_busy},
              {"flash_write_protected", f.flash_write_protected}};
}

SimFaults faults_from_json(const json& j) {
  SimFaults f;
  f.power_cut_after_ops = j.value("power_cut_after_ops", std::uint64_t{0});
  f.fail_gateway_command = j.value("fail_gateway_command", std::uint64_t{0});
  f.flash_busy_polls = j.value("flash_busy_polls", std::uint32_t{0});
  f.flash_stuck_busy = j.value("flash_stuck_busy", false);
  f.flash_write_protected = j.value("flash_write_protected", false);
  return f;
}

json uid_to_json(const std::optional<UidRange>& r) {
  if (!r) return nullptr;
  return json{{"base", r->base}, {"count", r->count}};
}

std::optional<UidRange> uid_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return UidRange{j.value("base", std::uint64_t{0}), j.value("count", std::uint32_t{0})};
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
  return j;
}

ImageQuery query_from_json(const json& j) {
  ImageQuery q;
  const std::string format = j.value("format", std::string("FS3"));
  for (ImageFormat f : {ImageFormat::Fs1, ImageFormat::Fs2, ImageFormat::Fs3, ImageFormat::Fs4})
    if (to_string(f) == format) q.format = f;
  q.image_start = j.value("image_start", std::uint64_t{0});
  q.psid = j.value("psid", std::string());
  q.description = j.value("description", std::string());
  q.product_version = j.value("product_version", std::string());
  q.name = j.value("name", std::string());
  q.image_size = j.value("image_size", std::uint64_t{0});
  q.base_guid = uid_from_json(j.value("base_guid", json()));
  q.base_mac = uid_from_json(j.value("base_mac", json()));
  if (j.contains("fw_version") && j["fw_version"].is_array() && j["fw_version"].size() == 3)
    q.fw_version = FwVersion{j["fw_version"][0].get<std::uint16_t>(), j["fw_version"][1].get<std::uint16_t>(),
                             j["fw_version"][2].get<std::uint16_t>()};
  if (j.contains("pci_device_id")) q.pci_device_id = j["pci_device_id"].get<std::uint16_t>();
  if (j.contains("security_version")) q.security_version = j["security_version"].get<std::uint32_t>();
  return q;
}

json boot_to_json(const BootState& b) {
  return json{{"recovery", b.recovery},
              {"booted_address", b.booted_address},
              {"pci_device_id", b.pci_device_id},
              {"running", b.running ? query_to_json(*b.running) : json()}};
}

BootState boot_from_json(const json& j) {
  BootState b;
  b.recovery = j.value("recovery", true);
  b.booted_address = j.value("booted_address", std::uint64_t{0});
  b.pci_device_id = j.value("pci_device_id", std::uint16_t{0});
  if (j.contains("running") && j["running"].is_object()) b.running = query_from_json(j["running"]);
  return b;
}

// A state file is a few KiB (registers, counters, the running FW's identity): 1 MiB bounds it.
constexpr std::uint64_t kMaxStateBytes = std::uint64_t{1} << 20;

Result<std::string> read_text(const fs::path& path, std::uint64_t max_size) {
  OF_ASSIGN(const std::vector<std::uint8_t> bytes, read_input_file(path.string(), max_size, "simulator file"));
  return std::string(bytes.begin(), bytes.end());
}

Result<void> write_bytes(const fs::path& path, const char* data, std::size_t size) {
  // Write then rename, so a crash never leaves a half-written state behind.
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return make_error(ErrorCode::Io, "cannot create " + tmp.string());
    out.write(data, static_cast<std::streamsize>(size));
    if (!out.flush()) return make_error(ErrorCode::Io, "cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return make_error(ErrorCode::Io, "cannot rename " + tmp.string() + ": " + ec.message());
  return {};
}

Result<json> parse_state(const fs::path& dir) {
  OF_ASSIGN(std::string text, read_text(dir / "state.json", kMaxStateBytes));
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return make_error(ErrorCode::InvalidArgument, (dir / "state.json").string() + ": not a json object");
  }
  if (j.value("format", std::string()) != kStateFormat || j.value("version", 0) != kStateVersion) {
    return make_error(ErrorCode::InvalidArgument,
                      (dir / "state.json").string() + ": not an openflint simulator state (version 1)");
  }
  return j;
}

}  // namespace

Result<void> SimDevice::save_state(const fs::path& dir) const {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return make_error(ErrorCode::Io, "cannot create " + dir.string() + ": " + ec.message());
  json registers = json::object();
  for (const auto& [address, value] : cr_.registers()) {
    if (address == info_->flash_gateway.cmd_addr) continue;  // saved as the lock state
    registers[std::to_string(address)] = value;
  }
  json j{{"format", kStateFormat},
         {"version", kStateVersion},
         {"model", std::string(info_->sim_model)},
         {"flash_chip", std::string(flash_.chip().name)},
         {"powered", powered_},
         {"flash_locked", gateway_.locked()},
         {"faults", faults_to_json(faults())},
         {"counters", counters_to_json(counters())},
         {"boot", boot_to_json(boot_)},
         {"registers", registers}};
  const auto contents = flash_.contents();
  OF_TRY(write_bytes(dir / "flash.bin", reinterpret_cast<const char*>(contents.data()), contents.size()));
  const std::string text = j.dump(2) + "\n";
  return write_bytes(dir / "state.json", text.data(), text.size());
}

Result<std::unique_ptr<SimDevice>> SimDevice::load_state(const fs::path& dir) {
  // A state.json edited by hand may hold any JSON: a value of the wrong type makes the JSON
  // library throw, which must come back as an error on this file, not abort the tool.
  try {
    return load_state_json(dir);
  } catch (const json::exception& e) {
    return make_error(ErrorCode::InvalidArgument,
                      (dir / "state.json").string() + ": a value has the wrong type or range (" + e.what() + ")");
  }
}

Result<std::unique_ptr<SimDevice>> SimDevice::load_state_json(const fs::path& dir) {
  OF_ASSIGN(json j, parse_state(dir));
  const std::string context = "loading simulator state " + dir.string();
  auto info = find_device_by_sim_model(j.value("model", std::string()));
  if (!info) return make_error(std::move(info).error().with_context(context));
  auto chip = find_flash_chip_by_name(j.value("flash_chip", std::string()));
  if (!chip) return make_error(std::move(chip).error().with_context(context));
  OF_ASSIGN(std::unique_ptr<SimDevice> dev, create(**info, *chip));

  OF_ASSIGN(std::string flash, read_text(dir / "flash.bin", (*chip)->size));
  auto set = dev->flash_.set_contents(
      {reinterpret_cast<const std::uint8_t*>(flash.data()), flash.size()});
  if (!set) return make_error(std::move(set).error().with_context(context));

  const json& registers = j.contains("registers") ? j["registers"] : json::object();
  for (const auto& [key, value] : registers.items()) {
    std::uint32_t address = 0;
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), address);
    if (ec != std::errc() || end != key.data() + key.size() || !value.is_number_unsigned()) {
      return make_error(ErrorCode::InvalidArgument, context + ": bad register entry '" + key + "'");
    }
    dev->cr_.poke(address, value.get<std::uint32_t>());
  }
  const json& c = j.contains("counters") ? j["counters"] : json::object();
  dev->register_reads_ = c.value("register_reads", std::uint64_t{0});
  dev->register_writes_ = c.value("register_writes", std::uint64_t{0});
  dev->gateway_.set_commands(c.value("gateway_commands", std::uint64_t{0}));
  dev->flash_.set_counters(SpiNorCounters{c.value("erases", std::uint64_t{0}),
                                          c.value("programs", std::uint64_t{0}),
                                          c.value("reads", std::uint64_t{0}),
                                          c.value("bytes_programmed", std::uint64_t{0}),
                                          c.value("ignored_commands", std::uint64_t{0})});
  dev->set_faults(faults_from_json(j.contains("faults") ? j["faults"] : json::object()));
  dev->gateway_.set_locked(j.value("flash_locked", false));
  dev->powered_ = j.value("powered", true);
  // The running firmware is what booted before the save (the flash may hold a newer burn);
  // a state without it (older files) boots now.
  if (j.contains("boot") && j["boot"].is_object()) {
    dev->boot_ = boot_from_json(j["boot"]);
  } else {
    dev->run_boot_rom();
  }
  return dev;
}

}  // namespace openflint::sim
