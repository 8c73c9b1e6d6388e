// SimBoot: boots a simulated device from its flash array and persists what runs (see SimBoot.h).
#include "fwops/SimBoot.h"

#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "image/FirmwareImage.h"

namespace openflint {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json uid_to_json(const std::optional<UidRange>& uid) {
  if (!uid) return nullptr;
  return json{{"base", uid->base}, {"count", uid->count}};
}

std::optional<UidRange> uid_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return UidRange{j.value("base", std::uint64_t{0}), j.value("count", std::uint32_t{0})};
}

// The fields of a running image that outlive the flash contents it was booted from.
json query_to_json(const ImageQuery& q) {
  json j{{"format", static_cast<int>(q.format)},
         {"image_start", q.image_start},
         {"psid", q.psid},
         {"description", q.description},
         {"image_vsd", q.image_vsd},
         {"base_guid", uid_to_json(q.base_guid)},
         {"base_mac", uid_to_json(q.base_mac)},
         {"image_size", q.image_size}};
  if (q.fw_version) j["fw_version"] = {q.fw_version->major, q.fw_version->minor, q.fw_version->subminor};
  return j;
}

ImageQuery query_from_json(const json& j) {
  ImageQuery q;
  q.format = static_cast<ImageFormat>(j.value("format", 0));
  q.image_start = j.value("image_start", std::uint64_t{0});
  q.psid = j.value("psid", std::string());
  q.description = j.value("description", std::string());
  q.image_vsd = j.value("image_vsd", std::string());
  q.base_guid = uid_from_json(j.value("base_guid", json()));
  q.base_mac = uid_from_json(j.value("base_mac", json()));
  q.image_size = j.value("image_size", std::uint64_t{0});
  const json v = j.value("fw_version", json());
  if (v.is_array() && v.size() == 3) {
    q.fw_version = FwVersion{v[0].get<std::uint16_t>(), v[1].get<std::uint16_t>(), v[2].get<std::uint16_t>()};
  }
  return q;
}

}  // namespace

Result<RunningFirmware> boot_simulated_device(sim::SimDevice& device) {
  if (!device.powered()) {
    return make_error(ErrorCode::Io, "simulated " + std::string(device.info().name) + " is powered off");
  }
  device.power_cycle();  // a reset drops latches, locks and half-done SPI commands
  RunningFirmware running;
  const auto flash = device.flash().contents();
  auto query = query_image(flash);
  auto report = verify_image(flash);
  if (!query || !report || !report->bootable()) {
    running.recovery = true;
    return running;
  }
  running.booted_copy = query->image_start;
  running.image = std::move(*query);
  return running;
}

Result<void> save_running_firmware(const fs::path& dir, const RunningFirmware& running) {
  json j{{"recovery", running.recovery},
         {"booted_copy", running.booted_copy ? json(*running.booted_copy) : json(nullptr)},
         {"image", running.image ? query_to_json(*running.image) : json(nullptr)}};
  const fs::path path = dir / "boot.json";
  const fs::path tmp = dir / "boot.json.tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << j.dump(2) << '\n';
    if (!out.flush()) return make_error(ErrorCode::Io, "cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return make_error(ErrorCode::Io, "cannot rename " + tmp.string() + ": " + ec.message());
  return {};
}

Result<RunningFirmware> load_running_firmware(const fs::path& dir) {
  RunningFirmware running;
  std::ifstream in(dir / "boot.json");
  if (!in) {
    running.recovery = true;
    return running;
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return make_error(ErrorCode::InvalidArgument, (dir / "boot.json").string() + ": not a json object");
  }
  try {
    running.recovery = j.value("recovery", true);
    if (j.contains("booted_copy") && j["booted_copy"].is_number_unsigned())
      running.booted_copy = j["booted_copy"].get<std::uint64_t>();
    if (j.contains("image") && j["image"].is_object()) running.image = query_from_json(j["image"]);
  } catch (const json::exception& e) {
    return make_error(ErrorCode::InvalidArgument, (dir / "boot.json").string() + ": " + e.what());
  }
  return running;
}

}  // namespace openflint
