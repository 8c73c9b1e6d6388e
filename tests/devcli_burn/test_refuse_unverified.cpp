// The burn acceptance rule: an image that `flint v` rejects is refused by every burn path before
// anything is written (flash byte-identical), with the failing section named.
#include <gtest/gtest.h>

#include "image/FirmwareImage.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

test::CommandResult tool(const std::string& name, std::vector<std::string> args) {
  return test::run_tool(name, std::move(args));
}

fs::path sample(const std::string& model, const std::string& version) { return test::sample_image(model + "-" + version); }

// The image with one byte flipped, at the first offset from the middle on where verify then
// fails (a code or data section under a CRC).
std::vector<std::uint8_t> unbootable_copy(const fs::path& path) {
  const std::vector<std::uint8_t> good = test::read_file(path);
  const auto q = query_image(good);
  EXPECT_TRUE(q.has_value());
  const std::uint64_t start = q ? q->image_start : 0;
  const std::uint64_t size = q && q->image_size ? q->image_size : good.size() - start;
  std::vector<std::uint8_t> bad = good;  // one copy, each candidate byte flipped and flipped back
  for (std::uint64_t at = start + size / 2; at < start + size; at += 97) {
    bad[at] ^= 0x5a;
    const auto v = verify_image(bad);
    if (!v || !v->bootable()) return bad;
    bad[at] ^= 0x5a;
  }
  ADD_FAILURE() << "no single-byte change of " << path << " makes it fail verify";
  return good;
}

class RefuseUnverified : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    model_ = GetParam();
    if (!fs::exists(sample(model_, "new"))) GTEST_SKIP() << "no sample " << sample(model_, "new");
    bad_ = dir_ / "bad.bin";
    test::write_file(bad_, unbootable_copy(sample(model_, "new")));
    const auto v = tool("flint", {"-i", bad_.string(), "v"});
    ASSERT_EQ(v.exit_code, 1) << "the corrupted image should not verify: " << v.out << v.err;
    const auto c = tool("hcasim", {"create", "--model", model_, (dir_ / "dev").string(), "--image",
                                   sample(model_, "old").string()});
    ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
    before_ = test::read_file(dir_ / "dev" / "flash.bin");
  }
  // Each burn path meets the same corrupted image and the same device; a refusal leaves the
  // flash byte-identical (checked), and the flash is put back anyway so each path starts alike.
  void expect_refused(const std::string& what, const test::CommandResult& r) {
    SCOPED_TRACE(what);
    EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
    EXPECT_NE(r.err.find("does not verify"), std::string::npos) << r.err;
    EXPECT_EQ(test::read_file(dir_ / "dev" / "flash.bin"), before_) << "a refused burn changed the flash";
    const auto v = tool("flint", {"-d", dev(), "v"});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
    test::write_file(dir_ / "dev" / "flash.bin", before_);
  }
  std::string dev() const { return "sim:" + (dir_ / "dev").string(); }
  test::TempDir dir_;
  std::string model_;
  fs::path bad_;
  std::vector<std::uint8_t> before_;
};

// One test per model for the three burn paths: the corrupted image, its `flint v` and the
// device (16-32 MiB each, slow under ASan) are made once instead of once per path.
TEST_P(RefuseUnverified, FlintBurnFlintBurnWithoutFailsafeAndFwburn) {
  expect_refused("flint burn", tool("flint", {"-d", dev(), "-i", bad_.string(), "-y", "burn"}));
  expect_refused("flint --nofs burn", tool("flint", {"-d", dev(), "-i", bad_.string(), "-y", "--nofs", "burn"}));
  expect_refused("fwburn", tool("fwburn", {"-image", bad_.string(), "-dev", dev()}));
}

INSTANTIATE_TEST_SUITE_P(Models, RefuseUnverified,
                         ::testing::Values("mt25204", "connectx3", "connectx4", "spectrum", "spectrum2"),
                         [](const auto& model) { return model.param; });  // tests/devcli_burn/COST names them

}  // namespace
}  // namespace openflint
