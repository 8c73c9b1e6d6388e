// SafetyFacts: how safe an update of one device is, derived from queries of that device (the facts fwupd makes explicit per device).
#pragma once

#include <string>
#include <string_view>

#include "core/Result.h"
#include "fwops/Device.h"
#include "fwops/DeviceQuery.h"

namespace openflint {

// A fact is answered by the device, or "unknown" when the query that would tell cannot be made
// (no register channel, no answer, nothing on flash to compare): never guessed from the catalog
// where a query can tell.
enum class Fact { Yes, No, Unknown };
[[nodiscard]] std::string_view to_string(Fact fact);  // "yes", "no", "unknown"

struct SafetyFact {
  Fact value = Fact::Unknown;
  // What answered: "flash", "boot rule", "catalog", "boot state", "MCAM", "MCAM, MCQI",
  // "flash, running firmware", "MGIR".
  std::string source;
  std::string detail;  // one line: the values the answer came from, or why it is unknown
};

// docs/json.md ("safety") lists each fact's derivation and values.
struct SafetyFacts {
  // Two image copies: the copy the device boots is failsafe (FS2 header, FS3/FS4 always, FS1
  // pointer sectors) and lies in one of two slots that both fit the flash, so a burn writes the
  // other slot while this one stays bootable. Source: the boot copy's query and the flash size.
  SafetyFact dual_image;
  // Recovers by itself from a bad new image: with two copies, the boot ROM's search
  // (image/BootCopy boot_candidates) reaches the other slot, so a copy that does not verify (an
  // interrupted burn) is passed over and the current one boots. Source: the boot rule.
  SafetyFact self_recovery;
  // Updates go through the running firmware: it lists the component-update registers (MCAM) and
  // answers the boot image's capabilities (MCQI). No when the family has none (catalog) or no
  // firmware runs (boot state / recovery PCI id).
  SafetyFact update_through_firmware;
  // The flash holds firmware the device does not run yet (flash version != running version): a
  // reset (flint reset, mst reset, a power cycle) activates it. Source: the flash's boot copy
  // against what runs (MGIR, a simulator's boot state).
  SafetyFact needs_activation;
  // Images must be signed: the running firmware reports secure firmware update (MGIR fw_info
  // secured). Unknown when MGIR cannot be read.
  SafetyFact signed_images_required;
};

// The facts of `device` from `query` (query_device's answer) and, where the flash does not
// tell, the device's firmware: MCAM and MCQI (update_through_firmware) and MGIR
// (signed_images_required) through its register port. Never fails: a fact whose query fails is
// Unknown with the error as its detail. Costs at most three register round trips beyond the
// query.
[[nodiscard]] SafetyFacts derive_safety_facts(Device& device, const DeviceQuery& query);

// query_device, then derive_safety_facts: for a listing (mst status --json) that has only the
// opened device. Errors are query_device's (the flash cannot be opened or read).
[[nodiscard]] Result<SafetyFacts> query_safety_facts(Device& device);

}  // namespace openflint
