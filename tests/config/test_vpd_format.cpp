// mtcr/pci/PciVpd: the VPD resource tags and keywords, the RV checksum, and malformed VPD refused by
// name; mst vpd on simulated devices (sim:PATH).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "mtcr/pci/PciVpd.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

const std::vector<std::pair<std::string, std::string>> kKeywords{{"PN", "MCX456A-ECAT"}, {"SN", "MT1234X00001"}};

TEST(PciVpd, EncodedVpdParsesBackWithAGoodChecksum) {
  const auto bytes = encode_pci_vpd("ConnectX-4 VPI adapter card", kKeywords);
  EXPECT_EQ(bytes.front(), 0x82);
  EXPECT_EQ(bytes.back(), 0x78);
  std::uint8_t sum = 0;
  for (std::size_t i = 0; i + 1 < bytes.size(); ++i) sum = static_cast<std::uint8_t>(sum + bytes[i]);
  EXPECT_EQ(sum, 0);  // through RV's checksum byte (the last before the end tag)
  auto vpd = parse_pci_vpd(bytes);
  ASSERT_TRUE(vpd) << vpd.error().message();
  EXPECT_EQ(vpd->id, "ConnectX-4 VPI adapter card");
  ASSERT_EQ(vpd->keywords.size(), 3u);
  EXPECT_EQ(vpd_text(vpd->keywords[0]), "MCX456A-ECAT");
  EXPECT_EQ(vpd->keywords[1].name, "SN");
  EXPECT_EQ(vpd->keywords[2].name, "RV");
  EXPECT_TRUE(vpd->checksum_ok);
  EXPECT_EQ(vpd->size, bytes.size());
  // Trailing bytes after the end tag are not VPD.
  auto padded = bytes;
  padded.resize(256, 0xff);
  ASSERT_TRUE(parse_pci_vpd(padded));
  EXPECT_EQ(parse_pci_vpd(padded)->size, bytes.size());
}

TEST(PciVpd, AChangedByteBreaksTheChecksum) {
  auto bytes = encode_pci_vpd("card", kKeywords);
  bytes[14] ^= 1;  // inside PN (ID tag 0..6, VPD-R tag 7..9, PN header 10..12)
  auto vpd = parse_pci_vpd(bytes);
  ASSERT_TRUE(vpd);
  EXPECT_FALSE(vpd->checksum_ok);
}

TEST(PciVpd, MalformedVpdIsRefusedByName) {
  const auto good = encode_pci_vpd("card", kKeywords);
  struct Case {
    std::vector<std::uint8_t> bytes;
    std::string says;
  };
  const std::vector<std::uint8_t> cut(good.begin(), good.end() - 1);  // no end tag
  auto unknown = good;
  unknown[0] = 0x85;  // large tag 0x05
  std::vector<std::uint8_t> no_ro{0x82, 0x01, 0x00, 'x', 0x78};
  std::vector<std::uint8_t> long_tag{0x82, 0xff, 0x00, 'x'};
  for (const auto& c : {Case{cut, "no end tag"}, Case{unknown, "unknown large tag 0x5"},
                        Case{no_ro, "no read-only keywords"}, Case{long_tag, "runs past the data"},
                        Case{{}, "no end tag"}}) {
    auto vpd = parse_pci_vpd(c.bytes);
    ASSERT_FALSE(vpd) << c.says;
    EXPECT_EQ(vpd.error().code(), ErrorCode::InvalidImage);
    EXPECT_NE(vpd.error().message().find(c.says), std::string::npos) << vpd.error().message();
  }
}

TEST(MstVpd, SimulatedAdapterShowsItsBoardsVpdAndASwitchHasNone) {
  TempDir dir;
  const auto cx4 = dir / "cx4";
  ASSERT_EQ(run_tool("hcasim", {"create", "--model", "connectx4", cx4.string(), "--image",
                                sample_image("connectx4-old").string()}).exit_code, 0);
  const auto r = run_tool("mst", {"vpd", "sim:" + cx4.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("ID:      ConnectX-4 simulated adapter card\nPN:      MT27700-SIM\nEC:      A1\nSN:      SIM"))
      << r.out;
  const auto sn = run_tool("mst", {"--json", "vpd", "sim:" + cx4.string(), "SN"});
  ASSERT_EQ(sn.exit_code, 0) << sn.err;
  const auto j = nlohmann::json::parse(sn.out);
  EXPECT_EQ(j["keywords"].size(), 1u);
  EXPECT_EQ(j["checksum_ok"], true);
  const auto missing = run_tool("mst", {"vpd", "sim:" + cx4.string(), "YA"});
  EXPECT_EQ(missing.exit_code, 4);
  EXPECT_EQ(missing.err, "-E- sim:" + cx4.string() + ": the VPD has no keyword YA\n");

  const auto sx = dir / "sx";
  ASSERT_EQ(run_tool("hcasim", {"create", "--model", "spectrum", sx.string()}).exit_code, 0);
  const auto none = run_tool("mst", {"vpd", "sim:" + sx.string()});
  EXPECT_EQ(none.exit_code, 6);
  EXPECT_NE(none.err.find("has no VPD"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace openflint::test
