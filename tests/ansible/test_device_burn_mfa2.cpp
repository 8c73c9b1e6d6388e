// openflint.firmware.device_burn with an MFA2 package: told apart by content, the device's PSID picks the board.
#include "tests/ansible/AnsibleFixture.h"

#include <nlohmann/json.hpp>

namespace openflint::test {
namespace {

class DeviceBurnMfa2 : public AnsibleFixture {};

TEST_F(DeviceBurnMfa2, BurnsTheDevicesBoardOnceFromAnMfa2Package) {
  if (IsSkipped()) return;
  ASSERT_TRUE(install_collection());
  make_inventory({"h1"}, {1});
  if (HasFatalFailure()) return;
  const auto cx4 = dir_ / "cx4";
  auto created = run_tool("hcasim", {"create", "--model", "connectx4", cx4.string(), "--image",
                                     sample_image("connectx4-old").string()});
  ASSERT_EQ(created.exit_code, 0) << created.err;
  const auto package = dir_ / "fw.mfa2";
  auto made = run_tool("flint", {"archive", "create", "--format", "mfa2", "--bins", sample_image("connectx5-new").string(),
                                 sample_image("connectx4-new").string(), "-o", package.string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto book = std::filesystem::path(OPENFLINT_SOURCE_DIR) / "tests/ansible/playbooks/burn_mfa2.yml";
  auto r = playbook(book.string(), {"-e", "mfa2_device=sim:" + cx4.string(), "-e", "mfa2_package=" + package.string()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(recap(r.out)["h1"].changed, 2) << "the check-mode task and the burn: " << r.out;
  auto q = run_tool("flint", {"-d", "sim:" + cx4.string(), "--json", "q"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  auto expected = run_tool("flint", {"-i", sample_image("connectx4-new").string(), "--json", "q"});
  EXPECT_EQ(nlohmann::json::parse(q.out)["fw_version"], nlohmann::json::parse(expected.out)["fw_version"]) << q.out;
}

}  // namespace
}  // namespace openflint::test
