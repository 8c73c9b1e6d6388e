// SysfsAttributes: attribute text from the simulated config space (side-effect-free registers only).
#include "core/HexString.h"
#include "pcisim/SysfsAttributes.h"

#include <cstdio>

namespace openflint::pcisim {
namespace {

std::string resource_text(const sim::PciConfigSpaceOptions& o) {
  constexpr unsigned long long kFlags = 0x14220c;  // IORESOURCE_MEM | 64-bit | prefetchable, as Linux prints
  const unsigned long long start = o.bar0_base & ~(o.bar0_size - 1);
  std::string text;
  char line[80];
  std::snprintf(line, sizeof line, "0x%016llx 0x%016llx 0x%016llx\n", start, start + o.bar0_size - 1,
                kFlags);
  text += line;
  for (int i = 1; i < 17; ++i) {
    std::snprintf(line, sizeof line, "0x%016llx 0x%016llx 0x%016llx\n", 0ull, 0ull, 0ull);
    text += line;
  }
  return text;
}

}  // namespace

std::optional<std::string> sysfs_attribute(sim::PciConfigSpace& config, std::string_view name) {
  // Header dwords 0x00, 0x08, 0x2c and 0x3c have no side effects.
  auto dword = [&](std::uint32_t offset) { return config.read32(offset).value(); };
  if (name == "vendor") return hex_string(dword(0x00) & 0xffff, 4) + "\n";
  if (name == "device") return hex_string(dword(0x00) >> 16, 4) + "\n";
  if (name == "class") return hex_string(dword(0x08) >> 8, 6) + "\n";
  if (name == "revision") return hex_string(dword(0x08) & 0xff, 2) + "\n";
  if (name == "subsystem_vendor") return hex_string(dword(0x2c) & 0xffff, 4) + "\n";
  if (name == "subsystem_device") return hex_string(dword(0x2c) >> 16, 4) + "\n";
  if (name == "irq") return std::to_string(dword(0x3c) & 0xff) + "\n";
  if (name == "resource") return resource_text(config.options());
  return std::nullopt;
}

}  // namespace openflint::pcisim
