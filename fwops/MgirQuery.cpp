// MgirQuery: one MGIR query through a register port, decoded into a RunningFirmware.
#include "fwops/MgirQuery.h"

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

}  // namespace openflint
