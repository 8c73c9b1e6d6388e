// FirmwareRegisters: MGIR of a simulated device, and the register dispatch every transport shares.
#include "sim/FirmwareRegisters.h"

#include <algorithm>

#include "sim/CapabilityRegister.h"
#include "sim/ComponentRegisters.h"
#include "sim/FlashAccessRegisters.h"
#include "sim/NvConfigRegisters.h"
#include "sim/FirmwareTracer.h"
#include "sim/TracerRegisters.h"

namespace openflint::sim {

MgirRegister running_mgir(const SimDevice& device) {
  MgirRegister m;
  m.device_id = device.info().hw_id;
  m.num_ports = static_cast<std::uint8_t>(device.info().port_count);
  const BootState& boot = device.boot_state();
  if (boot.recovery || !boot.running) return m;  // no firmware runs: fw_info stays zero
  if (boot.running->fw_version) {
    m.major = boot.running->fw_version->major;
    m.minor = boot.running->fw_version->minor;
    m.subminor = boot.running->fw_version->subminor;
  }
  m.psid = boot.running->psid;
  return m;
}

namespace {

constexpr std::uint16_t kMvtsId = 0x902c;
constexpr std::uint16_t kMtmpId = 0x900a;
// The warning thresholds the simulated firmware reports (PRM MTMP temperature_threshold_hi/lo).
constexpr std::uint32_t kWarnHighC = 105;
constexpr std::uint32_t kWarnLowC = 100;

void put16(std::vector<std::uint8_t>& b, std::size_t offset, std::uint32_t value) {  // big-endian dword's low half
  b[offset + 2] = static_cast<std::uint8_t>(value >> 8);
  b[offset + 3] = static_cast<std::uint8_t>(value);
}

// MTMP (PRM "Management Temperature"): sensor 0 is the ASIC, in units of 0.125 degrees C; the
// max temperature (mte set) is the current one. Other sensors (modules, gearboxes): bad parameter.
void answer_mtmp(const SimDevice& device, AccessRegisterTlv& request) {
  if (request.method != AccessRegisterTlv::kMethodQuery) {
    request.status = kMethodNotSupported;
    return;
  }
  const std::uint32_t sensor = request.data.size() >= 4
                                   ? ((std::uint32_t{request.data[2]} << 8) | request.data[3]) & 0xfff
                                   : 0;
  if (sensor != 0) {
    request.status = kBadParameter;
    return;
  }
  std::vector<std::uint8_t> b(0x20, 0);
  put16(b, 0x04, device.temperature_c() * 8);
  put16(b, 0x08, device.temperature_c() * 8);
  b[0x08] = 0x80;  // mte
  put16(b, 0x0c, kWarnHighC * 8);
  put16(b, 0x10, kWarnLowC * 8);
  fill_answer(request, b);
}

// MFRL: the levels and types come from the device's reset register; the state is the arming.
void answer_mfrl(SimDevice& device, AccessRegisterTlv& request) {
  const FirmwareResetSupport support = device.reset_register();
  if (support.levels == 0 || !running_mgir(device).has_firmware()) {  // no register, or no firmware runs
    request.status = kRegisterNotSupported;
    return;
  }
  if (request.method == AccessRegisterTlv::kMethodQuery) {
    MfrlRegister m;
    m.reset_trigger = support.levels;
    m.reset_type = support.types;
    m.reset_state = device.armed_reset() != 0 ? MfrlRegister::kStateWaitingForTrigger : MfrlRegister::kStateIdle;
    fill_answer(request, m.encode());
    return;
  }
  auto asked = MfrlRegister::decode(request.data);
  const bool type_ok = asked && asked->rst_type_sel < 8 && (support.types >> asked->rst_type_sel & 1) != 0;
  if (!asked || asked->reset_trigger == 0 || (asked->reset_trigger & ~support.levels) != 0 || !type_ok) {
    request.status = kBadParameter;
    return;
  }
  device.arm_reset(asked->reset_trigger);
  request.status = 0;
}

// The firmware-mediated flash registers: only a running firmware whose catalog record offers
// component update answers them. True when `request` was one of them (answered); Io when the
// power went away during the firmware's flash work.
Result<bool> answer_firmware_flash(SimDevice& device, AccessRegisterTlv& request) {
  const std::uint16_t id = request.register_id;
  // MVTS (0x902C, version timestamps): a firmware with MCC but without timestamping answers
  // "bad parameter", which mstflint reads as "timestamping not supported by FW" and burns on.
  if (id == kMvtsId && device.component_update_offered()) {
    request.status = kBadParameter;
    return true;
  }
  const bool flash_access = id == kMfpaId || id == kMfbaId || id == kMfbeId || id == kMfmcId;
  if (!flash_access && (id < kMcqsId || id > kMcdaId)) return false;
  if (!device.info().firmware_flash.component_update || !running_mgir(device).has_firmware()) {
    request.status = kRegisterNotSupported;
    return true;
  }
  if (flash_access) {  // firmware flash access does not need an image built with MCC
    switch (id) {
      case kMfpaId: answer_mfpa(device, request); break;
      case kMfbaId: OF_TRY(answer_mfba(device, request)); break;
      case kMfbeId: OF_TRY(answer_mfbe(device, request)); break;
      default: answer_mfmc(device, request); break;
    }
    return true;
  }
  if (!device.component_update_offered()) {
    request.status = kRegisterNotSupported;
    return true;
  }
  switch (id) {
    case kMcqsId: answer_mcqs(device, request); break;
    case kMcqiId: answer_mcqi(device, request); break;
    case kMccId: answer_mcc(device, request); break;
    default: answer_mcda(device, request); break;
  }
  return true;
}

// MCAM: on a family with component update or a firmware tracer, while firmware runs.
void answer_capabilities(SimDevice& device, AccessRegisterTlv& request) {
  const bool listed_family = device.info().firmware_flash.component_update || device.tracer() != nullptr;
  if (!listed_family || !running_mgir(device).has_firmware()) {
    request.status = kRegisterNotSupported;
    return;
  }
  answer_mcam(device, request);
}

// What the NV configuration registers changed, as the firmware traces it.
void trace_nv_changes(SimDevice& device) {
  FirmwareTracer* tracer = device.tracer();
  for (const NvConfigChange& change : device.nv_config().take_changes()) {
    if (tracer == nullptr) continue;
    switch (change.kind) {
      case NvConfigChange::Kind::Stored: tracer->trace(FirmwareTraceMessage::NvConfigStored, {change.type}); break;
      case NvConfigChange::Kind::Reset: tracer->trace(FirmwareTraceMessage::NvConfigReset, {change.type}); break;
      case NvConfigChange::Kind::ResetAll: tracer->trace(FirmwareTraceMessage::NvConfigResetAll, {}); break;
    }
  }
}

Result<void> dispatch_register(SimDevice& device, AccessRegisterTlv& request) {
  if (request.register_id == kMcamId) {
    answer_capabilities(device, request);
    return {};
  }
  if (answer_tracer_register(device, request)) return {};
  if (request.register_id == MfrlRegister::kId) {
    answer_mfrl(device, request);
    return {};
  }
  OF_ASSIGN(const bool flash_register, answer_firmware_flash(device, request));
  if (flash_register) return {};
  if (answer_nv_config(device, request)) {
    trace_nv_changes(device);
    return {};
  }
  if (request.register_id == kMtmpId) {
    answer_mtmp(device, request);
    return {};
  }
  if (request.register_id != MgirRegister::kId) {
    request.status = kRegisterNotSupported;
    return {};
  }
  if (request.method != AccessRegisterTlv::kMethodQuery) {
    request.status = kMethodNotSupported;
    return {};
  }
  fill_answer(request, running_mgir(device).encode());
  return {};
}

}  // namespace

Result<void> answer_register(SimDevice& device, AccessRegisterTlv& request) {
  const auto bus = device.hold_bus();
  if (!device.powered()) return make_error(ErrorCode::Io, "device is powered off");
  if (device.boot_state().firmware_hung)
    return make_error(ErrorCode::Timeout, "the firmware does not answer: it hung when its flash was written "
                                          "through the gateway under it (reset the device)");
  auto answered = dispatch_register(device, request);
  FirmwareTracer* tracer = device.tracer();
  if (tracer == nullptr) return answered;
  // The firmware traces what it refuses (not every access), then its FIFO drains: one burst.
  if (answered && request.status != 0)
    tracer->trace(FirmwareTraceMessage::RegisterRefused, {request.register_id, request.method, request.status});
  tracer->end_burst();
  return answered;
}

}  // namespace openflint::sim
