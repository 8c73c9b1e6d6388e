// ibfwmgr node selection (--node, --exclude, --type), the dry-run plan, --reset through a bus server that
// resets (the new firmware runs) and --no-fabric (the bus servers' devices without an IB sweep).
#include "sim/SimDevice.h"
#include "tests/fabric_oob/OutOfBandFixture.h"

namespace openflint::test {
namespace {

// The fabric of these tests: Switch1 and Hca2 in-band (12.10.1000), the local node Hca1 served by
// `mst server` (12.10.1000); images for both PSIDs (the adapters' 12.20, the switch's 12.30).
class IbfwmgrSelection : public IbfwmgrOutOfBand {
 protected:
  // Brings up the fabric and the server (with `server_options`); the hosts file, or empty on failure.
  std::filesystem::path set_up(const std::vector<std::string>& server_options, bool switch_image = true) {
    const auto sw_a = dir_.path() / "sw-a.bin";
    const auto cx4_a = dir_.path() / "cx4-a.bin";
    images_ = dir_.path() / "images";
    std::filesystem::create_directories(images_);
    write_file(sw_a, small_fs3_image(10, "MT_1780110032", 0x249));
    write_file(cx4_a, small_fs3_image(10));
    write_file(images_ / "cx4-b.bin", small_fs3_image(20));
    if (switch_image) write_file(images_ / "sw-b.bin", small_fs3_image(30, "MT_1780110032", 0x249));
    bring_up({{"Switch1", "spectrum", sw_a}, {"Hca2", "connectx4", cx4_a}}, {{"Hca1", kLocalGuid}});
    if (HasFatalFailure() || IsSkipped()) return {};
    local_ = make_local_device(10);
    const std::uint16_t port = serve(local_, server_options);
    if (port == 0) return {};
    host_ = "127.0.0.1:" + std::to_string(port);
    return hosts_file(host_ + "\n");
  }

  std::filesystem::path images_;
  std::filesystem::path local_;
  std::string host_;
};

// The lead's acceptance check: --node burns exactly the selected nodes, and --reset leaves the
// out-of-band adapter running the new firmware.
TEST_F(IbfwmgrSelection, UpdateNodeBurnsOnlyTheSelectedNodesAndResetRunsTheNewFirmware) {
  const auto hosts = set_up({"--allow-reset"});
  if (HasFatalFailure() || IsSkipped()) return;
  ASSERT_FALSE(hosts.empty());
  const json up = ibfwmgr_json({"update", "--images", images_.string(), "--json", "-y", "--reset", "--hosts",
                                hosts.string(), "--node", kLocalGuidText, "--node", std::to_string(lids_["Hca2"])},
                               0);
  ASSERT_EQ(up["nodes"].size(), 2u) << "only the selected nodes: " << up.dump(2);
  const json* hca1 = local_node(up);
  ASSERT_NE(hca1, nullptr) << up.dump(2);
  EXPECT_EQ((*hca1)["status"], "updated") << hca1->dump(2);
  EXPECT_EQ((*hca1)["path"], "out-of-band " + host_);
  EXPECT_TRUE((*hca1)["reset"].get<bool>()) << hca1->dump(2);
  EXPECT_EQ((*hca1)["activation"], "running") << hca1->dump(2);
  EXPECT_EQ((*hca1)["running_after"], "12.20.1000") << "MGIR through the server after its reset";
  EXPECT_EQ((*hca1)["message"], "reset by the bus server");
  const json* hca2 = node_with_lid(up, lids_["Hca2"]);
  ASSERT_NE(hca2, nullptr) << up.dump(2);
  EXPECT_EQ((*hca2)["status"], "updated");
  EXPECT_EQ((*hca2)["activation"], "pending") << hca2->dump(2);
  EXPECT_EQ(node_with_lid(up, lids_["Switch1"]), nullptr) << "the switch was not selected";

  // The switch's flash and firmware are unchanged; the selected nodes hold the new image.
  const json after = ibfwmgr_json({"list", "--json", "--hosts", hosts.string()}, 0);
  const json* sw = node_with_lid(after, lids_["Switch1"]);
  ASSERT_NE(sw, nullptr) << after.dump(2);
  EXPECT_EQ((*sw)["fw_version"], "12.10.1000");
  EXPECT_EQ((*sw)["flash_fw_version"], "12.10.1000");
  const json* hca2_after = node_with_lid(after, lids_["Hca2"]);
  ASSERT_NE(hca2_after, nullptr);
  EXPECT_EQ((*hca2_after)["flash_fw_version"], "12.20.1000");
  // The server saved the reset device: its boot state runs the new image without a power cycle.
  server_->signal(SIGTERM);
  ASSERT_EQ(server_->wait_for(std::chrono::seconds(10)), std::optional<int>(0)) << server_->err();
  auto device = sim::SimDevice::load_state(local_);
  ASSERT_TRUE(device) << device.error().message();
  ASSERT_TRUE((*device)->boot_state().running);
  EXPECT_EQ((*device)->boot_state().running->fw_version->minor, 20);
}

TEST_F(IbfwmgrSelection, SelectorsNarrowAndOneThatMatchesNothingIsAUsageError) {
  const auto hosts = set_up({}, /*switch_image=*/false);
  if (HasFatalFailure() || IsSkipped()) return;
  ASSERT_FALSE(hosts.empty());
  const json switches = ibfwmgr_json({"list", "--json", "--type", "switch"}, 0);
  ASSERT_EQ(switches["nodes"].size(), 1u) << switches.dump(2);
  EXPECT_EQ(switches["nodes"][0]["type"], "switch");
  const json rest = ibfwmgr_json({"list", "--json", "--hosts", hosts.string(), "--exclude",
                                  std::to_string(lids_["Switch1"]), "--exclude", kLocalGuidText}, 0);
  ASSERT_EQ(rest["nodes"].size(), 1u) << rest.dump(2);
  EXPECT_EQ(rest["nodes"][0]["lid"], lids_["Hca2"]);
  // A NAME through the name map.
  const auto names = dir_.path() / "names";
  const std::string map = "leaf-hca2 " + rest["nodes"][0]["guid"].get<std::string>() + "\n";
  write_file(names, std::vector<std::uint8_t>(map.begin(), map.end()));
  const json named = ibfwmgr_json({"list", "--json", "--names", names.string(), "--node", "leaf-hca2"}, 0);
  ASSERT_EQ(named["nodes"].size(), 1u) << named.dump(2);
  EXPECT_EQ(named["nodes"][0]["lid"], lids_["Hca2"]);
  EXPECT_EQ(named["nodes"][0]["system"]["name"], "leaf-hca2");
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"list", "--node", "0xdeadbeef"}, std::vector<std::string>{"list", "--exclude", "nosuch"},
        std::vector<std::string>{"update", "--images", images_.string(), "-y", "--node", "nosuch"}}) {
    std::vector<std::string> argv{bin("ibfwmgr").string()};
    argv.insert(argv.end(), bad.begin(), bad.end());
    const auto r = run(argv);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(bad.back() + " matches no node"), std::string::npos) << r.err;
  }
  // Images for the adapters' PSID only: the whole fabric fails on the switch (no image), the
  // adapters alone exit 0.
  const json all = ibfwmgr_json({"update", "--images", images_.string(), "--json", "--dry-run"}, 1);
  EXPECT_FALSE(all["ok"].get<bool>());
  const json hcas = ibfwmgr_json({"update", "--images", images_.string(), "--json", "--dry-run", "--type", "hca",
                                  "--hosts", hosts.string()}, 0);
  EXPECT_TRUE(hcas["ok"].get<bool>()) << hcas.dump(2);
  for (const auto& n : hcas["nodes"]) EXPECT_EQ(n["status"], "would-update") << n.dump(2);
}

TEST_F(IbfwmgrSelection, TheDryRunPlanSaysPathImageRequestsAndActivation) {
  const auto hosts = set_up({});  // a server without --allow-reset: the adapter can only be armed
  if (HasFatalFailure() || IsSkipped()) return;
  ASSERT_FALSE(hosts.empty());
  const json plan = ibfwmgr_json({"update", "--images", images_.string(), "--json", "--dry-run", "--hosts",
                                  hosts.string()}, 0);
  const json* hca1 = local_node(plan);
  ASSERT_NE(hca1, nullptr) << plan.dump(2);
  EXPECT_EQ((*hca1)["status"], "would-update");
  ASSERT_TRUE((*hca1)["plan"].is_object()) << hca1->dump(2);
  EXPECT_EQ((*hca1)["plan"]["request_unit"], "bus requests");
  EXPECT_GT((*hca1)["plan"]["requests"].get<int>(), 0);
  EXPECT_EQ((*hca1)["plan"]["requests"].get<std::uint64_t>(),
            ((*hca1)["plan"]["image_bytes"].get<std::uint64_t>() + 15) / 16 * 4);
  EXPECT_TRUE((*hca1)["plan"]["can_activate"].get<bool>());
  EXPECT_EQ((*hca1)["plan"]["activation"], "arm MFRL level 4 (runs after the next warm reboot) (with --reset)");
  EXPECT_NE((*hca1)["image"].get<std::string>().find("cx4-b.bin"), std::string::npos);
  EXPECT_EQ((*hca1)["image_version"], "12.20.1000");
  const json* sw = node_with_lid(plan, lids_["Switch1"]);
  ASSERT_NE(sw, nullptr);
  EXPECT_EQ((*sw)["plan"]["request_unit"], "MADs");
  EXPECT_EQ((*sw)["plan"]["activation"], "switch software reset (in-band) (with --reset)");
  const json* hca2 = node_with_lid(plan, lids_["Hca2"]);
  ASSERT_NE(hca2, nullptr);
  EXPECT_FALSE((*hca2)["plan"]["can_activate"].get<bool>());
  // Nothing was written: every node still has its old flash.
  const json after = ibfwmgr_json({"list", "--json", "--hosts", hosts.string()}, 0);
  for (const auto& n : after["nodes"]) EXPECT_EQ(n["flash_fw_version"], "12.10.1000") << n.dump(2);
  const auto table = run({bin("ibfwmgr").string(), "update", "--images", images_.string(), "--dry-run", "--hosts",
                          hosts.string()});
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("-I- dry run: nothing was written"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("~" + std::to_string((*sw)["plan"]["requests"].get<std::uint64_t>()) + " MADs"),
            std::string::npos)
      << table.out;
}

// No fabric, no umad port: the hosts' served devices are the nodes (run without the ibsim preload).
class IbfwmgrNoFabric : public IbfwmgrOutOfBand {};

TEST_F(IbfwmgrNoFabric, ListsAndBurnsTheServedDevicesWithoutASweep) {
  const auto local = make_local_device(10);
  const auto images = dir_.path() / "images";
  std::filesystem::create_directories(images);
  write_file(images / "cx4-b.bin", small_fs3_image(20));
  const std::uint16_t port = serve(local, {"--allow-reset"});
  ASSERT_NE(port, 0);
  const std::string host = "127.0.0.1:" + std::to_string(port);
  const auto hosts = hosts_file(host + "\n");
  const auto tool = [](std::vector<std::string> args) { return run_tool("ibfwmgr", args); };

  const auto list = tool({"list", "--json", "--no-fabric", "--hosts", hosts.string()});
  ASSERT_EQ(list.exit_code, 0) << list.out << list.err;
  const json doc = json::parse(list.out);
  ASSERT_EQ(doc["nodes"].size(), 1u) << doc.dump(2);
  EXPECT_EQ(doc["nodes"][0]["guid"], kLocalGuidText);
  EXPECT_EQ(doc["nodes"][0]["path"], "out-of-band " + host);
  EXPECT_EQ(doc["nodes"][0]["fw_version"], "12.10.1000");
  const auto without_hosts = tool({"list", "--no-fabric"});
  EXPECT_EQ(without_hosts.exit_code, 2) << without_hosts.err;
  EXPECT_NE(without_hosts.err.find("--no-fabric needs --hosts"), std::string::npos) << without_hosts.err;

  const auto up = tool({"update", "--images", images.string(), "--json", "-y", "--reset", "--no-fabric", "--hosts",
                        hosts.string()});
  ASSERT_EQ(up.exit_code, 0) << up.out << up.err;
  const json updated = json::parse(up.out);
  ASSERT_EQ(updated["nodes"].size(), 1u) << updated.dump(2);
  EXPECT_EQ(updated["nodes"][0]["status"], "updated") << updated.dump(2);
  EXPECT_EQ(updated["nodes"][0]["mads"], 0);
  EXPECT_EQ(updated["nodes"][0]["activation"], "running") << updated.dump(2);
  EXPECT_EQ(updated["nodes"][0]["running_after"], "12.20.1000");
  // A selector works without a fabric too (GUID); one that matches nothing is named.
  const auto none = tool({"list", "--no-fabric", "--hosts", hosts.string(), "--node", "0x1234"});
  EXPECT_EQ(none.exit_code, 2) << none.err;
  EXPECT_NE(none.err.find("--node 0x1234 matches no node"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace openflint::test
