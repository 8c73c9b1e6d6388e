// FirmwareApi: uploads checked before anything is offered, burns and identity edits as jobs, the reset.
#include "web/FirmwareApi.h"

#include "cli/ErrorReport.h"
#include "core/HexString.h"
#include "fwops/DeviceBurn.h"
#include "fwops/DeviceQuery.h"
#include "fwops/ImageFile.h"
#include "fwops/edit/DeviceIdentityEdit.h"
#include "fwops/registers/AdapterReset.h"
#include "image/FirmwareImage.h"
#include "image/ImagePatch.h"
#include "image/FirmwarePackage.h"
#include "web/JsonNumber.h"
#include "reports/BurnDocument.h"
#include "reports/DeviceReport.h"
#include "reports/SafetyReport.h"
#include "reports/ImageReport.h"
#include "reports/ResetDocument.h"

namespace openflint {
namespace {

// The device's `flint q --json` document after a change (its error document if the query fails).
nlohmann::json query_after(Device& device) {
  auto query = query_device(device);
  return query ? reports::device_query_with_safety_json(device, *query) : cli::error_json(query.error());
}

}  // namespace

Result<void> FirmwareApi::writable(std::size_t index, const std::string& who, const std::string& action) const {
  if (index >= devices_.devices().size())
    return make_error(ErrorCode::NotFound, "no device " + std::to_string(index) + " is served");
  if (!devices_.read_only()) return {};
  devices_.audit(who + "refused " + action + " of " + devices_.devices()[index] + ": read-only server");
  return make_error(ErrorCode::PermissionDenied, "this console is read-only (mst web --read-only)");
}

Result<nlohmann::json> FirmwareApi::upload(std::size_t index, std::vector<std::uint8_t> body, const std::string& label,
                                           const std::string& peer) {
  const std::string who = "web " + peer + ": ";
  OF_TRY(writable(index, who, "an image upload"));
  if (body.empty()) return make_error(ErrorCode::InvalidArgument, "the upload is empty: send the image as the body");
  const std::string& name = devices_.devices()[index];
  OF_ASSIGN(Device device, devices_.open(index));
  std::string psid;  // a package's board (MFA or MFA2, told apart by content): the device's own
  if (package_kind(body)) {
    OF_ASSIGN(psid, device_psid(device));
  }
  const auto refuse = [&](const Error& e) {
    devices_.audit(who + "refused image " + label + " for " + name + ": " + e.message());
    return make_error(e);
  };
  auto image = ImageFile::from_bytes(std::move(body), label, psid);
  if (!image) return refuse(image.error());
  const auto query = query_image(image->bytes());
  if (!query) return refuse(query.error().with_context(label));
  const auto verified = verify_image(image->bytes());
  if (!verified) return refuse(verified.error().with_context(label));
  if (!verified->bootable())
    return refuse(Error(ErrorCode::InvalidImage, image->label() + " does not verify: no bootable copy (see \"verify\")"));
  // The burn's own checks, up to its question (answered "no"): nothing is written.
  std::optional<BurnPreflight> preflight;
  BurnOptions dry;
  dry.decide = [&preflight](const BurnPreflight& p) -> Result<bool> {
    preflight = p;
    return false;
  };
  auto refused = burn_device(device, image->bytes(), dry);
  if (refused || refused.error().code() != ErrorCode::Cancelled || !preflight)
    return refuse(refused ? Error(ErrorCode::Internal, "the check burned the image") : refused.error());
  const std::lock_guard lock(mutex_);
  while (uploads_.size() >= kKeptUploads) {
    auto oldest = uploads_.begin();
    for (auto it = uploads_.begin(); it != uploads_.end(); ++it)
      if (it->second.serial < oldest->second.serial) oldest = it;
    uploads_.erase(oldest);
  }
  const std::uint64_t serial = next_upload_++;
  const std::string id = "upload-" + std::to_string(serial);
  const std::uint64_t size = image->bytes().size();
  uploads_[id] = Upload{index, image->label(), std::vector<std::uint8_t>(image->bytes().begin(), image->bytes().end()), serial};
  return nlohmann::json{{"ok", true},
                        {"upload", id},
                        {"device", name},
                        {"label", image->label()},
                        {"size", size},
                        {"image", reports::query_json(*query)},
                        {"verify", reports::verify_json(*verified)},
                        {"preflight", reports::preflight_json(*preflight)}};
}

Result<nlohmann::json> FirmwareApi::start_burn(std::size_t index, const nlohmann::json& request, const std::string& peer) {
  const std::string who = "web " + peer + ": ";
  OF_TRY(writable(index, who, "a burn"));
  if (!request.is_object() || !request.contains("upload") || !request["upload"].is_string())
    return make_error(ErrorCode::InvalidArgument, "a burn needs \"upload\": the id POST .../image returned");
  Upload upload;
  {
    const std::lock_guard lock(mutex_);
    const auto it = uploads_.find(request["upload"].get<std::string>());
    if (it == uploads_.end() || it->second.device != index)
      return make_error(ErrorCode::NotFound, "no upload " + request["upload"].get<std::string>() + " for device " +
                                                 std::to_string(index) + " (upload the image again)");
    upload = std::move(it->second);
    uploads_.erase(it);
  }
  const std::string name = devices_.devices()[index];
  auto image = std::make_shared<Upload>(std::move(upload));
  OF_ASSIGN(const std::string job, jobs_.start(index, "burn " + image->label, [&devices = devices_, index, image, who, name](const WebJobs::Progress& progress, const WebJobs::Detail&)
                                                                                  -> Result<nlohmann::json> {
    const auto fail = [&](const Error& e) {
      devices.audit(who + "burn of " + image->label + " into " + name + " failed: " + e.message());
      return make_error(e);
    };
    auto device = devices.open(index);
    if (!device) return fail(device.error());
    std::optional<BurnPreflight> pre;
    BurnOptions b;
    b.progress = [&progress](const BurnProgress& p) { progress(p.stage, p.done, p.total); };
    b.decide = [&](const BurnPreflight& p) -> Result<bool> {
      pre = p;
      devices.audit(who + "burning " + image->label + " (FW " + reports::version_text(p.incoming) + ") into " + name +
                     " (flash has " + reports::version_text(p.current) + "); " + reports::identity_text(p.identity));
      return true;
    };
    auto report = burn_device(*device, image->image, b);
    auto saved = device->commit();  // also after a burn that failed part-way
    devices.forget(index);
    if (!report) return fail(report.error());
    if (!saved) return fail(saved.error());
    devices.audit(who + "burned " + name + ": FW " + reports::version_text(pre->incoming) + " at " +
                   hex_string(report->new_copy_address));
    nlohmann::json doc = reports::burn_json(*pre, *report);
    doc["device"] = name;
    doc["device_query"] = query_after(*device);
    return doc;
  }));
  return nlohmann::json{{"ok", true}, {"job", job}};
}

Result<nlohmann::json> FirmwareApi::start_identity(std::size_t index, const nlohmann::json& request,
                                                   const std::string& peer) {
  const std::string who = "web " + peer + ": ";
  OF_TRY(writable(index, who, "an identity change"));
  if (!request.is_object()) return make_error(ErrorCode::InvalidArgument, "the body is not a JSON object");
  OF_ASSIGN(const std::optional<std::uint64_t> guid, json_optional_number(request, "guid", 64));
  OF_ASSIGN(const std::optional<std::uint64_t> mac, json_optional_number(request, "mac", 48));
  std::optional<std::string> vsd;
  if (request.contains("vsd") && request["vsd"].is_string()) vsd = request["vsd"].get<std::string>();
  if (mac && !guid) return make_error(ErrorCode::InvalidArgument, "a MAC is set with its GUID (as flint sg GUID MAC)");
  if (!guid && !vsd) return make_error(ErrorCode::InvalidArgument, "nothing to set: give \"guid\" (and \"mac\") or \"vsd\"");
  std::optional<GuidSettings> guids;
  if (guid) guids = GuidSettings{*guid, mac};
  const std::string name = devices_.devices()[index];
  const std::string what = std::string(guid ? "set GUIDs" : "") + (guid && vsd ? " and " : "") + (vsd ? "set VSD" : "");
  OF_ASSIGN(const std::string job, jobs_.start(index, what, [&devices = devices_, index, guids, vsd, who, name, what](const WebJobs::Progress& progress, const WebJobs::Detail&)
                                                              -> Result<nlohmann::json> {
    auto device = devices.open(index);
    if (!device) return make_error(device.error());
    IdentityEditOptions options;
    options.reading = [&progress](std::uint64_t done, std::uint64_t total) { progress("reading", done, total); };
    options.burning = [&progress](const BurnProgress& p) { progress(p.stage, p.done, p.total); };
    auto edit = edit_device_identity(*device, [&](Bytes data) { return set_identity(data, guids, vsd); }, options);
    auto saved = device->commit();
    devices.forget(index);
    if (!edit) {
      devices.audit(who + what + " on " + name + " refused or failed: " + edit.error().message());
      return make_error(edit.error());
    }
    if (!saved) return make_error(saved.error());
    devices.audit(who + what + " on " + name + " (" + edit->method + ")" +
                   (guids ? ": GUID " + hex_string(guids->base_guid, 16) : std::string()) + (vsd ? ": VSD \"" + *vsd + "\"" : ""));
    nlohmann::json doc{{"ok", true}, {"device", name}, {"method", edit->method}};
    doc.update(reports::identity_fields_json(edit->after));
    return doc;
  }));
  return nlohmann::json{{"ok", true}, {"job", job}};
}

Result<nlohmann::json> FirmwareApi::reset_plan(std::size_t index) const {
  OF_ASSIGN(Device device, devices_.open(index));
  OF_ASSIGN(const ResetPlan plan, plan_reset(device, ResetOptions{}));
  return nlohmann::json{{"ok", true}, {"plan", reports::reset_plan_json(plan)}};
}

Result<nlohmann::json> FirmwareApi::reset(std::size_t index, const std::string& peer) {
  const std::string who = "web " + peer + ": ";
  OF_TRY(writable(index, who, "a reset"));
  const std::string& name = devices_.devices()[index];
  OF_ASSIGN(Device device, devices_.open(index));
  OF_ASSIGN(const ResetPlan plan, plan_reset(device, ResetOptions{}));
  if (!plan.blockers.empty()) {
    devices_.audit(who + "refused reset of " + name + ": " + plan.blockers.front().why);
    return make_error(plan.blockers.front().code, "refusing to reset " + name + ": " + plan.blockers.front().why);
  }
  auto report = run_reset(device, plan, ResetOptions{});
  auto saved = device.commit();
  devices_.forget(index);
  if (!report) {
    devices_.audit(who + "reset of " + name + " failed: " + report.error().message());
    return make_error(report.error().with_context("resetting " + name));
  }
  OF_TRY(std::move(saved));
  devices_.audit(who + "reset " + name + " (" + plan.method + ")");
  return reports::reset_report_json(*report);
}

}  // namespace openflint
