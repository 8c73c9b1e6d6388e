// sg / sv round trips: on every generated firmware sample (file, in place) and on simulated
// devices; our query/verify and the real mstflint must see the new GUIDs, MACs and VSD.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "image/FirmwareImage.h"
#include "image/ImagePatch.h"
#include "tests/fwburn/Samples.h"

namespace openflint {
namespace {

using test::Sample;

constexpr std::uint64_t kGuid = 0x0002c90300abcdefull;
constexpr std::uint64_t kMac = 0x0002c9abcdefull;
const std::string kVsd = "openflint sv round trip";

test::CommandResult flint(std::vector<std::string> args) {
  args.insert(args.begin(), test::bin("flint").string());
  return test::run_command(args);
}

nlohmann::json json_of(const test::CommandResult& r) {
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
  return j;
}

std::string hex16(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

class SetIdsSample : public ::testing::TestWithParam<Sample> {
 protected:
  void SetUp() override {
    path_ = (dir_ / "img.bin").string();
    const auto r = test::run_fwburn(GetParam(), path_);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    auto q = query_image(test::read_file(path_));
    ASSERT_TRUE(q.has_value()) << q.error().message();
    format_ = q->format;
  }
  bool has_macs() const { return format_ != ImageFormat::Fs1; }
  void expect_verifies() {
    const auto v = flint({"-i", path_, "verify"});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  }
  // The real mstflint as an oracle (FS2/FS3 only; it does not take our FS1 images' layout).
  std::string mstflint_query() {
    if (!test::have_program("mstflint") || format_ == ImageFormat::Fs1) return "";
    const auto v = test::run_command({"mstflint", "-i", path_, "verify"});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
    const auto q = test::run_command({"mstflint", "-i", path_, "query"});
    EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
    return q.out;
  }
  test::TempDir dir_;
  std::string path_;
  ImageFormat format_ = ImageFormat::Fs3;
};

TEST_P(SetIdsSample, SgThenQueryShowsTheNewGuidsAndVerifyPasses) {
  std::vector<std::string> args{"-i", path_, "sg", "0x" + hex16(kGuid)};
  if (has_macs()) args.push_back("0x" + hex16(kMac).substr(4));
  const auto sg = flint(args);
  ASSERT_EQ(sg.exit_code, 0) << sg.out << sg.err;
  const auto q = json_of(flint({"-i", path_, "--json", "query"}));
  EXPECT_EQ(q["base_guid"]["base"], "0x" + hex16(kGuid));
  if (has_macs()) {
    EXPECT_EQ(q["base_mac"]["base"], "0x" + hex16(kMac));
  }
  expect_verifies();
  const std::string m = mstflint_query();
  if (!m.empty()) {
    EXPECT_NE(m.find(hex16(kGuid)), std::string::npos) << m;
    EXPECT_NE(m.find(hex16(kMac).substr(4)), std::string::npos) << m;
  }
}

TEST_P(SetIdsSample, SvThenQueryShowsTheVsdAndVerifyPasses) {
  const auto sv = flint({"-i", path_, "sv", kVsd});
  ASSERT_EQ(sv.exit_code, 0) << sv.out << sv.err;
  const auto q = json_of(flint({"-i", path_, "--json", "query"}));
  // FS3 and FS4 keep the VSD in the board's device data (DEV_INFO), the older formats in the image.
  const bool in_device_data = format_ == ImageFormat::Fs3 || format_ == ImageFormat::Fs4;
  const std::string field = in_device_data ? "device_vsd" : "image_vsd";
  EXPECT_EQ(q[field], kVsd);
  const auto text = flint({"-i", path_, "query"});
  EXPECT_NE(text.out.find(kVsd), std::string::npos) << text.out;
  expect_verifies();
  const std::string m = mstflint_query();
  if (!m.empty()) {
    const std::string label = in_device_data ? "Device VSD:" : "VSD:";
    const auto at = m.find(label);
    ASSERT_NE(at, std::string::npos) << m;
    EXPECT_EQ(m.substr(at, m.find('\n', at) - at).find(kVsd) != std::string::npos, true) << m;
  }
}

TEST_P(SetIdsSample, OversizeVsdIsRefusedAndTheFileIsUntouched) {
  const auto before = test::read_file(path_);
  const auto sv = flint({"-i", path_, "sv", std::string(209, 'x')});
  EXPECT_EQ(sv.exit_code, 2) << sv.out << sv.err;
  EXPECT_NE(sv.err.find("208"), std::string::npos) << sv.err;
  EXPECT_EQ(test::read_file(path_), before);
  const auto ok = flint({"-i", path_, "sv", std::string(208, 'y')});
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  expect_verifies();
}

TEST_P(SetIdsSample, BadMacIsRefusedAndTheFileIsUntouched) {
  const auto before = test::read_file(path_);
  const auto multicast = flint({"-i", path_, "sg", hex16(kGuid), "0x0102c9abcdef"});
  EXPECT_EQ(multicast.exit_code, 2) << multicast.out << multicast.err;
  const auto too_long = flint({"-i", path_, "sg", hex16(kGuid), "0x10002c9abcdef"});
  EXPECT_EQ(too_long.exit_code, 2) << too_long.out << too_long.err;
  EXPECT_EQ(test::read_file(path_), before);
}

TEST_P(SetIdsSample, LibraryPatchChangesOnlyWhatItMust) {
  const auto image = test::read_file(path_);
  auto patched = set_vsd(image, "abc");
  ASSERT_TRUE(patched.has_value()) << patched.error().message();
  ASSERT_EQ(patched->size(), image.size());
  std::size_t changed = 0;
  for (std::size_t i = 0; i < image.size(); ++i) changed += image[i] != (*patched)[i] ? 1 : 0;
  EXPECT_GT(changed, 0u);
  EXPECT_LT(changed, 600u);  // VSD bytes (+ FS1 pointer sectors, 2 copies) and a few CRC bytes
  auto report = verify_image(*patched);
  ASSERT_TRUE(report.has_value());
  EXPECT_TRUE(report->bootable());
}

std::string sample_name(const ::testing::TestParamInfo<Sample>& info) {
  std::string name = info.param.model + "_" + info.param.version;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(FirmwareSamples, SetIdsSample, ::testing::ValuesIn(test::all_samples()), sample_name);

// FS4: the DTOC's valid DEV_INFO takes the GUIDs/MACs/VSD (CRC in the section), the rest of the
// flash-layout file stays byte for byte, and the image still verifies.
TEST(SetIds, Fs4SetsTheDtocDevInfo) {
  const auto path = std::filesystem::path(OPENFLINT_BIN_DIR).parent_path() / "firmware-samples" / "spectrum2-new.bin";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no FS4 sample (needs ../shared real firmware): " << path;
  const auto original = test::read_file(path);
  GuidSettings g;
  g.base_guid = 0x0002c90300f4f400ull;
  g.base_mac = 0x0002c9f4f400ull;
  auto guids = set_guids(original, g);
  ASSERT_TRUE(guids.has_value()) << guids.error().message();
  auto patched = set_vsd(*guids, "fs4 board");
  ASSERT_TRUE(patched.has_value()) << patched.error().message();
  auto q = query_image(*patched);
  ASSERT_TRUE(q.has_value()) << q.error().message();
  ASSERT_TRUE(q->base_guid.has_value());
  EXPECT_EQ(q->base_guid->base, g.base_guid);
  ASSERT_TRUE(q->base_mac.has_value());
  EXPECT_EQ(q->base_mac->base, *g.base_mac);
  EXPECT_EQ(q->device_vsd, "fs4 board");
  std::size_t changed = 0;
  for (std::size_t i = 0; i < original.size(); ++i) changed += original[i] != (*patched)[i] ? 1 : 0;
  EXPECT_LT(changed, 0x200u + 16);  // the other DEV_INFO slot written, the old signature cleared
  auto report = verify_image(*patched);
  ASSERT_TRUE(report.has_value());
  EXPECT_TRUE(report->bootable());
}


// A power cut between the new slot's signature and the clearing of the old one leaves two
// signed DEV_INFO slots, both complete. The board still boots (the first signed slot in DTOC
// order is the live one, with a verify warning), and the next change leaves one signed slot.
TEST(SetIds, Fs4TwoSignedDevInfoSlotsBootAndTheNextChangeResolvesThem) {
  const auto path = std::filesystem::path(OPENFLINT_BIN_DIR).parent_path() / "firmware-samples" / "spectrum2-new.bin";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no FS4 sample (needs ../shared real firmware): " << path;
  const auto original = test::read_file(path);
  const auto before = query_image(original);
  ASSERT_TRUE(before.has_value()) << before.error().message();
  GuidSettings g;
  g.base_guid = 0x0002c90300f4f500ull;
  g.base_mac = 0x0002c9f4f500ull;
  auto moved = set_guids(original, g);
  ASSERT_TRUE(moved.has_value()) << moved.error().message();
  // Undo only the clearing of the old slot's signature: 16 bytes zero now, signed before.
  auto two_signed = *moved;
  std::size_t restored = 0;
  for (std::size_t i = 0; i + 16 <= original.size(); i += 4) {
    if (!std::all_of(two_signed.begin() + static_cast<std::ptrdiff_t>(i), two_signed.begin() + static_cast<std::ptrdiff_t>(i + 16),
                     [](std::uint8_t b) { return b == 0; }))
      continue;
    if (std::equal(original.begin() + static_cast<std::ptrdiff_t>(i), original.begin() + static_cast<std::ptrdiff_t>(i + 16),
                   two_signed.begin() + static_cast<std::ptrdiff_t>(i)))
      continue;
    std::copy_n(original.begin() + static_cast<std::ptrdiff_t>(i), 16, two_signed.begin() + static_cast<std::ptrdiff_t>(i));
    ++restored;
    i += 12;
  }
  ASSERT_EQ(restored, 1u) << "expected exactly one cleared signature";
  auto report = verify_image(two_signed);
  ASSERT_TRUE(report.has_value());
  EXPECT_TRUE(report->bootable());
  ASSERT_EQ(report->warnings.size(), 1u);
  EXPECT_NE(report->warnings.front().find("two signed DEV_INFO"), std::string::npos);
  auto q = query_image(two_signed);
  ASSERT_TRUE(q.has_value()) << q.error().message();
  // Either complete identity is acceptable (the old one here: the live slot comes first).
  const auto base = [](const ImageQuery& x) { return x.base_guid ? std::optional<std::uint64_t>(x.base_guid->base) : std::nullopt; };
  EXPECT_TRUE(base(*q) == g.base_guid || base(*q) == base(*before));
  GuidSettings again = g;
  again.base_guid = 0x0002c90300f4f600ull;
  auto resolved = set_guids(two_signed, again);
  ASSERT_TRUE(resolved.has_value()) << resolved.error().message();
  auto after = verify_image(*resolved);
  ASSERT_TRUE(after.has_value());
  EXPECT_TRUE(after->bootable());
  EXPECT_TRUE(after->warnings.empty());
  auto q2 = query_image(*resolved);
  ASSERT_TRUE(q2.has_value() && q2->base_guid.has_value());
  EXPECT_EQ(q2->base_guid->base, again.base_guid);
}

}  // namespace
}  // namespace openflint

namespace openflint {
namespace {

// A real Spectrum-1 (FS3) board image, extracted into a temp dir (never into the repo).
TEST(SetIdsReal, SpectrumBoardImageRoundTripsThroughMstflint) {
  const auto real = test::real_firmware_dir();
  if (!real) GTEST_SKIP() << "real firmware (../shared) not available";
  const auto mfa = *real / "fw-SPC-rel-13_2000_2162-EVB.mfa";
  if (!std::filesystem::exists(mfa)) GTEST_SKIP() << "real firmware not available: " << mfa;
  test::TempDir dir;
  const std::string path = (dir / "real.bin").string();
  const auto x = flint({"-i", mfa.string(), "archive", "extract", "--psid", "IBM0000000028", "-o", path});
  ASSERT_EQ(x.exit_code, 0) << x.out << x.err;
  ASSERT_EQ(flint({"-i", path, "sg", hex16(kGuid), hex16(kMac).substr(4)}).exit_code, 0);
  ASSERT_EQ(flint({"-i", path, "sv", kVsd}).exit_code, 0);
  const auto q = json_of(flint({"-i", path, "--json", "q"}));
  EXPECT_EQ(q["base_guid"]["base"], "0x" + hex16(kGuid));
  EXPECT_EQ(q["device_vsd"], kVsd);
  EXPECT_EQ(flint({"-i", path, "v"}).exit_code, 0);
  if (!test::have_program("mstflint")) GTEST_SKIP() << "mstflint not installed: our own checks passed";
  EXPECT_EQ(test::run_command({"mstflint", "-i", path, "verify"}).exit_code, 0);
  const auto m = test::run_command({"mstflint", "-i", path, "query"});
  EXPECT_NE(m.out.find("Device VSD:            " + kVsd), std::string::npos) << m.out;
  EXPECT_NE(m.out.find(hex16(kGuid)), std::string::npos) << m.out;
}

}  // namespace
}  // namespace openflint
