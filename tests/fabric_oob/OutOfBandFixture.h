// OutOfBandFixture: an ibsim fabric whose local node's device (Hca1, no vendor MADs) is served by a
// child `mst server` on loopback, and ibfwmgr's JSON documents (tests of ibfwmgr --hosts).
#pragma once

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "core/ChildProcess.h"
#include "tests/inband/DeviceFabricFixture.h"
#include "tests/support/LoopbackPort.h"

namespace openflint::test {

using nlohmann::json;

// The local node's device: its own GUID, so nothing else on the fabric carries it.
inline constexpr std::uint64_t kLocalGuid = 0x0002c90300c10000ull;
inline constexpr const char* kLocalGuidText = "0x0002c90300c10000";

class IbfwmgrOutOfBand : public DeviceFabricFixture {
 protected:
  void TearDown() override {
    if (server_ && server_->running()) {
      server_->signal(SIGTERM);
      EXPECT_TRUE(server_->wait_for(std::chrono::seconds(10)).has_value()) << "mst server did not stop";
    }
    server_.reset();  // SIGKILL if it still ran
    DeviceFabricFixture::TearDown();
  }

  // The local node's simulated device (Hca1 has no responder: no vendor MADs reach it).
  std::filesystem::path make_local_device(std::uint16_t minor) {
    const auto image = dir_.path() / "local.bin";
    write_file(image, small_fs3_image(minor, "MT_2190110032", 0x209, 4096, kLocalGuid));
    const auto dir = dir_.path() / "local";
    const auto made = run_command({bin("hcasim").string(), "create", "--model", "connectx4", dir.string(), "--image",
                                   image.string()});
    EXPECT_EQ(made.exit_code, 0) << made.out << made.err;
    return dir;
  }

  // `mst server --port 0 sim:DIR` on loopback; its port (0 when it did not come up).
  // `extra`: server options (--allow-reset).
  std::uint16_t serve(const std::filesystem::path& device, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> argv{bin("mst").string(), "server", "--port", "0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back("sim:" + device.string());
    server_ = std::make_unique<ChildProcess>(background_tool(argv, std::vector<std::string>{}, dir_.path() / "server.out",
                                                             dir_.path() / "server.err"));
    const std::regex ready("-I- serving 1 device\\(s\\) on 127\\.0\\.0\\.1:([0-9]+)");
    for (int i = 0; i < 1000 && server_->running(); ++i) {
      std::smatch m;
      const std::string err = server_->err();
      if (std::regex_search(err, m, ready)) return static_cast<std::uint16_t>(std::stoi(m[1].str()));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "mst server did not come up: " << server_->err();
    return 0;
  }

  std::filesystem::path hosts_file(const std::string& text) {
    const auto path = dir_.path() / "hosts";
    write_file(path, std::vector<std::uint8_t>(text.begin(), text.end()));
    return path;
  }

  json ibfwmgr_json(std::vector<std::string> args, int expected_rc) {
    args.insert(args.begin(), bin("ibfwmgr").string());
    auto r = run(args);
    EXPECT_EQ(r.exit_code, expected_rc) << r.out << r.err;
    auto j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
    return j;
  }

  static const json* node_with_lid(const json& doc, int lid) {
    for (const auto& n : doc["nodes"])
      if (n["lid"] == lid) return &n;
    return nullptr;
  }
  static const json* local_node(const json& doc) {
    for (const auto& n : doc["nodes"])
      if (n["local"].get<bool>()) return &n;
    return nullptr;
  }

  std::unique_ptr<ChildProcess> server_;
};

}  // namespace openflint::test
