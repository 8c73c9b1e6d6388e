// SetCommands: `sg GUID [MAC]` and `sv TEXT` on -i IMAGE (file patched in place) or -d DEVICE.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>

#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "core/OutputFile.h"
#include "flint/Commands.h"
#include "flint/DeviceAccess.h"
#include "fwops/DeviceBurn.h"
#include "fwops/DeviceFlash.h"
#include "flint/Progress.h"
#include "reports/ImageReport.h"
#include "flint/UidText.h"
#include "fwops/BurnTypes.h"
#include "fwops/edit/DeviceDataEdit.h"
#include "image/FirmwareImage.h"
#include "image/FlashImage.h"
#include "image/ImagePatch.h"

namespace openflint::flint {
using namespace openflint::reports;  // the documents the tools print (reports/)
namespace {

using Patch = FlashPatch;

// mstflint's "guids_num=N" / "step_size=S", each also as "V1,V2" (per port). The FS3 DEV_INFO
// this patches has one GUID and one MAC entry, so (as mstflint there) the port-1 value is used.
Result<void> parse_sg_params(const std::vector<std::string>& params, UidAllocation& s) {
  for (const std::string& p : params) {
    const auto eq = p.find('=');
    const std::string tag = p.substr(0, eq);
    if (eq == std::string::npos || (tag != "guids_num" && tag != "step_size"))
      return make_error(ErrorCode::InvalidArgument,
                        "sg parameter '" + p + "': expected guids_num=N[,N2] or step_size=S[,S2]");
    const std::string value = p.substr(eq + 1);
    const std::string first = value.substr(0, value.find(','));
    const std::string second = value.find(',') == std::string::npos ? first : value.substr(value.find(',') + 1);
    OF_ASSIGN(const std::uint64_t v1, cli::parse_number(first, tag));
    OF_ASSIGN(const std::uint64_t v2, cli::parse_number(second, tag));
    if (v1 > 0xff || v2 > 0xff)
      return make_error(ErrorCode::InvalidArgument, "sg parameter '" + p + "': at most 255 (an 8-bit field)");
    (tag == "guids_num" ? s.guids_num : s.step_size) = static_cast<std::uint8_t>(v1);
  }
  return {};
}

nlohmann::json ids_json(const ImageQuery& q) {
  auto uid = [](const std::optional<UidRange>& u) {
    return u ? nlohmann::json{{"base", hex(u->base, 16)}, {"count", u->count}} : nlohmann::json(nullptr);
  };
  return {{"base_guid", uid(q.base_guid)}, {"base_mac", uid(q.base_mac)}, {"image_vsd", q.image_vsd},
          {"device_vsd", q.device_vsd}};
}

void print_done(const Options& options, const std::string& what, const ImageQuery& q, nlohmann::json doc) {
  if (options.json) {
    doc.update(ids_json(q));
    doc["ok"] = true;
    cli::print_json(doc);
    return;
  }
  std::cout << "-I- " << what << '\n';
  print_query(std::cout, q);
}

int set_on_file(const Options& options, const Patch& patch, const std::string& what) {
  auto bytes = read_whole_file(options.image);
  if (!bytes) return report_error(options, bytes.error());
  auto patched = patch(*bytes);
  if (!patched) return report_error(options, patched.error().with_context(options.image));
  auto query = query_image(*patched);
  if (!query) return report_error(options, query.error().with_context(options.image + " after patching"));
  // Check, then write: the file is replaced only by an image that still verifies.
  if (auto before = verify_image(*bytes); before && before->bootable()) {
    auto after = verify_image(*patched);
    if (!after || !after->bootable())
      return report_error(options, Error(ErrorCode::InvalidImage, options.image + ": the patched image would not verify" +
                                                                      (after ? "" : ": " + after.error().message())));
  }
  // Through a temp file and a rename: a failure leaves the image as it was.
  if (auto w = write_output_file(options.image, *patched, "image"); !w) return report_error(options, w.error());
  print_done(options, what + " in " + options.image, *query, {{"image", options.image}});
  return cli::kOk;
}

// FS1/FS2: the patched image goes through the failsafe burner (same version and PSID: no
// questions; an image for other devices is refused there). Returns the method used for the report.
Result<std::string> burn_patched(const Options& options, Device& device, Bytes image) {
  BurnOptions b;
  b.failsafe = !options.nofs;
  b.verify_writes = !options.no_flash_verify;
  b.identity.use_image_guids = true;  // the patched image carries the identity being set
  b.identity.use_image_vsd = true;
  auto line = progress_line(options, "Burning");
  if (line) b.progress = [line](const BurnProgress& p) { line(p.done, p.total); };
  b.override_firmware = options.ocr;
  OF_ASSIGN(const BurnReport r, burn_device_flash(device, image, b));
  return std::string(options.nofs ? "burn (not failsafe)" : "failsafe burn") + ", new copy at " +
         hex(r.new_copy_address);
}

Result<std::string> patch_device(const Options& options, Device& device, const Patch& patch) {
  std::vector<std::uint8_t> flash_bytes;
  {
    OF_ASSIGN(FlashDriver flash, open_device_flash(device, options.ocr));
    OF_ASSIGN(flash_bytes, flash.read(0, flash.size(), progress_line(options, "Reading flash")));
    OF_ASSIGN(const ImageQuery current, query_image(flash_bytes));
    if (identity_in_device_data(current.format)) {
      // FS3/FS4 keep GUIDs and VSD in the board's DEV_INFO, which a burn deliberately leaves alone.
      OF_ASSIGN(const SafeWriteReport r, patch_device_data(flash, flash_bytes, current.format, current.image_start,
                                                           patch, options.force));
      return "device data rewritten (" + std::to_string(r.sectors_in_place + r.sectors_journaled + r.sectors_forced) +
             " sectors, power-cut safe)";
    }
    OF_ASSIGN(flash_bytes, image_file_from_flash(flash_bytes));
  }  // the flash lock is released: the burner takes its own
  OF_ASSIGN(const std::vector<std::uint8_t> patched, patch(flash_bytes));
  return burn_patched(options, device, patched);
}

// What the device's flash holds now.
Result<ImageQuery> query_device(const Options& options, Device& device) {
  OF_ASSIGN(FlashDriver flash, open_device_flash(device, options.ocr));
  OF_ASSIGN(const std::vector<std::uint8_t> bytes, flash.read(0, flash.size(), nullptr));
  return query_image(bytes);
}

int set_on_device(const Options& options, const Patch& patch, const std::string& what) {
  auto device = open_cli_device(options);
  if (!device) return report_error(options, device.error());
  auto method = patch_device(options, *device, patch);
  if (!method) return finish(options, *device, report_error(options, method.error().with_context(device->name())));
  auto query = query_device(options, *device);
  if (!query)
    return finish(options, *device, report_error(options, query.error().with_context(device->name() + " after " + what)));
  print_done(options, what + " on " + device->name() + " (" + *method + ")", *query,
             {{"device", device->name()}, {"method", *method}});
  return finish(options, *device, cli::kOk);
}

int set_any(const Options& options, const Patch& patch, const std::string& what) {
  if (!options.device.empty()) return set_on_device(options, patch, what);
  if (options.image.empty())
    return report_error(options, Error(ErrorCode::InvalidArgument, what + ": give -i IMAGE or -d DEVICE"));
  return set_on_file(options, patch, what);
}

}  // namespace

int run_set_guids(const Options& options, const std::string& guid_text, const std::string& mac_text_in,
                  const std::vector<std::string>& params_in) {
  GuidSettings settings;
  auto guid = parse_uid(guid_text, 64, "GUID");
  if (!guid) return report_error(options, guid.error());
  settings.base_guid = *guid;
  std::vector<std::string> params = params_in;
  std::string mac_text = mac_text_in;
  if (mac_text.find('=') != std::string::npos) {  // `sg GUID guids_num=8`: no MAC given
    params.insert(params.begin(), mac_text);
    mac_text.clear();
  }
  UidAllocation allocation;
  if (auto p = parse_sg_params(params, allocation); !p) return report_error(options, p.error());
  if (!mac_text.empty()) {
    auto mac = parse_uid(mac_text, 48, "MAC");
    if (!mac) return report_error(options, mac.error());
    settings.base_mac = *mac;
  }
  return set_any(options, [&](Bytes data) { return set_guids(data, settings, allocation); }, "set GUIDs");
}

int run_set_vsd(const Options& options, const std::string& vsd) {
  return set_any(options, [&](Bytes data) { return set_vsd(data, vsd); }, "set VSD");
}

}  // namespace openflint::flint
