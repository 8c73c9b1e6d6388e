// Today's adapters over PCI (hcasim pci-serve, the real tools in a mount namespace): (b) mst status
// lists the model, mstflint queries it and burns the new sample on its default path, our flint
// reads the new version and the board's own GUIDs/MACs/VSD; (e) mstconfig lists our simulated
// configuration parameters with our values.
#include "tests/config_interop/MstconfigFixture.h"
#include "tests/todays_adapters/TodaysAdapters.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class MstflintBurnsServedDevice : public PciServeFixture, public ::testing::WithParamInterface<std::string> {
 protected:
  std::string model() const { return GetParam(); }
  void SetUp() override {
    for (const char* tool : {"mstflint", "unshare", "mount", "timeout"})
      if (!have_program(tool)) GTEST_SKIP() << tool << " is not installed; mstflint over PCI not checked";
    if (::geteuid() != 0) GTEST_SKIP() << "not root: cannot bind-mount over /sys/bus/pci in a mount namespace";
    if (!fs::exists(model_sample(model(), "new"))) GTEST_SKIP() << "no sample " << model_sample(model(), "new");
  }
  const BoardIds board_{0x0002c90300d1d100ull, 0x0002c9d1d100ull, "served board"};
};

TEST_P(MstflintBurnsServedDevice, BurnsTheNewSampleAndOurFlintReadsItWithTheBoardsIdentity) {
  const auto old_image = model_sample(model(), "old"), new_image = model_sample(model(), "new");
  const json old_q = flint_query({"-i", old_image.string()}), new_q = flint_query({"-i", new_image.string()});
  const auto dev = create_device("dev", model(), board_image(dir_.path(), "board", old_image, board_));
  if (!serve({dev})) return;

  // mst status: the function by its catalog ids, and the running firmware from MGIR.
  const auto status = run_command({bin("mst").string(), "status", "--json"}, tool_env());
  ASSERT_EQ(status.exit_code, 0) << status.out << status.err;
  const json doc = json::parse(status.out, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << status.out;
  ASSERT_EQ(doc["pci"].size(), 1u) << status.out;
  const json& fn = doc["pci"][0];
  EXPECT_EQ(fn["device_id"], old_q["pci_device_id"]) << fn.dump(2);
  EXPECT_EQ(fn["recovery"], false) << fn.dump(2);
  EXPECT_EQ(fn["access"]["config"]["works"], true) << fn.dump(2);
  EXPECT_EQ(fn["fw_version"], old_q["fw_version"]) << fn.dump(2);

  if (const std::string problem = pci_namespace_problem(); !problem.empty()) GTEST_SKIP() << problem;
  const auto q = in_pci_namespace({"mstflint", "-d", "03:00.0", "q"});
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(query_field(q.out, "FW Version"), old_q["fw_version"].get<std::string>()) << q.out;
  EXPECT_EQ(query_field(q.out, "PSID"), old_q["psid"].get<std::string>()) << q.out;
  EXPECT_NE(q.out.find(hex16(board_.guid).substr(2)), std::string::npos) << q.out;

  const auto b = in_pci_namespace({"mstflint", "-d", "03:00.0", "-i", new_image.string(), "-y", "burn"});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;

  const auto r = flint({"-d", "pciconf-03:00.0", "reset"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json ours = flint_query({"-d", "pciconf-03:00.0"}, tool_env());
  EXPECT_EQ(ours["fw_version"], new_q["fw_version"]) << ours.dump(2);
  EXPECT_EQ(ours["base_guid"]["base"], hex16(board_.guid)) << ours.dump(2);
  EXPECT_EQ(ours["base_mac"]["base"], hex16(board_.mac)) << ours.dump(2);
  EXPECT_EQ(ours["device_vsd"], board_.vsd) << ours.dump(2);
  stop_server();
  EXPECT_EQ(saved_running_version(dev), new_q["fw_version"].get<std::string>());
}

INSTANTIATE_TEST_SUITE_P(Models, MstflintBurnsServedDevice, ::testing::ValuesIn(kTodaysAdapters), model_name);

class MstconfigListsOurParameters : public MstconfigPci, public ::testing::WithParamInterface<std::string> {};

TEST_P(MstconfigListsOurParameters, WithOurValues) {
  const std::string model = GetParam();
  if (!fs::exists(model_sample(model, "old"))) GTEST_SKIP() << "no sample " << model_sample(model, "old");
  if (!start(model, model + "-old")) return;
  const auto probe = mstconfig({"query"});
  if (probe.exit_code != 0 && (probe.out + probe.err).find("not supported") != std::string::npos)
    GTEST_SKIP() << "mstconfig does not support the " << model << " family: " << probe.out << probe.err;
  expect_agreement();
}

INSTANTIATE_TEST_SUITE_P(Models, MstconfigListsOurParameters, ::testing::ValuesIn(kTodaysAdapters), model_name);

}  // namespace
}  // namespace openflint::test
