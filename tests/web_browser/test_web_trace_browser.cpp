// The device page's live firmware trace in Debian's headless chromium (tests/web/trace_check.py):
// `mst web` serving a ConnectX-4 that `hcasim pci-serve` serves as a PCI function with the
// simulated mlx5_core bound and a served tracefs; the driver's messages show as rows, and one
// caused from outside appears without a reload.
#include <gtest/gtest.h>

#include <regex>

#include "tests/pci_cli/PciServeFixture.h"
#include "tests/web/BrowserSupport.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

class WebTraceBrowser : public PciServeFixture {};

TEST_F(WebTraceBrowser, TheDevicePageShowsTheFirmwareTraceLive) {
  if (!have_browser()) GTEST_SKIP() << "chromium, chromedriver or python3-selenium is not installed; browser check not run";
  const fs::path tracefs = dir_ / "tracing";
  const auto dev = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  if (!serve({dev}, {"--driver", "mlx5_core", "--tracefs", tracefs.string()})) return;
  std::vector<std::string> env = tool_env();
  env.push_back("OPENFLINT_TRACEFS_ROOT=" + tracefs.string());
  auto r = run_command({bin("mst").string(), "config", "03:00.0", "set", "SRIOV_EN=1", "-y"}, env);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;

  auto server = ChildProcess::spawn(background_tool({bin("mst").string(), "web", "--listen", "127.0.0.1:0", "03:00.0"}, env,
                                                    dir_ / "web.out", dir_ / "web.err"));
  ASSERT_TRUE(server.has_value()) << server.error().message();
  std::smatch url;
  const std::regex printed(R"(-I- serving 1 device\(s\) on (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{32}))");
  std::string err;
  for (int i = 0; i < 500 && !std::regex_search(err, url, printed); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    err = server->err();
  }
  ASSERT_TRUE(!url.empty()) << "mst web printed no URL: " << err;

  const fs::path shots = bin("mst").parent_path().parent_path() / "web-screenshots";
  const std::string profile = (dir_ / "chromium-profile").string();
  SpawnSpec spec;
  spec.argv = {"/usr/bin/python3", (fs::path(OPENFLINT_SOURCE_DIR) / "tests/web/trace_check.py").string(), "--url", url[1].str(),
               "--mst", bin("mst").string(), "--device", "03:00.0", "--screenshots", shots.string(), "--profile", profile};
  for (const std::string& kv : env) spec.env[kv.substr(0, kv.find('='))] = kv.substr(kv.find('=') + 1);
  const auto ran = ChildProcess::run(spec, 120000);
  ASSERT_TRUE(ran.has_value()) << ran.error().message();
  EXPECT_EQ(ran->exit_code, 0) << ran->out << ran->err;
  ASSERT_TRUE(server->running()) << "mst web ended before it was stopped: " << server->err();
  EXPECT_EQ(server->stop(5000), 0) << "mst web should end cleanly on SIGTERM: " << server->err();
  EXPECT_EQ(processes_mentioning(profile), std::vector<std::string>{}) << "a browser process outlived the check";
}

}  // namespace
}  // namespace openflint::test
