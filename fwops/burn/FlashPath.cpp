// FlashPath: the firmware-or-gateway decision from the catalog, the device's boot state and MCAM.
#include "fwops/burn/FlashPath.h"

#include <string>
#include <string_view>

#include "fwops/burn/ComponentUpdater.h"
#include "fwops/access/StaleLocks.h"

namespace openflint {
namespace {

constexpr std::string_view kOcrRisk =
    "; --ocr writes through the flash gateway instead, which hangs a running firmware that uses the flash";

// Whether the device shows, without asking its firmware, that none runs: the simulator's boot
// state, or a PCI function showing its flash-recovery ("livefish") id. False when it cannot be
// told that way: the firmware is asked.
bool shows_no_firmware(Device& device) { return device.transport().shows_no_firmware(device); }

// Why the firmware path cannot be decided, and what to do. Never "use the gateway": a running
// firmware that owns the flash hangs when a tool writes through the gateway under it.
Error firmware_unreachable(const Device& device, const Error& why) {
  const std::string name = device.name();
  const std::string family = std::string(device.info().name);
  switch (why.code()) {
    case ErrorCode::Busy: {
      Error busy(ErrorCode::Busy, name + ": the flash of this " + family +
                                      " may belong to its running firmware, which cannot be asked: " + why.message());
      busy = with_stale_lock_advice(device, std::move(busy));
      return Error(ErrorCode::Busy, busy.message() + std::string(kOcrRisk));
    }
    case ErrorCode::Timeout:
      return Error(ErrorCode::Timeout, name + ": the running firmware does not answer (" + why.message() +
                                           "): reset the device ('flint -d " + name + " reset') and try again" +
                                           std::string(kOcrRisk));
    case ErrorCode::NotSupported:
      return Error(ErrorCode::NotSupported, name + ": the flash of this " + family +
                                                " may belong to its running firmware, and it cannot be asked here (" +
                                                why.message() + "): burn with --ocr to write through the flash "
                                                "gateway (it hangs a running firmware that uses the flash)");
    default:
      return why.with_context(name + ": asking the running firmware whether it owns the flash");
  }
}

}  // namespace

Result<FlashPath> flash_path(Device& device, bool override_firmware) {
  if (override_firmware || !device.info().firmware_flash.component_update) return FlashPath::FlashGateway;
  if (shows_no_firmware(device)) return FlashPath::FlashGateway;
  auto port = device.register_port();
  if (!port) return make_error(firmware_unreachable(device, port.error()));
  // A firmware that answers MCAM without the component-update registers (or refuses MCAM: none
  // runs, or one too old) leaves the flash to tools; a channel error is no answer.
  auto offered = ComponentUpdater::offered(**port);
  if (!offered) return make_error(firmware_unreachable(device, offered.error()));
  return *offered ? FlashPath::Firmware : FlashPath::FlashGateway;
}

}  // namespace openflint
