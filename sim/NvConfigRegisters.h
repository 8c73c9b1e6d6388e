// NvConfigRegisters: the simulated firmware's answers to MNVDA, MNVDI, MNVQC, MNVIA and MNVGC.
#pragma once

#include "mtcr/AccessRegisterTlv.h"

namespace openflint::sim {

class SimDevice;

// True when `request` is one of the NV configuration registers (then answered): a running
// firmware of a family whose catalog record has access-register NV configuration answers them
// as docs/nvconfig.md §2 says; other devices answer "register not supported".
bool answer_nv_config(SimDevice& device, AccessRegisterTlv& request);

}  // namespace openflint::sim
