// BurnTypes: the vocabulary of a burn that every front end shares: its options, the preflight a CLI decides on, progress, the report.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "core/Result.h"
#include "fwops/burn/BoardIdentity.h"
#include "image/ImageQuery.h"

namespace openflint {

// What the CLI needs to decide whether to ask or go ahead (the refusals are the library's).
struct BurnPreflight {
  std::optional<ImageQuery> current;  // image found on flash; nullopt when the flash holds none
  ImageQuery incoming;
  bool hw_id_supported = true;  // the image's supported hw ids include the device's (or none listed)
  bool psid_changes = false;    // current PSID differs from the incoming one
  int version_order = 1;        // incoming vs current FW version: <0 older, 0 same, >0 newer
  IdentityPlan identity;        // the GUIDs/MACs/VSD the burn will write (its `image` left empty)
};

struct BurnProgress {
  std::string_view stage;  // "reading", "erasing", "writing", "verifying", ...
  std::uint64_t done = 0;
  std::uint64_t total = 0;
};

struct BurnOptions {
  bool failsafe = true;            // false = --nofs: write the image in place at 0
  bool allow_psid_change = false;  // otherwise a PSID change is refused (InvalidArgument)
  bool verify_writes = true;       // false = mstflint --no_flash_verify: no read-back after each write
  IdentityChoice identity;         // default: the board keeps its GUIDs/MACs/VSD/device data
  // --ocr: burn through the CR-space flash gateway even when the device's running firmware
  // offers to take the image (fwops/burn/FlashPath.h), as mstflint's "override cache replacement".
  bool override_firmware = false;
  std::function<void(const BurnProgress&)> progress;
  // Called once the flash was read and compared and the burn passed every refusal, before
  // anything is written (so a CLI asks its questions without a second read of the flash —
  // in-band that read is most of the cost). false: the burn stops with Cancelled "burn declined";
  // an error stops it too. Unset: no question.
  std::function<Result<bool>(const BurnPreflight&)> decide;
};

struct BurnReport {
  std::uint64_t new_copy_address = 0;  // where the new image now lives in flash
  std::uint64_t sectors_erased = 0;
  std::uint64_t sectors_unchanged = 0;
  std::uint64_t sectors_program_only = 0;  // changed by clearing bits only: programmed, not erased
  std::uint64_t sectors_probed = 0;  // remote transports: erased after a 16-byte probe, not read whole
  std::uint64_t pages_programmed = 0;
  std::uint64_t bytes_programmed = 0;
  IdentityPlan identity;  // the GUIDs/MACs/VSD the board has now (its `image` left empty)
  bool through_firmware = false;  // the running firmware took the image (component update)
  std::uint64_t register_accesses = 0;  // through the firmware: register accesses of the burn
};

}  // namespace openflint
