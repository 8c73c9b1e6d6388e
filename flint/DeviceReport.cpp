// DeviceReport: mstflint-style lines and JSON objects for device, flash chip and running firmware.
#include "flint/DeviceReport.h"

#include <ostream>
#include <string>

#include "flint/Report.h"

namespace openflint::flint {
namespace {

void field(std::ostream& out, const char* name, const std::string& value) {
  std::string label = std::string(name) + ":";
  label.resize(std::max<std::size_t>(label.size() + 1, 23), ' ');
  out << label << value << '\n';
}

std::string size_text(std::uint64_t bytes) {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

}  // namespace

void print_running(std::ostream& out, const std::optional<RunningFirmware>& running) {
  if (!running) return;
  if (running->recovery) {
    field(out, "FW Version(Running)", "N/A (flash recovery mode: no bootable image at the last boot)");
    return;
  }
  const auto& image = running->image;
  field(out, "FW Version(Running)", image && image->fw_version ? image->fw_version->to_string() : "N/A");
  if (running->booted_copy) field(out, "Running Copy", hex(*running->booted_copy));
}

void print_device(std::ostream& out, const DeviceInfo& info, const FlashChip& chip, std::uint32_t jedec_id) {
  field(out, "Device", std::string(info.name) + " (" + std::string(info.part_number) + ", " +
                           std::string(to_string(info.kind)) + ")");
  field(out, "HW ID", hex(info.hw_id));
  field(out, "PCI Device ID", std::to_string(info.pci_device_id));
  field(out, "Flash", std::string(chip.name) + " (jedec " + hex(jedec_id, 6) + ", " + size_text(chip.size) + ", " +
                          size_text(chip.min_erase_size()) + " sectors)");
}

nlohmann::json device_json(const DeviceInfo& info) {
  return {{"name", std::string(info.name)},
          {"part_number", std::string(info.part_number)},
          {"kind", std::string(to_string(info.kind))},
          {"hw_id", hex(info.hw_id)},
          {"pci_device_id", info.pci_device_id},
          {"image_format", std::string(to_string(info.image_format))}};
}

nlohmann::json flash_json(const FlashChip& chip, std::uint32_t jedec_id) {
  return {{"chip", std::string(chip.name)},
          {"jedec_id", hex(jedec_id, 6)},
          {"size", chip.size},
          {"sector_size", chip.min_erase_size()}};
}

}  // namespace openflint::flint
