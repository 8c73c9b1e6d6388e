// MadResponder: decode a request MAD, serve it from the backend/hooks, send the response.
#include "inband/MadResponder.h"

#include "mtcr/MadFormat.h"

namespace openflint {

namespace {
constexpr std::uint32_t kQp1Qkey = 0x80010000;
constexpr std::uint16_t kPermissiveLid = 0xffff;
constexpr std::uint16_t kDirectionBit = 0x8000;

std::uint16_t status_for(const Error& e) {
  return e.code() == ErrorCode::NotSupported ? mad::kStatusAttrUnsupported : mad::kStatusInvalidValue;
}
}  // namespace

Result<MadResponder> MadResponder::attach(CrSpaceBackend& backend, ResponderHooks hooks, const std::string& ca,
                                          int port) {
  OF_ASSIGN(UmadPort umad, UmadPort::open(ca, port));
  // Without being the SM client of the port, ibsim forwards nothing to this process.
  OF_TRY(umad.become_sm());
  for (std::uint8_t cls : {mad::kClassSmpLid, mad::kClassSmpDirected, mad::kClassVendor9, mad::kClassVendorA}) {
    auto agent = umad.register_class(cls, true);
    if (!agent) return make_error(std::move(agent).error().with_context("responder"));
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
  if ((m[mad::kOffMethod] & mad::kResponseBit) != 0) return true;
  const std::uint8_t method = m[mad::kOffMethod] & 0x7f;
  if (method != mad::kMethodGet && method != mad::kMethodSet) return true;  // traps etc.: no answer
  const std::uint8_t cls = m[mad::kOffClass];
  const bool smp = cls == mad::kClassSmpLid || cls == mad::kClassSmpDirected;
  const std::size_t off = smp ? mad::kOffSmpData : mad::kOffVendorData;
  const std::size_t len = smp ? mad::kSmpDataSize : mad::kVendorDataSize;
  const std::uint16_t attr = mad::get16(m.data(), mad::kOffAttrId);
  const std::uint32_t attr_mod = mad::get32(m.data(), mad::kOffAttrMod);
  const std::uint16_t status = dispatch(cls, method, attr, attr_mod, std::span(m).subspan(off, len));
  if (hooks_.trace) hooks_.trace(cls, method, attr, attr_mod, status);
  // Method stays 7 bits; the response flag is its own bit. The TID is echoed unchanged.
  m[mad::kOffMethod] = static_cast<std::uint8_t>(method | mad::kResponseBit);
  std::uint16_t dlid = in->slid;
  std::uint32_t dqp = 0;
  std::uint32_t qkey = 0;
  if (cls == mad::kClassSmpDirected) {
    mad::put16(m.data(), mad::kOffStatus, static_cast<std::uint16_t>(kDirectionBit | (status & 0x7fff)));
    m[mad::kOffHopPointer] = 0;
    dlid = kPermissiveLid;
  } else {
    mad::put16(m.data(), mad::kOffStatus, status);
    if (!smp) {
      dqp = in->sqpn;
      qkey = kQp1Qkey;
    }
  }
  OF_TRY(port_.send(port_.agent_for(cls), m, dlid, dqp, qkey));
  ++answered_;
  return true;
}

std::uint16_t MadResponder::dispatch(std::uint8_t mgmt_class, std::uint8_t method, std::uint16_t attr,
                                     std::uint32_t attr_mod, std::span<std::uint8_t> payload) {
  const bool smp = mgmt_class == mad::kClassSmpLid || mgmt_class == mad::kClassSmpDirected;
  if (smp) {
    if (attr == mad::kAttrCrAccessSmp) return cr_access(method, attr_mod, payload);
    if (attr == mad::kAttrRegAccessSmp) return call_register_hook(attr, method, attr_mod, payload);
    return mad::kStatusAttrUnsupported;
  }
  if (mgmt_class != mad::kClassVendorA && mgmt_class != mad::kClassVendor9) return mad::kStatusAttrUnsupported;
  if (attr == mad::kAttrCrAccessGmp) return cr_access(method, attr_mod, payload);
  if (attr == mad::kAttrRegAccessGmp) return call_register_hook(attr, method, attr_mod, payload);
  if (attr == mad::kAttrSwReset && method == mad::kMethodSet && hooks_.sw_reset) {
    auto r = hooks_.sw_reset(attr_mod);
    return r ? 0 : status_for(r.error());
  }
  return mad::kStatusAttrUnsupported;
}

std::uint16_t MadResponder::call_register_hook(std::uint16_t attr, std::uint8_t method, std::uint32_t attr_mod,
                                               std::span<std::uint8_t> payload) {
  if (!hooks_.register_access) return mad::kStatusAttrUnsupported;
  auto r = hooks_.register_access(attr, method, attr_mod, payload);
  return r ? 0 : status_for(r.error());
}

std::uint16_t MadResponder::cr_access(std::uint8_t method, std::uint32_t attr_mod, std::span<std::uint8_t> payload) {
  // Payload: 8-byte key (not enforced by this simulated device), then dwords or records.
  const auto data = payload.subspan(mad::kCrKeySize);
  switch (mad::attr_mod_mode(attr_mod)) {
    case 0: return cr_mode0(method, attr_mod, data);
    case 2: return cr_mode2(method, attr_mod, data);
    default: return mad::kStatusInvalidValue;
  }
}

std::uint16_t MadResponder::cr_mode0(std::uint8_t method, std::uint32_t attr_mod, std::span<std::uint8_t> data) {
  const std::size_t count = mad::attr_mod_count(attr_mod);
  const std::uint32_t address = mad::attr_mod_address(attr_mod);
  if (count == 0 || count * 4 > data.size()) return mad::kStatusInvalidValue;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t at = address + static_cast<std::uint32_t>(i * 4);
    if (method == mad::kMethodGet) {
      auto v = backend_->read32(at);
      if (!v) return status_for(v.error());
      mad::put32(data.data(), i * 4, *v);
    } else if (auto w = backend_->write32(at, mad::get32(data.data(), i * 4)); !w) {
      return status_for(w.error());
    }
  }
  return 0;
}

std::uint16_t MadResponder::cr_mode2(std::uint8_t method, std::uint32_t attr_mod, std::span<std::uint8_t> data) {
  // Records of (address, data, mask); a write changes only the bits set in mask.
  const std::size_t count = mad::attr_mod_count(attr_mod);
  if (count == 0 || count * mad::kMode2RecordSize > data.size()) return mad::kStatusInvalidValue;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint8_t* rec = data.data() + i * mad::kMode2RecordSize;
    const std::uint32_t at = mad::get32(rec, 0);
    auto old = backend_->read32(at);
    if (!old) return status_for(old.error());
    if (method == mad::kMethodGet) {
      mad::put32(rec, 4, *old);
      continue;
    }
    const std::uint32_t mask = mad::get32(rec, 8);
    const std::uint32_t value = (*old & ~mask) | (mad::get32(rec, 4) & mask);
    if (auto w = backend_->write32(at, value); !w) return status_for(w.error());
  }
  return 0;
}

}  // namespace openflint
