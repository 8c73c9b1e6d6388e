// mst mread / mwrite / dump on simulated devices (sim:PATH): output format, persistence through
// commit, exit codes and single -E- lines for bad input, the --json documents, stable output.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

class MstRegisters : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto r = run_tool("hcasim", {"create", "--model", "connectx4", dev_.string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  static CommandResult mst(std::vector<std::string> args) { return run_tool("mst", std::move(args)); }
  // Exactly one line on stderr, starting with -E-.
  static void expect_one_error_line(const CommandResult& r) {
    EXPECT_TRUE(r.err.starts_with("-E- ")) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  TempDir dir_;
  std::filesystem::path dev_ = dir_ / "cx4";
  std::string sim_ = "sim:" + dev_.string();
};

TEST_F(MstRegisters, MreadPrintsOneHexLinePerDword) {
  const auto r = mst({"mread", sim_, "0xf0010", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0x000f0010 0x00000000\n0x000f0014 0x00000209\n0x000f0018 0x00000000\n");
  EXPECT_EQ(mst({"mread", sim_, "983060"}).out, "0x000f0014 0x00000209\n");  // decimal address
}

TEST_F(MstRegisters, MwriteIsSavedAndReadBack) {
  auto w = mst({"mwrite", sim_, "0x20", "0xdeadbeef"});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(w.out, "");
  EXPECT_EQ(mst({"mread", sim_, "0x20"}).out, "0x00000020 0xdeadbeef\n");
  // The saved state holds it (another process, a fresh load).
  auto saved = sim::SimDevice::load_state(dev_);
  ASSERT_TRUE(saved) << saved.error().message();
  EXPECT_EQ((*saved)->peek32(0x20), 0xdeadbeefu);
  const auto j = nlohmann::json::parse(mst({"mwrite", sim_, "0x24", "7", "--json"}).out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["address"], "0x00000024");
  EXPECT_EQ(j["value"], "0x00000007");
  const auto m = nlohmann::json::parse(mst({"--json", "mread", sim_, "0x20", "2"}).out);
  EXPECT_EQ(m["words"][1]["value"], "0x00000007");
}

TEST_F(MstRegisters, BadInputIsOneErrorLineAndADocumentedExitCode) {
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"mread", sim_, "0xf0016"}, 2, "not dword aligned"},
      {{"mread", sim_, "0x1000000"}, 2, "outside the CR-space of ConnectX-4 (0x1000000 bytes)"},
      {{"mread", sim_, "0xfffffc", "2"}, 2, "outside the CR-space"},
      {{"mread", sim_, "0x0", "0"}, 2, "at least 1"},
      {{"mread", sim_, "zz"}, 2, "is not a number"},
      {{"mwrite", sim_, "0x2", "1"}, 2, "not dword aligned"},
      {{"mwrite", sim_, "0x1000000", "1"}, 2, "outside the CR-space"},
      {{"mwrite", sim_, "0x20", "0x100000000"}, 2, "does not fit in 32 bits"},
      {{"mread", "sim:" + (dir_ / "none").string(), "0x0"}, 4, "no simulated device"},
      {{"dump", "sim:" + (dir_ / "none").string()}, 4, "no simulated device"},
      {{"mread", "nosuchdevice", "0x0"}, 2, ""},
  };
  for (const Case& c : cases) {
    const auto r = mst(c.args);
    std::string line = "mst";
    for (const auto& a : c.args) line += " " + a;
    SCOPED_TRACE(line);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_EQ(r.out, "");
    expect_one_error_line(r);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
  // mwrite needs both an address and a value: a usage error, nothing written.
  EXPECT_EQ(mst({"mwrite", sim_, "0x20"}).exit_code, 2);
  EXPECT_EQ(mst({"mread", sim_, "0x20"}).out, "0x00000020 0x00000000\n");
  // --json: the error document on stdout, the -E- line still on stderr.
  const auto r = mst({"--json", "mread", sim_, "0x3"});
  EXPECT_EQ(r.exit_code, 2);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["error"]["code"], "invalid argument");
  expect_one_error_line(r);
}

TEST_F(MstRegisters, DumpTextIsMstregdumpStyleAndStable) {
  ASSERT_EQ(mst({"mwrite", sim_, "0x18", "0x54306f6c"}).exit_code, 0);
  const auto a = mst({"dump", sim_});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const std::regex line("0x[0-9a-f]{8} 0x[0-9a-f]{8}");
  std::istringstream in(a.out);
  std::string l;
  int lines = 0;
  while (std::getline(in, l)) {
    EXPECT_TRUE(std::regex_match(l, line)) << l;
    ++lines;
  }
  EXPECT_GT(lines, 80);
  EXPECT_NE(a.out.find("0x000f0014 0x00000209\n"), std::string::npos);
  EXPECT_NE(a.out.find("0x00000018 0x54306f6c\n"), std::string::npos);
  EXPECT_EQ(a.out.find("0x000f0400 "), std::string::npos) << "the gateway CMD (lock bit) was dumped";
  EXPECT_EQ(mst({"dump", sim_}).out, a.out) << "two dumps differ";
  // -v: trailing comments on named registers, the unread ones listed.
  const auto v = mst({"dump", sim_, "-v"});
  EXPECT_NE(v.out.find("0x000f0014 0x00000209 # hw_id hw_revision=0x0 hw_id=0x209\n"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("# 0x000f0400 flash_gw.cmd not read"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("# 0x000e250c hw_semaphore not read"), std::string::npos) << v.out;
  const auto full = mst({"dump", sim_, "--full"});
  EXPECT_GT(std::count(full.out.begin(), full.out.end(), '\n'), 30000);
}

TEST_F(MstRegisters, DumpJsonDocument) {
  const auto r = mst({"dump", sim_, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["family"], "ConnectX-4");
  EXPECT_EQ(j["hw_id"], "0x209");
  EXPECT_EQ(j["cr_space_size"], "0x1000000");
  EXPECT_EQ(j["full"], false);
  ASSERT_TRUE(j["ranges"].is_array() && !j["ranges"].empty());
  EXPECT_TRUE(j["ranges"][0].contains("first") && j["ranges"][0].contains("dwords"));
  bool hw = false;
  for (const auto& w : j["words"]) hw |= w[0] == "0x000f0014" && w[1] == "0x00000209";
  EXPECT_TRUE(hw);
  bool named = false;
  for (const auto& n : j["named"])
    if (n["name"] == "hw_id") named = n["fields"]["hw_id"] == "0x209" && n["address"] == "0x000f0014";
  EXPECT_TRUE(named) << j["named"].dump();
  std::set<std::string> skipped;
  for (const auto& s : j["skipped"]) skipped.insert(s["name"].get<std::string>());
  EXPECT_EQ(skipped, (std::set<std::string>{"flash_gw.cmd", "hw_semaphore"}));
  EXPECT_TRUE(j["seconds"].is_number());
}

}  // namespace
}  // namespace openflint::test
