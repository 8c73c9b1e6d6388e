// Tests for echoed_name (long user-given names cut in messages).
#include <gtest/gtest.h>

#include <string>

#include "core/EchoedName.h"

namespace openflint {
namespace {

TEST(EchoedName, ShortNamesAreQuotedWholeLongOnesCutAtACharacter) {
  EXPECT_EQ(echoed_name("mlx5_0"), "'mlx5_0'");
  const std::string exact(kMaxEchoedNameBytes, 'a');
  EXPECT_EQ(echoed_name(exact), "'" + exact + "'");
  const std::string longer(100000, 'b');
  const std::string cut = echoed_name(longer);
  EXPECT_EQ(cut, "'" + std::string(kMaxEchoedNameBytes, 'b') + "\u2026' (100000 bytes)");
  // A two-byte character straddling the cut is left out whole, not split.
  const std::string utf8 = std::string(kMaxEchoedNameBytes - 1, 'c') + "\u00e9" + std::string(10, 'd');
  EXPECT_EQ(echoed_name(utf8), "'" + std::string(kMaxEchoedNameBytes - 1, 'c') + "\u2026' (" +
                                   std::to_string(utf8.size()) + " bytes)");
}

}  // namespace
}  // namespace openflint
