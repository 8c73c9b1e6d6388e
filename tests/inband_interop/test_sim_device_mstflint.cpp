// Interop: the real mstflint queries, verifies and burns simulated devices over in-band MADs (ibsim).
#include <regex>

#include "image/Fs2Writer.h"
#include "image/MfaArchive.h"
#include "tests/support/SyntheticImage.h"
#include "tests/inband/SimDeviceFabricFixture.h"

namespace openflint::test {
namespace {

std::vector<std::uint8_t> fs2_image(FwVersion version, bool striped) {
  Fs2ImageSpec s;
  s.fw_version = version;
  s.release_date = ReleaseDate{2019, 9, 23};
  s.psid = "MT_1090120019";
  s.vsd = "openflint in-band";
  s.base_guid = 0x0002c90300a1b2c0ull;
  s.base_mac = 0x0002c9a1b2c0ull;
  s.supported_hw_ids = {0x1f5};
  std::vector<std::uint8_t> ddr(8192);
  for (std::size_t i = 0; i < ddr.size(); ++i) ddr[i] = static_cast<std::uint8_t>(i * 13 + 1);
  s.sections.push_back({gph::kDdr, ddr, 0});
  s.sections.push_back({gph::kCnf, std::vector<std::uint8_t>(256, 0x42), 0});
  s.sections.push_back({gph::kJmp, std::vector<std::uint8_t>(16, 0x01), 0});
  s.striped = striped;
  auto image = write_fs2_image(s);
  EXPECT_TRUE(image) << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

std::vector<std::uint8_t> fs3_image(std::uint32_t hw_id, std::uint16_t minor) {
  SyntheticSpec s;
  s.hw_id = hw_id;
  s.fw_major = 12;
  s.fw_minor = minor;
  s.fw_subminor = 1100;
  return build_fs3(s).bytes;
}

// The value of a "Name:   value" line of mstflint query output.
std::string field(const std::string& out, const std::string& name) {
  const std::regex line("(^|\n)" + name + ":\\s+([^\n]*)");
  std::smatch m;
  return std::regex_search(out, m, line) ? m[2].str() : std::string();
}

class MstflintSimDevice : public SimDeviceFabricFixture {
 protected:
  void SetUp() override {
    if (!have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; interop not checked";
    SimDeviceFabricFixture::SetUp();
  }
  // mstflint -d lid-N [--ocr] ARGS. --ocr is needed on hw ids mstflint 4.21 lists as
  // livefish-capable (ConnectX-4 and later, the switches): see docs/inband.md. Flashing through
  // the firmware (MCC) does not help in-band: the Debian build caps in-band registers at 44
  // bytes and refuses MCAM (72), MCQI (148) and MGIR (160) before sending a MAD, so it never
  // finds the simulated firmware's component update (it does over PCI: tests/pci_interop), and
  // without --ocr the FS3 path still crashes after the refused MGIR (mstflint's own NULL
  // dereference, fixed upstream in 4.29; no device answer avoids it: docs/fwaccess.md, recorded
  // by test_mstflint_default_path.cpp). Measured with FW_COMPS_DEBUG=1 MFT_DEBUG=1, 2026-12-02/03.
  CapturedRun mstflint(std::vector<std::string> args) {
    std::vector<std::string> argv{"mstflint", "-d", lid_name()};
    if (ocr_) argv.push_back("--ocr");
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv);
  }
  void expect_query(const std::string& version, const std::string& psid) {
    auto q = mstflint({"q"});
    EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
    EXPECT_EQ(field(q.out, "FW Version"), version) << q.out << q.err;
    EXPECT_EQ(field(q.out, "PSID"), psid) << q.out;
  }
  void expect_burn(const std::vector<std::uint8_t>& image, const std::string& current, const std::string& next) {
    const auto img = dir_.path() / "new.bin";
    write_file(img, image);
    auto b = mstflint({"-i", img.string(), "-y", "burn"});
    EXPECT_EQ(b.exit_code, 0) << b.out << b.err;
    EXPECT_NE(b.out.find("Current FW version on flash:  " + current), std::string::npos) << b.out;
    EXPECT_NE(b.out.find("New FW version:               " + next), std::string::npos) << b.out;
  }
  void expect_verify() {
    auto v = mstflint({"v"});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
    EXPECT_NE(v.out.find("FW image verification succeeded"), std::string::npos) << v.out << v.err;
  }
  bool ocr_ = false;
};

TEST_F(MstflintSimDevice, MstmreadReadsConnectX3HwId) {
  if (!have_program("mstmread")) GTEST_SKIP() << "mstmread is not installed";
  serve("connectx3", fs2_image({2, 42, 5000}, true));
  if (HasFatalFailure() || IsSkipped()) return;
  auto r = run({"mstmread", lid_name(), "0xf0014"});
  EXPECT_NE(r.out.find("0x000001f5"), std::string::npos) << r.out << r.err;
}

TEST_F(MstflintSimDevice, QueryAndVerifyConnectX3Fs2) {
  serve("connectx3", fs2_image({2, 42, 5000}, true));
  if (HasFatalFailure() || IsSkipped()) return;
  expect_query("2.42.5000", "MT_1090120019");
  expect_verify();
}

TEST_F(MstflintSimDevice, QueryAndVerifyConnectIbFs3) {
  serve("connectib", fs3_image(0x1ff, 1000));
  if (HasFatalFailure() || IsSkipped()) return;
  expect_query("12.1000.1100", "MT_0000000001");
  expect_verify();
}

TEST_F(MstflintSimDevice, QueryAndVerifyConnectX4Fs3) {
  ocr_ = true;
  serve("connectx4", fs3_image(0x209, 1000));
  if (HasFatalFailure() || IsSkipped()) return;
  expect_query("12.1000.1100", "MT_0000000001");
  expect_verify();
}

TEST_F(MstflintSimDevice, QueryRealSpectrumImage) {
  const auto real = real_firmware_dir();
  if (!real) GTEST_SKIP() << "real firmware (../shared/firmware/real) is absent";
  auto archive = MfaArchive::open((*real / "fw-SPC-rel-13_1910_0618-EVB.mfa").string());
  ASSERT_TRUE(archive) << archive.error().message();
  const auto extracted = dir_.path() / "spectrum.bin";
  auto x = archive->extract_to_file(archive->boards().front(), extracted.string());
  ASSERT_TRUE(x) << x.error().message();
  ocr_ = true;
  serve("spectrum", read_file(extracted));
  if (HasFatalFailure() || IsSkipped()) return;
  // Query only: verify reads all 16 MB through the gateway (~1.6 million MADs, ~4 minutes).
  expect_query("13.1910.0618", archive->boards().front().psid);
}

TEST_F(MstflintSimDevice, BurnNewerFs2ImageThenQueryShowsIt) {
  serve("connectx3", fs2_image({2, 42, 5000}, true));
  if (HasFatalFailure() || IsSkipped()) return;
  expect_burn(fs2_image({2, 42, 5100}, false), "2.42.5000", "2.42.5100");
  expect_query("2.42.5100", "MT_1090120019");
  expect_verify();
  // The burn went to the device's flash: the saved state holds the new image.
  auto device = stop_and_reload();
  ASSERT_NE(device, nullptr);
  EXPECT_GT(device->counters().flash.programs, saved_counters_.flash.programs);
  EXPECT_GT(device->counters().flash.erases, saved_counters_.flash.erases);
}

TEST_F(MstflintSimDevice, BurnNewerFs3ImageThenQueryShowsIt) {
  ocr_ = true;
  serve("connectx4", fs3_image(0x209, 1000));
  if (HasFatalFailure() || IsSkipped()) return;
  expect_burn(fs3_image(0x209, 1010), "12.1000.1100", "12.1010.1100");
  expect_query("12.1010.1100", "MT_0000000001");
  expect_verify();
}

}  // namespace
}  // namespace openflint::test
