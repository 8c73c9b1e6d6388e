// Robustness: 10,000 deterministic random truncations and bit flips of small images of every
// format (FS1-FS4, MFA). Run under ASan+UBSan by scripts/test.sh: no crash, no report — and a
// damaged CRC-covered byte must never verify as bootable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "image/FirmwareImage.h"
#include "image/Fs1Writer.h"
#include "image/Fs2Writer.h"
#include "image/MfaArchive.h"
#include "image/MfaWriter.h"
#include "tests/support/SyntheticImage.h"

namespace openflint {
namespace {

constexpr int kTruncations = 1000;  // per format
constexpr int kFlips = 1000;        // per format

std::vector<gph::GphSection> code_sections() {
  std::vector<std::uint8_t> ddr(1024);
  for (std::size_t i = 0; i < ddr.size(); ++i) ddr[i] = static_cast<std::uint8_t>(i * 7 + 1);
  return {{gph::kDdr, ddr, 0}, {gph::kJmp, std::vector<std::uint8_t>(32, 0x33), 0}};
}

std::vector<std::uint8_t> small_fs1() {
  Fs1ImageSpec s;
  s.fw_version = {5, 3, 0};
  s.psid = "MT_0370110001";
  s.ini = "[PS_INFO]\nName = MHGA28\n";
  s.sections = code_sections();
  s.log2_sector_size = 12;
  return write_fs1_image(s).value();
}

std::vector<std::uint8_t> small_fs2() {
  Fs2ImageSpec s;
  s.fw_version = {2, 42, 5000};
  s.psid = "MT_1090120019";
  s.ini = "[PS_INFO]\nName = MCX354A\n";
  s.sections = code_sections();
  return write_fs2_image(s).value();
}

// Byte ranges whose every bit is covered by a CRC in a bootable report (OK sections only).
// Small header blocks end in a CRC dword whose upper half is reserved (and an unused FS4 HW
// pointer, 0xFFFFFFFF, has its CRC ignored, as mstflint does): only their data part counts.
std::vector<std::pair<std::uint64_t, std::uint64_t>> covered(const VerifyReport& report) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (const auto& s : report.sections) {
    if (s.status != SectionStatus::Ok || s.size == 0) continue;
    const bool header = s.name == "HW_POINTERS" || s.name == "ITOC_HEADER" ||
                        s.name == "DTOC_HEADER" || s.name == "TOOLS_AREA";
    const std::uint64_t end = s.start + s.size - (header ? 4 : 0);
    if (end > s.start) ranges.emplace_back(s.start, end);
  }
  return ranges;
}

bool bootable(Bytes data) {
  auto report = verify_image(data);
  (void)query_image(data);
  (void)dump_config(data);
  return report.has_value() && report->bootable();
}

struct Tally {
  int runs = 0;
  int rejected = 0;  // error or not bootable
};

void mutate_image(const char* label, const std::vector<std::uint8_t>& original, Tally& tally) {
  auto base = verify_image(original);
  ASSERT_TRUE(base.has_value()) << label << ": " << base.error().message();
  ASSERT_TRUE(base->bootable()) << label;
  const auto ranges = covered(*base);
  std::uint64_t covered_end = 0;
  for (const auto& r : ranges) covered_end = std::max(covered_end, r.second);
  std::mt19937_64 rng(0x0f11a7 + original.size());

  for (int i = 0; i < kTruncations; ++i) {
    const std::size_t len = std::uniform_int_distribution<std::size_t>(0, original.size() - 1)(rng);
    // An exactly sized heap copy, so ASan sees any read past the cut.
    std::vector<std::uint8_t> cut(original.begin(), original.begin() + static_cast<long>(len));
    const bool ok = bootable(cut);
    ++tally.runs;
    tally.rejected += ok ? 0 : 1;
    if (len < covered_end) {
      EXPECT_FALSE(ok) << label << ": truncated to " << len << " still bootable";
    }
  }
  std::vector<std::uint8_t> work = original;
  for (int i = 0; i < kFlips; ++i) {
    // Mostly flips inside CRC-covered ranges, some anywhere.
    std::uint64_t at;
    const bool in_range = !ranges.empty() && (i % 4 != 0);
    if (in_range) {
      const auto& r = ranges[std::uniform_int_distribution<std::size_t>(0, ranges.size() - 1)(rng)];
      at = std::uniform_int_distribution<std::uint64_t>(r.first, r.second - 1)(rng);
    } else {
      at = std::uniform_int_distribution<std::uint64_t>(0, work.size() - 1)(rng);
    }
    const auto mask = static_cast<std::uint8_t>(1u << std::uniform_int_distribution<int>(0, 7)(rng));
    work[at] ^= mask;
    const bool ok = bootable(work);
    work[at] ^= mask;
    ++tally.runs;
    tally.rejected += ok ? 0 : 1;
    if (in_range) {
      EXPECT_FALSE(ok) << label << ": bit flip at 0x" << std::hex << at << " not detected";
    }
  }
}

TEST(Mutations, TenThousandTruncationsAndBitFlipsNeverCrashOrPass) {
  Tally tally;
  mutate_image("FS1", small_fs1(), tally);
  mutate_image("FS2", small_fs2(), tally);
  mutate_image("FS3", test::build_fs3().bytes, tally);
  mutate_image("FS4", test::build_fs4().bytes, tally);

  // MFA: every truncation and every single-bit flip must fail to open (CRC32 and structure).
  MfaWriter writer;
  ASSERT_TRUE(writer.add_board({"MT_0000000001", "PN-1", "board one", {1, 2, 3}, small_fs2()}).has_value());
  ASSERT_TRUE(writer.add_board({"MT_0000000002", "PN-2", "board two", {1, 2, 3}, small_fs1()}).has_value());
  const auto archive = writer.build().value();
  std::mt19937_64 rng(42);
  for (int i = 0; i < kTruncations; ++i) {
    const std::size_t len = std::uniform_int_distribution<std::size_t>(0, archive.size() - 1)(rng);
    auto opened = MfaArchive::from_bytes({archive.begin(), archive.begin() + static_cast<long>(len)});
    ++tally.runs;
    tally.rejected += opened ? 0 : 1;
    EXPECT_FALSE(opened.has_value()) << "MFA truncated to " << len << " opened";
  }
  for (int i = 0; i < kFlips; ++i) {
    auto copy = archive;
    const std::size_t at = std::uniform_int_distribution<std::size_t>(0, copy.size() - 1)(rng);
    copy[at] ^= static_cast<std::uint8_t>(1u << (i % 8));
    auto opened = MfaArchive::from_bytes(std::move(copy));
    ++tally.runs;
    tally.rejected += opened ? 0 : 1;
    EXPECT_FALSE(opened.has_value()) << "MFA with bit flip at " << at << " opened";
  }
  std::printf("mutations: %d inputs, %d rejected (error or not bootable)\n", tally.runs, tally.rejected);
  EXPECT_GE(tally.runs, 10000);
}

}  // namespace
}  // namespace openflint
