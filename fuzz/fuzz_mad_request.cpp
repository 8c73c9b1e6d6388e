// Fuzz target: the in-band responder's request parser (MadRequestHandler) on arbitrary request MADs.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "fabricsim/MadRequestHandler.h"
#include "fabricsim/MemoryCrSpace.h"
#include "fabricsim/SimDeviceResponder.h"
#include "mtcr/inband/MadFormat.h"

namespace {

using namespace openflint;

// Built once (a simulated device's flash is 16 MiB): requests may change their state, which the
// responder must survive too.
struct Targets {
  MemoryCrSpace memory{1u << 20, 0x209};
  MadRequestHandler memory_handler{memory, memory_hooks()};
  std::unique_ptr<SimDeviceResponder> sim = SimDeviceResponder::wrap(
      std::move(sim::SimDevice::create("connectx4")).value(), {});
  MadRequestHandler sim_handler{sim->backend(), sim->hooks()};

  static ResponderHooks memory_hooks() {
    ResponderHooks hooks;
    hooks.sw_reset = [](std::uint32_t) -> Result<void> { return {}; };
    hooks.register_access = [](std::uint16_t, std::uint8_t, std::uint32_t,
                               std::span<std::uint8_t> payload) -> Result<void> {
      if (!payload.empty()) payload[0] = static_cast<std::uint8_t>(payload[0] + 1);
      return {};
    };
    return hooks;
  }
};

}  // namespace

// Input: one byte choosing the backend (plain memory or a simulated ConnectX-4), then the MAD
// (shorter inputs are zero-padded to 256 bytes; a short span is tried as it is, too).
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Targets targets;
  if (size < 1) return 0;
  std::array<std::uint8_t, mad::kMadSize> m{};
  const std::size_t n = std::min(size - 1, m.size());
  std::memcpy(m.data(), data + 1, n);
  MadRequestHandler& handler = (data[0] & 1) != 0 ? targets.sim_handler : targets.memory_handler;
  (void)handler.handle(std::span(m).first(n));
  (void)handler.handle(m);
  return 0;
}
