// ComponentRegisters: MCQS/MCQI/MCC/MCDA (0x9060-0x9063) of a simulated device's running firmware, over the ComponentUpdate state machine.
#pragma once

#include <cstdint>

#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/registers/FirmwareFlashRegisters.h"

namespace openflint::sim {

class SimDevice;

inline constexpr std::uint16_t kMcqsId = flash_reg::kMcqs;
inline constexpr std::uint16_t kMcqiId = flash_reg::kMcqi;
inline constexpr std::uint16_t kMccId = flash_reg::kMcc;
inline constexpr std::uint16_t kMcdaId = flash_reg::kMcda;

// Each answers `request` in place (status and data, layouts of PRM / mstflint
// reg_access_hca_mc*_reg). The caller has checked that the device's firmware offers component
// update and runs. MCQS: component 0 = the boot image (identifier 1, in use, last). MCQI: the
// boot image's capabilities (info_type 0) and versions (1; with read_pending_component, of the
// activated copy, bad parameter when there is none), from `offset` for `data_size` bytes as far
// as the request carries them. MCC: query, or an instruction for ComponentUpdate. MCDA: write
// (download); a query (upload) is not modelled.
void answer_mcqs(SimDevice& device, AccessRegisterTlv& request);
void answer_mcqi(SimDevice& device, AccessRegisterTlv& request);
void answer_mcc(SimDevice& device, AccessRegisterTlv& request);
void answer_mcda(SimDevice& device, AccessRegisterTlv& request);

}  // namespace openflint::sim
