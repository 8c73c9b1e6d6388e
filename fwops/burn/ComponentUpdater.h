// ComponentUpdater: the tool's side of the firmware's component update (MCAM, MCQI, MCC, MCDA) for the boot image.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "core/Result.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

struct ComponentUpdateTimeouts {
  std::chrono::milliseconds state_change{120000};  // INITIALIZE (the firmware erases), VERIFY, ACTIVATE
  std::chrono::milliseconds lock{5000};            // another tool holds the update handle
};

// The firmware's update handle as MCC GET shows it (mft-internals §4.2/4.3).
struct UpdateHandleState {
  std::uint8_t state = 0;          // control_state: 0 IDLE (free), else held (1 LOCKED, 3 DOWNLOAD, ...)
  std::uint32_t handle = 0;        // 24 bits
  std::uint32_t idle_seconds = 0;  // time_elapsed_since_last_cmd: the owner's silence, saturating at 0xfff
  [[nodiscard]] bool held() const { return state != 0; }
};

// "DOWNLOAD" for control_state 3, ...; the number for states the PRM does not name.
[[nodiscard]] std::string update_state_name(std::uint8_t state);

// The running firmware takes the image through registers, writes it where it chooses (the slot
// it does not boot from), checks it and makes it the boot copy: the tool never drives the flash.
// Every step waits for the firmware's state; a failure after the handle was taken cancels and
// releases it, so the device is left as it was (the old copy boots). So does a stop signal
// (core/Interrupt.h), seen between MCDA batches and in the waits before the image is complete
// (Interrupted); from VERIFY on, the update completes.
class ComponentUpdater {
 public:
  // Whether the firmware lists the component-update registers (MCAM group 0: MCQS, MCQI, MCC,
  // MCDA). False when it does not answer MCAM or lacks one of them.
  [[nodiscard]] static Result<bool> offered(RegisterPort& port);
  // The update handle's state (MCC GET). NotSupported when the firmware refuses MCC.
  [[nodiscard]] static Result<UpdateHandleState> handle_state(RegisterPort& port);
  // FORCE_HANDLE_RELEASE: frees the handle whoever holds it, from any state (what mstflint does
  // when its LOCK is refused); an update in progress is abandoned, its partly written slot never
  // activated. Only safe when the holder is gone.
  [[nodiscard]] static Result<void> force_release(RegisterPort& port);
  // Reads the boot image's capabilities (MCQI): the largest component and MCDA write.
  [[nodiscard]] static Result<ComponentUpdater> open(RegisterPort& port, ComponentUpdateTimeouts timeouts = {});

  [[nodiscard]] std::uint32_t max_component_size() const { return max_component_; }
  // Bytes per MCDA write: the firmware's limit, within what one access of the port carries.
  [[nodiscard]] std::size_t chunk_bytes() const { return chunk_; }

  // LOCK, UPDATE_COMPONENT (size), MCDA writes in order, VERIFY, ACTIVATE, RELEASE. Busy when
  // another tool holds the handle past timeouts.lock; Mismatch when the firmware finds the
  // component not applicable (hw id, PSID), InvalidImage when it does not verify, Io for other
  // firmware errors, Timeout when a state does not change in time. `progress(done, total)`
  // counts the bytes sent.
  [[nodiscard]] Result<void> update(std::span<const std::uint8_t> component,
                                    const std::function<void(std::uint64_t, std::uint64_t)>& progress = {});

 private:
  struct State;
  ComponentUpdater(RegisterPort& port, ComponentUpdateTimeouts timeouts, std::uint32_t max_component, std::size_t chunk)
      : port_(&port), timeouts_(timeouts), max_component_(max_component), chunk_(chunk) {}
  [[nodiscard]] Result<State> query();
  [[nodiscard]] Result<State> control(std::uint8_t instruction, std::uint32_t size = 0);
  [[nodiscard]] Result<State> wait_for(std::uint8_t state, std::string_view step);
  [[nodiscard]] Result<void> lock();
  [[nodiscard]] Result<void> download(std::span<const std::uint8_t> component,
                                      const std::function<void(std::uint64_t, std::uint64_t)>& progress);
  void abandon();

  RegisterPort* port_;
  ComponentUpdateTimeouts timeouts_;
  std::uint32_t max_component_ = 0;
  std::size_t chunk_ = 0;
  std::uint32_t handle_ = 0;
};

}  // namespace openflint
