// SimCommands: create / fault / power-on / show on a simulated device directory.
#include "hcasim/SimCommands.h"
#include "cli/JsonOutput.h"

#include <iostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/RunningFirmwareReport.h"
#include "core/HexString.h"
#include "core/InputFile.h"
#include "devices/DeviceCatalog.h"
#include "devices/FlashChip.h"
#include "fwops/Device.h"
#include "sim/SimDevice.h"

namespace openflint::hcasim {
namespace {

using nlohmann::json;

int report(const Error& error, bool json_out) { return cli::report_error(error, json_out); }

}  // namespace

std::string simulated_models() {
  std::string models;
  for (const DeviceInfo& d : all_devices()) {
    if (!d.flash_gateway.is_driven() || d.sim_model.empty() || d.default_flash_chip.empty()) continue;
    models += (models.empty() ? "" : ", ") + std::string(d.sim_model);
  }
  return models;
}

namespace {

Result<Device> open_sim(const std::string& path) { return open_device("sim:" + path); }

// The factory image, read (and bounded by the flash it goes to) before anything is created, so
// a refused image leaves no device behind.
Result<std::vector<std::uint8_t>> read_factory_image(const DeviceInfo& model, const CreateArgs& args) {
  OF_ASSIGN(const FlashChip* chip,
            find_flash_chip_by_name(args.flash.empty() ? model.default_flash_chip : std::string_view(args.flash)));
  return read_input_file(args.image, chip->size, "image (for the " + std::to_string(chip->size) + "-byte flash)");
}

// The factory programmer: the image goes to flash offset 0, the rest stays erased.
Result<void> preburn(sim::SimDevice& sim, std::vector<std::uint8_t> image) {
  image.resize(sim.flash().chip().size, 0xff);
  return sim.flash().set_contents(image);
}

json show_json(Device& device) {
  sim::SimDevice& sim = *device.simulator();
  const DeviceInfo& info = device.info();
  const sim::SimCounters c = sim.counters();
  json j = {{"ok", true},
          {"model", std::string(info.sim_model)},
          {"device", std::string(info.name)},
          {"hw_id", hex_string(info.hw_id)},
          {"pci_device_id", info.pci_device_id},
          {"flash_chip", std::string(sim.flash().chip().name)},
          {"flash_size", sim.flash().chip().size},
          {"powered", sim.powered()},
          {"running", cli::running_firmware_json(device.running_firmware())},
          {"power_cut_after_ops", sim.faults().power_cut_after_ops},
          {"temperature_c", sim.temperature_c()},
          {"counters", {{"erases", c.flash.erases}, {"programs", c.flash.programs}, {"reads", c.flash.reads},
                        {"gateway_commands", c.gateway_commands},
                        {"gateway_conflicts", c.firmware.gateway_conflicts}}}};
  if (sim.i2c() != nullptr) {  // firmware EEPROMs: the I2C master's transactions and write-cycle NACKs
    j["counters"]["i2c_transactions"] = c.i2c.transactions;
    j["counters"]["i2c_nacks"] = c.i2c.nacks;
    j["counters"]["i2c_page_writes"] = c.i2c.page_writes;
  }
  return j;
}

void print_show(const json& j) {
  const json& r = j["running"];
  auto line = [](const char* name, const std::string& value) {
    std::string label = std::string(name) + ":";
    label.resize(std::max<std::size_t>(label.size() + 1, 23), ' ');
    std::cout << label << value << '\n';
  };
  line("Device", j["device"].get<std::string>() + " (model " + j["model"].get<std::string>() + ")");
  line("HW ID", j["hw_id"].get<std::string>());
  line("PCI Device ID", std::to_string(j["pci_device_id"].get<int>()));
  line("Flash", j["flash_chip"].get<std::string>() + " (" + std::to_string(j["flash_size"].get<std::uint64_t>()) + " bytes)");
  line("Power", j["powered"].get<bool>() ? "on" : "off");
  line("Boot", r["recovery"].get<bool>() ? "flash recovery mode (no bootable image)"
                                        : "booted copy at " + r["booted_copy"].get<std::string>());
  line("FW Version(Running)", r["fw_version"].is_string() ? r["fw_version"].get<std::string>() : "N/A");
  line("PSID", r["psid"].is_string() ? r["psid"].get<std::string>() : "N/A");
  const std::uint64_t cut = j["power_cut_after_ops"].get<std::uint64_t>();
  line("Power cut", cut == 0 ? "not armed" : "after " + std::to_string(cut) + " more erase/program ops");
  line("Temperature", std::to_string(j["temperature_c"].get<std::uint32_t>()) + " C (MTMP sensor 0)");
  const json& c = j["counters"];
  line("Flash erases", std::to_string(c["erases"].get<std::uint64_t>()));
  line("Flash programs", std::to_string(c["programs"].get<std::uint64_t>()));
  line("Flash reads", std::to_string(c["reads"].get<std::uint64_t>()));
  line("Gateway commands", std::to_string(c["gateway_commands"].get<std::uint64_t>()));
  line("Gateway conflicts", std::to_string(c["gateway_conflicts"].get<std::uint64_t>()) +
                                " (gateway erases/programs under a firmware that owns the flash)");
  if (c.contains("i2c_nacks")) {
    line("I2C transactions", std::to_string(c["i2c_transactions"].get<std::uint64_t>()));
    line("I2C NACKs", std::to_string(c["i2c_nacks"].get<std::uint64_t>()) + " (EEPROM write cycles polled)");
    line("I2C page writes", std::to_string(c["i2c_page_writes"].get<std::uint64_t>()));
  }
}

}  // namespace

int run_create(const CreateArgs& args, bool json_out) {
  auto model = find_device_by_sim_model(args.model);
  if (!model) {
    return report(Error(ErrorCode::InvalidArgument,
                        "unknown model '" + args.model + "': simulated models are " + simulated_models()),
                  json_out);
  }
  std::vector<std::uint8_t> image;
  if (!args.image.empty()) {
    auto read = read_factory_image(**model, args);
    if (!read) return report(read.error(), json_out);
    image = std::move(*read);
  }
  auto device = create_sim_device(args.path, args.model, args.flash);
  if (!device) return report(device.error().with_context("creating " + args.path), json_out);
  if (!args.image.empty()) {
    if (auto burned = preburn(*device->simulator(), std::move(image)); !burned) return report(burned.error(), json_out);
  }
  if (auto on = device->power_on(); !on) return report(on.error(), json_out);
  if (auto saved = device->commit(); !saved) return report(saved.error(), json_out);
  json j = show_json(*device);
  if (json_out) {
    cli::print_json(j);
  } else {
    std::cout << "-I- Created " << args.path << '\n';
    print_show(j);
  }
  return cli::kOk;
}

int run_fault(const std::string& path, std::uint64_t power_cut_after_ops, bool json_out) {
  auto device = open_sim(path);
  if (!device) return report(device.error(), json_out);
  sim::SimFaults faults = device->simulator()->faults();
  faults.power_cut_after_ops = power_cut_after_ops;
  device->simulator()->set_faults(faults);
  if (auto saved = device->commit(); !saved) return report(saved.error(), json_out);
  if (json_out) {
    cli::print_json(json{{"ok", true}, {"power_cut_after_ops", power_cut_after_ops}});
  } else if (power_cut_after_ops == 0) {
    std::cout << "-I- Power cut disarmed\n";
  } else {
    std::cout << "-I- Power is cut after " << power_cut_after_ops << " more flash erase/program operations\n";
  }
  return cli::kOk;
}

int run_set_temperature(const std::string& path, std::uint32_t celsius, bool json_out) {
  auto device = open_sim(path);
  if (!device) return report(device.error(), json_out);
  device->simulator()->set_temperature_c(celsius);
  if (auto saved = device->commit(); !saved) return report(saved.error(), json_out);
  if (json_out) {
    cli::print_json(json{{"ok", true}, {"temperature_c", celsius}});
  } else {
    std::cout << "-I- Temperature (MTMP sensor 0) is " << celsius << " C\n";
  }
  return cli::kOk;
}

int run_power_on(const std::string& path, bool json_out) {
  auto device = open_sim(path);
  if (!device) return report(device.error(), json_out);
  if (auto on = device->power_on(); !on) return report(on.error(), json_out);
  if (auto saved = device->commit(); !saved) return report(saved.error(), json_out);
  json j = show_json(*device);
  if (json_out) {
    cli::print_json(j);
  } else {
    print_show(j);
  }
  return cli::kOk;
}

int run_show(const std::string& path, bool json_out) {
  auto device = open_sim(path);
  if (!device) return report(device.error(), json_out);
  json j = show_json(*device);
  if (json_out) {
    cli::print_json(j);
  } else {
    print_show(j);
  }
  return cli::kOk;
}

}  // namespace openflint::hcasim
