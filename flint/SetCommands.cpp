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
#include "reports/BurnDocument.h"
#include "reports/ImageReport.h"
#include "flint/UidText.h"
#include "fwops/BurnTypes.h"
#include "fwops/edit/DeviceIdentityEdit.h"
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

void print_done(const Options& options, const std::string& what, const ImageQuery& q, nlohmann::json doc) {
  if (options.json) {
    doc.update(identity_fields_json(q));
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

// sg/sv on a device: fwops' edit (device data, or a failsafe re-burn), with the CLI's flags.
IdentityEditOptions edit_options(const Options& options) {
  IdentityEditOptions e;
  e.failsafe = !options.nofs;
  e.verify_writes = !options.no_flash_verify;
  e.override_firmware = options.ocr;
  e.force = options.force;
  e.reading = progress_line(options, "Reading flash");
  auto line = progress_line(options, "Burning");
  if (line) e.burning = [line](const BurnProgress& p) { line(p.done, p.total); };
  return e;
}

int set_on_device(const Options& options, const Patch& patch, const std::string& what) {
  auto device = open_cli_device(options);
  if (!device) return report_error(options, device.error());
  auto edit = edit_device_identity(*device, patch, edit_options(options));
  if (!edit) return finish(options, *device, report_error(options, edit.error()));
  print_done(options, what + " on " + device->name() + " (" + edit->method + ")", edit->after,
             {{"device", device->name()}, {"method", edit->method}});
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
