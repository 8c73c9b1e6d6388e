// SimDeviceState: saving a simulated device to a directory and loading it back (sim:PATH devices).
#include <charconv>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

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

Result<std::string> read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::Io, "cannot open " + path.string());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return make_error(ErrorCode::Io, "cannot read " + path.string());
  return text;
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
  OF_ASSIGN(std::string text, read_text(dir / "state.json"));
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
         {"registers", registers}};
  const auto contents = flash_.contents();
  OF_TRY(write_bytes(dir / "flash.bin", reinterpret_cast<const char*>(contents.data()), contents.size()));
  const std::string text = j.dump(2) + "\n";
  return write_bytes(dir / "state.json", text.data(), text.size());
}

Result<std::unique_ptr<SimDevice>> SimDevice::load_state(const fs::path& dir) {
  OF_ASSIGN(json j, parse_state(dir));
  const std::string context = "loading simulator state " + dir.string();
  auto info = find_device_by_sim_model(j.value("model", std::string()));
  if (!info) return make_error(std::move(info).error().with_context(context));
  auto chip = find_flash_chip_by_name(j.value("flash_chip", std::string()));
  if (!chip) return make_error(std::move(chip).error().with_context(context));
  OF_ASSIGN(std::unique_ptr<SimDevice> dev, create(**info, *chip));

  OF_ASSIGN(std::string flash, read_text(dir / "flash.bin"));
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
  return dev;
}

}  // namespace openflint::sim
