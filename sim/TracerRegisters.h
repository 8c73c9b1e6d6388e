// TracerRegisters: MTRC_CAP, MTRC_CONF, MTRC_STDB and MTRC_CTRL (0x9040-0x9043) as a simulated device's running firmware answers them.
#pragma once

#include "mtcr/registers/AccessRegisterTlv.h"

namespace openflint::sim {

class SimDevice;

// True when `request` names one of the four tracer registers (answered in place); false for any
// other register. On a device without a tracer (DeviceInfo::tracer null) or with no firmware
// running: register not supported. Layouts: mtcr/registers/Mtrc*Register.h.
// - MTRC_CAP query: the tracer's capabilities (sim/FirmwareTracer.h); write: trace_owner 1 asks
//   for ownership (the reply reads 1 only when granted: nobody owned it), 0 releases it.
// - MTRC_CONF query/write; a write with a bad mode or buffer size: bad parameter.
// - MTRC_STDB query (write: method not supported): one chunk of a string-DB section, checked with
//   MtrcStdbRegister::check_request against the section and the request's own size; a bad
//   index, offset or size: bad parameter.
// - MTRC_CTRL query (trace_status, current timestamp) and write (modify_field_select bit 0:
//   trace_status; arm_event).
[[nodiscard]] bool answer_tracer_register(SimDevice& device, AccessRegisterTlv& request);

}  // namespace openflint::sim
