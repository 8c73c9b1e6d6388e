// InbandRegisterAccess: the RegisterAccess interface over an in-band (MAD) connection.
#pragma once

#include <memory>

#include "mtcr/InbandAccess.h"
#include "mtcr/InbandI2cAccess.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

class InbandRegisterAccess final : public RegisterAccess {
 public:
  explicit InbandRegisterAccess(InbandAccess access) : access_(std::move(access)) {}

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override { return access_.read32(address); }
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override {
    return access_.write32(address, value);
  }
  [[nodiscard]] Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) override {
    return access_.read_block(address, out);
  }
  [[nodiscard]] Result<void> write_block(std::uint32_t address, std::span<const std::uint32_t> values) override {
    return access_.write_block(address, values);
  }
  [[nodiscard]] Result<void> write_sequence(std::span<const RegisterWrite> writes) override {
    return access_.write_sequence(writes);
  }
  [[nodiscard]] std::size_t max_block_dwords() const override { return access_.max_block_dwords(); }
  [[nodiscard]] bool costly_access() const override { return access_.costly_access(); }

  [[nodiscard]] InbandAccess& inband() { return access_; }
  [[nodiscard]] const InbandAccess& inband() const { return access_; }
  // The device's I2C port #1 through ExtPortAccess MADs, made on first use. Whether the device
  // has a bus shows on the first transaction (a device without one answers "unsupported").
  [[nodiscard]] I2cAccess* i2c() override {
    if (!i2c_) i2c_ = std::make_unique<InbandI2cAccess>(access_);
    return i2c_.get();
  }

 private:
  InbandAccess access_;
  std::unique_ptr<InbandI2cAccess> i2c_;  // declared after access_, which it uses
};

}  // namespace openflint
