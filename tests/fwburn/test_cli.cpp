// fwburn command line: options, usage errors, atomic output, FS4, and the -dev burn path.
#include <gtest/gtest.h>

#include "image/FirmwareImage.h"
#include "sim/SimDevice.h"
#include "tests/fwburn/Samples.h"

namespace openflint {
namespace {

test::CommandResult fwburn(const std::vector<std::string>& args) {
  std::vector<std::string> argv{test::bin("fwburn").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return test::run_command(argv);
}

const test::Sample& sample(const std::string& label) {
  static const auto samples = test::all_samples();
  for (const auto& s : samples)
    if (s.label() == label) return s;
  throw std::runtime_error("no sample " + label);
}

TEST(FwburnCli, HelpListsTheMlxburnOptions) {
  const auto r = fwburn({"-help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* opt : {"-fw DESC", "-conf INI", "-wrimage OUT", "-dev DEVICE", "-image IMG"})
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
  EXPECT_EQ(fwburn({"--help"}).exit_code, 0);
}

TEST(FwburnCli, UsageErrorsExitTwo) {
  EXPECT_EQ(fwburn({}).exit_code, 2);
  EXPECT_EQ(fwburn({"-bogus"}).exit_code, 2);
  EXPECT_EQ(fwburn({"-fw"}).exit_code, 2);
  EXPECT_EQ(fwburn({"-fw", "a.fwdesc"}).exit_code, 2);                           // no -conf
  EXPECT_EQ(fwburn({"-fw", "a", "-conf", "b"}).exit_code, 2);                       // nothing to do
  EXPECT_EQ(fwburn({"-image", "x.bin"}).exit_code, 2);                              // no -dev
  EXPECT_EQ(fwburn({"-image", "x.bin", "-fw", "a", "-dev", "sim:/x"}).exit_code, 2);
}

TEST(FwburnCli, DoubleDashAndEqualsFormsWork) {
  test::TempDir dir;
  const auto& s = sample("connectx3-old");
  const auto r = fwburn({"--fw", s.desc.string(), "-conf=" + s.ini.string(), "--wrimage=" + (dir / "o.bin").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(query_image(test::read_file(dir / "o.bin")).has_value());
}

TEST(FwburnCli, AnErrorLeavesAnExistingOutputUntouched) {
  test::TempDir dir;
  const auto out = dir / "o.bin";
  test::write_file(out, {1, 2, 3, 4});
  const auto& s = sample("connectx3-old");
  const auto r = fwburn({"-fw", s.desc.string(), "-conf", (dir / "missing.ini").string(), "-wrimage", out.string()});
  EXPECT_EQ(r.exit_code, 4) << r.err;  // the INI cannot be opened: i/o
  EXPECT_EQ(test::read_file(out), (std::vector<std::uint8_t>{1, 2, 3, 4}));
}

TEST(FwburnCli, UnwritableOutputIsAnIoErrorWithoutLeftovers) {
  test::TempDir dir;
  const auto& s = sample("connectx3-old");
  const auto r = fwburn({"-fw", s.desc.string(), "-conf", s.ini.string(), "-wrimage", (dir / "no" / "o.bin").string()});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// FS4 (Spectrum-2 here; the ConnectX-5 samples are the other case): an image the tools read as
// FS4 with the INI's version, and a chunk size (which FS4 does not have) is a usage error.
TEST(FwburnCli, Fs4IsGeneratedAndChunkSizesAreRefused) {
  test::TempDir dir;
  const std::string desc = "[firmware]\ndevice = spectrum2\n\n[section main]\ntype = MAIN_CODE\nfiller_size = 0x100\n";
  const std::string ini = "[image]\npsid = MT_0000000199\nfw_version = 29.2000.2162\n[board]\nbase_guid = 1\n";
  test::write_file(dir / "d.fwdesc", std::vector<std::uint8_t>(desc.begin(), desc.end()));
  test::write_file(dir / "c.ini", std::vector<std::uint8_t>(ini.begin(), ini.end()));
  const auto r = fwburn({"-fw", (dir / "d.fwdesc").string(), "-conf", (dir / "c.ini").string(), "-wrimage",
                         (dir / "o.bin").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE((r.out + r.err).find("Generated FS4 image"), std::string::npos) << r.out << r.err;
  const auto q = test::run_command({test::bin("flint").string(), "-i", (dir / "o.bin").string(), "q"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_NE(q.out.find("Image type:            FS4"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("29.2000.2162"), std::string::npos) << q.out;

  const std::string chunked = ini + "[flash]\nlog2_chunk_size = 22\n";
  test::write_file(dir / "chunked.ini", std::vector<std::uint8_t>(chunked.begin(), chunked.end()));
  const auto c = fwburn({"-fw", (dir / "d.fwdesc").string(), "-conf", (dir / "chunked.ini").string(), "-wrimage",
                         (dir / "c.bin").string()});
  EXPECT_EQ(c.exit_code, 2) << c.err;
  EXPECT_NE(c.err.find("log2_chunk_size"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("does not apply to FS4"), std::string::npos) << c.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "c.bin"));
}

// Generate + burn into a simulated ConnectX-4: the flash then holds the INI's version and PSID.
TEST(FwburnCli, BurnIntoASimulatedDevice) {
  test::TempDir dir;
  auto sim = sim::SimDevice::create("connectx4");
  ASSERT_TRUE(sim.has_value()) << sim.error().message();
  ASSERT_TRUE((*sim)->save_state(dir / "dev").has_value());
  const auto& s = sample("connectx4-new");
  const std::string dev = "sim:" + (dir / "dev").string();
  const auto refused = fwburn({"-fw", s.desc.string(), "-conf", s.ini.string(), "-dev", dev});
  EXPECT_EQ(refused.exit_code, 2) << "a blank device has no identity to keep: " << refused.out << refused.err;
  const auto r = fwburn({"-fw", s.desc.string(), "-conf", s.ini.string(), "-dev", dev, "-use_image_guids"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("GUIDs/MACs from the image"), std::string::npos) << r.out;
  const auto flash = test::read_file(dir / "dev" / "flash.bin");
  const auto q = query_image(flash);
  ASSERT_TRUE(q.has_value()) << q.error().message();
  EXPECT_EQ(q->psid, "MT_2190110032");
  ASSERT_TRUE(q->fw_version.has_value());
  EXPECT_EQ(q->fw_version->to_string(), "12.28.2006");
}

TEST(FwburnCli, UnknownDeviceNamesAreRefusedWithTheAcceptedForms) {
  const auto& s = sample("connectx3-old");
  const auto r = fwburn({"-fw", s.desc.string(), "-conf", s.ini.string(), "-dev", "not/a-device"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("sim:PATH"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("pciconf-BDF"), std::string::npos) << r.err;
}

// An MST name is a PCI name now: with no such function under the sysfs root, a clear "not
// found" (exit 4) that says what was looked for.
TEST(FwburnCli, MstNameWithoutSuchAFunctionIsNotFound) {
  const auto& s = sample("connectx3-old");
  test::TempDir root;
  const auto r = test::run_command({test::bin("fwburn").string(), "-fw", s.desc.string(), "-conf", s.ini.string(), "-dev",
                              "/dev/mst/mt4099_pci_cr0"},
                             {"OPENFLINT_SYSFS_ROOT=" + root.path().string()});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("4099"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace openflint
