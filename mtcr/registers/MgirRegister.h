// MgirRegister: the MGIR access register (0x9020, general information) — hw id, running FW version, PSID.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/Result.h"

namespace openflint {

// The fields we model, at their PRM offsets: hardware_info.device_id [15:0] of 0x00 (device_hw_revision [31:16]: 0) (encode
// also writes it as hardware_info.hw_dev_id, 0x08 [15:0], by which mstflint's component manager
// identifies the device);
// fw_info at 0x20 (version bytes major/minor/sub_minor [23:0]), psid at 0x30 (16 ASCII bytes),
// extended_major/minor/sub_minor at 0x44/0x48/0x4c (the full 16-bit version); fw_info's
// secured (bit 24: the firmware takes only signed updates, "secure firmware update") and
// signed_fw (bit 25: the running firmware is a signed binary), as mstflint's
// reg_access_hca_mgir_fw_info_ext. A device with no running firmware (flash recovery) reports an
// all-zero fw_info.
struct MgirRegister {
  static constexpr std::uint16_t kId = 0x9020;
  static constexpr std::size_t kSize = 0xa0;
  static constexpr std::size_t kPsidOffset = 0x30;

  std::uint16_t device_id = 0;  // the hw id
  std::uint8_t num_ports = 0;   // hardware_info.num_ports, 0x04 [23:16] (mstconfig's per-port items)
  std::uint16_t major = 0;
  std::uint16_t minor = 0;
  std::uint16_t subminor = 0;
  std::string psid;  // empty when the answer was too short to carry it (an SMP holds 44 bytes)
  bool secured = false;    // fw_info bit 24
  bool signed_fw = false;  // fw_info bit 25

  [[nodiscard]] bool has_firmware() const { return major != 0 || minor != 0 || subminor != 0; }
  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  // Decodes kSize bytes or a truncated prefix (at least through fw_info's first dword).
  [[nodiscard]] static Result<MgirRegister> decode(std::span<const std::uint8_t> bytes);
};

}  // namespace openflint
