// flint -d q/v report the copy the boot ROM starts; verify requires what the boot reads to parse.
#include <gtest/gtest.h>

#include "image/BootCopy.h"
#include "tests/devcli/SampleDevice.h"

namespace openflint::test {
namespace {

class BootTruth : public SampleDeviceTest {
 protected:
  // Old sample on copy 0, the new one burned failsafe into copy 1; then copy 0 gets its magic
  // back (an interrupted invalidation) and one corrupt byte: it probes but does not boot.
  void corrupt_copy0_good_copy1(const std::string& model, ImageFormat format, std::uint64_t corrupt_at) {
    create_sample(model, "old");
    const auto original = flash();
    const auto burn = flint({"-d", dev(), "-i", sample(model, "new"), "burn", "-y"});
    ASSERT_EQ(burn.exit_code, 0) << burn.err;
    auto bytes = flash();
    std::copy_n(original.begin(), 0x40, bytes.begin());
    bytes[corrupt_at] ^= 0xff;
    set_flash(bytes);
    ASSERT_FALSE(copy_bootable(format, bytes, 0)) << "copy 0 should be corrupt";
    const auto boot = power_on_boot();
    ASSERT_FALSE(boot.value("recovery", true)) << boot.dump();
    ASSERT_NE(boot.value("booted_copy", "0x0"), "0x0") << boot.dump();
    booted_ = boot.value("booted_copy", "");
    running_ = boot.value("fw_version", "");
  }
  void expect_truth() {
    const auto q = flint({"-d", dev(), "--json", "q"});
    ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
    EXPECT_EQ(parse_json(q)["fw_version"], running_) << "query shows a copy the boot ROM does not start";
    const auto v = flint({"-d", dev(), "v"});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
    EXPECT_NE(v.out.find("Image is bootable"), std::string::npos) << v.out;
  }
  std::string booted_, running_;
};

TEST_F(BootTruth, Fs3CorruptCopy0GoodCopy1ReportsCopy1) {
  corrupt_copy0_good_copy1("connectx4", ImageFormat::Fs3, 0x10000);  // inside MAIN_CODE (0xa000-0x13fff)
  expect_truth();
  EXPECT_EQ(running_, "12.28.2006");
  // ri saves the copy that boots, not the first magic on flash.
  const std::string out = (dir_ / "ri.bin").string();
  ASSERT_EQ(flint({"-d", dev(), "ri", out}).exit_code, 0);
  const auto q = flint({"-i", out, "--json", "q"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(parse_json(q)["fw_version"], "12.28.2006");
  EXPECT_EQ(flint({"-i", out, "v"}).exit_code, 0);
}

TEST_F(BootTruth, Fs2CorruptCopy0GoodCopy1ReportsCopy1) {
  corrupt_copy0_good_copy1("connectx3", ImageFormat::Fs2, 0x2000);  // inside DDR
  expect_truth();
}

TEST_F(BootTruth, UnparsableImageInfoIsNotBootable) {
  SyntheticSpec spec;
  spec.hw_id = 0x209;
  spec.fw_major = 12;
  spec.image_info_layout = 0x01020000;  // layout 1.2: unknown, CRCs all correct
  const std::string image = write("bad-info.bin", build_fs3(spec).bytes);
  const auto file = flint({"-i", image, "v"});
  EXPECT_EQ(file.exit_code, 1) << file.out << file.err;
  EXPECT_NE(file.out.find("IMAGE_INFO"), std::string::npos) << file.out;
  EXPECT_NE(file.out.find("NOT bootable"), std::string::npos) << file.out;

  // On a device: the boot ROM does not start it, and verify agrees, naming the section.
  create("connectx4", build_fs3(spec).bytes);
  EXPECT_TRUE(power_on_boot().value("recovery", false));
  const auto dev_v = flint({"-d", dev(), "v"});
  EXPECT_EQ(dev_v.exit_code, 1) << dev_v.out << dev_v.err;
  EXPECT_NE(dev_v.out.find("IMAGE_INFO"), std::string::npos) << dev_v.out;
  EXPECT_NE(flint({"-d", dev(), "q"}).exit_code, 0);
}

}  // namespace
}  // namespace openflint::test
