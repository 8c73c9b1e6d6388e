// The bus server's reset of a PCI device (a simulated ConnectX-4 served as a sysfs tree by `hcasim
// pci-serve`, a driver bound): `mst server --allow-reset` refuses while the driver is bound, and with
// --allow-unbind unbinds, resets, restores and binds again; the client then sees the new firmware run.
#include <signal.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "tests/pci_cli/PciServeFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

class ServerPciReset : public PciServeFixture {
 protected:
  void TearDown() override {
    stop_bus_server();
    PciServeFixture::TearDown();
  }

  // `mst server --port 0 EXTRA... 03:00.0` over the served tree; its port (0: it did not come up).
  std::uint16_t start_bus_server(const std::vector<std::string>& extra) {
    stop_bus_server();
    std::vector<std::string> argv{bin("mst").string(), "server", "--port", "0", "--audit-log", (dir_ / "audit").string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back("03:00.0");
    bus_server_ = std::make_unique<ChildProcess>(background_tool(argv, tool_env(), dir_ / "bus.out", dir_ / "bus.err"));
    const std::regex ready("-I- serving 1 device\\(s\\) on 127\\.0\\.0\\.1:([0-9]+)");
    for (int i = 0; i < 1000 && bus_server_->running(); ++i) {
      std::smatch m;
      const std::string err = bus_server_->err();
      if (std::regex_search(err, m, ready)) return static_cast<std::uint16_t>(std::stoi(m[1].str()));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "mst server did not come up: " << bus_server_->err();
    return 0;
  }
  void stop_bus_server() {
    if (!bus_server_) return;
    if (bus_server_->running()) bus_server_->signal(SIGTERM);
    EXPECT_TRUE(bus_server_->wait_for(std::chrono::seconds(10)).has_value()) << "mst server did not stop";
    bus_server_.reset();  // SIGKILL if it still ran
  }
  // `mst --json reset -y HOST:PORT,03:00.0` run as a client would: without the server's sysfs.
  json remote_reset(std::uint16_t port, int expected_exit) {
    const auto r = run_command({bin("mst").string(), "--json", "reset", "-y", "127.0.0.1:" + std::to_string(port) + ",03:00.0"});
    EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
    auto j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
    return j;
  }
  std::string audit() const {
    const auto bytes = read_file(dir_ / "audit");
    return {bytes.begin(), bytes.end()};
  }

  std::unique_ptr<ChildProcess> bus_server_;
};

TEST_F(ServerPciReset, ABoundDriverRefusesUnlessTheServerMayUnbind) {
  const auto old_image = sample_image("connectx4-old"), new_image = sample_image("connectx4-new");
  const std::string old_version = image_version(old_image), new_version = image_version(new_image);
  const auto dev = create_device("cx4", "connectx4", old_image);
  if (!serve({dev}, {"--bdf", "0000:03:00.0", "--driver", "mlx5_core", "--reset-clears-config"})) return;
  const auto b = flint({"-d", "03:00.0", "-i", new_image.string(), "-y", "burn"});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  const auto fn = sysfs_ / "devices" / "0000:03:00.0";

  // --allow-reset alone: the server's plan refuses (the bound driver); a level 3 is not armed instead.
  std::uint16_t port = start_bus_server({"--allow-reset"});
  ASSERT_NE(port, 0);
  const json refused = remote_reset(port, 6);
  const std::string why = refused["error"]["message"].get<std::string>();
  EXPECT_NE(why.find("driver mlx5_core is bound"), std::string::npos) << refused.dump(2);
  EXPECT_NE(why.find("the server does not reset"), std::string::npos) << refused.dump(2);
  EXPECT_NE(audit().find("reset plan of 03:00.0 level 3 refused: driver mlx5_core is bound"), std::string::npos) << audit();
  std::error_code ec;
  EXPECT_EQ(std::filesystem::read_symlink(fn / "driver", ec).filename(), "mlx5_core");

  // --allow-unbind: the server unbinds, resets, restores and binds again; the new firmware runs.
  port = start_bus_server({"--allow-reset", "--allow-unbind"});
  ASSERT_NE(port, 0);
  const json done = remote_reset(port, 0);
  EXPECT_EQ(done["ok"], true) << done.dump(2);
  EXPECT_TRUE(done["plan"]["by_server"].get<bool>()) << done.dump(2);
  EXPECT_EQ(done["plan"]["running_before"]["fw_version"], old_version) << done.dump(2);
  EXPECT_EQ(done["running_after"]["fw_version"], new_version) << done.dump(2);
  EXPECT_EQ(std::filesystem::read_symlink(fn / "driver", ec).filename(), "mlx5_core") << "the driver is bound again";
  const auto q = run_command({bin("flint").string(), "-d", "127.0.0.1:" + std::to_string(port) + ",03:00.0", "q"});
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(query_field(q.out, "FW Version(Running)"), new_version) << q.out;
  EXPECT_NE(audit().find("reset of 03:00.0 level 3: reset in "), std::string::npos) << audit();
  stop_bus_server();
  stop_server();
  EXPECT_EQ(saved_running_version(dev), new_version);
}

}  // namespace
}  // namespace openflint::test
