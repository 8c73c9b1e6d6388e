// SafetyFacts: each fact from the boot copy's query, the boot rule, and the firmware's MCAM, MCQI and MGIR answers.
#include "fwops/SafetyFacts.h"

#include <algorithm>
#include <vector>

#include "core/HexString.h"
#include "fwops/burn/ComponentUpdater.h"
#include "image/BootCopy.h"
#include "mtcr/registers/MgirRegister.h"

namespace openflint {
namespace {

SafetyFact safety_fact_of(Fact value, std::string source, std::string detail) {
  return SafetyFact{.value = value, .source = std::move(source), .detail = std::move(detail)};
}

// FS3/FS4: the two slots split the flash unless the copy at the second one says where it is.
std::uint64_t safety_slot_size(const ImageQuery& image, std::uint64_t flash_size) {
  return image.image_start != 0 ? image.image_start : flash_size / 2;
}

SafetyFact dual_image_fact(const DeviceQuery& q) {
  if (!q.image) return safety_fact_of(Fact::No, "flash", "no valid image on flash");
  const ImageQuery& image = *q.image;
  const std::string format(to_string(image.format));
  if (!image.failsafe)
    return safety_fact_of(Fact::No, "flash", format + " image without the failsafe layout: one copy, burned in place");
  if (image.format == ImageFormat::Fs1)
    return safety_fact_of(Fact::Yes, "flash", "FS1 pointer sectors: a primary and a secondary image");
  if (image.format == ImageFormat::Fs2)
    return safety_fact_of(Fact::Yes, "flash", "FS2 failsafe image (header fs word), booted copy at " + hex_string(image.image_start) +
                                        ": the other copy's chunks are written by a burn");
  const std::uint64_t slot = safety_slot_size(image, q.chip.size);
  const bool two_slots = slot != 0 && 2 * slot <= q.chip.size && (image.image_start == 0 || image.image_start == slot);
  if (!two_slots || image.image_size > slot)
    return safety_fact_of(Fact::No, "flash", format + " copy of " + hex_string(image.image_size) + " bytes at " +
                                       hex_string(image.image_start) + " leaves no second slot on a flash of " +
                                       hex_string(q.chip.size) + " bytes");
  const std::uint64_t other = image.image_start == 0 ? slot : 0;
  return safety_fact_of(Fact::Yes, "flash", format + " copy of " + hex_string(image.image_size) + " bytes at " +
                                      hex_string(image.image_start) + ", the other slot at " + hex_string(other) +
                                      " of a flash of " + hex_string(q.chip.size) + " bytes");
}

SafetyFact self_recovery_fact(const SafetyFact& dual, const DeviceQuery& q) {
  if (dual.value != Fact::Yes)
    return safety_fact_of(dual.value, "boot rule", "one copy: an image that does not boot leaves the device in flash recovery");
  const ImageQuery& image = *q.image;
  if (image.format == ImageFormat::Fs1)
    return safety_fact_of(Fact::Yes, "boot rule", "the boot ROM takes the secondary pointer sector when the primary's image does not verify");
  if (image.format == ImageFormat::Fs2)
    return safety_fact_of(Fact::Yes, "boot rule", "the boot ROM tries both FS2 copies and boots the first that verifies");
  const std::uint64_t slot = safety_slot_size(image, q.chip.size);
  const std::uint64_t other = image.image_start == 0 ? slot : 0;
  const std::vector<std::uint64_t> tried = boot_candidates(std::nullopt, q.chip.size);
  if (std::find(tried.begin(), tried.end(), other) == tried.end())
    return safety_fact_of(Fact::No, "boot rule", "the boot ROM does not look for a copy at " + hex_string(other));
  return safety_fact_of(Fact::Yes, "boot rule", "the boot ROM looks for a copy at 0 and at every power of two from 0x10000 to " +
                                          hex_string(q.chip.size / 2) + " (both slots) and boots the first that verifies");
}

SafetyFact update_through_firmware_fact(Device& device) {
  const std::string family(device.info().name);
  if (!device.info().firmware_flash.component_update)
    return safety_fact_of(Fact::No, "catalog", family + " firmware has no component update: tools write the flash through the gateway");
  if (device.transport().shows_no_firmware(device))
    return safety_fact_of(Fact::No, "boot state", "no firmware runs (flash recovery): tools write the flash through the gateway");
  auto port = device.register_port();
  if (!port) return safety_fact_of(Fact::Unknown, "MCAM", "no register channel: " + port.error().message());
  auto offered = ComponentUpdater::offered(**port);
  if (!offered) return safety_fact_of(Fact::Unknown, "MCAM", "MCAM not read: " + offered.error().message());
  if (!*offered)
    return safety_fact_of(Fact::No, "MCAM", "the running firmware does not list MCQS, MCQI, MCC and MCDA: tools write the flash through the gateway");
  auto opened = ComponentUpdater::open(**port);
  if (!opened)
    return safety_fact_of(Fact::Yes, "MCAM", "the running firmware lists MCQS, MCQI, MCC and MCDA (MCQI not read: " +
                                       opened.error().message() + ")");
  return safety_fact_of(Fact::Yes, "MCAM, MCQI", "the running firmware lists MCQS, MCQI, MCC and MCDA and takes a boot image of up to " +
                                           hex_string(opened->max_component_size()) + " bytes");
}

SafetyFact needs_activation_fact(const DeviceQuery& q) {
  const std::string source = "flash, running firmware";
  if (!q.running) return safety_fact_of(Fact::Unknown, source, "the device does not tell what it runs (no MGIR answer)");
  if (!q.image) return safety_fact_of(Fact::No, source, "no valid image on flash to activate");
  const std::string flash = q.image->fw_version ? q.image->fw_version->to_string() : "";
  if (q.running->recovery)
    return safety_fact_of(Fact::Yes, source, "no firmware runs (flash recovery); the flash holds " + (flash.empty() ? "an image" : flash) +
                                       ": a reset boots it");
  const auto& running = q.running->image;
  if (!running || !running->fw_version) return safety_fact_of(Fact::Unknown, source, "the running firmware's version is not known");
  if (flash.empty()) return safety_fact_of(Fact::Unknown, source, "the flash copy carries no FW version");
  const std::string runs = running->fw_version->to_string();
  if (flash != runs)
    return safety_fact_of(Fact::Yes, source, "flash " + flash + ", running " + runs + ": a reset activates the flash's firmware");
  return safety_fact_of(Fact::No, source, "flash and running firmware are both " + runs);
}

SafetyFact signed_images_required_fact(Device& device) {
  const std::string source = "MGIR";
  auto port = device.register_port();
  if (!port) return safety_fact_of(Fact::Unknown, source, "no register channel: " + port.error().message());
  auto answer = (*port)->query(MgirRegister::kId, std::vector<std::uint8_t>(MgirRegister::kSize, 0));
  if (!answer) return safety_fact_of(Fact::Unknown, source, "MGIR not read: " + answer.error().message());
  if (answer->status != 0) return safety_fact_of(Fact::Unknown, source, "MGIR refused (status " + hex_string(answer->status) + ")");
  auto mgir = MgirRegister::decode(answer->data);
  if (!mgir) return safety_fact_of(Fact::Unknown, source, mgir.error().message());
  if (!mgir->has_firmware()) return safety_fact_of(Fact::Unknown, source, "no firmware runs to tell (flash recovery)");
  const std::string running = mgir->signed_fw ? "; the running firmware is signed" : "; the running firmware is not signed";
  if (mgir->secured) return safety_fact_of(Fact::Yes, source, "fw_info.secured: secure firmware update, only signed images are taken" + running);
  return safety_fact_of(Fact::No, source, "fw_info.secured clear: no secure firmware update" + running);
}

}  // namespace

std::string_view to_string(Fact f) {
  switch (f) {
    case Fact::Yes: return "yes";
    case Fact::No: return "no";
    case Fact::Unknown: return "unknown";
  }
  return "unknown";
}

SafetyFacts derive_safety_facts(Device& device, const DeviceQuery& query) {
  SafetyFacts out;
  out.dual_image = dual_image_fact(query);
  out.self_recovery = self_recovery_fact(out.dual_image, query);
  out.update_through_firmware = update_through_firmware_fact(device);
  out.needs_activation = needs_activation_fact(query);
  out.signed_images_required = signed_images_required_fact(device);
  return out;
}

Result<SafetyFacts> query_safety_facts(Device& device) {
  OF_ASSIGN(const DeviceQuery query, query_device(device));
  return derive_safety_facts(device, query);
}

}  // namespace openflint
