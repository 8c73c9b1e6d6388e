// ibls, ibmon and ibcon --hosts: the node a host's `mst server` serves (matched by the node GUID
// its flash holds) is described through the server — ibls's PSID and version from its flash,
// ibcon's register and ibmon's temperature through the server's register request — the others
// in-band, each with its path; an unreachable host is a warning and its nodes go in-band.
#include "tests/fabric_oob/OutOfBandFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

constexpr std::uint64_t kServedGuid = 0x0002c90300c20000ull;  // the local node's device: its own GUID
constexpr const char* kServedGuidText = "0x0002c90300c20000";

class FabricToolsOutOfBand : public IbfwmgrOutOfBand {
 protected:
  // The local node's simulated device (Hca1 has no responder: no vendor MADs reach it), at `celsius`.
  std::filesystem::path make_served_device(std::uint32_t celsius) {
    const auto image = dir_.path() / "served.bin";
    write_file(image, small_fs3_image(10, "MT_2190110032", 0x209, 4096, kServedGuid));
    const auto dir = dir_.path() / "served";
    const auto made = run_command({bin("hcasim").string(), "create", "--model", "connectx4", dir.string(), "--image",
                                   image.string()});
    EXPECT_EQ(made.exit_code, 0) << made.out << made.err;
    const auto hot = run_command({bin("hcasim").string(), "set-temperature", dir.string(), std::to_string(celsius)});
    EXPECT_EQ(hot.exit_code, 0) << hot.out << hot.err;
    return dir;
  }

  json tool_json(const std::string& tool, std::vector<std::string> args, int expected_rc) {
    args.insert(args.begin(), bin(tool).string());
    args.push_back("--json");
    auto r = run(args);
    EXPECT_EQ(r.exit_code, expected_rc) << r.out << r.err;
    auto j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
    return j.is_discarded() ? json{} : j;
  }

  static json by_guid(const json& list, const std::string& guid) {
    for (const auto& n : list)
      if (n["guid"] == guid) return n;
    return json{};
  }

  std::string guid_of(const std::string& node) {
    const json devices = tool_json("ibls", {"devices", "--no-fw"}, 0);
    for (const auto& d : devices["devices"])
      if (d["lid"] == lids_[node]) return d["guid"].get<std::string>();
    ADD_FAILURE() << node << " not listed: " << devices.dump(2);
    return "";
  }
};

TEST_F(FabricToolsOutOfBand, TheServedNodeIsReadThroughItsHostTheOthersInBand) {
  const auto cx4 = dir_.path() / "cx4.bin";
  write_file(cx4, small_fs3_image(20));
  bring_up({{"Hca2", "connectx4", cx4}}, {{"Hca1", kServedGuid}});
  if (HasFatalFailure() || IsSkipped()) return;
  const std::uint16_t port = serve(make_served_device(66));
  ASSERT_NE(port, 0);
  const std::string host = "127.0.0.1:" + std::to_string(port);
  const auto hosts = hosts_file(host + "\n");
  const std::string hca2 = guid_of("Hca2");

  // ibls: firmware facts from the served device's flash, out-of-band; Hca2's in-band (MGIR).
  const json fw = tool_json("ibls", {"firmware", "--hosts", hosts.string()}, 0);
  const json served = by_guid(fw["firmware"], kServedGuidText);
  ASSERT_FALSE(served.is_null()) << fw.dump(2);
  EXPECT_EQ(served["path"], "out-of-band " + host) << served.dump(2);
  EXPECT_EQ(served["psid"], "MT_2190110032");
  EXPECT_EQ(served["fw_version"], "12.10.1000");
  const json in_band = by_guid(fw["firmware"], hca2);
  EXPECT_EQ(in_band["path"], "in-band") << fw.dump(2);
  EXPECT_EQ(in_band["fw_version"], "12.20.1000") << in_band.dump(2);
  const json without = tool_json("ibls", {"firmware"}, 0);
  EXPECT_TRUE(by_guid(without["firmware"], kServedGuidText)["path"].is_null())
      << "without --hosts the local node has no vendor access";
  const auto text = run({bin("ibls").string(), "--hosts", hosts.string()});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("0x0002c90300c20000  lid"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("FW 12.10.1000  (local)"), std::string::npos) << text.out;

  // ibcon: the register through the server's register request; Hca2 over vendor MADs.
  const json reg = tool_json("ibcon", {"MTMP.temperature", "--hosts", hosts.string(), "-g", kServedGuidText, "-g", hca2}, 0);
  ASSERT_EQ(reg["nodes"].size(), 2u) << reg.dump(2);
  const json r1 = by_guid(reg["nodes"], kServedGuidText);
  EXPECT_EQ(r1["path"], "out-of-band " + host) << r1.dump(2);
  EXPECT_EQ(r1["values"]["temperature"], "0x210") << r1.dump(2);  // 66 C in 0.125 C units
  EXPECT_EQ(r1["device"], "ConnectX-4");
  EXPECT_EQ(by_guid(reg["nodes"], hca2)["path"], "in-band");
  const auto table = run({bin("ibcon").string(), "MTMP.temperature", "--hosts", hosts.string(), "-g", kServedGuidText});
  EXPECT_EQ(table.exit_code, 0) << table.out << table.err;
  EXPECT_NE(table.out.find("out-of-band " + host + "  temperature=0x210"), std::string::npos) << table.out;

  // ibmon: the served node's temperature through its host.
  const json mon = tool_json("ibmon", {"--hosts", hosts.string()}, 0);
  ASSERT_EQ(mon["passes"].size(), 1u) << mon.dump(2);
  const json t1 = by_guid(mon["passes"][0]["temperatures"], kServedGuidText);
  ASSERT_FALSE(t1.is_null()) << mon.dump(2);
  EXPECT_EQ(t1["path"], "out-of-band " + host);
  EXPECT_EQ(t1["celsius"], 66);
  const json hot = tool_json("ibmon", {"--hosts", hosts.string(), "--threshold", "temperature=60"}, 1);
  ASSERT_EQ(hot["passes"][0]["findings"].size(), 1u) << hot.dump(2);
  EXPECT_EQ(hot["passes"][0]["findings"][0]["guid"], kServedGuidText);
}

TEST_F(FabricToolsOutOfBand, AnUnreachableHostIsAWarningAndItsNodesGoInBand) {
  bring_up({{"Hca2", "connectx4", {}}}, {{"Hca1", kServedGuid}});
  if (HasFatalFailure() || IsSkipped()) return;
  const std::string host = "127.0.0.1:" + std::to_string(unused_loopback_port());
  const auto hosts = hosts_file(host + "\n");
  for (const std::vector<std::string>& argv :
       {std::vector<std::string>{bin("ibls").string(), "firmware", "--hosts", hosts.string()},
        std::vector<std::string>{bin("ibmon").string(), "--hosts", hosts.string()},
        std::vector<std::string>{bin("ibcon").string(), "MTMP.temperature", "--hosts", hosts.string()}}) {
    const auto r = run(argv);
    EXPECT_NE(r.err.find("-W- host " + host + " unreachable"), std::string::npos) << argv[0] << ": " << r.err;
    EXPECT_NE(r.err.find("its nodes are reached in-band"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("out-of-band"), std::string::npos) << r.out;
  }
  const json reg = tool_json("ibcon", {"MTMP.temperature", "--hosts", hosts.string()}, 1);
  const json local = by_guid(reg["nodes"], kServedGuidText);
  EXPECT_EQ(local["path"], "in-band") << reg.dump(2);
  EXPECT_FALSE(local["read"].get<bool>()) << "no vendor MADs reach the local node";
}

// Read before the fabric is touched: a name map given as --hosts is a usage error with the hint.
TEST(FabricToolsHostsFile, ANameMapAsHostsIsRefusedWithTheHint) {
  TempDir dir;
  const auto map = dir.path() / "names";
  const std::string text = "# systems\nspine-1 0x0002c90300001234\n";
  write_file(map, std::vector<std::uint8_t>(text.begin(), text.end()));
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--hosts", map.string()},
                                               std::vector<std::string>{"MGIR", "--hosts", map.string()}}) {
    for (const char* tool : {"ibls", "ibmon", "ibcon"}) {
      if ((args[0] == "MGIR") != (std::string(tool) == "ibcon")) continue;
      const auto r = run_tool(tool, args);
      EXPECT_EQ(r.exit_code, 2) << tool << ": " << r.out << r.err;
      EXPECT_NE(r.err.find(map.string() + ":2:"), std::string::npos) << tool << ": " << r.err;
      EXPECT_NE(r.err.find("the name map is --names now"), std::string::npos) << tool << ": " << r.err;
    }
  }
}

}  // namespace
}  // namespace openflint::test
