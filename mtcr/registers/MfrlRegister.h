// MfrlRegister: the MFRL access register (0x9028, management firmware reset level) — arm a firmware reset.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/Result.h"

namespace openflint {

// 8 bytes; every modelled field is in the dword at 0x04 (PRM reg_access_hca_mfrl_reg_ext):
// reset_trigger [7:0] (query: the levels supported, as a bitmask; write: the level to arm),
// reset_type [15:8] (query: the types supported), reset_state [19:16] (query),
// pci_reset_req_method [23:21], rst_type_sel [26:24], pci_sync_for_fw_update_resp [28:27],
// pci_sync_for_fw_update_start [30:29], pci_rescan_required [31].
struct MfrlRegister {
  static constexpr std::uint16_t kId = 0x9028;
  static constexpr std::size_t kSize = 8;

  // reset_trigger bits per reset level (mstfwreset's levels 0, 3, 4).
  static constexpr std::uint8_t kLevel0LivePatch = 0x01;
  static constexpr std::uint8_t kLevel3PciReset = 0x08;
  static constexpr std::uint8_t kLevel4WarmReboot = 0x40;

  // reset_state values.
  static constexpr std::uint8_t kStateIdle = 0;
  static constexpr std::uint8_t kStateNegotiating = 1;
  static constexpr std::uint8_t kStateResetting = 2;
  static constexpr std::uint8_t kStateWaitingForTrigger = 8;  // armed: the next PCI reset reloads

  std::uint8_t reset_trigger = 0;
  std::uint8_t reset_type = 0;
  std::uint8_t reset_state = 0;
  std::uint8_t pci_reset_req_method = 0;  // 0 link disable, 1 hot reset (SBR)
  std::uint8_t rst_type_sel = 0;
  std::uint8_t sync_start = 0;  // pci_sync_for_fw_update_start: 0 = the tool owns the reset
  bool pci_rescan_required = false;

  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  [[nodiscard]] static Result<MfrlRegister> decode(std::span<const std::uint8_t> bytes);
};

// "idle", "waiting for the reset trigger", ... for messages.
[[nodiscard]] std::string_view mfrl_state_name(std::uint8_t state);

}  // namespace openflint
