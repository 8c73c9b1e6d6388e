// Tests: the streamed MFA2 writer (Mfa2StreamWriter) and repacking a package (flint -i X.mfa archive create --format mfa2).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/OutputFile.h"
#include "image/FirmwarePackage.h"
#include "image/Mfa2Package.h"
#include "image/Mfa2Writer.h"
#include "image/MfaWriter.h"
#include "tests/support/SyntheticImage.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

std::vector<std::uint8_t> component_of(const Mfa2Package& package, const std::string& psid) {
  auto device = package.find_device(psid);
  EXPECT_TRUE(device) << psid;
  if (!device) return {};
  auto component = package.firmware(**device, UINT64_MAX);
  EXPECT_TRUE(component);
  std::vector<std::uint8_t> out;
  auto done = package.extract(**component, [&out](Bytes chunk) -> Result<void> {
    out.insert(out.end(), chunk.begin(), chunk.end());
    return {};
  });
  EXPECT_TRUE(done) << done.error().message();
  return out;
}

TEST(Mfa2StreamWriter, WritesWhatTheReaderTakesBackFromPiecesOfAnySize) {
  const std::vector<std::vector<std::uint8_t>> images = {random_bytes(70000, 1), std::vector<std::uint8_t>(5000, 0xff),
                                                         random_bytes(3, 2)};
  const std::vector<std::string> psids = {"MT_0000000001", "MT_0000000002", "MT_0000000003"};
  TempDir dir;
  const auto path = (dir / "s.mfa2").string();
  {
    auto file = OutputFile::create(path);
    ASSERT_TRUE(file);
    std::vector<Mfa2Entry> entries;
    for (std::size_t i = 0; i < images.size(); ++i) entries.push_back({.psid = psids[i], .size = images[i].size()});
    auto writer = Mfa2StreamWriter::start(*file, entries);
    ASSERT_TRUE(writer) << writer.error().message();
    // The images back to back, cut at places that do not match their boundaries.
    std::vector<std::uint8_t> all;
    for (const auto& image : images) all.insert(all.end(), image.begin(), image.end());
    for (std::size_t at = 0; at < all.size(); at += 4099) {
      auto w = writer->write(Bytes(all).subspan(at, std::min<std::size_t>(4099, all.size() - at)));
      ASSERT_TRUE(w) << w.error().message();
    }
    EXPECT_EQ(writer->write(Bytes(all).first(1)).error().code(), ErrorCode::InvalidArgument);  // one byte too many
    auto size = writer->finish();
    ASSERT_TRUE(size) << size.error().message();
    ASSERT_TRUE(file->commit());
    EXPECT_EQ(*size, std::filesystem::file_size(path));
  }
  auto package = Mfa2Package::open(path);
  ASSERT_TRUE(package) << package.error().message();
  EXPECT_TRUE(package->has_sha256());
  EXPECT_EQ(package->sha256_mismatch(), "");  // both digests as build_mfa2 computes them
  for (std::size_t i = 0; i < images.size(); ++i) EXPECT_EQ(component_of(*package, psids[i]), images[i]) << psids[i];
}

TEST(Mfa2StreamWriter, ShortInputAndThroughOutputsAreRefused) {
  TempDir dir;
  auto file = OutputFile::create((dir / "short.mfa2").string());
  ASSERT_TRUE(file);
  auto writer = Mfa2StreamWriter::start(*file, {{.psid = "MT_1", .size = 100}});
  ASSERT_TRUE(writer);
  ASSERT_TRUE(writer->write(random_bytes(99, 3)));
  EXPECT_EQ(writer->finish().error().code(), ErrorCode::InvalidArgument);
  auto null = OutputFile::create("/dev/null");
  ASSERT_TRUE(null);
  EXPECT_EQ(Mfa2StreamWriter::start(*null, {{.psid = "MT_1", .size = 1}}).error().code(), ErrorCode::InvalidArgument);
}

// An MFA v1 archive of small synthetic FS3/FS4 images (tests/support/SyntheticImage), and their PSIDs.
class Mfa2Repack : public ::testing::Test {
 protected:
  void SetUp() override {
    MfaWriter writer(MfaWriteOptions{.xz_preset = 0, .compress = true});
    const char* psids[] = {"MT_0000000105", "MT_0000000101", "MT_0000000222"};
    for (std::size_t i = 0; i < 3; ++i) {
      SyntheticSpec spec;
      spec.psid = psids[i];
      spec.fw_minor = static_cast<std::uint16_t>(2000 + i);
      psids_.push_back(spec.psid);
      images_.push_back(i == 2 ? build_fs4(spec).bytes : build_fs3(spec).bytes);
      ASSERT_TRUE(writer.add_board(
          {.psid = psids_.back(), .part_number = "PN", .description = "board", .version = {}, .image = images_.back()}));
    }
    archive_ = (dir_ / "fw.mfa").string();
    ASSERT_TRUE(writer.write_file(archive_));
  }
  TempDir dir_;
  std::vector<std::string> psids_;
  std::vector<std::vector<std::uint8_t>> images_;
  std::string archive_;
};

TEST_F(Mfa2Repack, EveryBoardByteForByte) {
  const auto out = (dir_ / "all.mfa2").string();
  auto r = run_tool("flint", {"-i", archive_, "--json", "archive", "create", "--format", "mfa2", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["psids"], nlohmann::json(psids_));  // the archive's DATA order
  auto package = Mfa2Package::open(out);
  ASSERT_TRUE(package) << package.error().message();
  EXPECT_EQ(package->sha256_mismatch(), "");
  ASSERT_EQ(package->devices().size(), psids_.size());
  for (std::size_t i = 0; i < psids_.size(); ++i) EXPECT_EQ(component_of(*package, psids_[i]), images_[i]) << psids_[i];
  // The one entry point opens either by content, and finds the same boards.
  auto as_mfa = open_package(archive_);
  auto as_mfa2 = open_package(out);
  ASSERT_TRUE(as_mfa && as_mfa2);
  EXPECT_EQ((*as_mfa)->kind(), PackageKind::Mfa);
  EXPECT_EQ((*as_mfa2)->kind(), PackageKind::Mfa2);
  ASSERT_EQ((*as_mfa)->images().size(), (*as_mfa2)->images().size());
  for (std::size_t i = 0; i < psids_.size(); ++i) {
    EXPECT_EQ((*as_mfa)->images()[i].psid, (*as_mfa2)->images()[i].psid);
    EXPECT_EQ((*as_mfa)->images()[i].size, (*as_mfa2)->images()[i].size);
  }
  // ... and repacking the MFA2 again keeps every byte of the chosen board.
  const auto again = (dir_ / "again.mfa2").string();
  auto r2 = run_tool("flint", {"-i", out, "archive", "create", "--format", "mfa2", "--psid", psids_[2], "-o", again});
  ASSERT_EQ(r2.exit_code, 0) << r2.err;
  auto package2 = Mfa2Package::open(again);
  ASSERT_TRUE(package2);
  EXPECT_EQ(component_of(*package2, psids_[2]), images_[2]);
}

TEST_F(Mfa2Repack, ChosenPsidsOnly) {
  const auto out = (dir_ / "two.mfa2").string();
  auto r = run_tool("flint", {"-i", archive_, "archive", "create", "--format", "mfa2", "--psid", psids_[2], "--psid",
                              psids_[0], "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto list = run_tool("flint", {"-i", out, "--json", "archive", "list"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const auto doc = nlohmann::json::parse(list.out);
  ASSERT_EQ(doc["devices"].size(), 2u);
  EXPECT_EQ(doc["devices"][0]["psid"], psids_[0]);
  EXPECT_EQ(doc["devices"][1]["psid"], psids_[2]);
  auto q = run_tool("flint", {"-i", out, "--psid", psids_[2], "--json", "q"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(nlohmann::json::parse(q.out)["psid"], psids_[2]);
}

TEST_F(Mfa2Repack, UnknownPsidOrBadUsageWritesNothing) {
  const auto out = dir_ / "none.mfa2";
  auto r = run_tool("flint", {"-i", archive_, "archive", "create", "--format", "mfa2", "--psid", "MT_NOT_THERE", "-o",
                              out.string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("MT_NOT_THERE"), std::string::npos) << r.err;
  const auto image = dir_ / "one.bin";
  write_file(image, images_[0]);
  auto both = run_tool("flint", {"-i", archive_, "archive", "create", "--format", "mfa2", "--bins", image.string(), "-o",
                                 out.string()});
  EXPECT_EQ(both.exit_code, 2) << both.err;  // usage
  auto neither = run_tool("flint", {"archive", "create", "--format", "mfa2", "-o", out.string()});
  EXPECT_EQ(neither.exit_code, 2) << neither.err;
  auto plain = run_tool("flint", {"-i", image.string(), "archive", "create", "--format", "mfa2", "-o", out.string()});
  EXPECT_EQ(plain.exit_code, 3) << plain.err;  // an image is not a package to repack
  EXPECT_NE(plain.err.find("not a firmware package"), std::string::npos) << plain.err;
  for (const auto& entry : std::filesystem::directory_iterator(dir_.path()))
    EXPECT_EQ(entry.path().filename().string().find("none.mfa2"), std::string::npos) << entry.path();  // no temp either
  // --psid before the subcommand picks a board as well.
  auto before = run_tool("flint", {"-i", archive_, "--psid", psids_[1], "--json", "archive", "create", "--format", "mfa2",
                                   "-o", (dir_ / "one.mfa2").string()});
  ASSERT_EQ(before.exit_code, 0) << before.err;
  EXPECT_EQ(nlohmann::json::parse(before.out)["psids"], nlohmann::json({psids_[1]}));
}

}  // namespace
}  // namespace openflint::test
