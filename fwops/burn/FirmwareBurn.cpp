// FirmwareBurn: preflight over MFBA, the component from the identity-patched image, the firmware's update.
#include "fwops/burn/FirmwareBurn.h"

#include <array>
#include <optional>
#include <string>

#include "core/Interrupt.h"
#include "flash/FirmwareFlashReader.h"
#include "fwops/burn/BurnPreparation.h"
#include "fwops/burn/FlashSession.h"
#include "fwops/burn/FlashFormat.h"
#include "image/Fs2Header.h"
#include "image/Fs4Image.h"

namespace openflint {
namespace {

constexpr std::string_view kUseOcr = " through the running firmware; burn with --ocr to write the flash directly";

// mstflint refuses the same under "controlled FW" (FsCtrlOperations::VerifyAllowedParams).
Result<void> firmware_can_do(const BurnOptions& options, const BurnPreflight& p) {
  if (!options.failsafe)
    return make_error(ErrorCode::NotSupported, "a burn without failsafe cannot be done" + std::string(kUseOcr));
  if (options.identity.use_image_vsd)
    return make_error(ErrorCode::NotSupported, "the image's VSD cannot be burned" + std::string(kUseOcr));
  if (p.identity.write_image_device_data)
    return make_error(ErrorCode::NotSupported, "the file's device data cannot be burned" + std::string(kUseOcr));
  if (p.identity.edits_device_data())
    return make_error(ErrorCode::NotSupported, "GUIDs, MACs or VSD cannot be set" + std::string(kUseOcr));
  if (p.psid_changes)
    return make_error(ErrorCode::NotSupported, "the firmware refuses a PSID change (" + p.current->psid + " -> " +
                                                   p.incoming.psid + ")" + std::string(kUseOcr));
  return {};
}

// Where the firmware put the new copy, read back through it (MFBA): the failsafe slot (0 or half
// the flash) other than the old copy's that now starts with the format's magic. nullopt when
// neither does. Not the boot-address register: a CR-space read, which over a served BAR can
// still show the value from before the firmware's activation.
std::optional<std::uint64_t> new_copy_slot(FirmwareFlashReader& flash, ImageFormat format,
                                           const std::optional<CurrentCopy>& current) {
  static_assert(fs4::kMagic.size() == fs2::kMagic.size());
  const auto& magic = format == ImageFormat::Fs4 ? fs4::kMagic : fs2::kMagic;
  for (const std::uint64_t slot : {std::uint64_t{0}, flash.size() / 2}) {
    if (current && current->layout.start == slot) continue;
    std::array<std::uint8_t, 4 * fs2::kMagic.size()> head{};
    if (!flash.read_into(slot, head)) return std::nullopt;
    bool match = true;
    for (std::size_t i = 0; i < magic.size(); ++i)
      match = match && (std::uint32_t{head[4 * i]} << 24 | std::uint32_t{head[4 * i + 1]} << 16 |
                        std::uint32_t{head[4 * i + 2]} << 8 | head[4 * i + 3]) == magic[i];
    if (match) return slot;
  }
  return std::nullopt;
}

}  // namespace

Result<BurnReport> burn_through_firmware(RegisterPort& port, RegisterAccess& access, const DeviceInfo& info,
                                         Bytes image, const BurnOptions& options, ComponentUpdateTimeouts timeouts) {
  OF_ASSIGN(const BootableImage bootable, BootableImage::check(image));
  return burn_through_firmware(port, access, info, bootable, options, timeouts);
}

Result<BurnReport> burn_through_firmware(RegisterPort& port, RegisterAccess& access, const DeviceInfo& info,
                                         const BootableImage& bootable, const BurnOptions& options,
                                         ComponentUpdateTimeouts timeouts) {
  const std::uint64_t accesses_before = port.accesses();
  const Bytes image = bootable.bytes();
  OF_ASSIGN(const FlashFormat* burner, flash_format(info.image_format));
  OF_ASSIGN_CTX(FirmwareFlashReader flash, FirmwareFlashReader::open(port), "reading the flash through the firmware");
  OF_ASSIGN(ComponentUpdater updater, ComponentUpdater::open(port, timeouts));
  FlashSession session(access, info, flash.size(),
                      [&flash](std::uint64_t address, std::span<std::uint8_t> out) { return flash.read_into(address, out); },
                      options);
  const auto check = [&options](const BurnPreflight& p) { return firmware_can_do(options, p); };
  auto preparing = prepare_burn(session, *burner, image, check);
  if (!preparing && preparing.error().code() == ErrorCode::Interrupted)
    return make_error(ErrorCode::Interrupted, "interrupted by " + std::string(signal_name(interrupt_signal())) +
                                                  ": the burn stopped before writing anything; the device is as it was");
  if (!preparing) return make_error(std::move(preparing).error());
  PreparedBurn prepared = std::move(*preparing);
  OF_ASSIGN(const std::vector<std::uint8_t> component, firmware_component(info.image_format, prepared.image, flash.size()));
  const auto progress = [&session](std::uint64_t done, std::uint64_t total) { session.progress("writing", done, total); };
  if (auto updated = updater.update(component, progress); !updated) {
    if (updated.error().code() == ErrorCode::Interrupted) return make_error(std::move(updated).error());  // says it all
    return make_error(std::move(updated).error().with_context("the firmware's update"));
  }
  session.progress("done", 1, 1);
  BurnReport& report = session.report();
  report.through_firmware = true;
  if (auto slot = new_copy_slot(flash, info.image_format, prepared.current)) {
    report.new_copy_address = *slot;
  } else if (auto boot = session.boot_address(); boot && *boot) {
    report.new_copy_address = **boot;  // the boot-address register (a CR-space read)
  }
  report.bytes_programmed = component.size();
  report.identity = prepared.preflight.identity;
  report.register_accesses = port.accesses() - accesses_before;
  return report;
}

}  // namespace openflint
