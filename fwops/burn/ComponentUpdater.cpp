// ComponentUpdater: MCC instructions and MCDA downloads as the firmware's state machine expects them (mft-internals §4.2-4.4).
#include "fwops/burn/ComponentUpdater.h"

#include <algorithm>
#include <array>
#include <string>
#include <thread>
#include <vector>

#include "core/BigEndianFields.h"
#include "core/HexString.h"
#include "core/Interrupt.h"
#include "core/UninterruptibleSection.h"
#include "mtcr/registers/FirmwareFlashRegisters.h"
#include "mtcr/registers/McamRegister.h"

namespace openflint {
namespace {

using be::get32;
using be::put32;

// MCC instructions and control states (PRM; mstflint fw_comps_mgr).
constexpr std::uint8_t kLock = 1, kRelease = 2, kUpdateComponent = 3, kVerify = 4, kActivate = 6, kCancel = 8,
                       kForceRelease = 10;
constexpr std::uint8_t kIdle = 0, kLocked = 1, kDownload = 3;
constexpr std::uint8_t kNotApplicable = 0x3, kBadFormat = 0x8;
constexpr std::size_t kMccBytes = 0x20;
constexpr std::size_t kMcqiHeader = 0x18;
constexpr std::size_t kMcqiCapabilities = 0x14;

std::string register_error(std::string_view what, std::uint8_t status) {
  return std::string(what) + " refused by the firmware (register status " + hex_string(status) + ")";
}

Error firmware_error(std::string_view step, std::uint8_t code) {
  if (code == kNotApplicable)
    return Error(ErrorCode::Mismatch, std::string(step) + ": the firmware finds the image not applicable to this "
                                                          "device (hw id or PSID)");
  if (code == kBadFormat) return Error(ErrorCode::InvalidImage, std::string(step) + ": the firmware finds the image malformed");
  return Error(ErrorCode::Io, std::string(step) + ": the firmware reports error " + hex_string(code));
}

}  // namespace

std::string update_state_name(std::uint8_t state) {
  static constexpr std::array<std::string_view, 10> kNames{
      "IDLE", "LOCKED", "INITIALIZE", "DOWNLOAD", "VERIFY", "APPLY", "ACTIVATE", "UPLOAD", "UPLOAD_PENDING",
      "DOWNSTREAM_TRANSFER"};
  return state < kNames.size() ? std::string(kNames[state]) : "state " + std::to_string(state);
}

struct ComponentUpdater::State {
  std::uint8_t status = 0;  // register status of the access
  std::uint8_t state = 0;
  std::uint8_t error_code = 0;
  std::uint32_t handle = 0;
  std::uint32_t idle_seconds = 0;
};

namespace {

// One MCC access with `handle` (0: GET, else a SET of the instruction).
Result<AccessRegisterTlv> mcc_access(RegisterPort& port, std::uint8_t instruction, std::uint32_t handle, std::uint32_t size) {
  std::vector<std::uint8_t> d(kMccBytes, 0);
  put32(d.data(), 0x00, instruction);
  put32(d.data(), 0x08, handle);
  put32(d.data(), 0x10, size);
  const std::uint8_t method = instruction == 0 ? AccessRegisterTlv::kMethodQuery : AccessRegisterTlv::kMethodWrite;
  return port.access(flash_reg::kMcc, method, std::move(d));
}

}  // namespace

Result<UpdateHandleState> ComponentUpdater::handle_state(RegisterPort& port) {
  OF_ASSIGN(const AccessRegisterTlv mcc, mcc_access(port, 0, 0, 0));
  if (mcc.status != 0)
    return make_error(ErrorCode::NotSupported, register_error("reading the update state (MCC)", mcc.status));
  if (mcc.data.size() < 0x14) return make_error(ErrorCode::Io, "short MCC answer");
  UpdateHandleState h;
  h.idle_seconds = (get32(mcc.data.data(), 0x00) >> 16) & 0xfff;
  h.handle = get32(mcc.data.data(), 0x08) & 0xffffff;
  h.state = get32(mcc.data.data(), 0x0c) & 0xf;
  return h;
}

Result<void> ComponentUpdater::force_release(RegisterPort& port) {
  OF_ASSIGN(const UpdateHandleState now, handle_state(port));
  OF_ASSIGN(const AccessRegisterTlv mcc, mcc_access(port, kForceRelease, now.handle, 0));
  if (mcc.status != 0)
    return make_error(ErrorCode::Io, register_error("forcing the update handle free (MCC FORCE_HANDLE_RELEASE)", mcc.status));
  return {};
}

Result<bool> ComponentUpdater::offered(RegisterPort& port) {
  const std::size_t bytes = std::min(McamRegister::kSize, port.max_register_bytes() / 4 * 4);
  if (bytes < McamRegister::kMinSize) return false;
  std::vector<std::uint8_t> request = McamRegister{}.encode();  // group 0: the component-update registers
  request.resize(bytes);
  OF_ASSIGN(const AccessRegisterTlv answer, port.query(McamRegister::kId, request));
  if (answer.status != 0) return false;
  const auto mcam = McamRegister::decode(answer.data);
  if (!mcam) return false;  // too short an answer: the registers are not offered
  return mcam->lists(flash_reg::kMcqs) && mcam->lists(flash_reg::kMcqi) && mcam->lists(flash_reg::kMcc) &&
         mcam->lists(flash_reg::kMcda);
}

Result<ComponentUpdater> ComponentUpdater::open(RegisterPort& port, ComponentUpdateTimeouts timeouts) {
  std::vector<std::uint8_t> q(kMcqiHeader + kMcqiCapabilities, 0);  // component 0, info_type 0 (capabilities)
  put32(q.data(), 0x14, kMcqiCapabilities);
  if (q.size() > port.max_register_bytes())
    return make_error(ErrorCode::NotSupported, "the register channel is too small for the component update");
  OF_ASSIGN(const AccessRegisterTlv mcqi, port.query(flash_reg::kMcqi, q));
  if (mcqi.status != 0 || mcqi.data.size() < q.size())
    return make_error(ErrorCode::NotSupported, register_error("reading the boot image's capabilities (MCQI)", mcqi.status));
  const std::uint32_t max_component = get32(mcqi.data.data(), kMcqiHeader + 0x08);
  const std::size_t max_write = get32(mcqi.data.data(), kMcqiHeader + 0x0c) & 0xffff;
  const std::size_t room = port.max_register_bytes() - flash_reg::kMcdaHeaderBytes;
  const std::size_t chunk = std::min(max_write, room) / 4 * 4;
  if (chunk == 0) return make_error(ErrorCode::NotSupported, "the firmware takes no MCDA data (write size 0)");
  return ComponentUpdater(port, timeouts, max_component, chunk);
}

Result<ComponentUpdater::State> ComponentUpdater::query() { return control(0, 0); }

// Instruction 0: a query (GET). Else a write with the instruction, then the register as answered.
Result<ComponentUpdater::State> ComponentUpdater::control(std::uint8_t instruction, std::uint32_t size) {
  OF_ASSIGN(const AccessRegisterTlv mcc, mcc_access(*port_, instruction, handle_, size));
  State s;
  s.status = mcc.status;
  if (mcc.data.size() < 0x14) return make_error(ErrorCode::Io, "short MCC answer");
  s.idle_seconds = (get32(mcc.data.data(), 0x00) >> 16) & 0xfff;
  s.handle = get32(mcc.data.data(), 0x08) & 0xffffff;
  const std::uint32_t w = get32(mcc.data.data(), 0x0c);
  s.state = w & 0xf;
  s.error_code = static_cast<std::uint8_t>(w >> 8);
  return s;
}

Result<ComponentUpdater::State> ComponentUpdater::wait_for(std::uint8_t state, std::string_view step) {
  const auto deadline = std::chrono::steady_clock::now() + timeouts_.state_change;
  std::chrono::milliseconds pause{1};
  for (;;) {
    OF_ASSIGN(const State s, query());
    if (s.status != 0) return make_error(ErrorCode::Io, register_error(step, s.status));
    if (s.error_code != 0) return make_error(firmware_error(step, s.error_code));
    if (s.state == state) return s;
    OF_TRY(check_interrupted());  // a safe point: the caller cancels the update
    if (std::chrono::steady_clock::now() > deadline)
      return make_error(ErrorCode::Timeout, std::string(step) + ": the firmware stays in state " + std::to_string(s.state));
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds{64});
  }
}

Result<void> ComponentUpdater::lock() {
  const auto deadline = std::chrono::steady_clock::now() + timeouts_.lock;
  for (;;) {
    OF_ASSIGN(const State idle, query());
    if (idle.status != 0) return make_error(ErrorCode::Io, register_error("reading the update state (MCC)", idle.status));
    if (idle.state == kIdle) {
      handle_ = idle.handle;
      OF_ASSIGN(const State taken, control(kLock));
      if (taken.status == 0) return {};
      if (taken.status != AccessRegisterTlv::kStatusResourceNotAvailable)
        return make_error(ErrorCode::Io, register_error("taking the update handle", taken.status));
    }
    OF_TRY_CTX(check_interrupted(), "waiting for the firmware's update handle");
    if (std::chrono::steady_clock::now() > deadline)
      return make_error(ErrorCode::Busy, "another tool holds the firmware's update handle (state " +
                                             update_state_name(idle.state) + ", its holder silent for " +
                                             std::to_string(idle.idle_seconds) + " s); not taking it from them");
    std::this_thread::sleep_for(std::chrono::milliseconds{20});
  }
}

Result<void> ComponentUpdater::download(std::span<const std::uint8_t> component,
                                        const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  // Chunks go to the port kDownloadBatch at a time: a remote port sends them in a few round
  // trips instead of one each. MCDA carries its offset, so a chunk refused (non-zero status)
  // ends the download as before; the chunks sent after it are abandoned with the update.
  constexpr std::size_t kDownloadBatch = 32;
  for (std::size_t done = 0; done < component.size();) {
    OF_TRY(check_interrupted());  // a safe point between batches: the caller cancels the update
    std::vector<AccessRegisterTlv> batch;
    std::vector<std::size_t> offsets;
    for (std::size_t at = done; at < component.size() && batch.size() < kDownloadBatch;) {
      const std::size_t n = std::min(chunk_, component.size() - at);
      std::vector<std::uint8_t> d(flash_reg::kMcdaHeaderBytes + (n + 3) / 4 * 4, 0);
      put32(d.data(), 0x00, handle_);
      put32(d.data(), 0x04, static_cast<std::uint32_t>(at));
      put32(d.data(), 0x08, static_cast<std::uint32_t>(n));
      flash_reg::flash_bytes_to_wire(component.subspan(at, n), std::span(d).subspan(flash_reg::kMcdaHeaderBytes));
      batch.push_back(AccessRegisterTlv::request(flash_reg::kMcda, AccessRegisterTlv::kMethodWrite, std::move(d)));
      offsets.push_back(at);
      at += n;
    }
    OF_ASSIGN(const std::vector<AccessRegisterTlv> answers, port_->transact_all(batch));
    if (answers.size() != batch.size())
      return make_error(ErrorCode::Internal, "the register port answered " + std::to_string(answers.size()) + " of " +
                                                 std::to_string(batch.size()) + " MCDA accesses");
    for (std::size_t i = 0; i < answers.size(); ++i) {
      if (answers[i].status != 0)
        return make_error(ErrorCode::Io, register_error("sending the image at " + hex_string(offsets[i]) + " (MCDA)",
                                                        answers[i].status));
      done = offsets[i] + std::min(chunk_, component.size() - offsets[i]);
      if (progress) progress(done, component.size());
    }
  }
  OF_ASSIGN(const State s, query());
  if (s.error_code != 0) return make_error(firmware_error("downloading", s.error_code));
  return {};
}

void ComponentUpdater::abandon() {
  const UninterruptibleSection cancel;  // both steps, whatever arrives meanwhile
  (void)control(kCancel);
  (void)control(kRelease);
}

Result<void> ComponentUpdater::update(std::span<const std::uint8_t> component,
                                      const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  if (component.size() > max_component_)
    return make_error(ErrorCode::InvalidArgument, "the image (" + hex_string(component.size()) +
                                                      " bytes) exceeds the firmware's largest component (" +
                                                      hex_string(max_component_) + ")");
  OF_TRY(lock());
  const auto steps = [&]() -> Result<void> {
    OF_ASSIGN(const State started, control(kUpdateComponent, static_cast<std::uint32_t>(component.size())));
    if (started.status != 0) return make_error(ErrorCode::Io, register_error("starting the update", started.status));
    OF_TRY(wait_for(kDownload, "preparing the flash"));
    OF_TRY(download(component, progress));
    // Once the whole image is in, the firmware checks it and makes it the boot copy: a stop
    // signal waits for that (seconds) rather than throwing the downloaded image away.
    const UninterruptibleSection verify_and_activate;
    OF_ASSIGN(const State verifying, control(kVerify));
    if (verifying.status != 0) return make_error(ErrorCode::Io, register_error("verifying", verifying.status));
    OF_TRY(wait_for(kLocked, "verifying"));
    OF_ASSIGN(const State activating, control(kActivate));
    if (activating.status != 0) return make_error(ErrorCode::Io, register_error("activating", activating.status));
    OF_TRY(wait_for(kLocked, "activating"));
    return {};
  };
  if (auto done = steps(); !done) {
    abandon();
    if (done.error().code() == ErrorCode::Interrupted)
      return make_error(ErrorCode::Interrupted, "interrupted by " + std::string(signal_name(interrupt_signal())) +
                                                    ": the firmware's update was cancelled and its handle released; "
                                                    "the old image still boots");
    return done;
  }
  OF_ASSIGN(const State released, control(kRelease));
  if (released.status != 0) return make_error(ErrorCode::Io, register_error("releasing the update handle", released.status));
  return {};
}

}  // namespace openflint
