// The collection builds with ansible-galaxy, installs offline, and ansible-doc renders every module and the role.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/ansible/AnsibleFixture.h"

namespace openflint::test {
namespace {

using Collection = AnsibleFixture;

TEST_F(Collection, BuildsInstallsAndDocumentsEveryModule) {
  if (IsSkipped()) return;
  ASSERT_TRUE(install_collection());
  std::vector<std::string> modules;
  for (const auto& entry : std::filesystem::directory_iterator(collection_source() / "plugins/modules")) {
    if (entry.path().extension() == ".py") modules.push_back("openflint.firmware." + entry.path().stem().string());
  }
  EXPECT_EQ(modules.size(), 4u) << "device_facts, device_burn, device_config, fabric_update";
  // ansible-doc parses DOCUMENTATION/EXAMPLES/RETURN as YAML and checks the options' schema;
  // a broken block is an error (exit 1) or a page without its sections. One run renders all.
  std::vector<std::string> argv{"ansible-doc", "-t", "module"};
  argv.insert(argv.end(), modules.begin(), modules.end());
  auto r = run_command(argv, ansible_env());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("ERROR"), std::string::npos) << r.err;
  for (const auto& name : modules) {
    std::string title = "> " + name;  // each page starts with its name in capitals
    for (auto& c : title) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_NE(r.out.find(title), std::string::npos) << name << " not rendered: " << r.out;
  }
  std::size_t examples = 0, returns = 0;
  for (auto p = r.out.find("EXAMPLES:"); p != std::string::npos; p = r.out.find("EXAMPLES:", p + 1)) ++examples;
  for (auto p = r.out.find("RETURN VALUES:"); p != std::string::npos; p = r.out.find("RETURN VALUES:", p + 1)) ++returns;
  EXPECT_EQ(examples, modules.size()) << r.out;
  EXPECT_EQ(returns, modules.size()) << r.out;

  // The listing sees them through the installed collection (not the source tree).
  auto list = run_command({"ansible-doc", "-t", "module", "-l", "openflint.firmware"}, ansible_env());
  EXPECT_EQ(list.exit_code, 0) << list.err;
  for (const char* m : {"device_facts", "device_burn", "device_config", "fabric_update"})
    EXPECT_NE(list.out.find(std::string("openflint.firmware.") + m), std::string::npos) << list.out;

  auto role = run_command({"ansible-doc", "-t", "role", "openflint.firmware.rolling_update"}, ansible_env());
  EXPECT_EQ(role.exit_code, 0) << role.err;
  EXPECT_NE(role.out.find("openflint_image"), std::string::npos) << role.out;
}

// device_config on one host's simulated device: check mode, a change, then none (the playbook
// asserts the task results); the device's next-boot value is the new one afterwards.
TEST_F(Collection, ConfiguresADeviceIdempotently) {
  if (IsSkipped()) return;
  ASSERT_TRUE(install_collection());
  make_inventory({"h1"}, {1});
  if (HasFatalFailure()) return;
  const auto config_playbook = std::filesystem::path(OPENFLINT_SOURCE_DIR) / "tests/ansible/playbooks/config.yml";
  auto r = playbook(config_playbook.string(), {});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(recap(r.out)["h1"].changed, 2) << "the check-mode task and the first set: " << r.out;
  auto q = run_tool("mst", {"config", "sim:" + devices_of("h1")[0].string(), "query", "NUM_OF_VFS", "--json"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  const auto doc = nlohmann::json::parse(q.out);
  EXPECT_EQ(doc["parameters"][0]["next"]["value"], 2) << q.out;
}

}  // namespace
}  // namespace openflint::test
