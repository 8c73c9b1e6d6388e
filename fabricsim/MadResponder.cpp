// MadResponder: receive a request MAD on the port, have the handler answer it, send the response back.
#include "fabricsim/MadResponder.h"

#include "mtcr/inband/MadFormat.h"

namespace openflint {

namespace {
constexpr std::uint32_t kQp1Qkey = 0x80010000;
constexpr std::uint16_t kPermissiveLid = 0xffff;
}  // namespace

Result<MadResponder> MadResponder::attach(CrSpaceBackend& backend, ResponderHooks hooks, const std::string& ca,
                                          int port) {
  OF_ASSIGN(UmadPort umad, UmadPort::open(ca, port));
  // Without being the SM client of the port, ibsim forwards nothing to this process.
  OF_TRY(umad.become_sm());
  for (std::uint8_t cls : {mad::kClassSmpLid, mad::kClassSmpDirected, mad::kClassVendor9, mad::kClassVendorA}) {
    OF_TRY_CTX(umad.register_class(cls, true), "responder");
  }
  return MadResponder(std::move(umad), backend, std::move(hooks));
}

Result<void> MadResponder::serve(const std::atomic<bool>& stop, int poll_ms) {
  while (!stop.load()) OF_TRY(serve_one(poll_ms));
  return {};
}

Result<bool> MadResponder::serve_one(int timeout_ms) {
  OF_ASSIGN(auto in, port_.recv(timeout_ms));
  if (!in) return false;
  // A non-zero umad status is a bounce of something we sent: answering it would loop forever.
  if (in->umad_status != 0) return true;
  auto& m = in->mad;
  const std::optional<AnsweredRequest> answered = handler_.handle(m);
  if (!answered) return true;
  if (trace_) {
    const bool smp = answered->mgmt_class == mad::kClassSmpLid || answered->mgmt_class == mad::kClassSmpDirected;
    const auto data = std::span<const std::uint8_t>(m).subspan(smp ? mad::kOffSmpData : mad::kOffVendorData,
                                                               smp ? mad::kSmpDataSize : mad::kVendorDataSize);
    trace_(answered->mgmt_class, answered->method, answered->attr, answered->attr_mod, answered->status, data);
  }
  // LID-routed answers go back to the sender; GMPs to its QP with the QP1 key.
  std::uint16_t dlid = in->slid;
  std::uint32_t dqp = 0;
  std::uint32_t qkey = 0;
  if (answered->mgmt_class == mad::kClassSmpDirected) {
    dlid = kPermissiveLid;
  } else if (answered->mgmt_class != mad::kClassSmpLid) {
    dqp = in->sqpn;
    qkey = kQp1Qkey;
  }
  OF_TRY(port_.send(port_.agent_for(answered->mgmt_class), m, dlid, dqp, qkey));
  ++answered_;
  return true;
}

}  // namespace openflint
