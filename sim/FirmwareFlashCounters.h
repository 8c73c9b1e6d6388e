// FirmwareFlashCounters: what a simulated device's running firmware did to its flash on request (register-mediated access).
#pragma once

#include <cstdint>

namespace openflint::sim {

// Each counts register accesses the firmware acted on (an access it refused is not counted),
// so a test can tell a burn through the firmware from one through the CR-space gateway
// (SimCounters::gateway_commands).
struct FirmwareFlashCounters {
  std::uint64_t component_locks = 0;        // MCC LOCK_UPDATE_HANDLE that took the handle
  std::uint64_t component_writes = 0;       // MCDA writes stored in the component being downloaded
  std::uint64_t component_activations = 0;  // MCC ACTIVATE that made a verified copy the boot copy
  // The firmware's own erases (4 KiB) and page programs on the chip: with SimCounters::flash
  // they tell which writes came through the firmware and which through the gateway.
  std::uint64_t flash_erases = 0;
  std::uint64_t flash_programs = 0;
  // Erases/programs that went through the CR-space gateway while the running firmware owned the
  // flash (SimDevice::firmware_owns_flash): each hangs the firmware until the next boot.
  std::uint64_t gateway_conflicts = 0;
};

}  // namespace openflint::sim
