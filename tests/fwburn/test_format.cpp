// fwburn -format BINARY|IMG: BINARY is the flash image as burned (what -wrimage always wrote), IMG
// the same bytes as offset-addressed hex words that read back to them; -help lists every -dev form.
#include <gtest/gtest.h>

#include "burn/ImageText.h"
#include "image/FirmwareImage.h"
#include "tests/fwburn/Samples.h"

namespace openflint {
namespace {

test::CommandResult run_fwburn(const std::vector<std::string>& args) {
  std::vector<std::string> argv{test::bin("fwburn").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return test::run_command(argv);
}

const test::Sample& sample_named(const std::string& label) {
  static const auto samples = test::all_samples();
  for (const auto& s : samples)
    if (s.label() == label) return s;
  throw std::runtime_error("no sample " + label);
}

std::vector<std::uint8_t> generate(const test::Sample& s, const std::filesystem::path& out,
                                   const std::vector<std::string>& extra) {
  std::vector<std::string> args{"-fw", s.desc.string(), "-conf", s.ini.string(), "-wrimage", out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_fwburn(args);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return test::read_file(out);
}

TEST(FwburnFormat, BinaryIsTheDefaultAndTheFlashImageAsBurned) {
  test::TempDir dir;
  const auto& s = sample_named("connectx3-new");
  const auto plain = generate(s, dir / "plain.bin", {});
  const auto binary = generate(s, dir / "binary.bin", {"-format", "BINARY"});
  const auto lower = generate(s, dir / "lower.bin", {"--format=binary"});
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(binary, plain);
  EXPECT_EQ(lower, plain);
  const auto q = query_image(binary);
  ASSERT_TRUE(q.has_value()) << q.error().message();
  EXPECT_EQ(q->psid, "MT_1090120019");
}

TEST(FwburnFormat, ImgIsTheSameBytesAsHexWordsByOffset) {
  test::TempDir dir;
  for (const char* label : {"mt25204-new", "connectx3-new", "connectx4-new"}) {
    const auto& s = sample_named(label);
    const auto binary = generate(s, dir / "b.bin", {});
    const auto img_bytes = generate(s, dir / "i.img", {"-format", "IMG"});
    const std::string text(img_bytes.begin(), img_bytes.end());
    // The title names the format, the size and the PSID; data lines are OFFSET: eight words.
    const auto q = query_image(binary);
    ASSERT_TRUE(q.has_value()) << label;
    EXPECT_EQ(text.rfind("# fwburn IMG form of a " + std::string(to_string(q->format)) + " image, " +
                             std::to_string(binary.size()) + " bytes",
                         0),
              0u)
        << text.substr(0, 200);
    EXPECT_NE(text.find("PSID " + q->psid), std::string::npos) << label;
    const auto first = text.find("\n00000000: ");
    ASSERT_NE(first, std::string::npos) << label;
    char word[9] = {};
    std::snprintf(word, sizeof word, "%02x%02x%02x%02x", binary[0], binary[1], binary[2], binary[3]);
    EXPECT_EQ(text.substr(first + 11, 8), word) << label << ": the first word, big-endian";
    EXPECT_NE(text.find("\n00000020: "), std::string::npos) << label << ": 32 bytes a line";
    // And it reads back to the image, byte for byte.
    auto back = burn::parse_image_text(text);
    ASSERT_TRUE(back) << back.error().message();
    EXPECT_EQ(*back, binary) << label;
  }
  // "IMAGE" (imgen mic's word) is the same form.
  const auto& s = sample_named("mt25204-new");
  EXPECT_EQ(generate(s, dir / "a.img", {"-format", "IMG"}), generate(s, dir / "b.img", {"-format=IMAGE"}));
}

TEST(FwburnFormat, UsageErrors) {
  test::TempDir dir;
  const auto& s = sample_named("mt25204-new");
  const auto bad = run_fwburn({"-fw", s.desc.string(), "-conf", s.ini.string(), "-wrimage", (dir / "o").string(),
                               "-format", "HEX"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("-format HEX: expected BINARY or IMG"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "o"));
  const auto no_output = run_fwburn({"-fw", s.desc.string(), "-conf", s.ini.string(), "-dev", "sim:/nowhere",
                                     "-format", "IMG"});
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_NE(no_output.err.find("-format chooses what -wrimage writes"), std::string::npos) << no_output.err;
  EXPECT_EQ(run_fwburn({"-image", "x.bin", "-dev", "sim:/x", "-format", "IMG"}).exit_code, 2);
}

TEST(ImageText, OddSizesRoundTripAndBadTextNamesTheLine) {
  const std::vector<std::uint8_t> seven{0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03};
  const std::string text = burn::image_text(seven, "t");
  EXPECT_EQ(text, "# t\n# offset: 32-bit words in flash order (big-endian), 32 bytes a line\n00000000: deadbeef 010203\n");
  auto back = burn::parse_image_text(text);
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(*back, seven);
  EXPECT_EQ(*burn::parse_image_text(burn::image_text({}, "")), std::vector<std::uint8_t>{});

  struct Bad {
    const char* text;
    const char* message;
  };
  for (const Bad& b : {Bad{"00000000: deadbeef\n00000008: 00000000\n", "line 2: offset 00000008 is not the next one (00000004)"},
                       Bad{"# c\n00000000: deadbeef 0102\n00000006: 03\n", "line 3: data after a short word"},
                       Bad{"00000000: deadbeefaa\n", "line 1: bad word 'deadbeefaa'"},
                       Bad{"00000000: dead beeg\n", "line 1: bad word 'beeg'"},
                       Bad{"deadbeef\n", "line 1: expected 'OFFSET: WORD ...'"},
                       Bad{"zz: 00\n", "line 1: bad offset"}}) {
    auto r = burn::parse_image_text(b.text);
    ASSERT_FALSE(r) << b.text;
    EXPECT_EQ(r.error().code(), ErrorCode::InvalidImage);
    EXPECT_NE(r.error().message().find(b.message), std::string::npos) << r.error().message();
  }
}

TEST(FwburnHelp, ListsEveryDeviceForm) {
  const auto r = run_fwburn({"-help"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("-format BINARY|IMG"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("sim: only"), std::string::npos);
  // The forms of docs/flint.md "Device names", as the transport table (fwops/DeviceOpener) spells them.
  for (const char* form : {"sim:PATH", "replay:FILE", "HOST:PORT,DEVICE", "ssh:[USER@]HOST[:PORT]/DEVICE", "DDDD:BB:DD.F",
                           "BB:DD.F", "pciconf-BDF", "pcicr-BDF", "mtNNNN_pciconfK", "mtNNNN_pci_crK", "mlx5_N",
                           "lid-N[,ca[,port]]", "iblid-N", "ibdr-a.b.c"})
    EXPECT_NE(r.out.find(form), std::string::npos) << form << " missing from:\n" << r.out;
}

}  // namespace
}  // namespace openflint
