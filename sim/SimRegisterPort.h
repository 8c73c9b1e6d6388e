// SimRegisterPort: access registers answered by a simulated device's firmware directly (a sim:PATH device).
#pragma once

#include "mtcr/RegisterPort.h"
#include "sim/FirmwareRegisters.h"
#include "sim/IcmdMailbox.h"

namespace openflint::sim {

// Carries what the device's ICMD mailbox would (the simulated PCI device's own channel).
class SimRegisterPort final : public RegisterPort {
 public:
  // `device` must outlive the port.
  explicit SimRegisterPort(SimDevice& device) : device_(&device) {}

  [[nodiscard]] Result<AccessRegisterTlv> transact(const AccessRegisterTlv& request) override {
    count_access();
    if (request.data.size() > max_register_bytes())
      return make_error(ErrorCode::InvalidArgument, "register of " + std::to_string(request.data.size()) +
                                                        " bytes exceeds the " + std::to_string(max_register_bytes()) +
                                                        "-byte mailbox");
    AccessRegisterTlv answer = request;
    OF_TRY(answer_register(*device_, answer));
    return answer;
  }
  [[nodiscard]] std::size_t max_register_bytes() const override {
    return IcmdMailbox::kBytes - AccessRegisterTlv::kHeaderBytes;
  }

 private:
  SimDevice* device_;
};

}  // namespace openflint::sim
