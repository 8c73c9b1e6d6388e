// ServedDevice: a simulated device served as BAR0 of devices/0000:03:00.0 in a temp tree.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "flash/FlashTimeouts.h"
#include "mtcr/pci/PciBarAccess.h"
#include "sim/BarServer.h"
#include "sim/SimDevice.h"
#include "tests/pcibar/BarTree.h"

namespace openflint::test {

// The driver's default BUSY wait (5000 polls and at least 100 ms): the BAR reads in
// nanoseconds, so the time floor is what lets a descheduled server thread catch up.
inline FlashTimeouts bar_timeouts() {
  FlashTimeouts t;
  t.lock = std::chrono::milliseconds(50);
  t.write_in_progress = std::chrono::milliseconds(2000);
  return t;
}

inline std::unique_ptr<sim::SimDevice> make(const std::string& model) {
  auto dev = sim::SimDevice::create(model);
  EXPECT_TRUE(dev.has_value()) << dev.error().message();
  return std::move(dev).value();
}

// One simulated device served as BAR0 of devices/0000:03:00.0 in a temp tree.
struct ServedDevice {
  explicit ServedDevice(const std::string& model, sim::BarServerOptions options = {})
      : ServedDevice(make(model), std::move(options)) {}
  // A device prepared before it is served (e.g. a lock left held).
  explicit ServedDevice(std::unique_ptr<sim::SimDevice> device, sim::BarServerOptions options = {}) : dev(std::move(device)) {
    auto started = sim::BarServer::start(*dev, std::move(options));
    EXPECT_TRUE(started.has_value()) << started.error().message();
    server = std::move(started).value();
    tree.write_resource(server->bar_size());
    tree.link_resource0(server->path());
  }
  PciBarAccess open_bar() const {
    auto bar = PciBarAccess::open(tree.device_dir());
    EXPECT_TRUE(bar.has_value()) << bar.error().message();
    return std::move(bar).value();
  }

  BarTree tree;
  std::unique_ptr<sim::SimDevice> dev;
  std::unique_ptr<sim::BarServer> server;
};

}  // namespace openflint::test
