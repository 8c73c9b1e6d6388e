// Hostile inputs, classes "truncation" and "size fields pointing anywhere": query and verify answer in bounds, never crash.
#include <algorithm>

#include "tests/hostile/HostileFixture.h"

namespace openflint::test {
namespace {

// Cut points spread over the image plus the first bytes, where the headers are.
std::vector<std::size_t> cut_points(std::size_t size) {
  std::vector<std::size_t> cuts{0, 1, 4, 16, 31, 32, 33, 64, 255, 256};
  for (std::size_t i = 1; i < 24; ++i) cuts.push_back(size * i / 24);
  cuts.push_back(size - 1);
  return cuts;
}

// One hostile image and what it is, for failure messages.
struct Case {
  std::string image;
  std::string label;
};

// Runs q and v on every case (run_hostile_many: a few at a time), then checks each in order;
// returns v's exit codes.
std::vector<int> expect_bounded_answers(const std::vector<Case>& cases) {
  std::vector<HostileCommand> commands;
  for (const Case& c : cases) {
    commands.push_back({"flint", "-i", c.image, "q"});
    commands.push_back({"flint", "-i", c.image, "v"});
  }
  const std::vector<HostileRun> runs = run_hostile_many(commands);
  std::vector<int> codes;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].label);
    const HostileRun& q = runs[2 * i];
    const HostileRun& v = runs[2 * i + 1];
    expect_orderly(q);
    expect_orderly(v);
    // v answers bootable (0), not bootable (1) or bad image (3); anything else is a wrong answer.
    EXPECT_TRUE(v.result.exit_code == 0 || v.result.exit_code == 1 || v.result.exit_code == 3)
        << v.command << ": exit " << v.result.exit_code << "\n" << v.result.err;
    codes.push_back(v.result.exit_code);
  }
  return codes;
}

TEST_F(HostileTest, TruncatedImagesGetBoundedAnswers) {
  const std::vector<std::uint8_t> image = hostile_fs2_image();
  ASSERT_GT(image.size(), 1024u);
  std::vector<Case> cases;
  for (std::size_t cut : cut_points(image.size())) {
    const std::string name = "cut-" + std::to_string(cut) + ".bin";
    cases.push_back({write(name, {image.begin(), image.begin() + static_cast<std::ptrdiff_t>(cut)}),
                     "cut at " + std::to_string(cut)});
  }
  const std::vector<int> codes = expect_bounded_answers(cases);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    // A truncated image is never bootable: the last section cannot be whole.
    EXPECT_NE(codes[i], 0) << cases[i].label;
  }
  RecordProperty("cases", static_cast<int>(cases.size()));
}

TEST_F(HostileTest, SizeAndPointerFieldsPointingAnywhereGetBoundedAnswers) {
  const std::vector<std::uint8_t> image = hostile_fs2_image();
  // Every 32-bit word of the headers (first 256 bytes) and a spread of words beyond, each set to
  // values that as a size or pointer reach past the end or wrap.
  std::vector<std::size_t> offsets;
  for (std::size_t at = 0; at < std::min<std::size_t>(256, image.size()); at += 4) offsets.push_back(at);
  for (std::size_t i = 0; i < 16; ++i) offsets.push_back((image.size() * i / 16) & ~std::size_t{3});
  const std::uint32_t values[] = {0xffffffffu, 0x7ffffffcu};
  std::vector<Case> cases;
  for (std::size_t at : offsets) {
    for (std::uint32_t value : values) {
      std::vector<std::uint8_t> bad = image;
      if (at + 4 > bad.size()) continue;
      for (int b = 0; b < 4; ++b) bad[at + b] = static_cast<std::uint8_t>(value >> (24 - 8 * b));
      if (bad == image) continue;
      const std::string what = "word at " + std::to_string(at) + " = " + std::to_string(value);
      // Offsets may repeat (the spread can land in the headers): one file per case.
      cases.push_back({write("bad-" + std::to_string(cases.size()) + ".bin", bad), what});
    }
  }
  (void)expect_bounded_answers(cases);
  EXPECT_GT(cases.size(), 100u);
  RecordProperty("cases", static_cast<int>(cases.size()));
}

}  // namespace
}  // namespace openflint::test
