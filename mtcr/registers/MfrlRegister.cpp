// MfrlRegister: encode/decode of MFRL's dword at 0x04, and the reset-state names.
#include "mtcr/registers/MfrlRegister.h"

#include "core/BigEndianFields.h"

namespace openflint {
namespace {
constexpr std::size_t kFields = 0x04;
}  // namespace

std::vector<std::uint8_t> MfrlRegister::encode() const {
  std::vector<std::uint8_t> out(kSize, 0);
  const std::uint32_t v = std::uint32_t{reset_trigger} | std::uint32_t{reset_type} << 8 |
                          std::uint32_t{reset_state & 0xfu} << 16 | std::uint32_t{pci_reset_req_method & 0x7u} << 21 |
                          std::uint32_t{rst_type_sel & 0x7u} << 24 | std::uint32_t{sync_start & 0x3u} << 29 |
                          std::uint32_t{pci_rescan_required ? 1u : 0u} << 31;
  be::put32(out.data(), kFields, v);
  return out;
}

Result<MfrlRegister> MfrlRegister::decode(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kSize)
    return make_error(ErrorCode::InvalidImage, "mfrl: " + std::to_string(bytes.size()) + " bytes, needs " + std::to_string(kSize));
  const std::uint32_t v = be::get32(bytes.data(), kFields);
  MfrlRegister m;
  m.reset_trigger = static_cast<std::uint8_t>(v);
  m.reset_type = static_cast<std::uint8_t>(v >> 8);
  m.reset_state = static_cast<std::uint8_t>((v >> 16) & 0xf);
  m.pci_reset_req_method = static_cast<std::uint8_t>((v >> 21) & 0x7);
  m.rst_type_sel = static_cast<std::uint8_t>((v >> 24) & 0x7);
  m.sync_start = static_cast<std::uint8_t>((v >> 29) & 0x3);
  m.pci_rescan_required = (v >> 31) != 0;
  return m;
}

std::string_view mfrl_state_name(std::uint8_t state) {
  switch (state) {
    case MfrlRegister::kStateIdle: return "idle";
    case MfrlRegister::kStateNegotiating: return "negotiation in progress";
    case MfrlRegister::kStateResetting: return "reset in progress";
    case 3: return "negotiation timed out";
    case 4: return "negotiation refused by a driver";
    case 5: return "driver unload timed out";
    case 6: return "embedded CPU OS is up";
    case 7: return "embedded CPU OS shutting down";
    case MfrlRegister::kStateWaitingForTrigger: return "armed, waiting for the PCI reset";
    default: return "unknown";
  }
}

}  // namespace openflint
