// BarTree: a plain sysfs-shaped directory (devices/0000:03:00.0/{resource,resource0}) for BAR tests.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/HexString.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

// resource0 is either a symlink to a BarServer file or a plain file made here.
class BarTree {
 public:
  BarTree() { std::filesystem::create_directories(device_dir()); }

  [[nodiscard]] std::filesystem::path device_dir() const { return dir_.path() / "devices" / "0000:03:00.0"; }
  [[nodiscard]] std::filesystem::path resource0() const { return device_dir() / "resource0"; }

  // Line 0 of `resource` as the kernel prints it: 0x%016llx start, end, flags (a 64-bit
  // prefetchable memory BAR), then an unassigned BAR1.
  void write_resource(std::uint64_t size, std::uint64_t flags = 0x14220c) const {
    const std::uint64_t start = 0xe0000000;
    std::ofstream out(device_dir() / "resource");
    out << field(start) << ' ' << field(start + size - 1) << ' ' << field(flags) << '\n'
        << field(0) << ' ' << field(0) << ' ' << field(0) << '\n';
  }
  void write_resource_text(const std::string& text) const { std::ofstream(device_dir() / "resource") << text; }

  void link_resource0(const std::filesystem::path& target) const {
    std::filesystem::create_symlink(target, resource0());
  }
  // A sparse plain file of `size` bytes with `hw_id` big-endian at 0xf0014.
  void make_plain_bar(std::uint64_t size, std::uint32_t hw_id) const {
    { std::ofstream create(resource0()); }
    std::filesystem::resize_file(resource0(), size);
    poke(0xf0014, hw_id);
  }
  // Writes a big-endian dword into the plain resource0 file.
  void poke(std::uint32_t address, std::uint32_t value) const {
    std::fstream f(resource0(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(address);
    const char bytes[4] = {static_cast<char>(value >> 24), static_cast<char>(value >> 16),
                           static_cast<char>(value >> 8), static_cast<char>(value)};
    f.write(bytes, 4);
  }

 private:
  static std::string field(std::uint64_t v) {
    std::string digits = hex_string(v).substr(2);
    return "0x" + std::string(16 - digits.size(), '0') + digits;
  }
  TempDir dir_;
};

}  // namespace openflint::test
