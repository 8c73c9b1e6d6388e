// SimTransport: a simulated device persisted in a directory (sim:PATH), reached in memory.
#include <algorithm>
#include <system_error>

#include "core/HexString.h"
#include "devices/DeviceCatalog.h"
#include "fwops/registers/AdapterReset.h"
#include "fwops/Device.h"
#include "fwops/transports/Transports.h"
#include "sim/BoardVpd.h"
#include "sim/FirmwareCommands.h"
#include "sim/SimDevice.h"
#include "sim/SimRegisterPort.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSimPrefix = "sim:";
// The simulated firmware's mailbox, sized like the VSEC's ICMD mailbox (sim/PciConfigSpace).
constexpr std::size_t kSimIcmdMailboxBytes = 0x340;

class SimTransport final : public DeviceTransport {
 public:
  SimTransport(std::unique_ptr<sim::SimDevice> sim, fs::path dir) : sim_(std::move(sim)), dir_(std::move(dir)) {}

  [[nodiscard]] RegisterAccess& access() override { return *sim_; }
  [[nodiscard]] Result<std::unique_ptr<RegisterPort>> open_register_port(Device& /*device*/) override {
    return std::unique_ptr<RegisterPort>(std::make_unique<sim::SimRegisterPort>(*sim_));
  }
  [[nodiscard]] std::optional<RunningFirmware> running_firmware(Device& /*device*/) override {
    const sim::BootState& boot = sim_->boot_state();
    RunningFirmware running;
    running.recovery = boot.recovery;
    if (!boot.recovery) running.booted_copy = boot.booted_address;
    running.image = boot.running;
    return running;
  }
  [[nodiscard]] bool running_firmware_is_live() const override { return true; }
  [[nodiscard]] bool shows_no_firmware(Device& /*device*/) override {
    return sim_->boot_state().recovery || !sim_->boot_state().running;
  }

  [[nodiscard]] Result<void> reset(Device& device) override {
    if (!sim_->powered()) return make_error(ErrorCode::Io, device.name() + " is powered off: run 'hcasim power-on'");
    (void)sim_->reset();
    return {};
  }
  void plan_reset(Device& device, const ResetOptions& /*options*/, ResetPlan& plan) override {
    plan.method = "power-on reset of the simulated device: its boot ROM runs what the flash holds";
    if (!sim_->powered()) plan.blockers.push_back({ErrorCode::Io, device.name() + " is powered off: run 'hcasim power-on'"});
  }
  [[nodiscard]] Result<void> power_on(Device& /*device*/) override {
    sim_->power_cycle();  // runs the boot ROM
    return {};
  }
  [[nodiscard]] Result<std::vector<std::uint8_t>> vpd(Device& device) override {
    auto bytes = sim::board_vpd(*sim_);
    if (bytes.empty()) return make_error(ErrorCode::NotSupported, device.name() + " has no VPD (a switch)");
    return bytes;
  }
  [[nodiscard]] Result<void> commit(Device& device) override {
    if (auto saved = sim_->save_state(dir_); !saved)
      return make_error(std::move(saved).error().with_context("saving " + device.name()));
    return {};
  }
  // The simulated firmware runs the command as the VSEC's mailbox would hand it over.
  [[nodiscard]] Result<std::vector<std::uint8_t>> firmware_command(Device& device, std::uint16_t opcode,
                                                                   std::span<const std::uint8_t> in,
                                                                   std::size_t out_bytes) override {
    if (in.size() > kSimIcmdMailboxBytes || out_bytes > kSimIcmdMailboxBytes || in.size() % 4 != 0)
      return make_error(ErrorCode::InvalidArgument, device.name() + ": an ICMD command of " + std::to_string(in.size()) +
                                                        " bytes in, " + std::to_string(out_bytes) +
                                                        " out does not fit the 0x340-byte mailbox");
    std::vector<std::uint8_t> mailbox(kSimIcmdMailboxBytes, 0);
    std::copy(in.begin(), in.end(), mailbox.begin());
    const std::uint8_t status = sim::run_firmware_command(*sim_, opcode, mailbox);
    const std::string what = device.name() + ": ICMD opcode " + hex_string(opcode);
    switch (status) {
      case sim::kIcmdStatusOk: break;
      case sim::kIcmdStatusBadOpcode: return make_error(ErrorCode::NotSupported, what + ": the firmware does not know it");
      case sim::kIcmdStatusBadCommand: return make_error(ErrorCode::InvalidArgument, what + ": the firmware refused it as malformed");
      case sim::kIcmdStatusOperational:
        return make_error(ErrorCode::Io, what + ": no firmware answers (powered off, not running or hung)");
      default: return make_error(ErrorCode::Io, what + ": status " + hex_string(status));
    }
    mailbox.resize(out_bytes);
    return mailbox;
  }
  [[nodiscard]] sim::SimDevice* simulator() override { return sim_.get(); }

 private:
  std::unique_ptr<sim::SimDevice> sim_;
  fs::path dir_;
};

Result<fs::path> sim_dir_of(std::string_view name) {
  const std::string_view path = name.substr(kSimPrefix.size());
  if (path.empty()) return make_error(ErrorCode::InvalidArgument, "device name 'sim:' lacks a PATH");
  return fs::path(path);
}

Result<void> check_sim_exists(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return make_error(ErrorCode::NotFound, "no simulated device at " + dir.string() +
                                               ": not a directory (create one with 'hcasim create --model MODEL " +
                                               dir.string() + "')");
  }
  if (!fs::exists(dir / "state.json", ec)) {
    return make_error(ErrorCode::NotFound, "no simulated device at " + dir.string() +
                                               ": state.json missing (create one with 'hcasim create')");
  }
  return {};
}

}  // namespace

bool transports::sim_matches(std::string_view name, const DeviceOpenOptions& /*options*/) {
  return name.starts_with(kSimPrefix);
}

Result<Device> transports::open_sim(std::string_view name, const DeviceOpenOptions& options) {
  SignalDeferral opening;  // from the start of the opening (fwops/Device.h)
  OF_ASSIGN(fs::path dir, sim_dir_of(name));
  OF_TRY(check_sim_exists(dir));
  std::string device_name(name);
  OF_ASSIGN(DeviceLockFile lock, DeviceLockFile::acquire(dir / "lock", options.lock_timeout, device_name));
  OF_ASSIGN(std::unique_ptr<sim::SimDevice> sim, sim::SimDevice::load_state(dir));
  const DeviceInfo& info = sim->info();
  return Device::over(std::move(opening), std::move(device_name), std::make_unique<SimTransport>(std::move(sim), dir), info,
                      std::move(lock));
}

Result<Device> create_sim_device(const fs::path& dir, std::string_view model, std::string_view chip_name,
                                 const DeviceOpenOptions& options) {
  std::error_code ec;
  if (fs::exists(dir / "state.json", ec)) {
    return make_error(ErrorCode::InvalidArgument, dir.string() + " already holds a simulated device");
  }
  fs::create_directories(dir, ec);
  if (ec) return make_error(ErrorCode::Io, "cannot create " + dir.string() + ": " + ec.message());
  OF_ASSIGN(const DeviceInfo* info, find_device_by_sim_model(model));
  const FlashChip* chip = nullptr;
  if (!chip_name.empty()) {
    OF_ASSIGN(chip, find_flash_chip_by_name(chip_name));
  }
  SignalDeferral opening;
  std::string device_name = std::string(kSimPrefix) + dir.string();
  OF_ASSIGN(DeviceLockFile lock, DeviceLockFile::acquire(dir / "lock", options.lock_timeout, device_name));
  // Asked again under the lock, which a creator holds until its state.json is saved: of two
  // creates racing on one path, the later one finds the earlier one's device and fails.
  if (fs::exists(dir / "state.json", ec)) {
    return make_error(ErrorCode::InvalidArgument, dir.string() + " already holds a simulated device");
  }
  OF_ASSIGN(std::unique_ptr<sim::SimDevice> sim, sim::SimDevice::create(*info, chip));
  return Device::over(std::move(opening), std::move(device_name), std::make_unique<SimTransport>(std::move(sim), dir), *info,
                      std::move(lock));
}

}  // namespace openflint
