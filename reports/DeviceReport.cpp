// DeviceReport: mstflint-style lines and JSON objects for device, flash chip and running firmware.
#include "reports/DeviceReport.h"

#include <ostream>
#include <string>

#include "cli/ErrorReport.h"
#include "cli/RunningFirmwareReport.h"
#include "reports/ImageReport.h"

namespace openflint::reports {
namespace {

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

namespace {

// The device half of a query: printed (or put into JSON) even when the flash holds no image.
nlohmann::json device_part_json(const DeviceInfo& info, const DeviceQuery& q) {
  return {{"device", device_json(info)},
          {"flash", flash_json(q.chip, q.jedec_id)},
          {"running", cli::running_firmware_json(q.running)}};
}

}  // namespace

Error no_image_error(const std::string& device_name, const DeviceQuery& query) {
  const Error why = query.no_image ? *query.no_image : Error(ErrorCode::NotFound, "no image");
  return why.with_context(device_name + ": flash holds no valid firmware image");
}

nlohmann::json device_query_json(const std::string& device_name, const DeviceInfo& info, const DeviceQuery& query) {
  nlohmann::json doc = query.image ? query_json(*query.image) : cli::error_json(no_image_error(device_name, query));
  doc.update(device_part_json(info, query));
  if (query.image) doc["ok"] = true;
  return doc;
}

}  // namespace openflint::reports
