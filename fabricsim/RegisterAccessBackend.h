// RegisterAccessBackend: serves a responder's CR-space from any RegisterAccess (e.g. a SimDevice).
#pragma once

#include <cstdint>

#include "fabricsim/CrSpaceBackend.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

// Forwards every dword to `device`, which must outlive the backend. A device error (powered
// off, gateway fault) reaches the client as MAD status 0x1c.
class RegisterAccessBackend final : public CrSpaceBackend {
 public:
  explicit RegisterAccessBackend(RegisterAccess& device) : device_(&device) {}

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override { return device_->read32(address); }
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override {
    return device_->write32(address, value);
  }

 private:
  RegisterAccess* device_;
};

}  // namespace openflint
