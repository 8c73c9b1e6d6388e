// mst server's default list (what mst status lists) and mst status --remote HOST against our server.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "mtcr/remote/BusDeviceList.h"
#include "tests/remote_server/ServerFixture.h"
#include "tests/support/LoopbackPort.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void put(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

void make_function(const fs::path& root, const std::string& bdf, const std::string& vendor, const std::string& device) {
  const fs::path dir = root / "devices" / bdf;
  put(dir / "vendor", vendor + "\n");
  put(dir / "device", device + "\n");
  put(dir / "revision", "0x00\n");
  put(dir / "config", std::string(256, '\0'));
}

json query_json(const fs::path& image) {
  const auto r = run_tool("flint", {"-i", image.string(), "query", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out, nullptr, false);
}

using RemoteStatus = ServerFixture;

TEST_F(RemoteStatus, ServerWithoutDevicesServesWhatMstStatusLists) {
  const fs::path root = dir_ / "bus" / "pci";
  make_function(root, "0000:3b:00.0", "0x15b3", "0x1017");
  make_function(root, "0000:3b:00.1", "0x15b3", "0x1017");
  make_function(root, "0000:00:1f.0", "0x8086", "0x1017");  // another vendor: not listed
  const auto status = run_command({bin("mst").string(), "status", "--json", "--sysfs", root.string()},
                                  {"OPENFLINT_RUN_DIR=" + (dir_ / "run").string()});
  ASSERT_EQ(status.exit_code, 0) << status.err;
  std::vector<std::string> expected;
  const json listing = json::parse(status.out);
  for (const auto& f : listing["pci"]) expected.push_back(f["mst_name"]);
  ASSERT_EQ(expected, (std::vector<std::string>{"mt4119_pciconf0", "mt4119_pciconf1"})) << status.out;

  const std::uint16_t port = start_server({"--sysfs", root.string()}, {});
  ASSERT_NE(port, 0);
  auto c = connect(port);
  auto listed = list_bus_devices(c, kReplyTimeout);
  ASSERT_TRUE(listed) << listed.error().message();
  EXPECT_EQ(*listed, expected);
  EXPECT_EQ(ask(c, "O 1 sim:@elsewhere").substr(0, 1), "E") << "only the listed devices may be opened";
}

TEST_F(RemoteStatus, ExplicitDevicesAreWhatLLists) {
  const std::uint16_t port = start_server();
  ASSERT_NE(port, 0);
  auto c = connect(port);
  auto listed = list_bus_devices(c, kReplyTimeout);
  ASSERT_TRUE(listed) << listed.error().message();
  EXPECT_EQ(*listed, std::vector<std::string>{device_});
}

TEST_F(RemoteStatus, ListsEachHostsDevicesAndReportsUnreachableHosts) {
  const json sample = query_json(sample_image("connectx4-old"));
  const std::uint16_t port = start_server();
  ASSERT_NE(port, 0);
  const std::string host = "127.0.0.1:" + std::to_string(port);
  const std::string dead = "127.0.0.1:" + std::to_string(unused_loopback_port());
  const std::string name = host + "," + remote_name();

  auto r = run_command({bin("mst").string(), "status", "--remote", host, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  json doc = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_TRUE(doc["ok"].get<bool>());
  EXPECT_EQ(doc["json_version"], 1);
  ASSERT_EQ(doc["remote"].size(), 1u);
  const json& h = doc["remote"][0];
  EXPECT_EQ(h["host"], host);
  EXPECT_TRUE(h["reachable"].get<bool>());
  ASSERT_EQ(h["devices"].size(), 1u) << h.dump(2);
  const json& d = h["devices"][0];
  EXPECT_EQ(d["name"], name);
  EXPECT_EQ(d["listed_as"], device_);
  EXPECT_EQ(d["device"], "ConnectX-4");
  EXPECT_EQ(d["hw_id"], "0x209");
  EXPECT_EQ(d["flash_fw_version"], sample["fw_version"]);
  EXPECT_EQ(d["psid"], sample["psid"]);
  ASSERT_TRUE(sample["base_guid"].is_object()) << sample.dump(2);
  EXPECT_EQ(d["guid"], sample["base_guid"]["base"]);
  EXPECT_TRUE(d["error"].is_null()) << d.dump(2);

  // An unreachable host: one line, exit 1, and the reachable one still listed.
  r = run_command({bin("mst").string(), "status", "--remote", dead, "--remote", host});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("Remote host " + dead + ": unreachable:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(name), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(sample["fw_version"].get<std::string>()), std::string::npos) << r.out;
  r = run_command({bin("mst").string(), "status", "--remote", dead, "--json"});
  EXPECT_EQ(r.exit_code, 1);
  doc = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_FALSE(doc["ok"].get<bool>());
  EXPECT_FALSE(doc["remote"][0]["reachable"].get<bool>());
  EXPECT_TRUE(doc["remote"][0]["error"].is_string());

  // A HOST that does not parse is a usage error.
  r = run_command({bin("mst").string(), "status", "--remote", "host:0"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
}

}  // namespace
}  // namespace openflint::test
