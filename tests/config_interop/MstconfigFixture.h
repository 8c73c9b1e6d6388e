// MstconfigPci: a simulated adapter served as a PCI device (hcasim pci-serve) to the Debian mstconfig in a
// mount namespace and to our `mst config`, with both tools' query tables read as NAME → Next Boot text.
#pragma once

#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/pci_cli/PciServeFixture.h"

namespace openflint::test {

class MstconfigPci : public PciServeFixture {
 protected:
  void SetUp() override {
    for (const char* tool : {"mstconfig", "unshare", "mount", "timeout"})
      if (!have_program(tool)) GTEST_SKIP() << tool << " is not installed; mstconfig interop not checked";
    if (::geteuid() != 0) GTEST_SKIP() << "not root: cannot bind-mount over /sys/bus/pci in a mount namespace";
  }
  // The device served (a simulated `model` booted from sample `image`); false when the test
  // cannot go on (skipped or failed).
  bool start(const std::string& model = "connectx4", const std::string& image = "connectx4-old") {
    const auto dev = create_device("dev", model, sample_image(image));
    if (!serve({dev})) return false;
    const std::string problem = pci_namespace_problem();
    if (!problem.empty()) {
      skip(problem);
      return false;
    }
    return true;
  }
  static void skip(const std::string& why) { GTEST_SKIP() << why; }
  CommandResult mstconfig(std::vector<std::string> args) const {
    args.insert(args.begin(), {"mstconfig", "-d", "03:00.0"});
    return in_pci_namespace(args, 120);
  }
  CommandResult mst(std::vector<std::string> args) const {
    args.insert(args.begin(), bin("mst").string());
    return run_command(args, tool_env());
  }
  // NAME → the Next Boot text ("ETH(2)") of every line of a query table (either tool's).
  static std::map<std::string, std::string> next_values(const std::string& table) {
    std::map<std::string, std::string> out;
    std::istringstream in(table);
    std::string line;
    const std::regex row("^[* ] {8}([A-Z0-9_]+) +(\\S+)\\s*$");
    std::smatch m;
    while (std::getline(in, line))
      if (std::regex_match(line, m, row)) out[m[1]] = m[2];
    return out;
  }
  std::map<std::string, std::string> ours() const {
    const auto r = mst({"config", "03:00.0", "query"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return next_values(r.out);
  }
  std::map<std::string, std::string> theirs() const {
    const auto r = mstconfig({"query"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find("-E-"), std::string::npos) << r.out;  // every item it asked for was answered
    return next_values(r.out);
  }
  // Every parameter we list, mstconfig lists with the same value (it lists a few more: fields of
  // the same items openflint does not name yet).
  void expect_agreement(std::size_t at_least = 20) const {
    const auto a = ours(), b = theirs();
    ASSERT_GE(a.size(), at_least);
    for (const auto& [name, value] : a) {
      ASSERT_EQ(b.count(name), 1u) << "mstconfig does not list " << name;
      EXPECT_EQ(b.at(name), value) << name;
    }
  }
};

}  // namespace openflint::test
