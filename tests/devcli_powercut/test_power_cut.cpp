// test_power_cut: `flint ww` on a sim: device needing an erase, with the power cut after every single flash op
// (label powercut: one tool run per cut, so it runs in the release build).
#include <filesystem>
#include <random>

#include "tests/devcli/DevcliFixture.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kSector = 0x3000;
constexpr std::uint32_t kWordOffset = 0x10;

std::uint64_t flash_ops(const nlohmann::json& show) {
  return show["counters"]["erases"].get<std::uint64_t>() + show["counters"]["programs"].get<std::uint64_t>();
}

TEST_F(DevcliTest, WwUnderPowerCutAtEveryOpKeepsTheSector) {
  create("connectx4", {}, "template");
  std::vector<std::uint8_t> old(4096);
  std::mt19937 gen(11);
  for (auto& b : old) b = static_cast<std::uint8_t>(gen() | 0x01);  // bit 0 set: the new word needs an erase
  ASSERT_EQ(flint({"-d", dev("template"), "wb", write("old.bin", old), "0x3000"}).exit_code, 0);
  const std::string addr = "0x3010";
  const std::string value = "0xfefefefe";  // sets bits that are 0 in the old data
  const std::vector<std::uint8_t> new_word{0xfe, 0xfe, 0xfe, 0xfe};

  // How many erase/program ops does the uninterrupted write take?
  fs::copy(dir_ / "template", dir_ / "probe", fs::copy_options::recursive);
  const std::uint64_t before = flash_ops(parse_json(hcasim({"show", dev_path("probe"), "--json"})));
  ASSERT_EQ(flint({"-d", dev("probe"), "ww", addr, value}).exit_code, 0);
  const std::uint64_t total = flash_ops(parse_json(hcasim({"show", dev_path("probe"), "--json"}))) - before;
  ASSERT_GT(total, 4u);

  int kept_old = 0;
  int got_new = 0;
  for (std::uint64_t cut = 1; cut <= total; ++cut) {
    SCOPED_TRACE("power cut after op " + std::to_string(cut) + " of " + std::to_string(total));
    const std::string name = "cut" + std::to_string(cut);
    fs::copy(dir_ / "template", dir_ / name, fs::copy_options::recursive);
    ASSERT_EQ(hcasim({"fault", dev_path(name), "--power-cut-after-ops", std::to_string(cut)}).exit_code, 0);
    const auto ww = flint({"-d", dev(name), "ww", addr, value});
    EXPECT_EQ(ww.exit_code, 4) << ww.out << ww.err;
    ASSERT_EQ(hcasim({"power-on", dev_path(name)}).exit_code, 0);
    const std::string out = (dir_ / (name + ".bin")).string();
    ASSERT_EQ(flint({"-d", dev(name), "rb", "0x3000", "4096", out}).exit_code, 0);  // finishes the journal
    const auto now = read_file(out);
    ASSERT_EQ(now.size(), old.size());
    for (std::size_t i = 0; i < now.size(); ++i) {
      if (i >= kWordOffset && i < kWordOffset + 4) continue;
      ASSERT_EQ(now[i], old[i]) << "byte " << i << " of the sector changed";
    }
    const std::vector<std::uint8_t> word(now.begin() + kWordOffset, now.begin() + kWordOffset + 4);
    const std::vector<std::uint8_t> old_word(old.begin() + kWordOffset, old.begin() + kWordOffset + 4);
    if (word == old_word) {
      ++kept_old;
    } else {
      EXPECT_EQ(word, new_word);
      ++got_new;
    }
    // The scratch sectors are blank again, ready for the next write.
    const std::string scratch = (dir_ / (name + ".scratch")).string();
    ASSERT_EQ(flint({"-d", dev(name), "rb", "0x3fe000", "0x2000", scratch}).exit_code, 0);
    const auto s = read_file(scratch);
    EXPECT_TRUE(std::all_of(s.begin(), s.end(), [](std::uint8_t b) { return b == 0xff; }));
    fs::remove_all(dir_ / name);
  }
  EXPECT_GT(kept_old, 0);  // cut before the copy was complete: the old sector stays
  EXPECT_GT(got_new, 0);   // cut after: recovery finished the write
}

TEST_F(DevcliTest, UnsafeRewriteNeedsForce) {
  create("connectx4", {});
  // Occupy the scratch area (the top two sectors): only --force may write there.
  // docs/flash-writes.md: a scratch sector is never a direct write's target, even when the
  // write only clears bits.
  auto r = flint({"-d", dev(), "ww", "0x3ff000", "0x0"});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  r = flint({"-d", dev(), "--force", "ww", "0x3ff000", "0x0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = flint({"-d", dev(), "ww", "0x3ff000", "0x1"});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_NE(r.err.find("--force"), std::string::npos) << r.err;
  // With foreign data in the scratch area, a write elsewhere that needs an erase is refused.
  ASSERT_EQ(flint({"-d", dev(), "ww", "0x5000", "0x0"}).exit_code, 0);
  r = flint({"-d", dev(), "ww", "0x5000", "0x1"});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_NE(r.err.find("not blank"), std::string::npos) << r.err;
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x5000"}).out, "0x00000000\n");
  const auto forced = parse_json(flint({"-d", dev(), "--force", "ww", "0x5000", "0x1", "--json"}));
  EXPECT_EQ(forced["sectors_forced"], 1);
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x5000"}).out, "0x00000001\n");
}

}  // namespace
}  // namespace openflint::test
