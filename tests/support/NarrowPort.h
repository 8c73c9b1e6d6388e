// NarrowPort: a register port that carries at most N bytes of register over another (an SMP-sized channel).
#pragma once

#include <cstddef>

#include "mtcr/RegisterPort.h"

namespace openflint::test {

class NarrowPort final : public RegisterPort {
 public:
  NarrowPort(RegisterPort& inner, std::size_t bytes) : inner_(&inner), bytes_(bytes) {}
  Result<AccessRegisterTlv> transact(const AccessRegisterTlv& request) override {
    count_access();
    if (request.data.size() > bytes_) return make_error(ErrorCode::InvalidArgument, "register too large for the port");
    return inner_->transact(request);
  }
  std::size_t max_register_bytes() const override { return bytes_; }

 private:
  RegisterPort* inner_;
  std::size_t bytes_;
};

}  // namespace openflint::test
