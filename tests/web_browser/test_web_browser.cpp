// mst web in a real browser: `mst web` serving simulated ConnectX-4 and ConnectX-3 adapters and an InfiniScale III switch, checked
// by tests/web/browser_check.py in Debian's headless chromium (chromedriver + selenium): the device
// rows, the hw_id field, an outside `mst mwrite` highlighted within one refresh, snapshots and their
// diff, a field write from the page (and, read-only, refused), the flash page of the ConnectX-4 and
// of an InfiniScale III's EEPROMs (sections beside the bytes); read-write, an image that does not
// verify refused from the page, a new one checked and burned with progress (the device then has
// the new version and its own GUIDs), a configuration value set; read-only, those controls off. Screenshots go to
// BUILD/web-screenshots. No server, browser or driver process may be left.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "core/ChildProcess.h"
#include "tests/support/TestSupport.h"
#include "tests/web/BrowserSupport.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

class WebBrowser : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (!have_browser())
      GTEST_SKIP() << "chromium, chromedriver or python3-selenium is not installed (README's test command installs them); "
                      "browser checks not run";
    for (const char* model : {"connectx4", "connectx3", "mt47396"}) {  // the last: InfiniScale III, EEPROMs
      const auto dev = (dir_ / model).string();
      const auto r = run_tool("hcasim", {"create", "--model", model, dev, "--image",
                                         sample_image(std::string(model) + "-old").string()});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      devices_.push_back("sim:" + dev);
    }
  }

  TempDir dir_;
  std::vector<std::string> devices_;
};

TEST_P(WebBrowser, PagesShowDevicesRegistersAndLiveChanges) {
  const bool read_only = GetParam();
  std::vector<std::string> argv = {bin("mst").string(), "web", "--listen", "127.0.0.1:0",
                                   "--audit-log", (dir_ / "audit.log").string()};
  if (read_only) argv.push_back("--read-only");
  argv.insert(argv.end(), devices_.begin(), devices_.end());
  auto server = ChildProcess::spawn(background_tool(argv, {}, dir_ / "web.out", dir_ / "web.err"));
  ASSERT_TRUE(server.has_value()) << server.error().message();
  std::smatch url;
  const std::regex printed(R"(-I- serving 3 device\(s\)(?: \(read-only\))? on (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{32}))");
  std::string err;
  for (int i = 0; i < 500 && !std::regex_search(err, url, printed); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    err = server->err();
  }
  ASSERT_TRUE(!url.empty()) << "mst web printed no URL: " << err;

  const fs::path shots = bin("mst").parent_path().parent_path() / "web-screenshots" / (read_only ? "read-only" : "read-write");
  fs::remove_all(shots);
  const std::string profile = (dir_ / "chromium-profile").string();
  std::vector<std::string> check = {"/usr/bin/python3", (fs::path(OPENFLINT_SOURCE_DIR) / "tests/web/browser_check.py").string(),
                                    "--url", url[1].str(), "--mst", bin("mst").string(), "--device", devices_[0],
                                    "--devices", "3", "--expect-part", "MT27700", "--expect-part", "ConnectX-3",
                                    "--expect-part", "InfiniScale III",
                                    "--hw-id", "0x209", "--screenshots", shots.string(), "--profile", profile};
  // The burn from the page: the ConnectX-4's new image, and a copy with a flipped block that does not verify.
  const fs::path bad = dir_ / "connectx4-broken.bin";
  {
    std::ifstream in(sample_image("connectx4-new"), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::size_t at = 0x10100; at < 0x11100; ++at) bytes[at] = static_cast<char>(~bytes[at]);  // in MAIN_CODE
    std::ofstream(bad, std::ios::binary) << bytes;
  }
  const auto version = run_tool("flint", {"-i", sample_image("connectx4-new").string(), "q", "--json"});
  ASSERT_EQ(version.exit_code, 0) << version.err;
  check.insert(check.end(), {"--flint", bin("flint").string(), "--new-image", sample_image("connectx4-new").string(),
                             "--new-version", nlohmann::json::parse(version.out)["fw_version"].get<std::string>(),
                             "--bad-image", bad.string()});
  if (read_only) check.push_back("--read-only");
  SpawnSpec spec;
  spec.argv = check;
  const auto ran = ChildProcess::run(spec, 240000);
  ASSERT_TRUE(ran.has_value()) << ran.error().message();
  EXPECT_EQ(ran->exit_code, 0) << ran->out << ran->err;
  std::vector<std::string> pages = {"devices.png", "registers.png", "registers-changed.png", "flash.png", "flash-eeprom.png"};
  if (!read_only)
    pages.insert(pages.end(), {"firmware-refused.png", "firmware-checked.png", "firmware-burned.png", "config.png"});
  for (const std::string& page : pages) {
    std::ifstream png(shots / page, std::ios::binary);
    char magic[8] = {};
    png.read(magic, sizeof magic);
    EXPECT_EQ(std::string(magic + 1, 3), "PNG") << shots / page;
  }
  ASSERT_TRUE(server->running()) << "mst web ended before it was stopped: " << server->err();
  EXPECT_EQ(server->stop(5000), 0) << "mst web should end cleanly on SIGTERM: " << server->err();
  EXPECT_EQ(processes_mentioning(profile), std::vector<std::string>{}) << "a browser process outlived the check";
  if (!read_only) {
    const std::string lines = read_text(dir_ / "audit.log");
    EXPECT_NE(lines.find("wrote " + devices_[0] + " 0x000f0000 (boot_address.boot_address) 0x00002300 -> 0x00004500"),
              std::string::npos)
        << lines;
    EXPECT_NE(lines.find("burned " + devices_[0] + ": FW "), std::string::npos) << lines;
    EXPECT_NE(lines.find("refused image connectx4-broken.bin for " + devices_[0]), std::string::npos) << lines;
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, WebBrowser, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& mode) { return mode.param ? "ReadOnly" : "ReadWrite"; });

}  // namespace
}  // namespace openflint::test
