// NvConfigRegisters: the simulated firmware's answers to MNVDA, MNVDI, MNVQC, MNVIA and MNVGC.
#pragma once

#include "devices/NvConfigInfo.h"
#include "mtcr/registers/AccessRegisterTlv.h"

namespace openflint::sim {

class SimDevice;

// True when `request` is one of the NV configuration registers (then answered): a running
// firmware of a family whose catalog record has access-register NV configuration answers them
// as docs/nvconfig.md §2 says; other devices answer "register not supported".
bool answer_nv_config(SimDevice& device, AccessRegisterTlv& request);

// The 4th-generation registers (ConnectX-3, docs/nvconfig.md §4) of a running firmware whose
// table is `table`: MNVA GET answers a stored item, or "resource not available" for one never
// stored (the tool then shows the default); MNVA SET stores; MNVI invalidates one item, MNVIA
// (0x9029) all. Unknown items: "bad parameter". Other NV registers: "register not supported".
// True when `request` was one of the NV configuration register ids.
bool answer_gen4_nv_config(SimDevice& device, const NvConfigTable& table, AccessRegisterTlv& request);

}  // namespace openflint::sim
