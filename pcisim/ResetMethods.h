// ResetMethods: the kernel's reset_method attribute of one served function, and what each method does to the device.
#pragma once

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "sim/SimDevice.h"

namespace openflint::pcisim {

// As Linux (5.15+) shows devices/<BDF>/reset_method: the methods the function supports, in the
// order `reset` tries them; writing a subset selects them, "default" restores all. Served
// functions support "flr" (function-level reset) and, when no other function shares their bus
// (the kernel's rule for a secondary bus reset through the reset file), "bus".
// What the device sees: an FLR leaves the firmware running; a bus reset is a PCI link reset
// (sim::SimDevice::link_reset: the firmware reloads if armed through MFRL, or on parts without
// the reset register). Thread-safe (FUSE threads).
class ResetMethods {
 public:
  explicit ResetMethods(bool alone_on_bus);
  ResetMethods(const ResetMethods&) = delete;
  ResetMethods& operator=(const ResetMethods&) = delete;

  [[nodiscard]] std::string text() const;  // "flr bus\n"
  // 0, or -EINVAL for an unknown or unsupported method or an empty selection.
  [[nodiscard]] int select(std::string_view text);
  // Resets `device` by the first selected method; returns the method used.
  std::string_view reset(sim::SimDevice& device) const;

 private:
  std::vector<std::string_view> supported_;
  mutable std::mutex mutex_;
  std::vector<std::string_view> selected_;
};

}  // namespace openflint::pcisim
