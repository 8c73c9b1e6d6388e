// TracerOwnership: MTRC_CAP writes of trace_owner 1 and 0.
#include "fwops/trace/TracerOwnership.h"

#include <string>
#include <utility>

#include "core/HexString.h"
#include "mtcr/registers/MtrcCapRegister.h"

namespace openflint {
namespace {

// MTRC_CAP written with only trace_owner set as asked (every other field is read-only).
Result<MtrcCapRegister> write_trace_owner(RegisterPort& port, bool owner) {
  MtrcCapRegister request;
  request.trace_owner = owner;
  const char* what = owner ? "asking for the tracer's ownership (MTRC_CAP trace_owner=1)"
                           : "giving the tracer's ownership back (MTRC_CAP trace_owner=0)";
  auto answer = port.write(MtrcCapRegister::kId, request.encode());
  if (!answer) return make_error(std::move(answer).error().with_context(what));
  if (answer->status != 0) return make_error(ErrorCode::Io, std::string(what) + ": status " + hex_string(answer->status));
  auto cap = MtrcCapRegister::decode(answer->data);
  if (!cap) return make_error(std::move(cap).error().with_context(what));
  return cap;
}

}  // namespace

Result<std::optional<TracerOwnership>> TracerOwnership::request(RegisterPort& port) {
  OF_ASSIGN(const MtrcCapRegister answer, write_trace_owner(port, true));
  if (!answer.trace_owner) return std::optional<TracerOwnership>{};
  return std::optional<TracerOwnership>(TracerOwnership(port));
}

TracerOwnership& TracerOwnership::operator=(TracerOwnership&& other) noexcept {
  if (this != &other) {
    (void)release();
    port_ = std::exchange(other.port_, nullptr);
  }
  return *this;
}

TracerOwnership::~TracerOwnership() { (void)release(); }

Result<void> TracerOwnership::release() {
  RegisterPort* port = std::exchange(port_, nullptr);
  if (port == nullptr) return {};
  OF_TRY(write_trace_owner(*port, false));
  return {};
}

Result<TracerOwner> probe_tracer_owner(RegisterPort& port) {
  OF_ASSIGN(std::optional<TracerOwnership> granted, TracerOwnership::request(port));
  if (!granted) return TracerOwner::Someone;
  OF_TRY(granted->release());
  return TracerOwner::Nobody;
}

}  // namespace openflint
