// Tests: flint archive create --format pldm, archive list/extract, q, v and burn through a PLDM package built from the generated samples.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

nlohmann::json query_json(const std::vector<std::string>& args) {
  auto q = run_tool("flint", args);
  EXPECT_EQ(q.exit_code, 0) << q.err;
  return nlohmann::json::parse(q.out, nullptr, false);
}

class PldmFlint : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"connectx4-new", "connectx5-new"}) {
      const auto path = sample_image(name);
      if (!std::filesystem::exists(path)) GTEST_SKIP() << "sample " << name << " not built (target firmware_samples)";
      images_.push_back(path);
      psids_.push_back(query_json({"-i", path.string(), "--json", "q"}).value("psid", ""));
      ASSERT_FALSE(psids_.back().empty());
    }
    ASSERT_NE(psids_[0], psids_[1]);
    // A name that says nothing: flint recognises the package by its header identifier.
    package_ = (dir_ / "fw.pkg").string();
    auto made = run_tool("flint", {"archive", "create", "--format", "pldm", "--bins", images_[0].string(),
                                   images_[1].string(), "-o", package_});
    ASSERT_EQ(made.exit_code, 0) << made.out << made.err;
  }

  TempDir dir_;
  std::vector<std::filesystem::path> images_;
  std::vector<std::string> psids_;
  std::string package_;
};

TEST_F(PldmFlint, ListNamesEveryRecord) {
  const auto doc = query_json({"-i", package_, "--json", "archive", "list"});
  EXPECT_EQ(doc["format"], "pldm");
  EXPECT_EQ(doc["spec_version"], "1.0");
  EXPECT_FALSE(doc["release_date"].get<std::string>().empty());
  ASSERT_EQ(doc["records"].size(), 2u);
  ASSERT_EQ(doc["components"].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& record = doc["records"][i];
    EXPECT_EQ(record["psid"], psids_[i]);
    EXPECT_EQ(record["components"], nlohmann::json::array({i}));
    EXPECT_EQ(record["descriptors"][0]["type"], "pci_vendor_id");
    EXPECT_EQ(record["descriptors"][0]["value"], "0x15b3");
    EXPECT_EQ(record["descriptors"][1]["title"], "PSID");
    EXPECT_EQ(record["descriptors"][1]["value"], psids_[i]);
    EXPECT_EQ(doc["components"][i]["size"], std::filesystem::file_size(images_[i]));
    EXPECT_EQ(doc["components"][i]["identifier"], 1);
    EXPECT_EQ(doc["components"][i]["version"], query_json({"-i", images_[i].string(), "--json", "q"})["fw_version"]);
  }
  auto text = run_tool("flint", {"-i", package_, "archive", "list"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("DSP0267 1.0"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(psids_[1]), std::string::npos) << text.out;
}

TEST_F(PldmFlint, ExtractIsBitIdenticalPerPsid) {
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

TEST_F(PldmFlint, QueryAndVerifyThroughPsid) {
  for (std::size_t i = 0; i < 2; ++i) {
    const auto a = query_json({"-i", images_[i].string(), "--json", "q"});
    const auto b = query_json({"-i", package_, "--psid", psids_[i], "--json", "q"});
    EXPECT_EQ(a["psid"], b["psid"]);
    EXPECT_EQ(a["fw_version"], b["fw_version"]);
    auto v = run_tool("flint", {"-i", package_, "--psid", psids_[i], "v"});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  }
  auto no_psid = run_tool("flint", {"-i", package_, "q"});
  EXPECT_EQ(no_psid.exit_code, 2);
  EXPECT_NE(no_psid.err.find("--psid"), std::string::npos) << no_psid.err;
}

TEST_F(PldmFlint, BurnsTheRecordsImageIntoASimulatedDevice) {
  const auto old_image = sample_image("connectx4-old");
  if (!std::filesystem::exists(old_image)) GTEST_SKIP() << "sample connectx4-old not built";
  const auto dev = dir_ / "cx4";
  auto made = run_tool("hcasim", {"create", "--model", "connectx4", dev.string(), "--image",
                                  old_image.string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const std::string device = "sim:" + dev.string();
  auto burn = run_tool("flint", {"-d", device, "-i", package_, "--psid", psids_[0], "burn", "-y", "--allow_psid_change"});
  if (burn.err.find("burn is not in this build") != std::string::npos) GTEST_SKIP() << burn.err;
  ASSERT_EQ(burn.exit_code, 0) << burn.out << burn.err;
  const auto after = query_json({"-d", device, "--json", "q"});
  EXPECT_EQ(after["fw_version"], query_json({"-i", images_[0].string(), "--json", "q"})["fw_version"]);
  EXPECT_EQ(after["psid"], psids_[0]);
  // The other record's image is for another device: refused, the flash left as it was.
  auto wrong = run_tool("flint", {"-d", device, "-i", package_, "--psid", psids_[1], "burn", "-y", "--allow_psid_change"});
  EXPECT_NE(wrong.exit_code, 0);
  EXPECT_EQ(query_json({"-d", device, "--json", "q"})["fw_version"], after["fw_version"]);
}

TEST_F(PldmFlint, HostilePackageIsAOneLineError) {
  auto bytes = read_file(package_);
  bytes[40] ^= 0x40;  // inside the header: its CRC32 no longer holds
  const auto bad = dir_ / "bad.fwpkg";
  std::ofstream(bad, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  auto r = run_tool("flint", {"-i", bad.string(), "archive", "list"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("bad.fwpkg"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("checksum"), std::string::npos) << r.err;
  auto q = run_tool("flint", {"-i", bad.string(), "--psid", psids_[0], "q"});
  EXPECT_NE(q.exit_code, 0);
}

TEST_F(PldmFlint, CreateRefusesDuplicatesAndNonImages) {
  auto dup = run_tool("flint", {"archive", "create", "--format", "pldm", "--bins", images_[0].string(), images_[0].string(),
                                "-o", (dir_ / "dup.fwpkg").string()});
  EXPECT_NE(dup.exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "dup.fwpkg"));
  auto nested = run_tool("flint", {"archive", "create", "--format", "pldm", "--bins", package_, "-o", (dir_ / "x.fwpkg").string()});
  EXPECT_NE(nested.exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "x.fwpkg"));
}

TEST_F(PldmFlint, CreateFromADirectory) {
  const auto bins = dir_ / "bins";
  std::filesystem::create_directory(bins);
  for (std::size_t i = 0; i < 2; ++i) std::filesystem::copy_file(images_[i], bins / images_[i].filename());
  const auto out = dir_ / "dir.fwpkg";
  auto r = run_tool("flint", {"--json", "archive", "create", "--format", "pldm", "--bins", bins.string(), "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["format"], "pldm");
  EXPECT_EQ(query_json({"-i", out.string(), "--json", "archive", "list"})["records"].size(), 2u);
}

}  // namespace
}  // namespace openflint::test
