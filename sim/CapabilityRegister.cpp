// CapabilityRegister: the MCAM group-0 mask built from the catalog's firmware flash access and tracer.
#include "sim/CapabilityRegister.h"

#include <algorithm>

#include "mtcr/registers/McamRegister.h"
#include "mtcr/registers/MfrlRegister.h"
#include "mtcr/registers/MgirRegister.h"
#include "mtcr/registers/MtrcCapRegister.h"
#include "sim/SimDevice.h"

namespace openflint::sim {

void answer_mcam(const SimDevice& device, AccessRegisterTlv& request) {
  if (request.method != AccessRegisterTlv::kMethodQuery) {
    request.status = AccessRegisterTlv::kStatusMethodNotSupported;
    return;
  }
  McamRegister m;
  m.access_reg_group = request.data.size() > 3 ? request.data[3] : 0;
  if (m.access_reg_group == 0) {
    m.set_listed(MgirRegister::kId);
    if (device.reset_register().levels != 0) m.set_listed(MfrlRegister::kId);
    if (device.component_update_offered())
      for (std::uint16_t id = flash_reg::kMcqs; id <= kMqisId; ++id) m.set_listed(id);  // MCQS .. MQIS
    if (device.tracer() != nullptr)
      for (std::uint16_t i = 0; i < 4; ++i) m.set_listed(static_cast<std::uint16_t>(MtrcCapRegister::kId + i));
    m.set_listed(McamRegister::kId);
  }
  const std::vector<std::uint8_t> bytes = m.encode();
  std::fill(request.data.begin(), request.data.end(), 0);
  std::copy_n(bytes.begin(), std::min(bytes.size(), request.data.size()), request.data.begin());
  request.status = 0;
}

}  // namespace openflint::sim
