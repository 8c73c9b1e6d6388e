// SimDevice: a simulated adapter/switch (CR-space + SPI flash + gateway) behind RegisterAccess.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>

#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "devices/FlashChip.h"
#include "mtcr/RegisterAccess.h"
#include "sim/CrSpace.h"
#include "sim/FlashGateway.h"
#include "sim/SimFaults.h"
#include "sim/SpiNorFlash.h"

namespace openflint::sim {

struct SimCounters {
  std::uint64_t register_reads = 0;
  std::uint64_t register_writes = 0;
  std::uint64_t gateway_commands = 0;
  SpiNorCounters flash;
};

// Built from a catalog record: CR-space with the hw id at 0xf0014, a SpiNorFlash made from the
// record's default chip (or a given one) and the record's gateway generation. Only SPI gateway
// generations (ConnectX, Gen5, Gen6) are simulated; others give ErrorCode::NotSupported.
// Powered-off behaviour: every access returns ErrorCode::Io ("device is powered off"), which is
// what a transport reports when a device drops off the bus; contents survive for the next power-on.
class SimDevice final : public RegisterAccess {
 public:
  [[nodiscard]] static Result<std::unique_ptr<SimDevice>> create(const DeviceInfo& info,
                                                                 const FlashChip* chip = nullptr);
  [[nodiscard]] static Result<std::unique_ptr<SimDevice>> create(std::string_view sim_model);

  SimDevice(const SimDevice&) = delete;
  SimDevice& operator=(const SimDevice&) = delete;
  ~SimDevice() override = default;

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override;
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override;
  [[nodiscard]] std::size_t max_block_dwords() const override { return 64; }

  [[nodiscard]] const DeviceInfo& info() const { return *info_; }
  [[nodiscard]] SpiNorFlash& flash() { return flash_; }
  [[nodiscard]] const SpiNorFlash& flash() const { return flash_; }
  [[nodiscard]] CrSpace& cr_space() { return cr_; }
  [[nodiscard]] FlashGateway& gateway() { return gateway_; }

  void set_faults(const SimFaults& faults);
  [[nodiscard]] SimFaults faults() const;
  [[nodiscard]] bool powered() const { return powered_; }
  // Power comes back: latches, locks and any half-done SPI command are gone; the array stays.
  void power_cycle();
  [[nodiscard]] SimCounters counters() const;

  // PATH/state.json (model, chip, power, faults, counters, lock) + PATH/flash.bin (the array).
  [[nodiscard]] Result<void> save_state(const std::filesystem::path& dir) const;
  [[nodiscard]] static Result<std::unique_ptr<SimDevice>> load_state(const std::filesystem::path& dir);

 private:
  SimDevice(const DeviceInfo& info, const FlashChip& chip);
  [[nodiscard]] Result<void> check_powered() const;
  void account_flash_ops(std::uint64_t ops_before);
  [[nodiscard]] std::uint64_t flash_ops() const;

  const DeviceInfo* info_;
  CrSpace cr_;
  SpiNorFlash flash_;
  FlashGateway gateway_;
  bool powered_ = true;
  std::uint64_t ops_until_power_cut_ = 0;  // 0 = not armed
  std::uint64_t register_reads_ = 0;
  std::uint64_t register_writes_ = 0;
};

}  // namespace openflint::sim
