// Tests: the Linux kernel's own MFA2 parser (mlxfw_mfa2.c and lib/xz from Debian's linux-source-6.1,
// built at test time with the shims in kernel/) reads the packages flint writes: per PSID it finds
// the one firmware component, identifier 1, byte for byte the image it was made from.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

const std::filesystem::path kLinuxSource = "/usr/src/linux-source-6.1.tar.xz";
const std::string kTop = "linux-source-6.1/";
const std::string kMlxfw = "drivers/net/ethernet/mellanox/mlxfw/";

// Extracts the kernel's MFA2 parser and xz decoder from the installed tarball into `dir` and
// builds the harness there; returns the harness path (empty after a test failure).
std::filesystem::path build_kernel_harness(const std::filesystem::path& dir) {
  std::vector<std::string> tar = {"tar", "-xJf", kLinuxSource.string(), "-C", dir.string()};
  for (const char* f : {"mlxfw_mfa2.c", "mlxfw_mfa2_tlv_multi.c", "mlxfw_mfa2.h", "mlxfw_mfa2_file.h",
                        "mlxfw_mfa2_format.h", "mlxfw_mfa2_tlv.h", "mlxfw_mfa2_tlv_multi.h"})
    tar.push_back(kTop + kMlxfw + f);
  for (const char* f : {"xz_dec_stream.c", "xz_dec_lzma2.c", "xz_crc32.c", "xz_private.h", "xz_stream.h", "xz_lzma2.h"})
    tar.push_back(kTop + "lib/xz/" + f);
  tar.push_back(kTop + "include/linux/xz.h");
  auto untar = run_command(tar);
  EXPECT_EQ(untar.exit_code, 0) << untar.err;
  if (untar.exit_code != 0) return {};
  const auto top = dir / kTop;
  const auto kernel = std::filesystem::path(OPENFLINT_SOURCE_DIR) / "tests/packages_interop/kernel";
  const auto harness = dir / "mfa2_harness";
  auto cc = run_command({"cc", "-std=gnu11", "-O1", "-w", "-I" + (kernel / "shim").string(),
                         "-I" + (top / "include").string(), "-I" + (top / kMlxfw).string(), "-o", harness.string(),
                         (kernel / "harness.c").string(), (top / kMlxfw / "mlxfw_mfa2.c").string(),
                         (top / kMlxfw / "mlxfw_mfa2_tlv_multi.c").string(), (top / "lib/xz/xz_dec_stream.c").string(),
                         (top / "lib/xz/xz_dec_lzma2.c").string(), (top / "lib/xz/xz_crc32.c").string()});
  EXPECT_EQ(cc.exit_code, 0) << cc.err;
  return cc.exit_code == 0 ? harness : std::filesystem::path{};
}

std::string psid_of(const std::filesystem::path& image) {
  auto q = run_tool("flint", {"-i", image.string(), "--json", "q"});
  EXPECT_EQ(q.exit_code, 0) << q.err;
  return nlohmann::json::parse(q.out, nullptr, false).value("psid", "");
}

TEST(Mfa2Kernel, KernelParserPicksOurComponentPerPsid) {
  if (!std::filesystem::exists(kLinuxSource))
    GTEST_SKIP() << kLinuxSource << " is absent: install Debian's linux-source-6.1 to run the kernel's MFA2 parser";
  if (!have_program("cc") || !have_program("tar")) GTEST_SKIP() << "needs cc and tar";
  std::vector<std::filesystem::path> images;
  std::vector<std::string> psids;
  for (const char* name : {"connectx4-new", "connectx5-new", "spectrum2-new"}) {
    const auto path = sample_image(name);
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "sample " << name << " not built (target firmware_samples)";
    images.push_back(path);
    psids.push_back(psid_of(path));
  }
  TempDir dir;
  const auto harness = build_kernel_harness(dir.path());
  ASSERT_FALSE(harness.empty());
  const auto package = dir / "fw.mfa2";
  std::vector<std::string> create = {"archive", "create", "--format", "mfa2", "--bins"};
  for (const auto& image : images) create.push_back(image.string());
  create.insert(create.end(), {"-o", package.string()});
  auto made = run_tool("flint", create);
  ASSERT_EQ(made.exit_code, 0) << made.err;

  std::vector<std::string> argv = {harness.string(), package.string(), dir.path().string()};
  argv.insert(argv.end(), psids.begin(), psids.end());
  auto kernel = run_command(argv);
  ASSERT_EQ(kernel.exit_code, 0) << kernel.out << kernel.err;
  std::ostringstream expected;
  for (std::size_t i = 0; i < images.size(); ++i)
    expected << psids[i] << " 0 1 " << std::filesystem::file_size(images[i]) << '\n';
  EXPECT_EQ(kernel.out, expected.str());
  for (std::size_t i = 0; i < images.size(); ++i)
    EXPECT_EQ(read_file(dir / (psids[i] + ".0.bin")), read_file(images[i])) << psids[i];

  // A PSID the package does not carry: the kernel finds no device, as our reader does.
  auto missing = run_command({harness.string(), package.string(), dir.path().string(), "MT_NOT_THERE"});
  EXPECT_EQ(missing.exit_code, 1);
  auto ours = run_tool("flint", {"-i", package.string(), "--psid", "MT_NOT_THERE", "q"});
  EXPECT_NE(ours.exit_code, 0);
}

// A real MFA v1 archive repacked as MFA2 by flint: the kernel's parser picks for every PSID the
// component whose bytes are what flint extracts from the MFA v1 archive.
TEST(Mfa2Kernel, KernelParserTakesARealArchiveRepacked) {
  if (!std::filesystem::exists(kLinuxSource))
    GTEST_SKIP() << kLinuxSource << " is absent: install Debian's linux-source-6.1 to run the kernel's MFA2 parser";
  if (!have_program("cc") || !have_program("tar")) GTEST_SKIP() << "needs cc and tar";
  const auto real = real_firmware_dir();
  if (!real || !std::filesystem::exists(*real / "fw-SPC2-rel-29_1961_0006-EVB.mfa"))
    GTEST_SKIP() << "the real firmware corpus (../shared/firmware/real) is absent";
  const auto archive = (*real / "fw-SPC2-rel-29_1961_0006-EVB.mfa").string();  // the smallest: 6 boards
  TempDir dir;
  const auto harness = build_kernel_harness(dir.path());
  ASSERT_FALSE(harness.empty());
  const auto package = dir / "spc2.mfa2";
  auto made = run_tool("flint", {"-i", archive, "--json", "archive", "create", "--format", "mfa2", "-o", package.string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  std::vector<std::string> psids = nlohmann::json::parse(made.out)["psids"];
  ASSERT_EQ(psids.size(), 6u) << made.out;
  std::vector<std::string> argv = {harness.string(), package.string(), dir.path().string()};
  argv.insert(argv.end(), psids.begin(), psids.end());
  auto kernel = run_command(argv);
  ASSERT_EQ(kernel.exit_code, 0) << kernel.out << kernel.err;
  for (const auto& psid : psids) {
    const auto ref = dir / (psid + ".ref");
    auto extracted = run_tool("flint", {"-i", archive, "archive", "extract", "--psid", psid, "-o", ref.string()});
    ASSERT_EQ(extracted.exit_code, 0) << extracted.err;
    EXPECT_NE(kernel.out.find(psid + " 0 1 " + std::to_string(std::filesystem::file_size(ref)) + "\n"), std::string::npos)
        << kernel.out;
    EXPECT_TRUE(read_file(dir / (psid + ".0.bin")) == read_file(ref)) << psid << ": the kernel's bytes differ";
    std::filesystem::remove(dir / (psid + ".0.bin"));
    std::filesystem::remove(ref);
  }
}

}  // namespace
}  // namespace openflint::test
