// FailsafeBurner: preflight (flash vs image identity) and the burn entry point; formats via a table.
#include "fwops/burn/FailsafeBurner.h"

#include "fwops/DeviceFlash.h"

#include <algorithm>
#include <string>

#include "core/HexString.h"
#include "core/Interrupt.h"
#include "core/UninterruptibleSection.h"
#include "flash/FlashDriver.h"
#include "fwops/burn/BurnPreparation.h"
#include "fwops/burn/FlashSession.h"
#include "fwops/edit/DeviceDataEdit.h"
#include "fwops/burn/FlashFormat.h"
#include "image/FirmwareImage.h"

namespace openflint {
namespace {

Result<ImageQuery> incoming_query(const FlashFormat& burner, const DeviceInfo& info, Bytes image) {
  OF_ASSIGN_CTX(ImageQuery q, query_image(image), "reading the image to burn");
  if (q.format != burner.image_format)
    return make_error(ErrorCode::Mismatch, "image format " + std::string(to_string(q.format)) + " does not fit " +
                                               std::string(info.name) + ", which runs " +
                                               std::string(to_string(info.image_format)) + " images");
  return q;
}

Result<BurnPreflight> compare(FlashSession& session, const FlashFormat& burner, Bytes image,
                              std::optional<CurrentCopy>& current) {
  BurnPreflight p;
  OF_ASSIGN(p.incoming, incoming_query(burner, session.info(), image));
  session.progress("reading", 0, 1);
  OF_ASSIGN_CTX(current, burner.find_current(session, CopyScope::Query), "reading the flash");
  session.progress("reading", 1, 1);
  if (current) p.current = current->query;
  OF_ASSIGN_CTX(const std::uint32_t hw, session.access().read32(session.info().hw_id_addr), "reading the hw id");
  const std::uint32_t device_hw = hw & 0xffff;
  const auto& ids = p.incoming.supported_hw_ids;
  p.hw_id_supported = ids.empty() || std::any_of(ids.begin(), ids.end(), [&](std::uint32_t id) {
                        return (id & 0xffff) == device_hw;
                      });
  p.psid_changes = p.current && p.current->psid != p.incoming.psid;
  if (p.current && p.current->fw_version && p.incoming.fw_version) {
    const auto order = *p.incoming.fw_version <=> *p.current->fw_version;
    p.version_order = order < 0 ? -1 : (order == 0 ? 0 : 1);
  }
  return p;
}

std::string hw_ids_text(const ImageQuery& q) {
  std::string ids;
  for (auto id : q.supported_hw_ids) ids += (ids.empty() ? "" : ", ") + hex_string(id);
  return ids.empty() ? "none listed" : ids;
}

// The refusals no answer overrides: an image for other devices, a PSID change not allowed.
Result<void> check_fit(const DeviceInfo& info, const BurnPreflight& p, const BurnOptions& options) {
  if (!p.hw_id_supported)
    return make_error(ErrorCode::Mismatch, "the image is for other devices (hw ids " + hw_ids_text(p.incoming) +
                                               "); this device is a " + std::string(info.name) + " (hw id " +
                                               hex_string(info.hw_id) + ")");
  if (p.psid_changes && !options.allow_psid_change)
    return make_error(ErrorCode::InvalidArgument,
                      "the image's PSID " + p.incoming.psid + " differs from the device's " + p.current->psid +
                          ": allow a PSID change (--allow_psid_change) if this board really should take it");
  return {};
}

// Finishes an interrupted journaled write first: the burn then reads consistent device data.
Result<FlashDriver> open_flash(RegisterAccess& access, const DeviceInfo& info) {
  return open_device_flash(access, info, "opening the flash of " + std::string(info.name));
}

// A burn a stop signal ended (core/Interrupt.h) says what the device boots now; where the safe
// point was is of no use to whoever stopped it.
Error interrupted_burn(const FlashSession& session, bool wrote, bool had_image) {
  std::string what = "interrupted by " + std::string(signal_name(interrupt_signal())) + ": ";
  if (!wrote) return Error(ErrorCode::Interrupted, what + "the burn stopped before writing anything; the device is as it was");
  what += "the burn did not complete; ";
  if (session.new_copy_boots()) what += "a complete copy of the new image boots (burn again to finish the other copy)";
  else if (had_image) what += "the old image still boots";
  else what += "the flash held no bootable image before and holds none now";
  return Error(ErrorCode::Interrupted, what);
}

}  // namespace

Result<PreparedBurn> prepare_burn(FlashSession& session, const FlashFormat& burner, Bytes image,
                                  const std::function<Result<void>(const BurnPreflight&)>& path_check) {
  const BurnOptions& options = session.options();
  const DeviceInfo& info = session.info();
  PreparedBurn out;
  OF_ASSIGN(out.preflight, compare(session, burner, image, out.current));
  BurnPreflight& p = out.preflight;
  OF_ASSIGN_CTX(IdentityPlan plan, plan_identity(image, p.incoming, p.current, options.identity), "burn refused");
  out.image = std::move(plan.image);
  p.identity = std::move(plan);
  p.identity.image.clear();
  if (out.image.size() != image.size() || !std::equal(out.image.begin(), out.image.end(), image.begin())) {
    auto again = check_image_bootable(out.image);  // the patch must not break what verified
    if (!again) return make_error(ErrorCode::Internal, "the image with the board's identity: " + again.error().message());
  }
  session.set_write_image_device_data(p.identity.write_image_device_data);
  if (path_check) OF_TRY(path_check(p));
  OF_TRY_CTX(check_fit(info, p, options), "burn refused");
  if (options.decide) {
    OF_ASSIGN(const bool go, options.decide(p));
    if (!go) return make_error(ErrorCode::Cancelled, "burn declined");
  }
  return out;
}

Result<BurnReport> burn_image(RegisterAccess& access, const DeviceInfo& info, Bytes image, const BurnOptions& options) {
  OF_ASSIGN(const BootableImage bootable, BootableImage::check(image));  // before the flash is touched
  OF_ASSIGN(FlashDriver driver, open_flash(access, info));  // the lock is held until we return
  return burn_image(access, info, driver, bootable, options);
}

Result<BurnReport> burn_image(RegisterAccess& access, const DeviceInfo& info, FlashDriver& driver,
                              const BootableImage& bootable, const BurnOptions& options) {
  const Bytes image = bootable.bytes();
  OF_ASSIGN(const FlashFormat* burner, flash_format(info.image_format));
  FlashSession session(access, info, driver, options);
  const auto check_identity = [&](const BurnPreflight& p) {  // FS3/FS4 --uid/--mac/--vsd: before any write
    return check_given_identity(driver, image, p.identity);
  };
  auto prepared = prepare_burn(session, *burner, image, check_identity);
  if (!prepared && prepared.error().code() == ErrorCode::Interrupted)
    return make_error(interrupted_burn(session, false, false));
  if (!prepared) return make_error(std::move(prepared).error());
  if (auto burned = burner->burn(session, prepared->image, prepared->current); !burned) {
    if (burned.error().code() == ErrorCode::Interrupted)
      return make_error(interrupted_burn(session, true, prepared->current.has_value()));
    return make_error(std::move(burned).error());
  }
  if (prepared->preflight.identity.edits_device_data()) {
    const UninterruptibleSection identity;  // the new copy is burned: its identity follows
    session.progress("writing device data", 0, 1);
    OF_TRY(write_given_identity(driver, prepared->preflight.identity));
  }
  session.progress("done", 1, 1);
  session.report().identity = prepared->preflight.identity;
  return session.report();
}

}  // namespace openflint
