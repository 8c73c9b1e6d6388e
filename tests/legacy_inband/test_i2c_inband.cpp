// ExtPortAccess I2C over ibsim: mtcr-tool's i2cread/i2cwrite (InbandI2cAccess over umad) against
// a responder serving two memory EEPROMs that refuse two transactions after each write.
#include <cstdio>
#include <string>

#include "tests/inband/InbandFabricFixture.h"

namespace openflint::test {
namespace {

class I2cInband : public InbandFabricFixture {
 protected:
  std::vector<std::string> responder_extra_args() const override {
    return {"--i2c-eeprom", "0x56:4096", "--i2c-eeprom", "0x57:256", "--i2c-nacks", "2"};
  }
  static bool has(const CapturedRun& r, const std::string& s) {
    return r.out.find(s) != std::string::npos || r.err.find(s) != std::string::npos;
  }
};

TEST_F(I2cInband, WriteThenReadThroughTheWriteCycle) {
  std::vector<std::string> write{"i2cwrite", "0x56", "0x30"};
  std::string expected;
  for (int i = 0; i < 64; ++i) {
    write.push_back(std::to_string((i * 37 + 5) & 0xff));
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", (i * 37 + 5) & 0xff);
    expected += hex;
  }
  auto r = tool(lid_name(), write);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // The EEPROM's write cycle: two reads come back busy (the responder's NACK status), then data.
  for (int i = 0; i < 2; ++i) {
    r = tool(lid_name(), {"i2cread", "0x56", "0x30", "64"});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_TRUE(has(r, "busy")) << r.err;
    EXPECT_TRUE(has(r, "0x0101")) << r.err;
  }
  r = tool(lid_name(), {"i2cread", "0x56", "0x30", "64"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, expected + "\n");
  // The second EEPROM is untouched and erased.
  r = tool(lid_name(), {"i2cread", "0x57", "0x30", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "ffffffff\n");
}

TEST_F(I2cInband, AbsentDevicesOversizeAndDirectedRoutesFail) {
  auto r = tool(lid_name(), {"i2cread", "0x50", "0", "4"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r, "busy")) << r.err;  // nobody acknowledges 0x50
  r = tool(lid_name(), {"i2cread", "0x56", "0", "65"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r, "invalid")) << r.err;
  EXPECT_TRUE(has(r, "64 bytes")) << r.err;
  r = tool(lid_name(), {"i2cread", "0x57", "250", "8"});  // past the 256-byte device
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r, "0x001c")) << r.err;
  r = tool("ibdr-0.1.2", {"i2cread", "0x56", "0", "4"});  // vendor GMPs need a LID
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r, "needs a lid")) << r.err;
}

TEST_F(I2cInband, MstI2cWritesAndReadsThroughTheDevice) {
  auto mst = [&](std::vector<std::string> args) {
    std::vector<std::string> argv{bin("mst").string(), "i2c", lid_name()};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = fabric_->run("Hca1", argv);
    EXPECT_TRUE(r) << r.error().message();
    return r ? *r : CapturedRun{};
  };
  auto r = mst({"write", "0x56", "0x100", "00112233445566778899aabbccddeeff"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // Right after the write the EEPROM refuses: without retries that is "busy" (exit code 5) ...
  r = mst({"read", "0x56", "0x100", "16", "--busy-ms", "0"});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  // ... and by default mst polls until it acknowledges. 100 bytes: two transactions of 64 + 36.
  r = mst({"read", "0x56", "0xf8", "100"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, std::string(16, 'f') + "00112233445566778899aabbccddeeff" + std::string(152, 'f') + "\n");
  r = mst({"--json", "read", "0x56", "0x104", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\"data\": \"4455\""), std::string::npos) << r.out;
  r = mst({"write", "0x56", "0", std::string(130, 'a')});  // 65 bytes: more than one transaction
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
}

// The default fixture's responder has no I2C bus: ExtPortAccess is unsupported there.
class NoI2cInband : public InbandFabricFixture {};

TEST_F(NoI2cInband, ADeviceWithoutABusAnswersUnsupported) {
  auto r = tool(lid_name(), {"i2cread", "0x56", "0", "4"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("not supported"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("0x000c"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace openflint::test
