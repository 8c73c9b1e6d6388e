// MadRequestHandler: decode a request MAD, serve it from the backend/hooks, write the response in place.
#include "fabricsim/MadRequestHandler.h"

#include "fabricsim/ExtPortAccessRequest.h"
#include "mtcr/inband/MadFormat.h"

namespace openflint {

namespace {
constexpr std::uint16_t kDirectionBit = 0x8000;

std::uint16_t status_for(const Error& e) {
  return e.code() == ErrorCode::NotSupported ? mad::kStatusAttrUnsupported : mad::kStatusInvalidValue;
}
}  // namespace

std::optional<AnsweredRequest> MadRequestHandler::handle(std::span<std::uint8_t> m) {
  if (m.size() < mad::kMadSize) return std::nullopt;
  if ((m[mad::kOffMethod] & mad::kResponseBit) != 0) return std::nullopt;
  AnsweredRequest a;
  a.method = m[mad::kOffMethod] & 0x7f;
  if (a.method != mad::kMethodGet && a.method != mad::kMethodSet) return std::nullopt;  // traps etc.: no answer
  a.mgmt_class = m[mad::kOffClass];
  const bool smp = a.mgmt_class == mad::kClassSmpLid || a.mgmt_class == mad::kClassSmpDirected;
  const std::size_t off = smp ? mad::kOffSmpData : mad::kOffVendorData;
  const std::size_t len = smp ? mad::kSmpDataSize : mad::kVendorDataSize;
  a.attr = mad::get16(m.data(), mad::kOffAttrId);
  a.attr_mod = mad::get32(m.data(), mad::kOffAttrMod);
  a.status = dispatch(a.mgmt_class, a.method, a.attr, a.attr_mod, m.subspan(off, len));
  // Method stays 7 bits; the response flag is its own bit. The TID is echoed unchanged.
  m[mad::kOffMethod] = static_cast<std::uint8_t>(a.method | mad::kResponseBit);
  if (a.mgmt_class == mad::kClassSmpDirected) {
    mad::put16(m.data(), mad::kOffStatus, static_cast<std::uint16_t>(kDirectionBit | (a.status & 0x7fff)));
    m[mad::kOffHopPointer] = 0;
  } else {
    mad::put16(m.data(), mad::kOffStatus, a.status);
  }
  return a;
}

std::uint16_t MadRequestHandler::dispatch(std::uint8_t mgmt_class, std::uint8_t method, std::uint16_t attr,
                                     std::uint32_t attr_mod, std::span<std::uint8_t> payload) {
  const bool smp = mgmt_class == mad::kClassSmpLid || mgmt_class == mad::kClassSmpDirected;
  if (smp) {
    if (attr == mad::kAttrCrAccessSmp) return cr_access(method, attr_mod, payload);
    if (attr == mad::kAttrRegAccessSmp) return call_register_hook(attr, method, attr_mod, payload);
    if (attr == mad::kAttrSemaphoreLockSmp && hooks_.semaphore_lock) {
      auto r = hooks_.semaphore_lock(method == mad::kMethodSet, payload);
      return r ? 0 : status_for(r.error());
    }
    return mad::kStatusAttrUnsupported;
  }
  if (mgmt_class != mad::kClassVendorA && mgmt_class != mad::kClassVendor9) return mad::kStatusAttrUnsupported;
  if (attr == mad::kAttrCrAccessGmp) return cr_access(method, attr_mod, payload);
  if (attr == mad::kAttrRegAccessGmp) return call_register_hook(attr, method, attr_mod, payload);
  if (attr == mad::kAttrExtPortAccess && mgmt_class == mad::kClassVendorA)
    return serve_ext_port_access(hooks_.i2c_bus ? hooks_.i2c_bus() : nullptr, method, attr_mod, payload);
  if (attr == mad::kAttrSwReset && method == mad::kMethodSet && hooks_.sw_reset) {
    auto r = hooks_.sw_reset(attr_mod);
    return r ? 0 : status_for(r.error());
  }
  return mad::kStatusAttrUnsupported;
}

std::uint16_t MadRequestHandler::call_register_hook(std::uint16_t attr, std::uint8_t method, std::uint32_t attr_mod,
                                               std::span<std::uint8_t> payload) {
  if (!hooks_.register_access) return mad::kStatusAttrUnsupported;
  auto r = hooks_.register_access(attr, method, attr_mod, payload);
  return r ? 0 : status_for(r.error());
}

std::uint16_t MadRequestHandler::cr_access(std::uint8_t method, std::uint32_t attr_mod, std::span<std::uint8_t> payload) {
  // Payload: 8-byte key (not enforced by this simulated device), then dwords or records.
  const auto data = payload.subspan(mad::kCrKeySize);
  switch (mad::attr_mod_mode(attr_mod)) {
    case 0: return cr_mode0(method, attr_mod, data);
    case 2: return cr_mode2(method, attr_mod, data);
    default: return mad::kStatusInvalidValue;
  }
}

std::uint16_t MadRequestHandler::cr_mode0(std::uint8_t method, std::uint32_t attr_mod, std::span<std::uint8_t> data) {
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

std::uint16_t MadRequestHandler::cr_mode2(std::uint8_t method, std::uint32_t attr_mod, std::span<std::uint8_t> data) {
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
