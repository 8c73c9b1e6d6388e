// AdapterReset: the safe reset of an opened device — what will happen, why it may not, and the reset.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fwops/Device.h"
#include "fwops/registers/RunningFirmware.h"
#include "mtcr/pci/PciAddress.h"

namespace openflint {

struct ResetOptions {
  // PCI: unbind the drivers bound to the device's functions before the reset and bind them again
  // after it. Without it a bound driver blocks the reset (the driver would lose its device).
  bool unbind_drivers = false;
  // PCI: how long each function may take to answer config reads again after the reset.
  std::chrono::milliseconds comeback_timeout{5000};
  // PCI, parts with a firmware reset register (MFRL): 3 = arm the reset, then reset the PCI link
  // now (the new firmware runs when the device is back); 4 = arm it for the host's next warm
  // reboot and reset nothing now.
  int level = 3;
  // Behind a bus server whose server does not reset a level 3 (a legacy server, one without
  // --allow-reset, or its plan refuses): arm the firmware reset for the host's next warm reboot
  // (MFRL level 4 through the register channel) instead of refusing; the plan says so
  // (server_refusal). Off: such a level 3 reset is refused.
  bool arm_when_server_refuses = false;
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

// The firmware's part of a PCI reset (devices/DeviceInfo.h FirmwareResetSupport; MFRL).
struct FirmwareResetStep {
  std::uint8_t supported_levels = 0;  // MFRL reset_trigger as the firmware answered it
  int level = 3;                      // the level that will be armed
  std::uint8_t state = 0;             // MFRL reset_state before (mtcr/registers/MfrlRegister.h)
};

struct ResetPlan {
  std::string device;       // the name it was opened by
  std::string device_type;  // the catalog's name, e.g. ConnectX-4
  std::string method;       // how it will be reset, in words
  std::vector<ResetFunction> functions;  // PCI only
  // PCI: the firmware reset armed first (nullopt: the part has no reset register, or no firmware
  // runs — a link reset reloads it anyway).
  std::optional<FirmwareResetStep> firmware_reset;
  // PCI: the kernel reset method selected through reset_method for the reset ("bus": secondary bus
  // reset of the upstream bridge); empty when the kernel has no reset_method (it chooses).
  std::string pci_reset_method;
  bool resets_now = true;  // false: level 4, the reset is only armed (the host's reboot runs it)
  std::optional<RunningFirmware> running_before;
  std::vector<ResetBlocker> blockers;  // empty: it can run
  // Behind a bus server: the server resets the device itself (openflint's X, docs/remote.md);
  // `method` is the server's plan in its words.
  bool by_server = false;
  // Behind a bus server whose reset was not used: its answer ("reset not allowed by this
  // server", a blocker of its plan, "does not reset devices"); empty when it was used or asked.
  std::string server_refusal;
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
// asked), save the config space of every function, arm the firmware reset through MFRL (parts
// that have it: a function-level reset alone does not reload firmware), select the kernel's bus
// reset (reset_method "bus": a secondary bus reset by the upstream bridge) and reset through
// sysfs `reset`, put reset_method back, wait until every function answers again, write back the
// registers the reset changed (BARs, command, interrupt line, PCIe device/link control — never
// the CR-space gateway at 0x58..0x5f or the vendor capability), bind the drivers again. A failure
// after the unbind still binds. Level 4 only arms the firmware reset.
[[nodiscard]] Result<ResetReport> run_reset(Device& device, const ResetPlan& plan, const ResetOptions& options);

// The steps the transports' plan_reset / reset_as_planned (fwops/DeviceTransport.h) are made of.
// A PCI function: the functions and drivers, the firmware's reset register, the kernel's reset
// method; then unbind, save, reset, wait, restore, bind.
void plan_pci_reset(Device& device, const ResetOptions& options, ResetPlan& plan);
[[nodiscard]] Result<std::vector<std::string>> reset_pci_now(Device& device, const ResetPlan& plan,
                                                             const ResetOptions& options);
// A device behind a bus server whose server does not reset: only arming the firmware reset for its
// host's next warm reboot (level 4; a level 3 is a blocker naming plan.server_refusal, or armed
// at level 4 with options.arm_when_server_refuses).
void plan_bus_server_reset(Device& device, const ResetOptions& options, ResetPlan& plan);

}  // namespace openflint
