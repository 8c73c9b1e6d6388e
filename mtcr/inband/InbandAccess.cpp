// InbandAccess: ConfigSpaceAccess / AccessRegister / SwReset MADs over a raw umad port.
#include "core/HexString.h"
#include "mtcr/inband/InbandAccess.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "mtcr/inband/MadReply.h"

namespace openflint {

namespace {

constexpr std::uint32_t kQp1Qkey = 0x80010000;
constexpr std::uint16_t kPermissiveLid = 0xffff;

using Clock = std::chrono::steady_clock;

// See Options::usable_mad_bytes.
std::size_t usable_mad_bytes(std::size_t requested) {
  if (requested != 0) return std::min(requested, mad::kMadSize);
  const char* preload = std::getenv("LD_PRELOAD");
  return preload != nullptr && std::strstr(preload, "umad2sim") != nullptr ? 224 : mad::kMadSize;
}

}  // namespace

InbandAccess::InbandAccess(std::shared_ptr<MadChannel> channel, InbandDeviceName device, Options options)
    : channel_(std::move(channel)), device_(std::move(device)), options_(options) {}

Result<InbandAccess::Options> InbandAccess::checked(Options options) {
  if (options.timeout_ms <= 0 || options.retries < 0)
    return make_error(ErrorCode::InvalidArgument, "in-band: timeout must be positive and retries not negative");
  options.usable_mad_bytes = usable_mad_bytes(options.usable_mad_bytes);
  if (options.usable_mad_bytes < mad::kOffSmpData + mad::kSmpDataSize)
    return make_error(ErrorCode::InvalidArgument, "in-band: usable mad size below 128 bytes");
  return options;
}

Result<InbandAccess> InbandAccess::open(std::string_view device, Options options) {
  OF_ASSIGN(auto name, parse_inband_device_name(device));
  return open(std::move(name), options);
}

Result<InbandAccess> InbandAccess::open(InbandDeviceName device, Options options) {
  OF_ASSIGN(options, checked(options));
  OF_ASSIGN_CTX(std::shared_ptr<MadChannel> channel, MadChannel::open(device.ca, device.port),
                "opening " + device.to_string());
  return InbandAccess(std::move(channel), std::move(device), options);
}

Result<InbandAccess> InbandAccess::open(std::string_view device, Options options,
                                        std::shared_ptr<MadChannel> channel) {
  OF_ASSIGN(auto name, parse_inband_device_name(device));
  OF_ASSIGN(options, checked(options));
  if (!channel) return make_error(ErrorCode::InvalidArgument, "in-band: no mad channel to share");
  return InbandAccess(std::move(channel), std::move(name), options);
}

std::size_t InbandAccess::max_block_dwords() const {
  if (uses_smp()) return mad::kSmpCrDwords;
  return std::min(mad::kGmpCrDwords, (options_.usable_mad_bytes - mad::kOffVendorData - mad::kCrKeySize) / 4);
}

std::size_t InbandAccess::max_mode2_records() const {
  if (uses_smp()) return mad::kSmpMode2Records;
  return std::min(mad::kGmpMode2Records,
                  (options_.usable_mad_bytes - mad::kOffVendorData - mad::kCrKeySize) / mad::kMode2RecordSize);
}

std::size_t InbandAccess::payload_offset(std::uint8_t mgmt_class) const {
  return mgmt_class == mad::kClassVendorA ? mad::kOffVendorData : mad::kOffSmpData;
}

InbandAccess::Mad InbandAccess::make_request(const Request& req) {
  Mad m{};
  m[mad::kOffBaseVersion] = 1;
  m[mad::kOffClass] = req.mgmt_class;
  m[mad::kOffClassVersion] = 1;
  m[mad::kOffMethod] = req.method;
  // umad2sim and ibsim keep routing state in the upper TID bits: ours live in the low 32.
  mad::put64(m.data(), mad::kOffTid, channel_->next_tid());
  mad::put16(m.data(), mad::kOffAttrId, req.attr);
  mad::put32(m.data(), mad::kOffAttrMod, req.attr_mod);
  if (req.mgmt_class == mad::kClassVendorA) {
    mad::put64(m.data(), mad::kOffVendorData, options_.key);  // VS_Key
    return m;
  }
  mad::put64(m.data(), mad::kOffSmpMkey, options_.key);
  mad::put64(m.data(), mad::kOffSmpData, options_.key);  // the CR-access payload repeats the key
  if (req.mgmt_class == mad::kClassSmpDirected) {
    m[mad::kOffHopCount] = static_cast<std::uint8_t>(device_.hop_count());
    mad::put16(m.data(), mad::kOffDrSlid, kPermissiveLid);
    mad::put16(m.data(), mad::kOffDrDlid, kPermissiveLid);
    for (std::size_t i = 0; i < device_.path.size(); ++i) m[mad::kOffDrInitialPath + i] = device_.path[i];
  }
  return m;
}

std::string InbandAccess::describe(const Request& req) const {
  return device_.to_string() + " class " + hex_string(req.mgmt_class) + " attr " + hex_string(req.attr) + " mod " +
         hex_string(req.attr_mod) + (req.method == mad::kMethodGet ? " get" : " set");
}

Result<InbandAccess::Mad> InbandAccess::transact(const Request& req, Mad& mad) {
  const int agent = channel_->agent_for(req.mgmt_class);
  std::uint16_t dlid = device_.lid;
  std::uint32_t dqp = 0;
  std::uint32_t qkey = 0;
  if (req.mgmt_class == mad::kClassVendorA) {
    dqp = 1;
    qkey = kQp1Qkey;
  } else if (req.mgmt_class == mad::kClassSmpDirected) {
    dlid = kPermissiveLid;
  }
  const std::uint32_t tid = static_cast<std::uint32_t>(mad::get64(mad.data(), mad::kOffTid));
  // Built only when an attempt fails (a string per MAD cost allocations on every round trip).
  std::string last_failure;
  const auto failure = [&] {
    return last_failure.empty() ? "no answer within " + std::to_string(options_.timeout_ms) + " ms" : last_failure;
  };
  for (int attempt = 0; attempt <= options_.retries; ++attempt) {
    OF_TRY_CTX(channel_->send(agent, mad, dlid, dqp, qkey), describe(req));
    ++mads_sent_;
    const auto deadline = Clock::now() + std::chrono::milliseconds(options_.timeout_ms);
    while (true) {
      OF_ASSIGN(auto in, channel_->wait(tid, req.mgmt_class, deadline));
      if (!in) {
        // A SET that timed out may still have reached the device (a slow answer): sending it
        // again could run a flash gateway command twice. Only a bounce proves it never arrived.
        if (req.method == mad::kMethodSet)
          return make_error(ErrorCode::Timeout, describe(req) + ": " + failure() + " (a write is not re-sent)");
        break;
      }
      OF_ASSIGN_CTX(const ReplyKind kind, classify_reply(in->mad, in->umad_status, tid, req.mgmt_class), describe(req));
      if (kind == ReplyKind::NotOurs) continue;
      if (kind == ReplyKind::Bounced) {
        last_failure = "request bounced (umad status " + std::to_string(in->umad_status) + ")";
        break;
      }
      return in->mad;
    }
  }
  return make_error(ErrorCode::Timeout, describe(req) + ": no response after " +
                                            std::to_string(options_.retries + 1) + " attempts (" + failure() + ")");
}

Result<void> InbandAccess::cr_chunk(std::uint8_t method, std::uint32_t address, std::span<std::uint32_t> data,
                                    bool mode2) {
  Request req{uses_smp() ? (device_.route == InbandDeviceName::Route::SmpDirected ? mad::kClassSmpDirected
                                                                                     : mad::kClassSmpLid)
                         : mad::kClassVendorA,
              method, uses_smp() ? mad::kAttrCrAccessSmp : mad::kAttrCrAccessGmp,
              mode2 ? mad::cr_attr_mod_mode2(data.size()) : mad::cr_attr_mod_mode0(address, data.size())};
  Mad m = make_request(req);
  const std::size_t base = payload_offset(req.mgmt_class) + mad::kCrKeySize;
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (mode2) {
      const std::size_t rec = base + i * mad::kMode2RecordSize;
      mad::put32(m.data(), rec, address + static_cast<std::uint32_t>(i * 4));
      mad::put32(m.data(), rec + 4, method == mad::kMethodSet ? data[i] : 0);
      mad::put32(m.data(), rec + 8, method == mad::kMethodSet ? 0xffffffffu : 0);
    } else if (method == mad::kMethodSet) {
      mad::put32(m.data(), base + i * 4, data[i]);
    }
  }
  OF_ASSIGN(const Mad answer, transact(req, m));
  if (method == mad::kMethodGet) OF_TRY(decode_cr_reply(answer, req.mgmt_class, mode2, data));
  return {};
}

Result<void> InbandAccess::cr_access(std::uint8_t method, std::uint32_t address, std::span<std::uint32_t> data) {
  if (address % 4 != 0) return make_error(ErrorCode::InvalidArgument, "in-band: address " + hex_string(address) + " is not dword aligned");
  if (std::uint64_t{address} + data.size() * 4 > 0x100000000ull)
    return make_error(ErrorCode::InvalidArgument, "in-band: access past the end of the 32-bit address space");
  std::size_t done = 0;
  while (done < data.size()) {
    const std::uint32_t at = address + static_cast<std::uint32_t>(done * 4);
    std::size_t n = std::min(max_block_dwords(), data.size() - done);
    bool mode2 = false;
    if (mad::needs_mode2(at, n)) {
      const std::size_t fit = at <= mad::kMode0MaxAddress ? (mad::kMode0MaxAddress - at) / 4 : 0;
      if (fit > 0) {
        n = fit;  // finish the mode-0 range first
      } else {
        mode2 = true;
        n = std::min(n, max_mode2_records());
      }
    }
    OF_TRY_CTX(cr_chunk(method, at, data.subspan(done, n), mode2),
               std::string(method == mad::kMethodGet ? "reading" : "writing") + " cr-space " + hex_string(at));
    done += n;
  }
  return {};
}

Result<std::uint32_t> InbandAccess::read32(std::uint32_t address) {
  std::uint32_t v = 0;
  OF_TRY(cr_access(mad::kMethodGet, address, std::span<std::uint32_t>(&v, 1)));
  return v;
}

Result<void> InbandAccess::write32(std::uint32_t address, std::uint32_t value) {
  return cr_access(mad::kMethodSet, address, std::span<std::uint32_t>(&value, 1));
}

Result<void> InbandAccess::read_block(std::uint32_t address, std::span<std::uint32_t> out) {
  return cr_access(mad::kMethodGet, address, out);
}

Result<std::vector<std::uint32_t>> InbandAccess::read_block(std::uint32_t address, std::size_t dwords) {
  std::vector<std::uint32_t> out(dwords);
  OF_TRY(read_block(address, std::span<std::uint32_t>(out)));
  return out;
}

Result<void> InbandAccess::write_block(std::uint32_t address, std::span<const std::uint32_t> values) {
  std::vector<std::uint32_t> copy(values.begin(), values.end());
  return cr_access(mad::kMethodSet, address, copy);
}

Result<void> InbandAccess::write_sequence(std::span<const RegisterWrite> writes) {
  if (writes.size() == 1) return write32(writes[0].address, writes[0].value);
  const std::uint8_t cls = uses_smp() ? (device_.route == InbandDeviceName::Route::SmpDirected ? mad::kClassSmpDirected
                                                                                            : mad::kClassSmpLid)
                                      : mad::kClassVendorA;
  const std::uint16_t attr = uses_smp() ? mad::kAttrCrAccessSmp : mad::kAttrCrAccessGmp;
  for (std::size_t done = 0; done < writes.size();) {
    const std::size_t n = std::min(max_mode2_records(), writes.size() - done);
    Request req{cls, mad::kMethodSet, attr, mad::cr_attr_mod_mode2(n)};
    Mad m = make_request(req);
    const std::size_t base = payload_offset(cls) + mad::kCrKeySize;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t rec = base + i * mad::kMode2RecordSize;
      mad::put32(m.data(), rec, writes[done + i].address);
      mad::put32(m.data(), rec + 4, writes[done + i].value);
      mad::put32(m.data(), rec + 8, 0xffffffffu);
    }
    OF_TRY_CTX(transact(req, m),
               "writing " + std::to_string(n) + " cr-space records from " + hex_string(writes[done].address));
    done += n;
  }
  return {};
}

Result<void> InbandAccess::sw_reset(std::uint8_t seconds) {
  if (device_.route == InbandDeviceName::Route::SmpDirected)
    return make_error(ErrorCode::NotSupported, "sw reset: needs a lid (lid-N or iblid-N), not a directed route");
  Request req{mad::kClassVendorA, mad::kMethodSet, mad::kAttrSwReset, seconds};
  Mad m = make_request(req);
  OF_TRY(transact(req, m));
  return {};
}

Result<std::vector<std::uint8_t>> InbandAccess::vendor_access(std::uint8_t method, std::uint16_t attr,
                                                              std::uint32_t attr_mod,
                                                              std::span<const std::uint8_t> data) {
  if (uses_smp())
    return make_error(ErrorCode::NotSupported, "vendor mad " + hex_string(attr) + ": needs a lid (lid-N or iblid-N), not a directed route");
  if (data.size() > max_vendor_data())
    return make_error(ErrorCode::InvalidArgument, "vendor mad " + hex_string(attr) + ": " + std::to_string(data.size()) +
                                                      " bytes exceed the " + std::to_string(max_vendor_data()) +
                                                      " the data area carries");
  Request req{mad::kClassVendorA, method, attr, attr_mod};
  Mad m = make_request(req);
  std::memcpy(m.data() + mad::kOffVendorData + mad::kCrKeySize, data.data(), data.size());
  OF_ASSIGN(const Mad answer, transact(req, m));
  return reply_payload(answer, mad::kOffVendorData + mad::kCrKeySize, max_vendor_data());
}

Result<std::vector<std::uint8_t>> InbandAccess::access_register(std::span<const std::uint8_t> payload,
                                                                std::uint8_t method) {
  if (payload.size() > mad::kSmpDataSize)
    return make_error(ErrorCode::InvalidArgument, "access register: payload of " + std::to_string(payload.size()) +
                                                      " bytes exceeds the 64-byte smp data area");
  const bool dr = device_.route == InbandDeviceName::Route::SmpDirected;
  Request req{dr ? mad::kClassSmpDirected : mad::kClassSmpLid, method, mad::kAttrRegAccessSmp, 0};
  Mad m = make_request(req);
  std::memset(m.data() + mad::kOffSmpData, 0, mad::kSmpDataSize);
  std::memcpy(m.data() + mad::kOffSmpData, payload.data(), payload.size());
  OF_ASSIGN(const Mad answer, transact(req, m));
  return reply_payload(answer, mad::kOffSmpData, mad::kSmpDataSize);
}

std::size_t InbandAccess::max_register_bytes() const {
  const std::size_t payload = uses_smp() ? mad::kSmpDataSize : options_.usable_mad_bytes - mad::kOffVendorData;
  return payload - AccessRegisterTlv::kHeaderBytes;
}

Result<AccessRegisterTlv> InbandAccess::access_register(const AccessRegisterTlv& request) {
  OF_ASSIGN(auto decoded, exchange_register(request));
  if (decoded.status != 0)
    return make_error(ErrorCode::Io, device_.to_string() + ": access register " + hex_string(request.register_id) +
                                         " answered with register status " + hex_string(decoded.status));
  return decoded;
}

Result<AccessRegisterTlv> InbandAccess::exchange_register(const AccessRegisterTlv& request) {
  const std::uint8_t method = request.method == AccessRegisterTlv::kMethodQuery ? mad::kMethodGet : mad::kMethodSet;
  std::vector<std::uint8_t> answer;
  if (uses_smp()) {
    AccessRegisterTlv smp = request;
    smp.data.resize(std::min(smp.data.size(), mad::kSmpDataSize - AccessRegisterTlv::kHeaderBytes));
    OF_ASSIGN(const auto payload, smp.encode(mad::kSmpDataSize));
    OF_ASSIGN(answer, access_register(payload, method));
  } else {
    const std::size_t capacity = options_.usable_mad_bytes - mad::kOffVendorData;
    OF_ASSIGN(const auto payload, request.encode(capacity));
    Request req{mad::kClassVendorA, method, mad::kAttrRegAccessGmp, 0};
    Mad m = make_request(req);
    std::memset(m.data() + mad::kOffVendorData, 0, mad::kVendorDataSize);
    std::memcpy(m.data() + mad::kOffVendorData, payload.data(), payload.size());
    OF_ASSIGN(const Mad reply, transact(req, m));
    OF_ASSIGN(answer, reply_payload(reply, mad::kOffVendorData, capacity));
  }
  OF_ASSIGN_CTX(AccessRegisterTlv decoded, AccessRegisterTlv::decode(answer), device_.to_string());
  return decoded;
}

}  // namespace openflint
