// InbandI2cAccess: the I2C bus behind an in-band device, over vendor ExtPortAccess MADs (I2C port #1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/Result.h"
#include "mtcr/I2cAccess.h"
#include "mtcr/inband/InbandAccess.h"

namespace openflint {

// Each read or write is one ExtPortAccess MAD (class 0x0A, attribute 0x13, AttrMod 2; layout in
// mtcr/inband/MadFormat.h, facts in legacy-devices.md §2.2): Get reads, Set writes. A device that does
// not acknowledge comes back as openflint's MAD status kStatusI2cNack, i.e. ErrorCode::Busy; a
// timed-out write is not re-sent (InbandAccess), so an EEPROM never sees one write twice.
class InbandI2cAccess final : public I2cAccess {
 public:
  // 64 bytes per transaction: the page of the 24C-series EEPROMs InfiniScale switches carry, and
  // the chunk the reference tools move (the MAD itself would carry up to 180 under umad2sim).
  static constexpr std::size_t kMaxTransfer = 64;

  // One vendor MAD: method, AttrMod and the data after the VS_Key; returns the answer's data
  // after its key, or the error its MAD status maps to.
  using Exchange = std::function<Result<std::vector<std::uint8_t>>(std::uint8_t method, std::uint32_t attr_mod,
                                                                   std::span<const std::uint8_t> data)>;

  // Over `inband`, which must outlive this object (a Device owns both).
  explicit InbandI2cAccess(InbandAccess& inband);
  // Over any carrier of the MADs (tests put the responder's request handler here).
  explicit InbandI2cAccess(Exchange exchange) : exchange_(std::move(exchange)) {}

  [[nodiscard]] Result<void> read(std::uint8_t device, std::uint32_t offset, std::span<std::uint8_t> out) override;
  [[nodiscard]] Result<void> write(std::uint8_t device, std::uint32_t offset,
                                   std::span<const std::uint8_t> bytes) override;
  [[nodiscard]] std::size_t max_transfer() const override { return kMaxTransfer; }
  [[nodiscard]] bool costly_access() const override { return true; }

 private:
  [[nodiscard]] Result<std::vector<std::uint8_t>> transaction(std::uint8_t method, std::uint8_t device,
                                                              std::uint32_t offset, std::size_t size,
                                                              std::span<const std::uint8_t> data);

  Exchange exchange_;
};

}  // namespace openflint
