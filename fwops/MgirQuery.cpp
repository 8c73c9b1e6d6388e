// MgirQuery: one MGIR query, decoded into a RunningFirmware, over MADs, ICMD or the tools HCR.
#include "fwops/MgirQuery.h"

#include "mtcr/IcmdRegisterPort.h"
#include "mtcr/PciAddress.h"
#include "mtcr/PciConfigAccess.h"
#include "mtcr/ToolsHcrRegisterPort.h"
#include "mtcr/MgirRegister.h"

namespace openflint {
namespace {

AccessRegisterTlv mgir_request() {
  AccessRegisterTlv request;
  request.register_id = MgirRegister::kId;
  request.method = AccessRegisterTlv::kMethodQuery;
  request.data.assign(MgirRegister::kSize, 0);
  return request;
}

std::optional<RunningFirmware> decode(const Result<AccessRegisterTlv>& answer, const DeviceInfo& info) {
  if (!answer || answer->status != 0) return std::nullopt;
  auto mgir = MgirRegister::decode(answer->data);
  if (!mgir) return std::nullopt;
  RunningFirmware running;
  running.recovery = !mgir->has_firmware();
  if (running.recovery) return running;
  ImageQuery image;
  image.format = static_cast<ImageFormat>(static_cast<int>(info.image_format));  // same order
  image.fw_version = FwVersion{mgir->major, mgir->minor, mgir->subminor};
  image.psid = mgir->psid;
  running.image = std::move(image);
  return running;
}

}  // namespace

std::optional<RunningFirmware> query_running(RegisterPort& port, const DeviceInfo& info) {
  return decode(port.transact(mgir_request()), info);
}

std::optional<RunningFirmware> query_running_inband(InbandAccess& inband, const DeviceInfo& info) {
  return decode(inband.access_register(mgir_request()), info);
}

std::optional<RunningFirmware> query_running_pci(const std::filesystem::path& pci_dir, const DeviceInfo& info) {
  if (info.pci_config_gateway != PciConfigGateway::Vsec && info.tools_hcr != nullptr) {
    // A pre-VSEC part (ConnectX-3): the tools HCR, through config space.
    const auto address = parse_pci_address(pci_dir.filename().string());
    if (!address) return std::nullopt;
    auto config = PciConfigAccess::open(*address, pci_dir.parent_path().parent_path());
    if (!config) return std::nullopt;
    auto port = ToolsHcrRegisterPort::open(**config, *info.tools_hcr);
    if (!port) return std::nullopt;
    return decode((*port)->transact(mgir_request()), info);
  }
  auto port = IcmdRegisterPort::open(pci_dir);
  if (!port) return std::nullopt;
  return decode((*port)->transact(mgir_request()), info);
}

}  // namespace openflint
