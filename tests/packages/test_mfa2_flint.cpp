// Tests: flint archive create --format mfa2, archive list/extract, q and v on an MFA2 package built from the generated samples.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

// The samples' PSIDs, as flint q --json reports them.
std::string psid_of(const std::filesystem::path& image) {
  auto q = run_tool("flint", {"-i", image.string(), "--json", "q"});
  EXPECT_EQ(q.exit_code, 0) << q.err;
  return nlohmann::json::parse(q.out, nullptr, false).value("psid", "");
}

class Mfa2Flint : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"connectx4-new", "connectx5-new"}) {
      const auto path = sample_image(name);
      if (!std::filesystem::exists(path)) GTEST_SKIP() << "sample " << name << " not built (target firmware_samples)";
      images_.push_back(path);
      psids_.push_back(psid_of(path));
      ASSERT_FALSE(psids_.back().empty());
    }
    ASSERT_NE(psids_[0], psids_[1]);
    package_ = (dir_ / "fw.mfa2").string();
    auto made = run_tool("flint", {"archive", "create", "--format", "mfa2", "--bins", images_[0].string(),
                                   images_[1].string(), "-o", package_});
    ASSERT_EQ(made.exit_code, 0) << made.out << made.err;
  }

  TempDir dir_;
  std::vector<std::filesystem::path> images_;
  std::vector<std::string> psids_;
  std::string package_;
};

TEST_F(Mfa2Flint, ListNamesEveryPsid) {
  auto list = run_tool("flint", {"-i", package_, "--json", "archive", "list"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const auto doc = nlohmann::json::parse(list.out);
  EXPECT_EQ(doc["format"], "mfa2");
  EXPECT_EQ(doc["sha256"], "verified");
  ASSERT_EQ(doc["devices"].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(doc["devices"][i]["psid"], psids_[i]);
    EXPECT_EQ(doc["devices"][i]["components"][0]["size"], std::filesystem::file_size(images_[i]));
  }
  auto text = run_tool("flint", {"-i", package_, "archive", "list"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find(psids_[1]), std::string::npos) << text.out;
}

TEST_F(Mfa2Flint, ExtractIsBitIdenticalPerPsid) {
  for (std::size_t i = 0; i < 2; ++i) {
    const auto out = dir_ / ("out" + std::to_string(i) + ".bin");
    auto r = run_tool("flint", {"-i", package_, "archive", "extract", "--psid", psids_[i], "-o", out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(out), read_file(images_[i])) << psids_[i];
  }
  const auto none = dir_ / "none.bin";
  auto r = run_tool("flint", {"-i", package_, "archive", "extract", "--psid", "MT_NO_SUCH", "-o", none.string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("MT_NO_SUCH"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(none));
}

TEST_F(Mfa2Flint, QueryAndVerifyThroughPsid) {
  for (std::size_t i = 0; i < 2; ++i) {
    auto direct = run_tool("flint", {"-i", images_[i].string(), "--json", "q"});
    auto packaged = run_tool("flint", {"-i", package_, "--psid", psids_[i], "--json", "q"});
    ASSERT_EQ(packaged.exit_code, 0) << packaged.err;
    auto a = nlohmann::json::parse(direct.out);
    auto b = nlohmann::json::parse(packaged.out);
    EXPECT_EQ(a["psid"], b["psid"]);
    EXPECT_EQ(a["fw_version"], b["fw_version"]);
    auto v = run_tool("flint", {"-i", package_, "--psid", psids_[i], "v"});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  }
  auto no_psid = run_tool("flint", {"-i", package_, "q"});
  EXPECT_NE(no_psid.exit_code, 0);
  EXPECT_NE(no_psid.err.find("--psid"), std::string::npos) << no_psid.err;
}

TEST_F(Mfa2Flint, HostilePackageIsAOneLineError) {
  auto bytes = read_file(package_);
  bytes[16 + 4 + 4 + 4 + 4 + 3] ^= 0x40;  // the package descriptor's cb_offset
  const auto bad = dir_ / "bad.mfa2";
  std::ofstream(bad, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                             static_cast<std::streamsize>(bytes.size()));
  auto r = run_tool("flint", {"-i", bad.string(), "archive", "list"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("bad.mfa2"), std::string::npos) << r.err;
}

TEST_F(Mfa2Flint, CreateRefusesDuplicatesAndNonImages) {
  auto dup = run_tool("flint", {"archive", "create", "--format", "mfa2", "--bins", images_[0].string(),
                                images_[0].string(), "-o", (dir_ / "dup.mfa2").string()});
  EXPECT_NE(dup.exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "dup.mfa2"));
  auto text = run_tool("flint", {"archive", "create", "--format", "mfa2", "--bins", package_, "-o",
                                 (dir_ / "x.mfa2").string()});
  EXPECT_NE(text.exit_code, 0);
  auto fmt = run_tool("flint", {"archive", "create", "--format", "mfa", "--bins", images_[0].string(), "-o",
                                (dir_ / "y.mfa").string()});
  EXPECT_NE(fmt.exit_code, 0);
}

TEST_F(Mfa2Flint, CreateFromADirectory) {
  const auto bins = dir_ / "bins";
  std::filesystem::create_directory(bins);
  for (std::size_t i = 0; i < 2; ++i) std::filesystem::copy_file(images_[i], bins / images_[i].filename());
  const auto out = dir_ / "dir.mfa2";
  auto r = run_tool("flint", {"archive", "create", "--format", "mfa2", "--bins", bins.string(), "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto list = run_tool("flint", {"-i", out.string(), "--json", "archive", "list"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(nlohmann::json::parse(list.out)["devices"].size(), 2u);
}

}  // namespace
}  // namespace openflint::test
