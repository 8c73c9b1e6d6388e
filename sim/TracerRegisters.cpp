// TracerRegisters: the four tracer access registers over sim/FirmwareTracer.
#include "sim/TracerRegisters.h"

#include <algorithm>

#include "mtcr/registers/MtrcStdbRegister.h"
#include "sim/FirmwareRegisters.h"
#include "sim/FirmwareTracer.h"
#include "sim/FlashAccessRegisters.h"
#include "sim/SimDevice.h"

namespace openflint::sim {
namespace {

using Tlv = AccessRegisterTlv;

void answer_mtrc_cap(FirmwareTracer& tracer, Tlv& request) {
  if (request.method == Tlv::kMethodQuery) {
    fill_answer(request, tracer.capabilities().encode());
    return;
  }
  auto asked = MtrcCapRegister::decode(request.data);
  if (!asked) {
    request.status = kBadParameter;
    return;
  }
  const bool granted = tracer.request_ownership(asked->trace_owner);
  MtrcCapRegister reply = tracer.capabilities();
  reply.trace_owner = granted;
  fill_answer(request, reply.encode());
}

void answer_mtrc_conf(FirmwareTracer& tracer, Tlv& request) {
  if (request.method == Tlv::kMethodQuery) {
    fill_answer(request, tracer.configuration().encode());
    return;
  }
  auto asked = MtrcConfRegister::decode(request.data);
  if (!asked || !tracer.configure(*asked)) {
    request.status = kBadParameter;
    return;
  }
  request.status = 0;
}

void answer_mtrc_stdb(FirmwareTracer& tracer, Tlv& request) {
  if (request.method != Tlv::kMethodQuery) {
    request.status = kMethodNotSupported;
    return;
  }
  auto asked = MtrcStdbRegister::decode(request.data);  // header + read_size bytes, or refused
  if (!asked) {
    request.status = kBadParameter;
    return;
  }
  const auto max_read = static_cast<std::uint32_t>(request.data.size() - MtrcStdbRegister::kHeaderSize);
  auto chunk = tracer.read_strings(*asked, max_read);
  if (!chunk) {
    request.status = kBadParameter;
    return;
  }
  asked->data = std::move(*chunk);
  fill_answer(request, asked->encode());
}

void answer_mtrc_ctrl(FirmwareTracer& tracer, Tlv& request) {
  if (request.method == Tlv::kMethodQuery) {
    fill_answer(request, tracer.control_status().encode());
    return;
  }
  auto asked = MtrcCtrlRegister::decode(request.data);
  if (!asked || !tracer.control(*asked)) {
    request.status = kBadParameter;
    return;
  }
  request.status = 0;
}

}  // namespace

bool answer_tracer_register(SimDevice& device, AccessRegisterTlv& request) {
  const std::uint16_t id = request.register_id;
  if (id < MtrcCapRegister::kId || id > MtrcCtrlRegister::kId) return false;
  FirmwareTracer* tracer = device.tracer();
  if (tracer == nullptr || !running_mgir(device).has_firmware()) {
    request.status = kRegisterNotSupported;
    return true;
  }
  switch (id) {
    case MtrcCapRegister::kId: answer_mtrc_cap(*tracer, request); break;
    case MtrcConfRegister::kId: answer_mtrc_conf(*tracer, request); break;
    case MtrcStdbRegister::kId: answer_mtrc_stdb(*tracer, request); break;
    default: answer_mtrc_ctrl(*tracer, request); break;
  }
  return true;
}

}  // namespace openflint::sim
