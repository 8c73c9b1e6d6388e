// BusProtocol: mstmtserver 1.4 requests parsed and formatted (round trips, strtoul forms, strict rejections), replies parsed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mtcr/remote/BusProtocol.h"

namespace openflint {
namespace {

BusRequest parsed(const std::string& text) {
  auto r = parse_bus_request(text);
  EXPECT_TRUE(r.has_value()) << text << ": " << (r ? "" : r.error().message());
  return r ? *r : BusRequest{};
}

std::vector<BusRequest> every_command() {
  std::vector<BusRequest> all{bus_request(BusCommand::Version), bus_request(BusCommand::List), bus_request(BusCommand::Close),
                              bus_request(BusCommand::PciChange), bus_request(BusCommand::Read, 0xf0014),
                              bus_request(BusCommand::Write, 0xf0400, 0xdeadbeef), bus_request(BusCommand::AddressSpace, 0, 3),
                              bus_request(BusCommand::ReadBlock, 0x100, 0, 512), bus_request(BusCommand::ReadBlock, 0, 0, 7)};
  BusRequest open_new = bus_request(BusCommand::Open);
  open_new.device_type = 1;
  open_new.device = "/dev/mst/mt4115_pciconf0";
  BusRequest open_old = bus_request(BusCommand::Open);
  open_old.device = "mt4115_pciconf0";
  BusRequest write_block = bus_request(BusCommand::WriteBlock, 0x2000, 0, 10);
  write_block.data = {1, 0xffffffff, 0xab};
  all.insert(all.end(), {open_new, open_old, write_block});
  return all;
}

TEST(BusProtocol, EveryCommandRoundTrips) {
  for (const BusRequest& r : every_command()) {
    const std::string text = format_bus_request(r);
    EXPECT_EQ(text[0], static_cast<char>(r.command));
    EXPECT_EQ(parsed(text), r) << text;
  }
}

TEST(BusProtocol, FormatsTheWireText) {
  EXPECT_EQ(format_bus_request(bus_request(BusCommand::Version)), "V");
  EXPECT_EQ(format_bus_request(bus_request(BusCommand::Read, 0xf0014)), "R 0xf0014");
  EXPECT_EQ(format_bus_request(bus_request(BusCommand::Write, 4, 0x10)), "W 0x4 0x10");
  EXPECT_EQ(format_bus_request(bus_request(BusCommand::ReadBlock, 8, 0, 12)), "B 0x8 12");
  BusRequest open = bus_request(BusCommand::Open);
  open.device_type = 1;
  open.device = "03:00.0";
  EXPECT_EQ(format_bus_request(open), "O 1 03:00.0");
  // The largest U fits the server's 1536-byte buffer.
  BusRequest big = bus_request(BusCommand::WriteBlock, 0xfffffe00, 0, 512);
  big.data.assign(128, 0xffffffff);
  EXPECT_LT(format_bus_request(big).size(), kBusMaxRequestBytes);
  EXPECT_EQ(parsed(format_bus_request(big)), big);
}

TEST(BusProtocol, NumbersReadLikeStrtoulBase0) {
  EXPECT_EQ(parsed("R 0x10").offset, 16u);
  EXPECT_EQ(parsed("R 0X10").offset, 16u);
  EXPECT_EQ(parsed("R 020").offset, 16u);  // leading 0: octal
  EXPECT_EQ(parsed("R 16").offset, 16u);
  EXPECT_EQ(parsed("R 0").offset, 0u);
  EXPECT_EQ(parsed("W 0 0xffffffff").value, 0xffffffffu);
  EXPECT_EQ(parsed("W 0 4294967295").value, 0xffffffffu);
  EXPECT_EQ(parsed("A 037777777777").value, 0xffffffffu);
}

TEST(BusProtocol, OpenHasANewAndAnOldStyle) {
  const BusRequest fresh = parsed("O 1 /dev/mst/mt4115_pciconf0");
  ASSERT_TRUE(fresh.device_type.has_value());
  EXPECT_EQ(*fresh.device_type, 1u);
  EXPECT_EQ(fresh.device, "/dev/mst/mt4115_pciconf0");
  const BusRequest old = parsed("O /dev/mst/mt4115_pciconf0");
  EXPECT_FALSE(old.device_type.has_value());
  EXPECT_EQ(old.device, "/dev/mst/mt4115_pciconf0");
  EXPECT_EQ(parsed("O 5").device, "5");  // a number without a following name is a name
}

TEST(BusProtocol, RejectsMalformedRequests) {
  const std::vector<std::string> bad{
      "",                     // empty
      "Y",                    // unknown letter (X is openflint's reset: test_server_reset.cpp)
      "r 0 0 0 0",            // I2C commands are not ours
      "VV",                   // letter not followed by a space
      "V ",                   // trailing space
      "V 1",                  // trailing junk
      "R",                    // missing offset
      "R ",                   // missing offset after the space
      "R  4",                 // doubled space
      "R 4 ",                 // trailing space
      "R 4 5",                // extra argument
      "R 0x",                 // no hex digits
      "R 0x1g",               // junk in a number
      "R 08",                 // 8 is not octal
      "R -4",                 // strtoul would wrap; we do not
      "R +4",
      "R 2",                  // unaligned
      "R 0x100000000",        // overflows 32 bits
      "R 99999999999999999999999999",
      "W 4",                  // missing value
      "W 4 0x100000000",      // value overflows 32 bits
      "B 0 0",                // empty block
      "B 0 513",              // block over 512 bytes
      "B 0 0x1000",
      "B 0xfffffffc 8",       // runs past 4 GiB
      "B 0",                  // missing size
      "U 0 8 1",              // too few dwords
      "U 0 8 1 2 3",          // too many dwords
      "U 0 5 1",              // 5 bytes take 2 dwords
      "U 0 4",                // no data at all
      "U 0 516 1",            // too large
      "O",                    // no device
      "O x y",                // a dtype that is no number
      "O 1 a b",              // a name with a space
      "A",                    // no space number
      std::string("R 4\0", 4),          // a NUL inside
      std::string("V\0junk", 6),
      "R 4\n",                // control characters
      "R\t4",
      "O 1 caf\xc3\xa9",      // non-ASCII
      std::string(2000, 'V'),  // longer than the server's buffer
  };
  for (const std::string& text : bad) {
    const auto r = parse_bus_request(text);
    ASSERT_FALSE(r.has_value()) << "accepted: " << text;
    EXPECT_EQ(r.error().code(), ErrorCode::InvalidArgument) << text;
    EXPECT_FALSE(r.error().message().empty());
    EXPECT_EQ(r.error().message().find('\n'), std::string::npos) << "not one line: " << r.error().message();
  }
}

TEST(BusProtocol, ReasonsNameTheProblem) {
  EXPECT_NE(parse_bus_request("B 0 513").error().message().find("513"), std::string::npos);
  EXPECT_NE(parse_bus_request("R 0x100000000").error().message().find("32 bits"), std::string::npos);
  EXPECT_NE(parse_bus_request("U 0 8 1").error().message().find("needs 2 dword"), std::string::npos);
  EXPECT_NE(parse_bus_request("R 2").error().message().find("aligned"), std::string::npos);
}

TEST(BusProtocol, OkAndErrorReplies) {
  EXPECT_EQ(format_ok(), "O");
  EXPECT_EQ(format_ok("1.4"), "O 1.4");
  EXPECT_EQ(format_error("Not opened"), "E Not opened");
  EXPECT_EQ(format_read_reply(0x209), "O 0x00000209");
  EXPECT_EQ(parse_ok_reply("O").value(), "");
  EXPECT_EQ(parse_ok_reply("O 1.4").value(), "1.4");
  const auto e = parse_ok_reply("E Invalid offset");
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().code(), ErrorCode::Io);
  EXPECT_NE(e.error().message().find("Invalid offset"), std::string::npos);
  for (const char* junk : {"", "X", "OK", "Oops", "e lower"}) {
    const auto r = parse_ok_reply(junk);
    ASSERT_FALSE(r.has_value()) << junk;
    EXPECT_EQ(r.error().code(), ErrorCode::Io);
  }
  EXPECT_TRUE(is_invalid_command_reply("E Invalid command"));
  EXPECT_FALSE(is_invalid_command_reply("E Invalid offset"));
}

TEST(BusProtocol, ReadReplies) {
  EXPECT_EQ(parse_read_reply("O 0x00000209").value(), 0x209u);
  EXPECT_EQ(parse_read_reply(format_read_reply(0xfedcba98)).value(), 0xfedcba98u);
  EXPECT_EQ(parse_read_reply("O 1").value(), 1u);
  for (const char* bad : {"O", "O ", "O 0x", "O 0x100000000", "O 1 2", "O zz", "E Not opened"})
    EXPECT_FALSE(parse_read_reply(bad).has_value()) << bad;
}

TEST(BusProtocol, BlockRepliesRoundTripIncludingThePartialTail) {
  const std::vector<std::uint32_t> dwords{0x11223344, 0xaabbccdd, 0x01020304};
  EXPECT_EQ(format_block_reply(dwords, 12), "O 0x11223344 0xaabbccdd 0x01020304");
  EXPECT_EQ(format_block_reply(dwords, 9), "O 0x11223344 0xaabbccdd 0x04");
  EXPECT_EQ(format_block_reply(dwords, 11), "O 0x11223344 0xaabbccdd 0x020304");
  EXPECT_EQ(parse_block_reply("O 0x11223344 0xaabbccdd 0x01020304", 12).value(), dwords);
  const std::vector<std::uint32_t> tail{0x11223344, 0xaabbccdd, 0x020304};
  EXPECT_EQ(parse_block_reply("O 0x11223344 0xaabbccdd 0x020304", 11).value(), tail);
  for (std::size_t size = 1; size <= 12; ++size) {
    const auto back = parse_block_reply(format_block_reply(dwords, size), size);
    ASSERT_TRUE(back.has_value()) << size << ": " << back.error().message();
    ASSERT_EQ(back->size(), (size + 3) / 4);
    for (std::size_t i = 0; i < back->size(); ++i) {
      const std::size_t bytes = std::min<std::size_t>(4, size - 4 * i);
      const std::uint32_t mask = bytes == 4 ? 0xffffffffu : (1u << (8 * bytes)) - 1;
      EXPECT_EQ((*back)[i], dwords[i] & mask) << size << "/" << i;
    }
  }
}

TEST(BusProtocol, RejectsMalformedBlockReplies) {
  EXPECT_FALSE(parse_block_reply("O 0x1 0x2", 12).has_value());              // too few
  EXPECT_FALSE(parse_block_reply("O 0x1 0x2 0x3 0x4", 12).has_value());      // too many
  EXPECT_FALSE(parse_block_reply("O 0x1  0x2 0x3", 12).has_value());         // doubled space
  EXPECT_FALSE(parse_block_reply("O 0x1 0x2 0x123", 9).has_value());         // tail wider than 1 byte
  EXPECT_FALSE(parse_block_reply("O 0x1 0xnope 0x3", 12).has_value());
  EXPECT_FALSE(parse_block_reply("O", 4).has_value());
  EXPECT_FALSE(parse_block_reply("O 0x1", 0).has_value());
  const auto e = parse_block_reply("E Invalid command", 4);
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message().find("Invalid command"), std::string::npos);
}

}  // namespace
}  // namespace openflint
