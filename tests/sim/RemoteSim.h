// RemoteSim: a SimDevice seen through a RegisterAccess that counts round trips and may call
// itself costly_access() (as in-band access does), to test the transport-aware flash policies.
#pragma once

#include "mtcr/RegisterAccess.h"
#include "sim/SimDevice.h"

namespace openflint::test {

class RemoteSim final : public RegisterAccess {
 public:
  RemoteSim(sim::SimDevice& device, bool remote) : device_(&device), remote_(remote) {}

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override {
    ++round_trips;
    return device_->read32(address);
  }
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override {
    ++round_trips;
    return device_->write32(address, value);
  }
  [[nodiscard]] Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) override {
    round_trips += (out.size() + kDwordsPerTrip - 1) / kDwordsPerTrip;
    return device_->read_block(address, out);
  }
  [[nodiscard]] Result<void> write_block(std::uint32_t address, std::span<const std::uint32_t> values) override {
    round_trips += (values.size() + kDwordsPerTrip - 1) / kDwordsPerTrip;
    return device_->write_block(address, values);
  }
  [[nodiscard]] Result<void> write_sequence(std::span<const RegisterWrite> writes) override {
    ++round_trips;  // one MAD of address/data records
    return device_->write_sequence(writes);
  }
  [[nodiscard]] std::size_t max_block_dwords() const override { return kDwordsPerTrip; }
  [[nodiscard]] bool costly_access() const override { return remote_; }

  std::uint64_t round_trips = 0;

 private:
  static constexpr std::size_t kDwordsPerTrip = 48;  // a MAD under the ibsim preload
  sim::SimDevice* device_;
  bool remote_;
};

}  // namespace openflint::test
