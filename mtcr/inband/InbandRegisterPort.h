// InbandRegisterPort: access registers through vendor MADs (GMP on a LID route, SMP on a directed one).
#pragma once

#include "mtcr/inband/InbandAccess.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

class InbandRegisterPort final : public RegisterPort {
 public:
  // `inband` must outlive the port.
  explicit InbandRegisterPort(InbandAccess& inband) : inband_(&inband) {}

  [[nodiscard]] Result<AccessRegisterTlv> transact(const AccessRegisterTlv& request) override {
    count_access();
    return inband_->exchange_register(request);
  }
  [[nodiscard]] std::size_t max_register_bytes() const override { return inband_->max_register_bytes(); }

 private:
  InbandAccess* inband_;
};

}  // namespace openflint
