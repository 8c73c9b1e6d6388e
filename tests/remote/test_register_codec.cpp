// BusProtocol's G (openflint's access-register extension): requests and replies round-trip, strict rejections, size bounds.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mtcr/remote/BusProtocol.h"

namespace openflint {
namespace {

BusRequest register_request(std::uint16_t id, std::uint8_t method, std::vector<std::uint32_t> data) {
  BusRequest r = bus_request(BusCommand::Register, 0, 0, static_cast<std::uint32_t>(4 * data.size()));
  r.register_id = id;
  r.method = method;
  r.data = std::move(data);
  return r;
}

TEST(RegisterCodec, RequestsRoundTripAndReadAsDocumented) {
  const BusRequest probe = bus_request(BusCommand::Register);
  EXPECT_EQ(format_bus_request(probe), "G");
  const BusRequest query = register_request(0x9903, kBusRegisterQuery, {0, 0x1020304});
  EXPECT_EQ(format_bus_request(query), "G 0x9903 1 8 0x0 0x1020304");
  const BusRequest write = register_request(0x9062, kBusRegisterWrite, {0xffffffff});
  EXPECT_EQ(format_bus_request(write), "G 0x9062 2 4 0xffffffff");
  for (const BusRequest& r : {probe, query, write}) {
    auto back = parse_bus_request(format_bus_request(r));
    ASSERT_TRUE(back.has_value()) << back.error().message();
    EXPECT_EQ(*back, r);
  }
  // Numbers read like the other commands (strtoul base 0).
  auto decimal = parse_bus_request("G 36867 1 4 010");
  ASSERT_TRUE(decimal.has_value()) << decimal.error().message();
  EXPECT_EQ(decimal->register_id, 0x9003);
  EXPECT_EQ(decimal->data, std::vector<std::uint32_t>{8});
}

TEST(RegisterCodec, TheLargestRegisterFitsItsBoundAndTheLegacyBoundStays) {
  const BusRequest big = register_request(0xffff, kBusRegisterWrite, std::vector<std::uint32_t>(kBusMaxRegisterDwords, 0xffffffff));
  const std::string text = format_bus_request(big);
  EXPECT_GT(text.size(), kBusMaxRequestBytes);       // more than a legacy request may be ...
  EXPECT_LT(text.size(), kBusMaxRegisterRequestBytes);  // ... within G's own bound
  auto back = parse_bus_request(text);
  ASSERT_TRUE(back.has_value()) << back.error().message();
  EXPECT_EQ(*back, big);
  EXPECT_FALSE(parse_bus_request("G 0x1 1 " + std::string(3100, '1')).has_value());
  // A legacy command does not gain G's bound.
  EXPECT_FALSE(parse_bus_request("R 0x" + std::string(1600, '0') + "4").has_value());
  // The longest G reply fits what a client accepts.
  BusRegisterReply reply{0x7f, std::vector<std::uint32_t>(kBusMaxRegisterDwords, 0xffffffff)};
  EXPECT_LT(format_register_reply(reply).size(), kBusMaxReplyBytes);
}

TEST(RegisterCodec, RejectsMalformedRequests) {
  const std::vector<std::string> bad{
      "G ",                       // trailing space
      "GG",                       // letter not followed by a space
      "G 0x9903",                 // id alone
      "G 0x9903 1",               // no size
      "G 0x9903 1 4",             // no data
      "G 0x10000 1 4 0",          // id over 16 bits
      "G 0x9903 0 4 0",           // method 0
      "G 0x9903 3 4 0",           // method 3 (send) is not ours
      "G 0x9903 1 0",             // empty register
      "G 0x9903 1 6 0 0",         // not a multiple of 4
      "G 0x9903 1 8 0",           // too few dwords
      "G 0x9903 1 4 0 0",         // too many dwords
      "G 0x9903 1 1028 0",        // over kBusMaxRegisterBytes
      "G 0x9903 1 4 0x100000000",  // dword over 32 bits
      "G 0x9903 1 4 zz",
      "G 0x9903  1 4 0",          // doubled space
      "G -1 1 4 0",
  };
  for (const std::string& text : bad) {
    const auto r = parse_bus_request(text);
    ASSERT_FALSE(r.has_value()) << "accepted: " << text;
    EXPECT_EQ(r.error().code(), ErrorCode::InvalidArgument) << text;
    EXPECT_EQ(r.error().message().find('\n'), std::string::npos);
  }
  EXPECT_NE(parse_bus_request("G 0x9903 3 4 0").error().message().find("method"), std::string::npos);
  EXPECT_NE(parse_bus_request("G 0x9903 1 8 0").error().message().find("2 dword"), std::string::npos);
}

TEST(RegisterCodec, RepliesRoundTripAndMalformedOnesAreIoErrors) {
  const BusRegisterReply reply{4, {0x11223344, 0, 0xffffffff}};
  EXPECT_EQ(format_register_reply(reply), "O 0x4 0x11223344 0x0 0xffffffff");
  EXPECT_EQ(parse_register_reply(format_register_reply(reply)).value(), reply);
  EXPECT_EQ(parse_register_reply("O 0x0").value(), (BusRegisterReply{0, {}}));
  const std::string too_many = "O 0x0" + [] {
    std::string s;
    for (std::size_t i = 0; i <= kBusMaxRegisterDwords; ++i) s += " 0x1";
    return s;
  }();
  for (const std::string& bad : {std::string("O"), std::string("O "), std::string("O 0x80"), std::string("O 0x0 zz"),
                                 std::string("O 0x0  0x1"), std::string("X 0x0"), too_many}) {
    const auto r = parse_register_reply(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().code(), ErrorCode::Io) << bad;
  }
  const auto e = parse_register_reply("E read-only server");
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message().find("read-only server"), std::string::npos);
}

TEST(RegisterCodec, RegisterBytesTravelAsBigEndianDwords) {
  const std::vector<std::uint8_t> bytes{0x01, 0x02, 0x03, 0x04, 0xaa, 0xbb, 0xcc, 0xdd};
  const auto dwords = register_dwords(bytes);
  EXPECT_EQ(dwords, (std::vector<std::uint32_t>{0x01020304, 0xaabbccdd}));
  EXPECT_EQ(register_bytes(dwords), bytes);
}

}  // namespace
}  // namespace openflint
