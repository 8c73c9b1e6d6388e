// StaleLocks: Busy advice from the device lock's evidence, and freeing every lock a dead tool can leave.
#include "fwops/access/StaleLocks.h"

#include <array>
#include <memory>

#include "core/HexString.h"
#include "flash/FlashLock.h"
#include "fwops/burn/ComponentUpdater.h"
#include "mtcr/pci/PciAddress.h"
#include "mtcr/pci/PciConfigAccess.h"
#include "mtcr/ToolsHcrRegisterPort.h"

namespace openflint {
namespace {

Result<std::unique_ptr<PciConfigAccess>> open_config_space(const Device& device) {
  const auto address = parse_pci_address(device.pci_dir().filename().string());
  if (!address) return make_error(ErrorCode::InvalidArgument, device.name() + ": no PCI address");
  return PciConfigAccess::open(*address, device.pci_dir().parent_path().parent_path());
}

// The SEMAPHORE space's ICMD and flash-programming semaphores (PCI VSEC devices).
Result<void> free_vsec_space_semaphores(Device& device, StaleLockReport& report) {
  if (device.pci_dir().empty() || device.info().pci_config_gateway != PciConfigGateway::Vsec) return {};
  OF_ASSIGN(const auto config, open_config_space(device));
  if (config->gateway() != PciConfigGateway::Vsec) return {};
  constexpr std::array<std::pair<std::uint32_t, const char*>, 2> kSemaphores{
      {{kIcmdSemaphore, "the ICMD semaphore"}, {kFlashProgrammingSemaphore, "the flash-programming semaphore"}}};
  for (const auto& [address, what] : kSemaphores) {
    std::uint32_t holder = 0;
    OF_TRY(config->read_space(VsecSpace::Semaphore, address, std::span(&holder, 1)));
    if (holder == 0) continue;
    const std::uint32_t zero = 0;
    OF_TRY(config->write_space(VsecSpace::Semaphore, address, std::span(&zero, 1)));
    report.freed.push_back({what, "VSEC semaphore space " + hex_string(address) + ", ticket " + hex_string(holder)});
  }
  return {};
}

Result<void> free_flash_lock(Device& device, StaleLockReport& report) {
  const FlashGatewayInfo& gateway = device.info().flash_gateway;
  OF_ASSIGN(const bool held, FlashLock::reclaim(device.access(), gateway));
  if (held) report.freed.push_back({"the flash gateway lock", FlashLock::describe(gateway)});
  return {};
}

// The tools HCR's semaphore is taken by a read: on PCI through the config-space window (a BAR
// mapping has no read side effects), as the HCR's own commands go (Device::register_port).
Result<void> free_tools_hcr_semaphore(Device& device, StaleLockReport& report) {
  const ToolsHcrLayout* hcr = device.info().tools_hcr;
  if (hcr == nullptr || device.info().pci_config_gateway == PciConfigGateway::Vsec) return {};
  std::unique_ptr<PciConfigAccess> config;
  if (!device.pci_dir().empty()) {
    OF_ASSIGN(config, open_config_space(device));
  }
  RegisterAccess& cr = config ? *config : device.access();
  OF_ASSIGN(const bool held, ToolsHcrRegisterPort::clear_semaphore(cr, *hcr));
  if (held) report.freed.push_back({"the tools HCR semaphore", "CR-space " + hex_string(hcr->semaphore)});
  return {};
}

void free_update_handle(Device& device, StaleLockReport& report) {
  if (!device.info().firmware_flash.component_update) return;
  const std::string what = "the firmware's update handle";
  auto port = device.register_port();
  if (!port) {
    report.not_checked.push_back(what + ": " + port.error().message());
    return;
  }
  auto state = ComponentUpdater::handle_state(**port);
  if (!state) {
    // NotSupported: no firmware runs, or it has no component update; nothing can hold a handle.
    if (state.error().code() != ErrorCode::NotSupported) report.not_checked.push_back(what + ": " + state.error().message());
    return;
  }
  if (!state->held()) return;
  if (auto freed = ComponentUpdater::force_release(**port); !freed) {
    report.not_checked.push_back(what + ": " + freed.error().message());
    return;
  }
  report.freed.push_back({what, "state " + update_state_name(state->state) + ", handle " + hex_string(state->handle) +
                                    ", its holder silent for " + std::to_string(state->idle_seconds) + " s"});
}

}  // namespace

Error with_stale_lock_advice(const Device& device, Error error) {
  return with_stale_lock_advice(device.name(), device.holds_device_lock(), std::move(error));
}

Error with_stale_lock_advice(const std::string& device_name, bool holds_device_lock, Error error) {
  const std::string clear = "run 'flint -d " + device_name + " clear_semaphore'";
  // Once is enough: an error passed up through several openings keeps the first advice.
  if (error.code() != ErrorCode::Busy || error.message().find(clear) != std::string::npos) return error;
  if (holds_device_lock) {
    return Error(ErrorCode::Busy, error.message() + "; no openflint process holds " + device_name +
                                      " (this one has its device lock), so a tool that was killed probably left it: " +
                                      clear + " (mstflint and tools on other hosts do not take that lock: make sure "
                                      "none is at work)");
  }
  return Error(ErrorCode::Busy, error.message() + "; wait for its holder, or if that tool was killed, " + clear);
}

Result<StaleLockReport> reclaim_stale_locks(Device& device) {
  StaleLockReport report;
  report.freed = device.reclaimed_at_open();
  // The ICMD semaphore first: the update handle is reached through ICMD.
  OF_TRY_CTX(free_vsec_space_semaphores(device, report), "freeing the VSEC semaphore space");
  OF_TRY_CTX(free_flash_lock(device, report), "freeing the flash gateway lock");
  OF_TRY_CTX(free_tools_hcr_semaphore(device, report), "freeing the tools HCR semaphore");
  free_update_handle(device, report);
  return report;
}

}  // namespace openflint
