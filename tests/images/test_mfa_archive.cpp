// Tests: MfaWriter -> MfaArchive round trips, listing, one-pass extraction, extract_to_file.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "tests/images/MfaTestArchive.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ResultMatchers.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

std::vector<MfaBoardSpec> four_boards() {
  return {sample_board("MT_0000000001", 5000, 1), sample_board("MT_0000000002", 70000, 2),
          sample_board("IBM0000000028", 123, 3), sample_board("TJ_0000000001", 3 << 20, 4)};
}

// Built once: compressing the 3 MiB board dominates the test time.
const std::vector<std::uint8_t>& four_board_archive() {
  static const std::vector<std::uint8_t> bytes = build_archive(four_boards());
  return bytes;
}

TEST(MfaArchive, RoundTripOneBoard) {
  const MfaBoardSpec spec = sample_board("MT_0000000199", 40000, 7);
  auto archive = MfaArchive::from_bytes(build_archive({spec}, MfaWriteOptions{}));  // preset 6
  ASSERT_THAT(archive, IsOk());
  ASSERT_EQ(archive->boards().size(), 1u);
  const MfaBoard& board = archive->boards()[0];
  EXPECT_EQ(board.psid, "MT_0000000199");
  EXPECT_EQ(board.part_number, spec.part_number);
  EXPECT_EQ(board.description, spec.description);
  ASSERT_TRUE(board.fw_version.has_value());
  EXPECT_EQ(*board.fw_version, spec.version);
  ASSERT_NE(board.firmware(), nullptr);
  EXPECT_EQ(board.firmware()->data_size, spec.image.size());
  EXPECT_EQ(archive->data_unpacked_size(), spec.image.size());

  std::vector<std::uint8_t> out;
  auto done = archive->extract(board, collect_into(out));
  ASSERT_THAT(done, IsOk());
  EXPECT_EQ(out, spec.image);
}

TEST(MfaArchive, OpenFromFileKeepsStoredCrc) {
  TempDir dir;
  const auto bytes = build_archive({sample_board("MT_0000000001", 1000, 1)});
  write_file(dir / "a.mfa", bytes);
  auto archive = MfaArchive::open((dir / "a.mfa").string());
  ASSERT_THAT(archive, IsOk());
  EXPECT_EQ(archive->stored_crc(), ByteReader::load_be32(bytes.data() + bytes.size() - 4));
  auto missing = MfaArchive::open((dir / "nope.mfa").string());
  ASSERT_THAT(missing, FailsWith(ErrorCode::NotFound));
}

TEST(MfaArchive, MultipleBoardsListInOrderAndExtractExactly) {
  const auto specs = four_boards();
  auto archive = MfaArchive::from_bytes(four_board_archive());
  ASSERT_THAT(archive, IsOk());
  ASSERT_EQ(archive->boards().size(), specs.size());
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const MfaBoard& board = archive->boards()[i];
    EXPECT_EQ(board.psid, specs[i].psid);
    EXPECT_EQ(board.metadata.at("PN"), specs[i].part_number);
    EXPECT_EQ(board.fw_version, std::optional<FwVersion>(specs[i].version));
    std::vector<std::uint8_t> out;
    ASSERT_TRUE(archive->extract(board, collect_into(out)).has_value());
    EXPECT_EQ(out, specs[i].image) << board.psid;
    total += specs[i].image.size();
  }
  EXPECT_EQ(archive->data_unpacked_size(), total);
}

TEST(MfaArchive, ExtractManyIsOnePassAndStopsAtLastWantedByte) {
  const auto specs = four_boards();
  auto archive = MfaArchive::from_bytes(four_board_archive());
  ASSERT_THAT(archive, IsOk());
  const auto& boards = archive->boards();
  // Out of order, with one board twice; board 3 (the last in DATA) is not wanted.
  std::vector<std::vector<std::uint8_t>> outs(4);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
  auto done = archive->extract_many(
      {&boards[2], &boards[0], &boards[1], &boards[2]},
      {collect_into(outs[0]), collect_into(outs[1]), collect_into(outs[2]), collect_into(outs[3])},
      [&calls](std::uint64_t d, std::uint64_t t) { calls.emplace_back(d, t); });
  ASSERT_THAT(done, IsOk());
  EXPECT_EQ(outs[0], specs[2].image);
  EXPECT_EQ(outs[1], specs[0].image);
  EXPECT_EQ(outs[2], specs[1].image);
  EXPECT_EQ(outs[3], specs[2].image);
  // Progress: monotonic, from 0 to the end of board 2 — nothing of board 3 was decoded.
  const std::uint64_t stop = specs[0].image.size() + specs[1].image.size() + specs[2].image.size();
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.front().first, 0u);
  EXPECT_EQ(calls.back(), std::make_pair(stop, stop));
  EXPECT_TRUE(std::is_sorted(calls.begin(), calls.end()));
}

TEST(MfaArchive, SinkChunksAreBounded) {
  const auto specs = four_boards();
  auto archive = MfaArchive::from_bytes(four_board_archive());
  ASSERT_TRUE(archive.has_value());
  std::size_t chunks = 0;
  std::size_t largest = 0;
  std::vector<std::uint8_t> out;
  auto done = archive->extract(archive->boards()[3], [&](Bytes chunk) -> Result<void> {
    ++chunks;
    largest = std::max(largest, chunk.size());
    out.insert(out.end(), chunk.begin(), chunk.end());
    return {};
  });
  ASSERT_THAT(done, IsOk());
  EXPECT_EQ(out, specs[3].image);
  EXPECT_LE(largest, MfaArchive::kChunkSize);
  EXPECT_GE(chunks, 3u);  // a 3 MiB image in chunks of at most 1 MiB
}

TEST(MfaArchive, UncompressedSectionsRoundTrip) {
  const auto specs = four_boards();
  auto archive = MfaArchive::from_bytes(build_archive(specs, MfaWriteOptions{1, false}));
  ASSERT_THAT(archive, IsOk());
  std::vector<std::uint8_t> a, b;
  ASSERT_TRUE(archive->extract_many({&archive->boards()[3], &archive->boards()[1]},
                                    {collect_into(a), collect_into(b)}).has_value());
  EXPECT_EQ(a, specs[3].image);
  EXPECT_EQ(b, specs[1].image);
}

TEST(MfaArchive, FindBoard) {
  auto archive = MfaArchive::from_bytes(four_board_archive());
  ASSERT_TRUE(archive.has_value());
  auto found = archive->find_board("IBM0000000028");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ((*found)->psid, "IBM0000000028");
  auto unknown = archive->find_board("MT_9999999999");
  ASSERT_THAT(unknown, FailsWith(ErrorCode::NotFound));
  EXPECT_NE(unknown.error().message().find("MT_9999999999"), std::string::npos);
}

TEST(MfaArchive, BoardWithoutFirmwareAndBadArgumentsAreRefused) {
  auto archive = MfaArchive::from_bytes(four_board_archive());
  ASSERT_TRUE(archive.has_value());
  MfaBoard bare;
  bare.psid = "MT_0000000001";
  std::vector<std::uint8_t> out;
  auto none = archive->extract(bare, collect_into(out));
  ASSERT_THAT(none, FailsWith(ErrorCode::NotFound));
  auto mismatch = archive->extract_many({&archive->boards()[0]}, {});
  ASSERT_THAT(mismatch, FailsWith(ErrorCode::InvalidArgument));
}

TEST(MfaArchive, SinkErrorStopsTheExtractionWithContext) {
  auto archive = MfaArchive::from_bytes(four_board_archive());
  ASSERT_TRUE(archive.has_value());
  int calls = 0;
  auto done = archive->extract(archive->boards()[3], [&calls](Bytes) -> Result<void> {
    ++calls;
    return make_error(ErrorCode::Io, "disk full");
  });
  ASSERT_THAT(done, FailsWith(ErrorCode::Io));
  EXPECT_NE(done.error().message().find("TJ_0000000001"), std::string::npos) << done.error().message();
  EXPECT_EQ(calls, 1);
}

TEST(MfaArchive, ExtractToFileWritesAndLeavesNoTempFile) {
  const auto specs = four_boards();
  auto archive = MfaArchive::from_bytes(four_board_archive());
  ASSERT_TRUE(archive.has_value());
  TempDir dir;
  const fs::path target = dir / "board.bin";
  ASSERT_TRUE(archive->extract_to_file(archive->boards()[1], target.string()).has_value());
  EXPECT_EQ(read_file(target), specs[1].image);
  // Replaces an existing file.
  ASSERT_TRUE(archive->extract_to_file(archive->boards()[2], target.string()).has_value());
  EXPECT_EQ(read_file(target), specs[2].image);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}), 1);
  auto bad = archive->extract_to_file(archive->boards()[0], (dir / "no/such/dir/x.bin").string());
  ASSERT_THAT(bad, FailsWith(ErrorCode::Io));
}

TEST(MfaWriter, RefusesFieldsThatDoNotFit) {
  MfaWriter writer;
  EXPECT_FALSE(writer.add_board(sample_board(std::string(32, 'A'), 10, 1)).has_value());
  EXPECT_FALSE(writer.add_board(sample_board("", 10, 1)).has_value());
  MfaBoardSpec long_text = sample_board("MT_1", 10, 1);
  long_text.description.assign(70000, 'x');
  EXPECT_FALSE(writer.add_board(long_text).has_value());
  EXPECT_TRUE(writer.add_board(sample_board(std::string(31, 'A'), 10, 1)).has_value());
  auto empty = MfaArchive::from_bytes(MfaWriter().build().value());
  ASSERT_THAT(empty, IsOk());
  EXPECT_TRUE(empty->boards().empty());
}

}  // namespace
}  // namespace openflint::test
