// Interop: the Debian mstreg and our mst reg on a served simulated ConnectX-4: every field we
// decode has mstreg's name, position and value; a value mstreg writes our get reads back.
#include <map>
#include <regex>
#include <sstream>

#include "tests/pci_cli/PciServeFixture.h"

namespace openflint::test {
namespace {

class MstregPci : public PciServeFixture {
 protected:
  // name → "0x........" from a "Field Name | Data" or --show_reg table (first occurrence).
  static std::map<std::string, std::string> table(const std::string& text) {
    std::map<std::string, std::string> out;
    std::istringstream in(text);
    std::string line;
    const std::regex row("^(\\S+) +\\| (.*\\S)\\s*$");
    std::smatch m;
    while (std::getline(in, line))
      if (std::regex_match(line, m, row) && m[1] != "Field") out.emplace(m[1], std::regex_replace(m[2].str(), std::regex(" +"), " "));
    return out;
  }
};

TEST_F(MstregPci, FieldsAgreeWithMstregAndWritesAreReadBack) {
  for (const char* tool : {"mstreg", "unshare", "mount", "timeout"})
    if (!have_program(tool)) GTEST_SKIP() << tool << " is not installed; mstreg interop not checked";
  if (::geteuid() != 0) GTEST_SKIP() << "not root: cannot bind-mount over /sys/bus/pci in a mount namespace";
  const auto dev = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  if (!serve({dev})) return;
  if (const std::string problem = pci_namespace_problem(); !problem.empty()) GTEST_SKIP() << problem;
  auto ours = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {bin("mst").string(), "reg", "03:00.0"});
    return run_command(args, tool_env());
  };
  auto theirs = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"mstreg", "-d", "03:00.0"});
    return in_pci_namespace(args, 60);
  };
  for (const std::vector<std::string>& reg : {std::vector<std::string>{"MGIR"}, {"MFRL"}, {"MNVGC"},
                                              {"MNVQC", "type=0x01010012"}, {"MNVQC", "type=0x00000099"},
                                              {"MTMP", "sensor_index=0,slot_index=0"}}) {
    std::vector<std::string> a{"--reg_name", reg[0], "--get"}, b = a;
    if (reg.size() > 1) {
      a.insert(a.end(), {"--indexes", reg[1]});
      b.insert(b.end(), {"--indexes", reg[1]});
    }
    const auto o = ours(a), t = theirs(b);
    ASSERT_EQ(o.exit_code, 0) << reg[0] << ": " << o.err;
    ASSERT_EQ(t.exit_code, 0) << reg[0] << ": " << t.out << t.err;
    const auto mine = table(o.out), its = table(t.out);
    ASSERT_GE(mine.size(), 2u) << o.out;
    for (const auto& [name, value] : mine) {
      ASSERT_EQ(its.count(name), 1u) << reg[0] << ": mstreg has no field " << name;
      EXPECT_EQ(its.at(name), value) << reg[0] << "." << name;
    }
    // Same positions and sizes as mstreg's register database.
    const auto layout_ours = table(ours({"--reg_name", reg[0], "--show_reg"}).out);
    const auto layout_theirs = table(theirs({"--show_reg", reg[0]}).out);
    ASSERT_EQ(layout_ours.size(), mine.size());
    for (const auto& [name, where] : layout_ours) {
      ASSERT_EQ(layout_theirs.count(name), 1u) << reg[0] << ": mstreg --show_reg has no " << name;
      EXPECT_EQ(layout_theirs.at(name), where) << reg[0] << "." << name;
    }
  }
  // The tracer's registers: the same names, positions, sizes and access as mstreg's database
  // (their values need the simulated tracer; mst trace's tests read them).
  for (const char* reg : {"MTRC_CAP", "MTRC_CONF", "MTRC_STDB", "MTRC_CTRL"}) {
    const auto layout_ours = table(ours({"--reg_name", reg, "--show_reg"}).out);
    const auto layout_theirs = table(theirs({"--show_reg", reg}).out);
    ASSERT_GE(layout_ours.size(), 3u) << reg;
    for (const auto& [name, where] : layout_ours) {
      ASSERT_EQ(layout_theirs.count(name), 1u) << reg << ": mstreg --show_reg has no " << name;
      EXPECT_EQ(layout_theirs.at(name), where) << reg << "." << name;
    }
  }
  // mstreg arms the firmware reset (MFRL reset_trigger, read-modify-write); mst reset's plan
  // (which reads MFRL) shows it armed.
  const auto before = run_command({bin("mst").string(), "reset", "03:00.0", "--no"}, tool_env());
  EXPECT_EQ(before.out.find("state: armed"), std::string::npos) << before.out;
  const auto w = theirs({"--reg_name", "MFRL", "--set", "reset_trigger=0x8", "--yes"});
  ASSERT_EQ(w.exit_code, 0) << w.out << w.err;
  const auto plan = run_command({bin("mst").string(), "reset", "03:00.0", "--no"}, tool_env());
  EXPECT_NE(plan.out.find("state: armed, waiting for the PCI reset"), std::string::npos) << plan.out << plan.err;
}

}  // namespace
}  // namespace openflint::test
