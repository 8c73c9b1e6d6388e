// Tests: our in-band client against our MAD responder on a private ibsim fabric.
#include <chrono>
#include <cstdio>
#include <sstream>

#include "fabricsim/MemoryCrSpace.h"
#include "tests/inband/InbandFabricFixture.h"

namespace openflint::test {
namespace {

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

std::vector<std::uint32_t> parse_words(const std::string& text) {
  std::vector<std::uint32_t> words;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) words.push_back(static_cast<std::uint32_t>(std::stoul(line, nullptr, 16)));
  return words;
}

using InbandFabric = InbandFabricFixture;

TEST_F(InbandFabric, ReadsHwIdOverEveryRoute) {
  for (const std::string& device : {lid_name(), "iblid-" + std::to_string(lid_), "ibdr-" + SimFabric::dr_path("Hca2")}) {
    auto r = tool(device, {"read", "0xf0014"});
    EXPECT_EQ(r.exit_code, 0) << device << ": " << r.err;
    EXPECT_EQ(r.out, hex32(kHwId) + "\n") << device;
  }
}

TEST_F(InbandFabric, WriteThenReadBack) {
  for (const std::string& device : {lid_name(), "iblid-" + std::to_string(lid_), "ibdr-" + SimFabric::dr_path("Hca2")}) {
    const std::string value = device[0] == 'l' ? "0xcafe0001" : device[1] == 'b' && device[2] == 'l' ? "0xcafe0002" : "0xcafe0003";
    auto w = tool(device, {"write", "0x1000", value});
    ASSERT_EQ(w.exit_code, 0) << device << ": " << w.err;
    auto r = tool(lid_name(), {"read", "0x1000"});
    EXPECT_EQ(r.out, value + "\n") << device;
  }
}

TEST_F(InbandFabric, BlockReadMatchesBackend) {
  for (const std::string& device : {lid_name(), "iblid-" + std::to_string(lid_)}) {
    auto r = tool(device, {"readblock", "0x2000", "200"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto words = parse_words(r.out);
    ASSERT_EQ(words.size(), 200u);
    for (std::uint32_t i = 0; i < 200; ++i)
      ASSERT_EQ(words[i], MemoryCrSpace::pattern_value(0x2000 + i * 4)) << device << " dword " << i;
  }
}

TEST_F(InbandFabric, BlockWriteAcrossMode2Boundary) {
  // 0x7fffe0..0x800020 straddles the mode 0 / mode 2 (address > 0x7fffff) switch.
  std::vector<std::string> args{"writeblock", "0x7fffe0"};
  for (int i = 0; i < 16; ++i) args.push_back(hex32(0xa0000000u + static_cast<std::uint32_t>(i)));
  auto w = tool(lid_name(), args);
  ASSERT_EQ(w.exit_code, 0) << w.err;
  for (const std::string& device : {lid_name(), "iblid-" + std::to_string(lid_)}) {
    auto r = tool(device, {"readblock", "0x7fffd8", "20"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto words = parse_words(r.out);
    ASSERT_EQ(words.size(), 20u);
    EXPECT_EQ(words[0], MemoryCrSpace::pattern_value(0x7fffd8));
    EXPECT_EQ(words[1], MemoryCrSpace::pattern_value(0x7fffdc));
    for (std::uint32_t i = 0; i < 16; ++i) EXPECT_EQ(words[2 + i], 0xa0000000u + i) << device << " dword " << i;
    EXPECT_EQ(words[18], MemoryCrSpace::pattern_value(0x800020));
  }
}

TEST_F(InbandFabric, UnansweredVendorMadTimesOutQuickly) {
  auto switch_lid = fabric_->lid_of(SimFabric::kSwitch);
  ASSERT_TRUE(switch_lid) << switch_lid.error().message();
  const auto start = std::chrono::steady_clock::now();
  auto r = tool("lid-" + std::to_string(*switch_lid), {"read", "0xf0014"});
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("timeout"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("attr 0x50"), std::string::npos) << r.err;
  EXPECT_LT(elapsed, std::chrono::seconds(3));
}

TEST_F(InbandFabric, StatusErrorsAreNamed) {
  // Beyond the 16 MiB array: the responder answers status 0x1c.
  auto r = tool(lid_name(), {"read", "0x2000000"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("mad status 0x001c"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("invalid argument"), std::string::npos) << r.err;
}

TEST_F(InbandFabric, SwitchResetHookInvoked) {
  auto r = tool(lid_name(), {"swreset", "7"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(fabric_->responder_output("Hca2").find("sw-reset seconds=7"), std::string::npos)
      << fabric_->responder_output("Hca2");
}

TEST_F(InbandFabric, RegisterAccessRoundTrip) {
  auto r = tool("iblid-" + std::to_string(lid_), {"regaccess", "0x41", "0x42"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, 4), "4242");  // the echo hook increments the first byte
  EXPECT_EQ(r.out.size(), 129u);          // 64 bytes in hex + newline
}

TEST_F(InbandFabric, BlockRead64KiBBenchmark) {
  auto r = tool(lid_name(), {"bench", "65536"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 16384 dwords at 48 per MAD (56 on hardware; umad2sim delivers only 224 bytes per MAD).
  EXPECT_NE(r.out.find("mads=342 "), std::string::npos) << r.out;
  std::printf("64 KiB block read over lid: %s", r.out.c_str());
  auto s = tool("iblid-" + std::to_string(lid_), {"bench", "65536"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("mads=1171 "), std::string::npos) << s.out;  // 14 per SMP
  std::printf("64 KiB block read over iblid: %s", s.out.c_str());
}

}  // namespace
}  // namespace openflint::test
