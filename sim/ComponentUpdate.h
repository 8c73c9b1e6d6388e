// ComponentUpdate: the running firmware's component-update state machine (MCC/MCDA): one update handle, the boot image component, downloaded into the inactive flash slot.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>

#include "core/Result.h"
#include "image/ImageQuery.h"

namespace openflint::sim {

class SimDevice;

// MCC control_state values (PRM; mstflint fw_comps_mgr fsm_state_t).
enum class UpdateState : std::uint8_t {
  Idle = 0, Locked = 1, Initialize = 2, Download = 3, Verify = 4, Apply = 5, Activate = 6,
};

// MCC instructions (mstflint fsm_command_t). Query is the register's GET.
enum class UpdateInstruction : std::uint8_t {
  LockUpdateHandle = 1, ReleaseUpdateHandle = 2, UpdateComponent = 3, VerifyComponent = 4,
  ActivateComponent = 5, Activate = 6, ReadComponent = 7, Cancel = 8, CheckUpdateHandle = 9,
  ForceHandleRelease = 10, ReadPendingComponent = 11,
};

// MCC error_code values the simulated firmware reports (mstflint MccErrorCodes).
namespace mcc_error {
inline constexpr std::uint8_t kOk = 0x0;
inline constexpr std::uint8_t kError = 0x1;
inline constexpr std::uint8_t kNotApplicable = 0x3;    // wrong device (hw id) or PSID
inline constexpr std::uint8_t kBadFormat = 0x8;        // not a bootable copy of this device's format
inline constexpr std::uint8_t kFlashEraseError = 0x10;
}  // namespace mcc_error

// How an MCC/MCDA access ends at the register level: accepted (the FSM's state/error_code tell
// the outcome), or refused with a register status (bad parameter: wrong handle, component,
// offset or size; or an instruction the current state does not take).
enum class UpdateAnswer : std::uint8_t { Accepted, BadParameter, ResourceBusy };

// What MCC GET shows.
struct UpdateStatus {
  UpdateState state = UpdateState::Idle;
  std::uint32_t handle = 0;        // 24 bits; in Idle, the handle LOCK will take
  std::uint8_t error_code = 0;
  std::uint8_t progress = 0;       // percent of the component received (Download)
  std::uint32_t component_size = 0;
  // Seconds since the handle's owner last sent an instruction or MCDA data (0 in Idle), at most
  // 0xfff: MCC time_elapsed_since_last_cmd, which tells a tool whether the owner is still at work.
  std::uint32_t idle_seconds = 0;
};

// The model: UPDATE_COMPONENT picks the slot the running copy does not use (0 or half the
// flash, the failsafe layout of fwops' burner), erases as much of it as the component needs
// (INITIALIZE finishes at once) and goes to DOWNLOAD. MCDA writes, in order, go straight to
// that slot except the copy's first 16 bytes (its magic), which are held back. VERIFY reads the
// copy back and checks it with the image parsers: format, CRCs, this device's hw id, the
// running PSID, that it boots from its slot; error_code says what failed and the state returns
// to LOCKED. ACTIVATE writes the held magic, points the boot-address register at the slot and
// clears the old copy's magic: at every instant at least one copy carries magic and verifies,
// so a power cut leaves a bootable flash. The running firmware changes only at the next reset.
// Volatile: a reset or power cycle returns to IDLE (the handle is lost). A handle whose owner
// died stays held (the state machine has no timeout of its own here) until FORCE_HANDLE_RELEASE,
// a reset or a power cycle; MCC GET shows how long its owner has been silent.
class ComponentUpdate {
 public:
  static constexpr std::uint16_t kBootImageIndex = 0;  // the only component: MCQS index 0
  static constexpr std::size_t kMagicBytes = 16;

  [[nodiscard]] UpdateStatus status() const;
  [[nodiscard]] UpdateAnswer control(SimDevice& device, UpdateInstruction instruction, std::uint32_t handle,
                                     std::uint16_t component_index, std::uint32_t component_size);
  [[nodiscard]] UpdateAnswer download(SimDevice& device, std::uint32_t handle, std::uint32_t offset,
                                      std::span<const std::uint8_t> data);
  // The query of a verified, activated copy that runs after the next reset (MCQI pending).
  [[nodiscard]] const std::optional<ImageQuery>& pending() const { return pending_; }
  // Largest component: the slot (half the flash).
  [[nodiscard]] static std::uint64_t max_component_size(const SimDevice& device);
  void reset();

 private:
  [[nodiscard]] UpdateAnswer start_component(SimDevice& device, std::uint16_t index, std::uint32_t size);
  void verify(SimDevice& device);
  void activate(SimDevice& device);
  void fail(std::uint8_t error_code);

  UpdateState state_ = UpdateState::Idle;
  std::uint32_t handle_ = 0;
  std::uint32_t next_handle_ = 0x1a2b;
  std::uint8_t error_code_ = 0;
  std::uint32_t size_ = 0;       // component size announced by UPDATE_COMPONENT
  std::uint32_t received_ = 0;   // bytes downloaded, in order
  std::uint64_t target_ = 0;     // flash address of the slot being written
  std::array<std::uint8_t, kMagicBytes> magic_{};
  std::optional<ImageQuery> verified_;  // set by a successful VERIFY until ACTIVATE/CANCEL
  std::optional<ImageQuery> pending_;
  std::optional<std::uint64_t> pending_slot_;  // where the activated copy lies until the reset
  std::chrono::steady_clock::time_point last_command_{};  // the owner's last instruction or data
};

}  // namespace openflint::sim
