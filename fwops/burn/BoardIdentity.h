// BoardIdentity: which GUIDs, MACs and VSD a burn gives a board — by default the ones it has now.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/ImageFormat.h"
#include "image/ImagePatch.h"
#include "image/ImageQuery.h"

namespace openflint {

// What the user asked for (mstflint's burn flags); the default keeps the board's identity.
struct IdentityChoice {
  bool use_image_guids = false;  // GUIDs/MACs as the image carries them
  bool use_image_vsd = false;    // the image's VSD (mstflint --use_image_ps)
  bool blank_guids = false;      // every GUID/MAC all-ones, to be set later with sg
  bool ignore_dev_data = false;  // FS3/FS4: the image file's device data replaces the board's
  std::optional<std::uint64_t> base_guid;  // GUIDs count up from it (node, port1, port2, system)
  std::vector<std::uint64_t> guids;        // exact GUIDs
  std::optional<std::uint64_t> base_mac;   // MACs count up from it (port1, port2)
  std::vector<std::uint64_t> macs;         // exact MACs
  std::optional<std::string> vsd;
};

// Where each part of the identity written by a burn comes from.
enum class IdentitySource { Device, Image, Given, Blank };
[[nodiscard]] const char* to_string(IdentitySource source);

// True for the formats whose GUIDs/MACs/VSD live in device data on flash, outside the copy a
// burn rewrites (FS3, FS4); FS1/FS2 carry them inside the copy (the per-format table here).
[[nodiscard]] bool identity_in_device_data(ImageFormat format);

// The identity a burn writes, and the image carrying it.
struct IdentityPlan {
  std::vector<std::uint8_t> image;  // the image to burn (identity patched in, CRCs resealed)
  IdentitySource uids_from = IdentitySource::Device;
  IdentitySource vsd_from = IdentitySource::Device;
  std::vector<std::uint64_t> uids;          // FS1/FS2: GUID-section entries written (GUIDs, then MACs)
  std::size_t guid_count = 0;               // how many of `uids` are GUIDs
  std::optional<UidRange> base_guid;        // FS3/FS4: DEV_INFO's, as kept (or the image's)
  std::optional<UidRange> base_mac;
  std::string vsd;
  bool write_image_device_data = false;     // FS3/FS4: the file's device data goes to flash
  // FS3/FS4 --uid/--guid/--mac and --vsd: written into the board's DEV_INFO after the copy.
  std::optional<GuidSettings> given_guids;
  std::optional<std::string> given_vsd;
  [[nodiscard]] bool edits_device_data() const { return given_guids || given_vsd; }
};

// Decides the identity of a burn of `image` (query `incoming`) over a device whose bootable copy
// is `current` (nullopt: blank flash or no copy boots). Without a current copy the board's
// identity cannot be read: InvalidArgument unless `choice` names where it comes from. Refuses
// combinations that contradict each other. The image must already verify.
[[nodiscard]] Result<IdentityPlan> plan_identity(Bytes image, const ImageQuery& incoming,
                                                 const std::optional<ImageQuery>& current, const IdentityChoice& choice);

}  // namespace openflint
