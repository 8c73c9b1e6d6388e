// test_device_forms: the accepted device-name forms come from one table (fwops/DeviceOpener.cpp
// kTransports): the unknown-name error and flint's and mst's --help list every row of it.
#include <gtest/gtest.h>

#include <sstream>

#include "fwops/Device.h"
#include "tests/devcli/DevcliFixture.h"

namespace openflint::test {
namespace {

// Words separated by single spaces: --help wraps the list at its own width.
std::string words(const std::string& text) {
  std::istringstream in(text);
  std::string out;
  for (std::string word; in >> word;) out += (out.empty() ? "" : " ") + word;
  return out;
}

TEST(DeviceForms, ErrorAndHelpListEveryTransport) {
  const std::string forms = words(std::string(accepted_device_forms()));
  for (const char* form : {"sim:PATH", "name:NODE", "HOST:PORT,DEVICE", "ssh:[USER@]HOST[:PORT]/DEVICE", "pciconf-BDF", "mlx5_N",
                           "lid-N[,ca[,port]]", "ibdr-a.b.c"})
    EXPECT_NE(forms.find(form), std::string::npos) << form << " missing from: " << forms;
  const auto unknown = run_tool("flint", {"-d", "pci0", "q"});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
  EXPECT_NE(words(unknown.err).find("accepted forms are " + forms), std::string::npos) << unknown.err;
  for (const char* tool : {"flint", "mst"}) {
    const auto help = run_tool(tool, {"--help"});
    EXPECT_EQ(help.exit_code, 0) << tool << ": " << help.err;
    EXPECT_NE(words(help.out).find(forms + "."), std::string::npos) << tool << ": " << help.out;
  }
}

}  // namespace
}  // namespace openflint::test
