// mst web --hosts FILE: the devices a bus server (mst server) lists are served too, by their
// remote names, each queried over the bus protocol; an unreachable host is a warning, not a failure.
#include <gtest/gtest.h>
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "core/ChildProcess.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Waits until the process's stderr matches `pattern`; its first group, or "" after 10 s.
std::string printed(const ChildProcess& process, const std::regex& pattern) {
  std::smatch m;
  for (int i = 0; i < 1000; ++i) {
    const std::string err = process.err();
    if (std::regex_search(err, m, pattern)) return m[1].str();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return "";
}

TEST(WebHosts, TheDevicesOfTheHostsBusServersAreServedByTheirRemoteNames) {
  const TempDir dir;
  const std::string device = "sim:" + (dir / "cx4").string();
  ASSERT_EQ(run_tool("hcasim", {"create", "--model", "connectx4", (dir / "cx4").string(), "--image",
                                sample_image("connectx4-old").string()}).exit_code, 0);
  auto bus = ChildProcess::spawn(background_tool({bin("mst").string(), "server", "--port", "0", "--audit-log",
                                                  (dir / "bus-audit.log").string(), device},
                                                 {}, dir / "bus.out", dir / "bus.err"));
  ASSERT_TRUE(bus.has_value()) << bus.error().message();
  const std::string port = printed(*bus, std::regex(R"(-I- serving 1 device\(s\) on 127\.0\.0\.1:(\d+))"));
  ASSERT_FALSE(port.empty()) << bus->err();
  std::ofstream(dir / "hosts") << "127.0.0.1:" << port << "\n127.0.0.1:1\n";  // the second: nobody listens
  fs::create_directories(dir / "sys" / "devices");                             // no local PCI functions

  auto web = ChildProcess::spawn(background_tool({bin("mst").string(), "web", "--listen", "127.0.0.1:0", "--sysfs",
                                                  (dir / "sys").string(), "--hosts", (dir / "hosts").string()},
                                                 {}, dir / "web.out", dir / "web.err"));
  ASSERT_TRUE(web.has_value()) << web.error().message();
  const std::string url = printed(*web, std::regex(R"(-I- serving 1 device\(s\) on (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{32}))"));
  ASSERT_FALSE(url.empty()) << web->err();
  EXPECT_NE(web->err().find("-W- "), std::string::npos) << "the unreachable host is not named: " << web->err();
  const std::smatch parts = [&] {
    std::smatch m;
    std::regex_search(url, m, std::regex(R"(:(\d+)/\?token=(\w+))"));
    return m;
  }();
  {  // the client (and its connection) is gone before the server is asked to stop
    httplib::Client client("127.0.0.1", std::stoi(parts[1].str()));
    client.set_read_timeout(60, 0);
    const auto res = client.Get("/api/devices", {{"X-Openflint-Token", parts[2].str()}});
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    const json doc = json::parse(res->body);
    ASSERT_EQ(doc["devices"].size(), 1u) << doc.dump(1);
    // MFT's remote form: HOST:PORT,DEVICE with the device's '/' written '@'.
    std::string listed = device;
    std::replace(listed.begin(), listed.end(), '/', '@');
    EXPECT_EQ(doc["devices"][0]["name"], "127.0.0.1:" + port + "," + listed);
    const auto local = run_tool("flint", {"-d", device, "q", "--json"});
    EXPECT_EQ(doc["devices"][0]["query"]["fw_version"], json::parse(local.out)["fw_version"]) << doc.dump(1);
  }
  // Generous under ASan, where a stop of a server that held remote sessions took over 5 s once.
  EXPECT_EQ(web->stop(20000), 0) << web->err();
  EXPECT_EQ(bus->stop(20000), 0) << bus->err();
}

}  // namespace
}  // namespace openflint::test
