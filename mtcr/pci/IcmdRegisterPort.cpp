// IcmdRegisterPort: opens config space and the ICMD interface of one PCI function.
#include "mtcr/pci/IcmdRegisterPort.h"

#include "mtcr/pci/PciAddress.h"

namespace openflint {

Result<std::unique_ptr<IcmdRegisterPort>> IcmdRegisterPort::open(const std::filesystem::path& pci_dir) {
  auto address = parse_pci_address(pci_dir.filename().string());
  if (!address) return make_error(ErrorCode::InvalidArgument, pci_dir.filename().string() + " is not a PCI address");
  OF_ASSIGN(auto config, PciConfigAccess::open(*address, pci_dir.parent_path().parent_path()));
  if (config->gateway() != PciConfigGateway::Vsec)
    return make_error(ErrorCode::NotSupported, "no firmware command interface (ICMD) on this part");
  OF_ASSIGN(auto icmd, IcmdAccess::open(*config));
  return std::unique_ptr<IcmdRegisterPort>(new IcmdRegisterPort(std::move(config), std::move(icmd)));
}

Result<AccessRegisterTlv> IcmdRegisterPort::transact(const AccessRegisterTlv& request) {
  count_access();
  return icmd_.access_register(request);
}

std::size_t IcmdRegisterPort::max_register_bytes() const {
  return icmd_.mailbox_size() > AccessRegisterTlv::kHeaderBytes ? icmd_.mailbox_size() - AccessRegisterTlv::kHeaderBytes : 0;
}

}  // namespace openflint
