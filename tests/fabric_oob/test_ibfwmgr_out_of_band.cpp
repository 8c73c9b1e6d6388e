// ibfwmgr --hosts: a node served by a host's `mst server` is listed and updated out-of-band (matched
// by node GUID), the others in-band; unreachable hosts fall back in-band; bad hosts files are usage errors.
#include "sim/SimDevice.h"
#include "tests/fabric_oob/OutOfBandFixture.h"

namespace openflint::test {
namespace {

TEST_F(IbfwmgrOutOfBand, ListsAndUpdatesTheServedNodeOutOfBandTheRestInBand) {
  const auto sw_a = dir_.path() / "sw-a.bin";
  const auto cx4_a = dir_.path() / "cx4-a.bin";
  const auto images = dir_.path() / "images";
  std::filesystem::create_directories(images);
  write_file(sw_a, small_fs3_image(10, "MT_1780110032", 0x249));
  write_file(cx4_a, small_fs3_image(10));
  write_file(images / "cx4-b.bin", small_fs3_image(20));
  write_file(images / "sw-b.bin", small_fs3_image(30, "MT_1780110032", 0x249));
  bring_up({{"Switch1", "spectrum", sw_a}, {"Hca2", "connectx4", cx4_a}}, {{"Hca1", kLocalGuid}});
  if (HasFatalFailure() || IsSkipped()) return;
  const auto local = make_local_device(10);
  const std::uint16_t port = serve(local);
  ASSERT_NE(port, 0);
  const std::string host = "127.0.0.1:" + std::to_string(port);
  const auto hosts = hosts_file("# the local node's host\n\n  " + host + "   # its mst server\n");

  const json list = ibfwmgr_json({"list", "--json", "--hosts", hosts.string()}, 0);
  const json* hca1 = local_node(list);
  ASSERT_NE(hca1, nullptr) << list.dump(2);
  EXPECT_EQ((*hca1)["guid"], kLocalGuidText) << "ibsim reports the GUID the device's flash holds";
  EXPECT_EQ((*hca1)["path"], "out-of-band " + host) << hca1->dump(2);
  EXPECT_EQ((*hca1)["device"], "ConnectX-4");
  EXPECT_EQ((*hca1)["psid"], "MT_2190110032");
  EXPECT_EQ((*hca1)["psid_source"], "flash");
  EXPECT_EQ((*hca1)["fw_version"], "12.10.1000");
  EXPECT_FALSE((*hca1)["vendor_access"].get<bool>()) << "still no vendor MADs: it was not asked in-band";
  for (const char* node : {"Switch1", "Hca2"}) {
    const json* n = node_with_lid(list, lids_[node]);
    ASSERT_NE(n, nullptr) << node;
    EXPECT_EQ((*n)["path"], "in-band") << n->dump(2);
    EXPECT_EQ((*n)["fw_version"], "12.10.1000") << node;
    EXPECT_TRUE((*n)["vendor_access"].get<bool>()) << node;
  }
  ASSERT_EQ(list["hosts"].size(), 1u) << list.dump(2);
  EXPECT_TRUE(list["hosts"][0]["reachable"].get<bool>());
  EXPECT_EQ(list["hosts"][0]["devices"][0]["guid"], kLocalGuidText);
  auto table = run({bin("ibfwmgr").string(), "list", "--hosts", hosts.string()});
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("out-of-band " + host), std::string::npos) << table.out;
  EXPECT_EQ(table.out.find("no vendor access (local node)"), std::string::npos) << table.out;

  const json up = ibfwmgr_json({"update", "--images", images.string(), "--json", "-y", "--reset", "--hosts",
                                hosts.string()}, 0);
  EXPECT_TRUE(up["ok"].get<bool>()) << up.dump(2);
  hca1 = local_node(up);
  ASSERT_NE(hca1, nullptr);
  EXPECT_EQ((*hca1)["status"], "updated") << hca1->dump(2);
  EXPECT_EQ((*hca1)["path"], "out-of-band " + host);
  EXPECT_EQ((*hca1)["mads"], 0) << "out-of-band: no MAD at all";
  // The server does not reset (no --allow-reset): the firmware reset is armed for the next warm reboot instead.
  EXPECT_FALSE((*hca1)["reset"].get<bool>());
  EXPECT_EQ((*hca1)["activation"], "armed") << hca1->dump(2);
  EXPECT_NE((*hca1)["message"].get<std::string>().find("armed, runs after the next warm reboot"), std::string::npos)
      << hca1->dump(2);
  EXPECT_NE((*hca1)["message"].get<std::string>().find("reset not allowed by this server"), std::string::npos)
      << hca1->dump(2);
  EXPECT_EQ((*hca1)["running_after"], "12.10.1000") << "the old firmware runs until the reboot";
  const json* usw = node_with_lid(up, lids_["Switch1"]);
  ASSERT_NE(usw, nullptr);
  EXPECT_EQ((*usw)["status"], "updated");
  EXPECT_EQ((*usw)["path"], "in-band");
  EXPECT_EQ((*usw)["running_after"], "12.30.1000");
  EXPECT_EQ((*usw)["activation"], "running");
  const json* u2 = node_with_lid(up, lids_["Hca2"]);
  ASSERT_NE(u2, nullptr);
  EXPECT_EQ((*u2)["status"], "updated");
  EXPECT_GT((*u2)["mads"].get<int>(), 0);
  EXPECT_EQ((*u2)["activation"], "pending") << "an adapter in-band is not reset: " << u2->dump(2);

  const json after = ibfwmgr_json({"list", "--json", "--hosts", hosts.string()}, 0);
  hca1 = local_node(after);
  ASSERT_NE(hca1, nullptr);
  EXPECT_EQ((*hca1)["fw_version"], "12.20.1000") << hca1->dump(2);
  EXPECT_EQ((*hca1)["path"], "out-of-band " + host);

  // The server saved the written device: its boot ROM runs the new image after a power cycle.
  server_->signal(SIGTERM);
  ASSERT_EQ(server_->wait_for(std::chrono::seconds(10)), std::optional<int>(0)) << server_->err();
  auto device = sim::SimDevice::load_state(local);
  ASSERT_TRUE(device) << device.error().message();
  (*device)->power_cycle();
  ASSERT_TRUE((*device)->boot_state().running);
  EXPECT_EQ((*device)->boot_state().running->fw_version->minor, 20);
}

TEST_F(IbfwmgrOutOfBand, AnUnreachableHostsNodesFallBackInBand) {
  bring_up({{"Hca2", "connectx4", {}}}, {{"Hca1", kLocalGuid}});
  if (HasFatalFailure() || IsSkipped()) return;
  const std::string host = "127.0.0.1:" + std::to_string(unused_loopback_port());
  const auto hosts = hosts_file(host + "\n");
  const json list = ibfwmgr_json({"list", "--json", "--hosts", hosts.string()}, 0);
  ASSERT_EQ(list["hosts"].size(), 1u) << list.dump(2);
  EXPECT_EQ(list["hosts"][0]["host"], host);
  EXPECT_FALSE(list["hosts"][0]["reachable"].get<bool>());
  EXPECT_TRUE(list["hosts"][0]["error"].is_string());
  for (const auto& n : list["nodes"]) EXPECT_EQ(n["path"], "in-band") << n.dump(2);
  const json* hca1 = local_node(list);
  ASSERT_NE(hca1, nullptr);
  EXPECT_FALSE((*hca1)["vendor_access"].get<bool>());
  EXPECT_NE((*hca1)["note"].get<std::string>().find("no vendor access"), std::string::npos);
  const json* hca2 = node_with_lid(list, lids_["Hca2"]);
  ASSERT_NE(hca2, nullptr);
  EXPECT_TRUE((*hca2)["vendor_access"].get<bool>()) << "the in-band nodes are listed as without --hosts";

  const auto table = run({bin("ibfwmgr").string(), "list", "--hosts", hosts.string()});
  EXPECT_EQ(table.exit_code, 0);
  EXPECT_NE(table.err.find("-W- host " + host + " unreachable"), std::string::npos) << table.err;
  EXPECT_NE(table.err.find("its nodes are reached in-band"), std::string::npos) << table.err;
  EXPECT_NE(table.out.find("no vendor access (local node)"), std::string::npos) << table.out;
}

// Parsed before the fabric is touched: no fabric needed, exit 2 naming the file and line.
TEST(IbfwmgrHostsFile, AMalformedLineIsAUsageErrorNamingIt) {
  TempDir dir;
  const auto hosts = dir.path() / "hosts";
  const std::string text = "# hosts\n127.0.0.1:23108\nmgmt1:99999\n";
  write_file(hosts, std::vector<std::uint8_t>(text.begin(), text.end()));
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"list", "--hosts", hosts.string()},
        std::vector<std::string>{"update", "--images", dir.path().string(), "-y", "--hosts", hosts.string()}}) {
    const auto r = run_tool("ibfwmgr", args);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(hosts.string() + ":3:"), std::string::npos) << r.err;
  }
  const auto missing = run_tool("ibfwmgr", {"list", "--hosts", (dir.path() / "none").string()});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("none"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace openflint::test
