// InbandTransport: a node of the InfiniBand fabric reached by vendor MADs (lid-N[,ca[,port]], iblid-N, ibdr-a.b.c).
#include "fwops/registers/AdapterReset.h"
#include "fwops/Device.h"
#include "fwops/registers/MgirQuery.h"
#include "fwops/transports/Transports.h"
#include "mtcr/inband/InbandAccess.h"
#include "mtcr/inband/InbandDeviceName.h"
#include "mtcr/inband/InbandI2cAccess.h"
#include "mtcr/inband/InbandRegisterPort.h"

namespace openflint {
namespace {

class InbandTransport final : public DeviceTransport {
 public:
  explicit InbandTransport(InbandAccess inband) : access_(std::move(inband)) {}

  // CR-space through vendor MADs.
  [[nodiscard]] RegisterAccess& access() override { return access_; }
  // The device's I2C port #1 through ExtPortAccess MADs, made on first use. Whether the device
  // has a bus shows on the first transaction (a device without one answers "unsupported").
  [[nodiscard]] I2cAccess* i2c() override {
    if (!i2c_) i2c_ = std::make_unique<InbandI2cAccess>(access_);
    return i2c_.get();
  }
  [[nodiscard]] Result<std::unique_ptr<RegisterPort>> open_register_port(Device& /*device*/) override {
    return std::unique_ptr<RegisterPort>(std::make_unique<InbandRegisterPort>(access_));
  }
  // MGIR through vendor MADs.
  [[nodiscard]] std::optional<RunningFirmware> running_firmware(Device& device) override {
    InbandRegisterPort port(access_);
    return query_running(port, device.info());
  }

  // Switches: a software reset; adapters need a PCI-level reset on their host.
  [[nodiscard]] Result<void> reset(Device& device) override {
    if (device.info().kind == DeviceKind::Switch) {
      OF_TRY(access_.sw_reset());
      device.invalidate_running_firmware();
      return {};
    }
    return make_error(ErrorCode::NotSupported,
                      "resetting " + std::string(device.info().name) + " at " + device.name() +
                          ": in-band reset exists for switches only (adapters need a PCI-level reset)");
  }
  void plan_reset(Device& device, const ResetOptions& /*options*/, ResetPlan& plan) override {
    if (device.info().kind == DeviceKind::Switch) {
      plan.method = "in-band software reset of the switch (vendor MAD); the running firmware is read again after it";
      return;
    }
    plan.method = "none in-band";
    plan.blockers.push_back({ErrorCode::NotSupported, "in-band reset exists for switches only: reset this " +
                                                          plan.device_type + " over PCI on its host (mst reset BDF)"});
  }
  [[nodiscard]] std::uint64_t mads_sent() const override { return access_.mads_sent(); }
  [[nodiscard]] std::string_view reached_over() const override { return "in-band MADs (they carry access registers only)"; }

 private:
  InbandAccess access_;
  std::unique_ptr<InbandI2cAccess> i2c_;  // declared after access_, which it uses
};

}  // namespace

bool transports::inband_matches(std::string_view name, const DeviceOpenOptions& /*options*/) {
  return is_inband_device_name(name);
}

Result<Device> transports::open_inband(std::string_view name, const DeviceOpenOptions& options) {
  SignalDeferral opening;  // from the start of the opening (fwops/Device.h)
  auto opened = options.channel ? InbandAccess::open(name, InbandAccess::Options{}, options.channel)
                                : InbandAccess::open(name);
  if (!opened) return make_error(std::move(opened).error());
  auto transport = std::make_unique<InbandTransport>(std::move(*opened));
  std::string device_name(name);
  OF_ASSIGN(const DeviceInfo* info, identify_device(transport->access(), device_name));
  // The running firmware (MGIR) is read on first use.
  return Device::over(std::move(opening), std::move(device_name), std::move(transport), *info);
}

}  // namespace openflint
