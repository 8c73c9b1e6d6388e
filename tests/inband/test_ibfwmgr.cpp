// ibfwmgr on an ibsim fabric: list every node, update by PSID in parallel, failures isolated per device.
#include <nlohmann/json.hpp>

#include "tests/inband/DeviceFabricFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

class Ibfwmgr : public DeviceFabricFixture {
 protected:
  json run_json(std::vector<std::string> args, int expected_rc) {
    std::vector<std::string> argv{bin("ibfwmgr").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = run(argv);
    EXPECT_EQ(r.exit_code, expected_rc) << r.out << r.err;
    auto j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out;
    return j;
  }
  static const json* node_with_lid(const json& doc, int lid) {
    for (const auto& n : doc["nodes"])
      if (n["lid"] == lid) return &n;
    return nullptr;
  }
};

TEST_F(Ibfwmgr, ListsUpdatesAndIsolatesFailures) {
  const auto images = dir_.path() / "images";
  std::filesystem::create_directories(images);
  const auto cx4_a = dir_.path() / "cx4-a.bin";
  const auto sw_a = dir_.path() / "sw-a.bin";
  write_file(cx4_a, small_fs3_image(10));
  write_file(sw_a, small_fs3_image(10, "MT_1780110032", 0x249));
  write_file(images / "cx4-b.bin", small_fs3_image(20));
  write_file(images / "sw-b.bin", small_fs3_image(30, "MT_1780110032", 0x249));
  write_file(images / "README.txt", {'n', 'o', 't', ' ', 'f', 'w'});
  bring_up({{"Switch1", "spectrum", sw_a}, {"Hca2", "connectx4", cx4_a}, {"Hca3", "connectx4", cx4_a},
            {"Hca4", "connectx4", {}}});  // Hca4: blank flash, no PSID: no image for it
  if (HasFatalFailure() || IsSkipped()) return;

  const json list = run_json({"list", "--json"}, 0);
  ASSERT_TRUE(list["nodes"].is_array());
  EXPECT_EQ(list["nodes"].size(), 5u) << list.dump(2);  // switch + Hca1 (local) + 3 devices
  const json* sw = node_with_lid(list, lids_["Switch1"]);
  ASSERT_NE(sw, nullptr);
  EXPECT_EQ((*sw)["type"], "switch");
  EXPECT_EQ((*sw)["device"], "Spectrum");
  EXPECT_EQ((*sw)["psid"], "MT_1780110032");
  EXPECT_EQ((*sw)["fw_version"], "12.10.1000");
  const json* hca2 = node_with_lid(list, lids_["Hca2"]);
  ASSERT_NE(hca2, nullptr);
  EXPECT_EQ((*hca2)["device"], "ConnectX-4");
  EXPECT_EQ((*hca2)["psid_source"], "running");
  int local = 0;
  for (const auto& n : list["nodes"]) {
    if (!n["local"].get<bool>()) continue;
    ++local;
    EXPECT_FALSE(n["vendor_access"].get<bool>()) << "Hca1 has no responder";
    EXPECT_NE(n["note"].get<std::string>().find("no vendor access"), std::string::npos);
  }
  EXPECT_EQ(local, 1);
  auto table = run({bin("ibfwmgr").string(), "list"});
  EXPECT_EQ(table.exit_code, 0);
  EXPECT_NE(table.out.find("no vendor access (local node)"), std::string::npos) << table.out;

  // Without -y and without a TTY the question is answered "no": exit 7 (declined), nothing burned
  // (the update below still finds every device on its old firmware).
  const json declined = run_json({"update", "--images", images.string(), "--json"}, 7);
  EXPECT_FALSE(declined["ok"].get<bool>()) << declined.dump(2);
  // The shared error document: a code from the closed set, the message saying what happened.
  EXPECT_EQ(declined["error"]["code"], "cancelled") << declined.dump(2);
  EXPECT_NE(declined["error"]["message"].get<std::string>().find("declined"), std::string::npos);

  // --dry-run: every node's decision, nothing written (the update below still burns all three);
  // exit 1 as the real run (Hca4 has no image). Every document carries the contract's version.
  const json dry = run_json({"update", "--images", images.string(), "--json", "--dry-run"}, 1);
  EXPECT_EQ(dry["json_version"], 1) << dry.dump(2);
  for (const char* node : {"Switch1", "Hca2", "Hca3"}) {
    const json* n = node_with_lid(dry, lids_[node]);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ((*n)["status"], "would-update") << n->dump(2);
    EXPECT_EQ((*n)["mads"], 0) << node;
  }
  EXPECT_EQ((*node_with_lid(dry, lids_["Hca4"]))["status"], "no-image");

  const json up = run_json({"update", "--images", images.string(), "--json", "-y", "--reset"}, 1);
  EXPECT_FALSE(up["ok"].get<bool>()) << "Hca4 has no image";
  const json* usw = node_with_lid(up, lids_["Switch1"]);
  ASSERT_NE(usw, nullptr);
  EXPECT_EQ((*usw)["status"], "updated") << usw->dump(2);
  EXPECT_TRUE((*usw)["reset"].get<bool>());
  EXPECT_EQ((*usw)["running_after"], "12.30.1000");
  for (const char* node : {"Hca2", "Hca3"}) {
    const json* u = node_with_lid(up, lids_[node]);
    ASSERT_NE(u, nullptr);
    EXPECT_EQ((*u)["status"], "updated") << u->dump(2);
    EXPECT_EQ((*u)["image_version"], "12.20.1000");
    EXPECT_FALSE((*u)["reset"].get<bool>()) << "adapters cannot be reset in-band";
    EXPECT_GT((*u)["mads"].get<int>(), 0);
  }
  const json* u4 = node_with_lid(up, lids_["Hca4"]);
  ASSERT_NE(u4, nullptr);
  EXPECT_EQ((*u4)["status"], "no-image") << u4->dump(2);

  // list: the adapters still run the old FW (no in-band reset) while their flash holds the new.
  const json after = run_json({"list", "--json"}, 0);
  for (const char* node : {"Hca2", "Hca3"}) {
    const json* n = node_with_lid(after, lids_[node]);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ((*n)["fw_version"], "12.10.1000") << n->dump(2);
    EXPECT_EQ((*n)["flash_fw_version"], "12.20.1000") << n->dump(2);
  }
  EXPECT_EQ((*node_with_lid(after, lids_["Switch1"]))["flash_fw_version"], "12.30.1000");
  table = run({bin("ibfwmgr").string(), "list"});
  EXPECT_NE(table.out.find("flash holds 12.20.1000: runs after a reset"), std::string::npos) << table.out;

  // A second run: everything that could be updated is up to date, the adapters by what their
  // flash holds (their new FW waits for a PCI reset): nothing is burned again.
  const json again = run_json({"update", "--images", images.string(), "--json", "-y"}, 1);
  for (const char* node : {"Switch1", "Hca2", "Hca3"}) {
    const json* n = node_with_lid(again, lids_[node]);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ((*n)["status"], "up-to-date") << n->dump(2);
    EXPECT_EQ((*n)["mads"], 0) << node;
  }

  // The devices' flash holds the new images: the boot ROM picks them after a power cycle.
  for (const char* node : {"Hca2", "Hca3"}) {
    auto device = stop_and_load(node);
    ASSERT_NE(device, nullptr);
    device->power_cycle();
    ASSERT_FALSE(device->boot_state().recovery);
    EXPECT_EQ(device->boot_state().running->fw_version->minor, 20) << node;
  }
}

}  // namespace
}  // namespace openflint::test
