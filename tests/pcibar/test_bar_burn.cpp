// A failsafe burn through a served BAR: image, boot-address register and lock all reach the model.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "flash/FlashDriver.h"
#include "fwops/burn/FailsafeBurner.h"
#include "image/FirmwareImage.h"
#include "tests/pcibar/ServedDevice.h"

namespace openflint {
namespace {

std::vector<std::uint8_t> sample(const std::string& name) {
  const auto path = test::sample_image(name);
  return std::filesystem::exists(path) ? test::read_file(path) : std::vector<std::uint8_t>{};
}

class BarBurn : public ::testing::TestWithParam<const char*> {};

// What `flint -d <BAR device> -i new.bin burn` does once the opener maps the BAR.
TEST_P(BarBurn, FailsafeBurnBootsTheNewImage) {
  const std::string model = GetParam();
  const auto old_image = sample(model + "-old");
  const auto new_image = sample(model + "-new");
  ASSERT_FALSE(old_image.empty() || new_image.empty()) << "firmware samples are built with the project";
  auto dev = test::make(model);
  {
    auto local = FlashDriver::open(*dev, dev->info().flash_gateway);
    ASSERT_TRUE(local.has_value()) << local.error().message();
    ASSERT_TRUE(local->write_sectors_that_differ(0, old_image).has_value());
  }
  dev->reset();
  test::ServedDevice served(std::move(dev));
  PciBarAccess bar = served.open_bar();
  const auto start = std::chrono::steady_clock::now();
  auto report = burn_image(bar, served.dev->info(), new_image, BurnOptions{});
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(report.has_value()) << report.error().message();
  served.server->stop();
  std::cout << "[ bar      ] " << model << ": burn of " << new_image.size() << " bytes, "
            << served.server->commands_served() << " gateway commands, " << ms << " ms\n";
  EXPECT_FALSE(served.dev->gateway().locked());
  const auto& boot = served.dev->reset();
  ASSERT_FALSE(boot.recovery);
  ASSERT_TRUE(boot.running.has_value());
  EXPECT_EQ(boot.running->fw_version, query_image(new_image)->fw_version);
}

// ConnectX-3: FS2 with the 0xf03fc semaphore; ConnectX-4: FS3/FS4 with the CMD bit-31 lock.
INSTANTIATE_TEST_SUITE_P(Samples, BarBurn, ::testing::Values("connectx3", "connectx4"));

}  // namespace
}  // namespace openflint
