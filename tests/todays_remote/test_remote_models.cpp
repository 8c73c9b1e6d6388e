// Today's eleven models through a bus server, one test per model: `mst server` on loopback serves
// a simulated board made from the model's old sample with its own GUIDs, MACs and VSD.
// `flint -d 127.0.0.1:PORT,sim:@... q` shows the model (catalog name), its version and PSID and the
// board's GUID; a burn of the model's new sample through the remote name keeps the board's
// identity. The path follows the sample: the switch samples run MCC firmware (`mcc_en`), so their
// burn goes through the running firmware; the adapter samples have none: the flash gateway. The
// burn reads back every sector it writes, so no separate `v` (2-3 s per model over the server).
#include <regex>

#include "devices/DeviceCatalog.h"
#include "tests/remote_server/ServerFixture.h"
#include "tests/todays_adapters/TodaysAdapters.h"
#include "tests/todays_switches/SwitchModels.h"

namespace openflint::test {
namespace {

std::vector<std::string> todays_models() {
  std::vector<std::string> models = kTodaysAdapters;
  for (const SwitchModel& s : kTodaysSwitches) models.emplace_back(s.model);
  return models;
}

class TodaysRemote : public ServerFixture, public ::testing::WithParamInterface<std::string> {
 protected:
  static std::string field(const std::string& out, const std::string& name) {
    std::smatch m;
    const std::regex line("(^|\n)" + name + ":\\s+([^\n]*)");
    return std::regex_search(out, m, line) ? m[2].str() : std::string();
  }
};

TEST_P(TodaysRemote, QueriedAndBurnedThroughMstServerKeepingTheBoardsIdentity) {
  const std::string m = GetParam();
  for (const char* v : {"old", "new"})
    ASSERT_TRUE(std::filesystem::exists(model_sample(m, v))) << m << "-" << v << " was not built";
  auto info = find_device_by_sim_model(m);
  ASSERT_TRUE(info) << info.error().message();
  const BoardIds id{.guid = 0x0002c90300d1d100ull, .mac = 0x0002c9d1d100ull, .vsd = "remote " + m};
  const auto board = dir_ / ("board-" + m);
  const auto image = board_image(dir_.path(), m + "-board", model_sample(m, "old"), id);
  const auto c = run_tool("hcasim", {"create", "--model", m, board.string(), "--image", image.string()});
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  const std::string served = "sim:" + board.string();
  const auto port = start_server({}, {served});
  ASSERT_NE(port, 0);
  const std::string name = "127.0.0.1:" + std::to_string(port) + "," + remote_name(served);

  const auto old = flint_query({"-i", model_sample(m, "old").string()});
  const auto q = run_tool("flint", {"-d", name, "q"});
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_TRUE(field(q.out, "Device").starts_with(std::string((*info)->name) + " (")) << q.out;
  EXPECT_EQ(field(q.out, "FW Version"), old["fw_version"]) << q.out;
  EXPECT_EQ(field(q.out, "PSID"), old["psid"]) << q.out;
  EXPECT_TRUE(field(q.out, "Base GUID").starts_with(hex16(id.guid) + " ")) << q.out;
  EXPECT_EQ(field(q.out, "Device VSD"), id.vsd) << q.out;

  const auto fresh = model_sample(m, "new");
  const auto burn = run_tool("flint", {"-d", name, "-i", fresh.string(), "-y", "burn"});
  ASSERT_EQ(burn.exit_code, 0) << burn.out << burn.err;
  const auto want = flint_query({"-i", fresh.string()});
  const bool through_firmware = burn.out.find("through the running firmware") != std::string::npos;
  EXPECT_EQ(through_firmware, want["component_update"] == true) << burn.out;
  ASSERT_NE(want["fw_version"], old["fw_version"]) << want.dump(2);
  const auto after = flint_query({"-d", name});
  EXPECT_EQ(after["fw_version"], want["fw_version"]) << after.dump(2);
  EXPECT_EQ(after["psid"], want["psid"]) << after.dump(2);
  EXPECT_EQ(after["base_guid"]["base"], hex16(id.guid)) << after.dump(2);
  EXPECT_EQ(after["base_mac"]["base"], hex16(id.mac)) << after.dump(2);
  EXPECT_EQ(after["device_vsd"], id.vsd) << after.dump(2);
}

INSTANTIATE_TEST_SUITE_P(Models, TodaysRemote, ::testing::ValuesIn(todays_models()), model_name);

}  // namespace
}  // namespace openflint::test
