// MgirQuery: one MGIR query through a register port, decoded into a RunningFirmware.
#include "fwops/registers/MgirQuery.h"

#include "mtcr/registers/MgirRegister.h"

namespace openflint {
namespace {

std::optional<RunningFirmware> decode(const Result<AccessRegisterTlv>& answer, const DeviceInfo& info) {
  if (!answer || answer->status != 0) return std::nullopt;
  auto mgir = MgirRegister::decode(answer->data);
  if (!mgir) return std::nullopt;
  RunningFirmware running;
  running.recovery = !mgir->has_firmware();
  if (running.recovery) return running;
  ImageQuery image;
  image.format = info.image_format;
  image.fw_version = FwVersion{mgir->major, mgir->minor, mgir->subminor};
  image.psid = mgir->psid;
  running.image = std::move(image);
  return running;
}

}  // namespace

std::optional<RunningFirmware> query_running(RegisterPort& port, const DeviceInfo& info) {
  return decode(port.query(MgirRegister::kId, std::vector<std::uint8_t>(MgirRegister::kSize, 0)), info);
}

}  // namespace openflint
