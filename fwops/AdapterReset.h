// AdapterReset: the safe reset of an opened device — what will happen, why it may not, and the reset.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fwops/Device.h"
#include "fwops/RunningFirmware.h"
#include "mtcr/PciAddress.h"

namespace openflint {

struct ResetOptions {
  // PCI: unbind the drivers bound to the device's functions before the reset and bind them again
  // after it. Without it a bound driver blocks the reset (the driver would lose its device).
  bool unbind_drivers = false;
  // PCI: how long each function may take to answer config reads again after the reset.
  std::chrono::milliseconds comeback_timeout{5000};
};

// One PCI function of the device (same domain, bus and device number as the opened one).
struct ResetFunction {
  PciAddress address;
  std::string driver;  // bound kernel driver ("" none)
};

// A reason the reset will not run as asked; `code` is what run_reset refuses with.
struct ResetBlocker {
  ErrorCode code = ErrorCode::NotSupported;
  std::string why;
};

struct ResetPlan {
  std::string device;       // the name it was opened by
  std::string device_type;  // the catalog's name, e.g. ConnectX-4
  std::string method;       // how it will be reset, in words
  std::vector<ResetFunction> functions;  // PCI only
  std::optional<RunningFirmware> running_before;
  std::vector<ResetBlocker> blockers;  // empty: it can run
};

struct ResetReport {
  ResetPlan plan;
  std::optional<RunningFirmware> running_after;
  std::vector<std::string> restored;  // PCI: config registers written back after the reset
  std::chrono::milliseconds took{};
};

// What a reset of `device` would do, read-only. The device is opened (and so locked: a burn in
// progress holds the lock, and opening fails with Busy before any plan is made).
[[nodiscard]] Result<ResetPlan> plan_reset(Device& device, const ResetOptions& options);

// Runs `plan` (from plan_reset on the same device and options); refuses with the first blocker.
// Simulated devices: the boot ROM runs. In-band switches: a software reset. PCI: unbind (when
// asked), save the config space of every function, reset the opened function (sysfs `reset`),
// wait until every function answers again, write back the registers the reset changed (BARs,
// command, interrupt line, PCIe device/link control — never the CR-space gateway at 0x58..0x5f
// or the vendor capability), bind the drivers again. A failure after the unbind still binds.
[[nodiscard]] Result<ResetReport> run_reset(Device& device, const ResetPlan& plan, const ResetOptions& options);

}  // namespace openflint
