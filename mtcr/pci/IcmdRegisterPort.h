// IcmdRegisterPort: access registers through the ICMD mailbox of a PCI function (its own config-space handle).
#pragma once

#include <filesystem>
#include <memory>

#include "mtcr/pci/IcmdAccess.h"
#include "mtcr/pci/PciConfigAccess.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

class IcmdRegisterPort final : public RegisterPort {
 public:
  // The function at `pci_dir` (<sysfs root>/devices/<BDF>). NotSupported when it has no ICMD
  // (a pre-VSEC part such as ConnectX-3, or no firmware interface).
  [[nodiscard]] static Result<std::unique_ptr<IcmdRegisterPort>> open(const std::filesystem::path& pci_dir);

  [[nodiscard]] Result<AccessRegisterTlv> transact(const AccessRegisterTlv& request) override;
  // The mailbox less the operation and register TLV headers.
  [[nodiscard]] std::size_t max_register_bytes() const override;

 private:
  IcmdRegisterPort(std::unique_ptr<PciConfigAccess> config, IcmdAccess icmd)
      : config_(std::move(config)), icmd_(std::move(icmd)) {}

  std::unique_ptr<PciConfigAccess> config_;  // heap: icmd_ points at it
  IcmdAccess icmd_;
};

}  // namespace openflint
