// CapabilityRegister: MCAM (0x907F), the access registers a simulated device's running firmware lists, from its catalog record.
#pragma once

#include <cstdint>

#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/registers/FirmwareFlashRegisters.h"

namespace openflint::sim {

class SimDevice;

inline constexpr std::uint16_t kMcamId = flash_reg::kMcam;
inline constexpr std::uint16_t kMqisId = 0x9064;  // listed, not modelled (see below)

// MCAM query (mstflint tools_open_mcam): access_reg_group in byte 3, feature_group in byte 1;
// mng_access_reg_cap_mask at 0x08-0x17, a 128-bit big-endian mask where bit n set means
// register 0x9000 + 0x80 * group + n is answered. Group 0 lists MGIR and MFRL as the device
// answers them, MCQS/MCQI/MCC/MCDA/MQIS (0x60-0x64; MQIS is listed because mstflint requires
// all five, its query is not modelled) when the running firmware offers component update
// (SimDevice::component_update_offered: the catalog family and the image's mcc_en), and
// tracer_registers, MTRC_CAP .. MTRC_CTRL (0x40-0x43), on a family with a firmware tracer.
// Other groups: an empty mask. The caller checked that firmware runs and the catalog has
// firmware flash access or a tracer; a write is method-not-supported.
void answer_mcam(const SimDevice& device, AccessRegisterTlv& request);

}  // namespace openflint::sim
