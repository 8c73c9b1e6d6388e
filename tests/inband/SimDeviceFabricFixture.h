// SimDeviceFabricFixture: a saved SimDevice (flash holding an image) served on its own ibsim fabric.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <memory>
#include <string>
#include <vector>

#include "devices/DeviceCatalog.h"
#include "flash/FlashDriver.h"
#include "fabricsim/SimFabric.h"
#include "tests/support/IbsimFabric.h"
#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

class SimDeviceFabricFixture : public IbsimFabricTest {
 protected:
  SimDeviceFabricFixture() : IbsimFabricTest({"ibsim", "opensm", "ibaddr"}) {}

  // Creates the `model` device, writes `image` at flash offset 0 through its gateway, saves it
  // under the test dir, starts a fabric whose HCAs carry the model's PCI id and serves the
  // device on Hca2.
  void serve(const std::string& model, const std::vector<std::uint8_t>& image) {
    auto device = sim::SimDevice::create(model);
    ASSERT_TRUE(device) << device.error().message();
    {
      auto driver = FlashDriver::open(**device, (*device)->info().flash_gateway);
      ASSERT_TRUE(driver) << driver.error().message();
      auto written = driver->write_sectors_that_differ(0, image);
      ASSERT_TRUE(written) << written.error().message();
    }
    state_dir_ = dir_.path() / "device";
    saved_counters_ = (*device)->counters();
    auto saved = (*device)->save_state(state_dir_);
    ASSERT_TRUE(saved) << saved.error().message();
    SimFabric::Options options;
    options.hca_device_id = (*device)->info().pci_device_id;
    ASSERT_NO_FATAL_FAILURE(start_fabric(options));
    std::vector<std::string> argv{bin("ibsim-responder").string(), "--sim", state_dir_.string()};
    argv.insert(argv.end(), responder_args_.begin(), responder_args_.end());
    auto pid = fabric_->start_responder("Hca2", argv);
    ASSERT_TRUE(pid) << pid.error().message();
    auto lid = fabric_->lid_of("Hca2");
    ASSERT_TRUE(lid) << lid.error().message();
    lid_ = *lid;
  }

  // Stops the fabric (the responder saves the device) and loads the saved device back.
  std::unique_ptr<sim::SimDevice> stop_and_reload() {
    stop_fabric();
    auto device = sim::SimDevice::load_state(state_dir_);
    EXPECT_TRUE(device) << device.error().message();
    return device ? std::move(*device) : nullptr;
  }

  CapturedRun run(std::vector<std::string> argv, int timeout_ms = 120000) {
    return run_on("Hca1", argv, timeout_ms);
  }

  std::string lid_name() const { return "lid-" + std::to_string(lid_); }

  TempDir dir_;
  std::filesystem::path state_dir_;
  sim::SimCounters saved_counters_;  // of the device as saved by serve()
  std::vector<std::string> responder_args_;  // extra ibsim-responder arguments for serve() (e.g. --trace)
  std::uint16_t lid_ = 0;
};

}  // namespace openflint::test
