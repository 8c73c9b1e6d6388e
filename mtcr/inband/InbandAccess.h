// InbandAccess: CR-space and register access to a remote device over InfiniBand vendor MADs.
#pragma once

#include <array>
#include <memory>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/inband/InbandDeviceName.h"
#include "mtcr/inband/MadChannel.h"
#include "mtcr/inband/MadFormat.h"
#include "mtcr/RegisterAccess.h"
#include "mtcr/inband/UmadPort.h"

namespace openflint {

// A RegisterAccess: block transfers split into MADs of max_block_dwords() dwords.
class InbandAccess final : public RegisterAccess {
 public:
  struct Options {
    int timeout_ms = 1000;   // per attempt (a loaded host running ibsim, responders and 8
                             // parallel burns sees round trips of several hundred ms)
    int retries = 2;         // extra attempts after the first: a bounce is retried, a timeout
                             // only for reads (a timed-out write may have been executed)
    std::uint64_t key = 0;   // VS_Key (GMP) / M_Key (SMP)
    // Bytes of each MAD the transport delivers intact. 0 = auto: 256, except under the ibsim
    // umad2sim preload, which hands receivers only the first 224 bytes of a MAD (its receive
    // buffer is sized for its own packet struct), so vendor GMPs then carry 48 dwords, not 56.
    std::size_t usable_mad_bytes = 0;
  };

  [[nodiscard]] static Result<InbandAccess> open(std::string_view device, Options options);
  [[nodiscard]] static Result<InbandAccess> open(std::string_view device) { return open(device, Options{}); }
  [[nodiscard]] static Result<InbandAccess> open(InbandDeviceName device, Options options);
  // Shares `channel` (one umad port) with other InbandAccess objects, e.g. one per thread.
  [[nodiscard]] static Result<InbandAccess> open(std::string_view device, Options options,
                                                 std::shared_ptr<MadChannel> channel);

  InbandAccess(InbandAccess&&) noexcept = default;
  InbandAccess& operator=(InbandAccess&&) noexcept = default;
  ~InbandAccess() override = default;

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override;
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override;
  // Reads out.size() dwords from `address` (dword aligned), splitting into MAD-sized chunks.
  [[nodiscard]] Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) override;
  [[nodiscard]] Result<std::vector<std::uint32_t>> read_block(std::uint32_t address, std::size_t dwords);
  [[nodiscard]] Result<void> write_block(std::uint32_t address, std::span<const std::uint32_t> values) override;
  // Mode-2 records (address, value, full mask) in one SET MAD each max_mode2_records() writes;
  // the device applies the records in order.
  [[nodiscard]] Result<void> write_sequence(std::span<const RegisterWrite> writes) override;
  // Dwords one MAD carries (mode 0): 56 on the vendor GMP path (48 under umad2sim, whose
  // receivers get only 224 bytes of each MAD), 14 on SMP.
  [[nodiscard]] std::size_t max_block_dwords() const override;
  [[nodiscard]] bool costly_access() const override { return true; }

  // Switch software reset: vendor attribute 0x12 with AttrMod = seconds (vendor GMP, needs a LID).
  [[nodiscard]] Result<void> sw_reset(std::uint8_t seconds = 15);
  // One vendor GMP transaction (class 0x0A, to QP1; needs a LID route): `data` follows the
  // VS_Key in the request, and the answer's data area after its key comes back
  // (max_vendor_data() bytes). A non-zero MAD status is an error (mtcr/inband/MadReply.h).
  [[nodiscard]] Result<std::vector<std::uint8_t>> vendor_access(std::uint8_t method, std::uint16_t attr,
                                                                std::uint32_t attr_mod,
                                                                std::span<const std::uint8_t> data);
  // Bytes after the VS_Key the transport delivers intact: 224 (192 under umad2sim).
  [[nodiscard]] std::size_t max_vendor_data() const {
    return options_.usable_mad_bytes - mad::kOffVendorData - mad::kCrKeySize;
  }
  // Raw register access: sends `payload` (at most 64 bytes) in an SMP attribute 0xff52 and
  // returns the 64-byte payload of the answer. Interpreting it (operation TLV, register) is
  // the caller's business.
  [[nodiscard]] Result<std::vector<std::uint8_t>> access_register(std::span<const std::uint8_t> payload,
                                                                  std::uint8_t method = mad::kMethodSet);
  // One access register (operation TLV + register TLV, mtcr/registers/AccessRegisterTlv.h): over the
  // vendor GMP (class 0x0A attribute 0x51, up to 200 register bytes under umad2sim) when the
  // route is a LID, else over SMP 0xff52 (44 register bytes; a longer answer is truncated).
  // A non-zero register status in the answer is an error (Io naming it).
  [[nodiscard]] Result<AccessRegisterTlv> access_register(const AccessRegisterTlv& request);
  // The same access with the answer's register status left in the TLV (not an error).
  [[nodiscard]] Result<AccessRegisterTlv> exchange_register(const AccessRegisterTlv& request);
  // The largest register one access_register carries: 44 bytes on SMP, the vendor MAD's data
  // less the TLV headers on the GMP route (212 bytes; 180 under umad2sim).
  [[nodiscard]] std::size_t max_register_bytes() const;

  // MADs put on the wire so far (every attempt counts).
  [[nodiscard]] std::uint64_t mads_sent() const { return mads_sent_; }
  [[nodiscard]] const InbandDeviceName& device() const { return device_; }

 private:
  using Mad = std::array<std::uint8_t, mad::kMadSize>;
  struct Request {
    std::uint8_t mgmt_class;
    std::uint8_t method;
    std::uint16_t attr;
    std::uint32_t attr_mod;
  };
  InbandAccess(std::shared_ptr<MadChannel> channel, InbandDeviceName device, Options options);
  [[nodiscard]] static Result<Options> checked(Options options);

  [[nodiscard]] bool uses_smp() const { return device_.route != InbandDeviceName::Route::VendorGmp; }
  [[nodiscard]] std::size_t payload_offset(std::uint8_t mgmt_class) const;
  [[nodiscard]] Mad make_request(const Request& req);
  // Sends, waits for the matching answer (retrying), and checks its MAD status.
  [[nodiscard]] Result<Mad> transact(const Request& req, Mad& mad);
  [[nodiscard]] Result<void> cr_access(std::uint8_t method, std::uint32_t address, std::span<std::uint32_t> data);
  [[nodiscard]] Result<void> cr_chunk(std::uint8_t method, std::uint32_t address, std::span<std::uint32_t> data,
                                      bool mode2);
  [[nodiscard]] std::string describe(const Request& req) const;
  [[nodiscard]] std::size_t max_mode2_records() const;

  std::shared_ptr<MadChannel> channel_;
  InbandDeviceName device_;
  Options options_;
  std::uint64_t mads_sent_ = 0;
};

}  // namespace openflint
