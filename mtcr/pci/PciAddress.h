// PciAddress: a PCI function's domain:bus:device.function, as sysfs names it ("0000:03:00.0").
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

struct PciAddress {
  std::uint16_t domain = 0;
  std::uint8_t bus = 0;
  std::uint8_t device = 0;    // 0..31
  std::uint8_t function = 0;  // 0..7

  // "DDDD:BB:DD.F", the name of the function's folder under /sys/bus/pci/devices.
  [[nodiscard]] std::string to_string() const;
  auto operator<=>(const PciAddress&) const = default;
};

// Parses "0000:03:00.0" or "03:00.0" (domain 0); hex fields as lspci prints them. Errors are
// InvalidArgument naming the text.
[[nodiscard]] Result<PciAddress> parse_pci_address(std::string_view text);

}  // namespace openflint
