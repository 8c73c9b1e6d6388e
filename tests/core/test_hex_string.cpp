// Tests for core/HexString: the one set of hex formatters every message and listing uses.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "core/HexString.h"

namespace openflint {
namespace {

TEST(HexString, PlainPaddedDwordAndDigits) {
  EXPECT_EQ(hex_string(0), "0x0");
  EXPECT_EQ(hex_string(0xf0014), "0xf0014");
  EXPECT_EQ(hex_string(0xffffffffffffffffull), "0xffffffffffffffff");
  EXPECT_EQ(hex_string(0xa, 2), "0x0a");
  EXPECT_EQ(hex_string(0x15b3, 4), "0x15b3");
  EXPECT_EQ(hex_string(0x12345, 4), "0x12345");  // a width is a minimum, never a cut
  EXPECT_EQ(hex_string(0x20000, 6), "0x020000");
  EXPECT_EQ(hex_dword(0x1f5), "0x000001f5");
  const std::array<std::uint8_t, 3> bytes{0x0a, 0x1b, 0xff};
  EXPECT_EQ(hex_digits(bytes), "0a1bff");
}

}  // namespace
}  // namespace openflint
