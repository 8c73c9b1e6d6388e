// (d) Quantum and Quantum-2, the InfiniBand switches of today, on an ibsim fabric answering vendor
// MADs: our flint queries each over lid-N (the running firmware from MGIR too), the unmodified
// mstflint queries it in-band (with --ocr, as docs/inband.md says mstflint 4.21 needs for
// livefish-capable hw ids), and one `ibfwmgr update` brings both to the new samples, each keeping
// its own GUIDs, MACs and VSD.
#include <regex>

#include "tests/inband/DeviceFabricFixture.h"
#include "tests/todays_switches/SwitchModels.h"

namespace openflint::test {
namespace {

class TodaysSwitchInband : public DeviceFabricFixture {
 protected:
  static std::string version(const std::string& sample) {
    return flint_query_json({"-i", sample_image(sample).string()})["fw_version"];
  }
  static std::string field(const std::string& out, const std::string& name) {
    const std::regex line("(^|\n)" + name + ":\\s+([^\n]*)");
    std::smatch m;
    return std::regex_search(out, m, line) ? m[2].str() : std::string();
  }
};

TEST_F(TodaysSwitchInband, FlintMstflintAndIbfwmgrOnQuantumAndQuantum2) {
  for (const char* s : {"quantum-old", "quantum-new", "quantum2-old", "quantum2-new"})
    ASSERT_TRUE(std::filesystem::exists(sample_image(s))) << s << " was not built";
  const BoardIdentity qa{0x0002c90300a7a700ull, 0x0002c9a7a700ull, "Quantum board"};
  const BoardIdentity qb{0x0002c90300b8b800ull, 0x0002c9b8b800ull, "Quantum-2 board"};
  const auto a = dir_.path() / "quantum-board.bin", b = dir_.path() / "quantum2-board.bin";
  make_board_image("quantum", a, qa);
  make_board_image("quantum2", b, qb);
  bring_up({{"Switch1", "quantum", a}, {"Switch2", "quantum2", b}});
  if (HasFatalFailure() || IsSkipped()) return;

  struct Node {
    const char* node;
    const char* model;
    const char* name;
    const BoardIdentity& id;
  };
  const Node nodes[] = {{"Switch1", "quantum", "Quantum", qa}, {"Switch2", "quantum2", "Quantum-2", qb}};
  for (const Node& n : nodes) {
    SCOPED_TRACE(n.node);
    const std::string old_version = version(std::string(n.model) + "-old");
    const auto q = query(n.node);
    expect_board(q, n.id, old_version);
    EXPECT_EQ(q["running"]["fw_version"], old_version) << q.dump(2);
    const auto text = flint(n.node, {"q"});
    EXPECT_NE(text.out.find(n.name), std::string::npos) << text.out;
    if (have_program("mstflint")) {
      const auto theirs = run({"mstflint", "-d", lid_name(n.node), "--ocr", "q"});
      EXPECT_EQ(theirs.exit_code, 0) << theirs.out << theirs.err;
      EXPECT_EQ(field(theirs.out, "FW Version"), old_version) << theirs.out << theirs.err;
      EXPECT_EQ(field(theirs.out, "Device VSD"), n.id.vsd) << theirs.out;
      EXPECT_EQ(field(theirs.out, "PSID"), q["psid"]) << theirs.out;
    }
  }

  const auto images = dir_.path() / "images";
  std::filesystem::create_directories(images);
  for (const char* s : {"quantum-new", "quantum2-new"})
    std::filesystem::copy_file(sample_image(s), images / (std::string(s) + ".bin"));
  const int updated = update_keeping_identity(images, "in-band");
  ASSERT_GE(updated, 0);
  EXPECT_EQ(updated, 2);
  for (const Node& n : nodes) {
    SCOPED_TRACE(n.node);
    const std::string new_version = version(std::string(n.model) + "-new");
    expect_board(query(n.node), n.id, new_version);
    const auto v = flint(n.node, {"v"});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  }
}

}  // namespace
}  // namespace openflint::test
