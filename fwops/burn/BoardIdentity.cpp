// BoardIdentity: the one rule for the GUIDs/MACs/VSD of a burn, for every tool and transport.
#include "fwops/burn/BoardIdentity.h"

#include <algorithm>
#include <array>
#include <string>

#include "core/HexString.h"
#include "image/ImagePatch.h"

namespace openflint {
namespace {

// Where a format keeps a board's identity: FS1/FS2 in each copy's GUID section and IMG_INFO
// (rewritten by every burn, so the burn must carry them over); FS3/FS4 in device-data sections
// that stay on flash across a burn (docs/identity.md).
struct FormatIdentity {
  ImageFormat format;
  bool in_copy;            // the identity travels inside the image copy
  std::size_t guid_count;  // GUID-section GUIDs: node, port1, port2, system image
  std::size_t mac_count;   // GUID-section MACs after them
};

constexpr std::array<FormatIdentity, 4> kFormats{{
    {ImageFormat::Fs1, true, 4, 0},
    {ImageFormat::Fs2, true, 4, 2},
    {ImageFormat::Fs3, false, 0, 0},
    {ImageFormat::Fs4, false, 0, 0},
}};

const FormatIdentity& format_identity(ImageFormat format) {
  for (const auto& f : kFormats)
    if (f.format == format) return f;
  return kFormats[0];
}

bool gives_guids(const IdentityChoice& c) { return c.base_guid || !c.guids.empty(); }
bool gives_macs(const IdentityChoice& c) { return c.base_mac || !c.macs.empty(); }

Error refusal(const std::string& what) { return Error(ErrorCode::InvalidArgument, what); }

Result<void> check_combination(const IdentityChoice& c, const FormatIdentity& f) {
  if (c.base_guid && !c.guids.empty()) return make_error(refusal("--guid and --guids cannot be combined"));
  if (c.base_mac && !c.macs.empty()) return make_error(refusal("--mac and --macs cannot be combined"));
  if (c.blank_guids && (c.use_image_guids || gives_guids(c) || gives_macs(c)))
    return make_error(refusal("--blank_guids cannot be combined with --use_image_guids or given GUIDs/MACs"));
  if (c.use_image_guids && (gives_guids(c) || gives_macs(c)))
    return make_error(refusal("--use_image_guids cannot be combined with given GUIDs/MACs"));
  if (c.vsd && c.use_image_vsd) return make_error(refusal("--vsd and --use_image_ps cannot be combined"));
  if (!f.in_copy) return {};
  if (c.ignore_dev_data)
    return make_error(refusal("--ignore_dev_data applies to FS3/FS4 images only (this image is " +
                              std::string(to_string(f.format)) + ")"));
  if (!c.guids.empty() && c.guids.size() != f.guid_count)
    return make_error(refusal("--guids takes " + std::to_string(f.guid_count) + " GUIDs (node, port1, port2, system)"));
  if (gives_macs(c) && f.mac_count == 0)
    return make_error(refusal(std::string(to_string(f.format)) + " images carry no MACs"));
  if (!c.macs.empty() && c.macs.size() != f.mac_count)
    return make_error(refusal("--macs takes " + std::to_string(f.mac_count) + " MACs (port1, port2)"));
  for (const std::uint64_t mac : c.base_mac ? std::vector<std::uint64_t>{*c.base_mac} : c.macs)
    if (mac >> 48) return make_error(refusal("MAC " + hex_string(mac) + " has more than 48 bits"));
  return {};
}

void put_given(std::vector<std::uint64_t>& uids, std::size_t first, std::size_t count,
               const std::optional<std::uint64_t>& base, const std::vector<std::uint64_t>& list) {
  if (uids.size() < first + count) uids.resize(first + count, ~std::uint64_t{0});
  for (std::size_t i = 0; i < count; ++i) uids[first + i] = base ? *base + i : list[i];
}

// FS1/FS2: the GUID-section entries and the VSD are patched into the image copy.
Result<IdentityPlan> plan_in_copy(Bytes image, const ImageQuery& incoming, const std::optional<ImageQuery>& current,
                                  const IdentityChoice& c, const FormatIdentity& f) {
  IdentityPlan plan;
  plan.guid_count = f.guid_count;
  const bool device_known = current && !current->uids.empty();
  const bool given_all = gives_guids(c) && (f.mac_count == 0 || gives_macs(c));
  if (!device_known && !c.use_image_guids && !c.blank_guids && !given_all)
    return make_error(refusal(std::string("the board's GUIDs") + (f.mac_count ? "/MACs" : "") +
                              " cannot be read (no bootable image on flash): give them (--guid" +
                              (f.mac_count ? " and --mac" : "") + ") or burn the image's (--use_image_guids)"));
  const std::size_t entries = incoming.uids.size();
  if (c.blank_guids) {
    plan.uids.assign(entries, ~std::uint64_t{0});
    plan.uids_from = IdentitySource::Blank;
  } else if (c.use_image_guids) {
    plan.uids = incoming.uids;
    plan.uids_from = IdentitySource::Image;
  } else {
    plan.uids = device_known ? current->uids : incoming.uids;
    if (gives_guids(c)) put_given(plan.uids, 0, f.guid_count, c.base_guid, c.guids);
    if (gives_macs(c)) put_given(plan.uids, f.guid_count, f.mac_count, c.base_mac, c.macs);
    plan.uids_from = gives_guids(c) || gives_macs(c) ? IdentitySource::Given : IdentitySource::Device;
  }
  if (plan.uids.size() > entries) plan.uids.resize(entries);  // the image's section is what it is
  if (plan.uids != std::vector<std::uint64_t>(incoming.uids.begin(), incoming.uids.begin() +
                                                  static_cast<std::ptrdiff_t>(plan.uids.size()))) {
    OF_ASSIGN_CTX(plan.image, set_uid_entries(image, plan.uids), "writing the board's GUIDs into the image");
  } else {
    plan.image.assign(image.begin(), image.end());
  }

  plan.vsd = incoming.image_vsd;
  plan.vsd_from = IdentitySource::Image;
  if (c.vsd) {
    plan.vsd = *c.vsd;
    plan.vsd_from = IdentitySource::Given;
  } else if (!c.use_image_vsd && current) {
    plan.vsd = current->image_vsd;
    plan.vsd_from = IdentitySource::Device;
  }
  if (plan.vsd != incoming.image_vsd) {
    OF_ASSIGN_CTX(plan.image, set_vsd(plan.image, plan.vsd), "writing the board's VSD into the image");
  }
  return plan;
}

// FS3/FS4: the identity is device data that the burn leaves on flash, or the file's; a given
// base GUID/MAC or VSD (mstflint --uid/--guid, --mac, --vsd) is then written into DEV_INFO.
Result<IdentityPlan> plan_device_data(Bytes image, const ImageQuery& incoming, const std::optional<ImageQuery>& current,
                                      const IdentityChoice& c, const FormatIdentity& f) {
  const std::string format(to_string(f.format));
  if (!c.guids.empty() || !c.macs.empty())
    return make_error(ErrorCode::NotSupported, format + " has one base GUID and one base MAC (DEV_INFO): give them "
                                                        "with --uid/--guid and --mac, not --guids/--macs");
  if (c.blank_guids)
    return make_error(ErrorCode::NotSupported,
                      format + " keeps GUIDs/MACs in device data: --blank_guids is not supported, set them with --uid/--mac");
  const bool given = gives_guids(c) || gives_macs(c) || c.vsd.has_value();
  IdentityPlan plan;
  plan.write_image_device_data = c.use_image_guids || c.ignore_dev_data || (!current && given);
  if (c.use_image_vsd && !plan.write_image_device_data)
    return make_error(refusal(format + " keeps the VSD in device data (DEV_INFO): --use_image_ps needs --ignore_dev_data"));
  if (!current && !plan.write_image_device_data)
    return make_error(refusal("the board's device data (GUIDs, MACs, VSD) cannot be read (no bootable image on "
                              "flash): burn the image's with --use_image_guids or --ignore_dev_data"));
  const ImageQuery& from = plan.write_image_device_data ? incoming : *current;
  plan.uids_from = plan.vsd_from = plan.write_image_device_data ? IdentitySource::Image : IdentitySource::Device;
  plan.base_guid = from.base_guid;
  plan.base_mac = from.base_mac;
  plan.vsd = from.device_vsd;
  if (gives_guids(c) || gives_macs(c)) {
    if (!c.base_guid && !from.base_guid)
      return make_error(refusal(format + ": the board has no base GUID to keep beside --mac: give --uid too"));
    GuidSettings g;
    g.base_guid = c.base_guid ? *c.base_guid : from.base_guid->base;
    g.base_mac = c.base_mac;
    plan.given_guids = g;
    plan.uids_from = IdentitySource::Given;
    plan.base_guid = UidRange{g.base_guid, from.base_guid ? from.base_guid->count : 0};
    if (c.base_mac) plan.base_mac = UidRange{*c.base_mac, from.base_mac ? from.base_mac->count : 0};
  }
  if (c.vsd) {
    plan.given_vsd = *c.vsd;
    plan.vsd = *c.vsd;
    plan.vsd_from = IdentitySource::Given;
  }
  plan.image.assign(image.begin(), image.end());
  return plan;
}

}  // namespace

bool identity_in_device_data(ImageFormat format) { return !format_identity(format).in_copy; }

const char* to_string(IdentitySource source) {
  switch (source) {
    case IdentitySource::Device: return "device";
    case IdentitySource::Image: return "image";
    case IdentitySource::Given: return "given";
    case IdentitySource::Blank: return "blank";
  }
  return "?";
}

Result<IdentityPlan> plan_identity(Bytes image, const ImageQuery& incoming, const std::optional<ImageQuery>& current,
                                   const IdentityChoice& choice) {
  const FormatIdentity& f = format_identity(incoming.format);
  OF_TRY(check_combination(choice, f));
  if (f.in_copy) return plan_in_copy(image, incoming, current, choice, f);
  return plan_device_data(image, incoming, current, choice, f);
}

}  // namespace openflint
