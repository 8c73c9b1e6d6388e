// Fs1Burn: FS1 (InfiniHost) burns. Not implemented yet: the only SPI FS1 part (MT25204) needs
// the InfiniHost III Lx gateway, which neither the flash driver nor the simulator drives.
#include "fwops/FormatBurner.h"

namespace openflint {

Result<std::optional<CurrentCopy>> fs1_find_current(BurnSession&) {
  return make_error(ErrorCode::NotSupported, "FS1 burn: the InfiniHost III Lx flash gateway is not driven yet");
}

Result<void> fs1_burn(BurnSession&, Bytes, const std::optional<CurrentCopy>&) {
  return make_error(ErrorCode::NotSupported, "FS1 burn: the InfiniHost III Lx flash gateway is not driven yet");
}

}  // namespace openflint
