// Recording and replay over the PCI transport (a sysfs tree served over FUSE: the BAR, config space and
// the ICMD register channel) and over a bus server (mst server, TCP): the session is recorded on
// the device, the device is taken away, and the replay alone gives the tools' output byte for byte.
#include <gtest/gtest.h>

#include "tests/house/ReplayCheck.h"
#include "tests/pci_cli/PciServeFixture.h"
#include "tests/remote_server/ServerFixture.h"

namespace openflint::test {
namespace {

const std::vector<std::vector<std::string>> kCommands = {{"flint", "-d", "{dev}", "q"},
                                                         {"mst", "dump", "{dev}"},
                                                         {"mst", "config", "{dev}", "query"}};

class ReplayPci : public PciServeFixture {};

TEST_F(ReplayPci, BarAndConfigSpaceSessionsReplayWithTheServerGone) {
  const auto dev = create_device("dev", "connectx4", sample_image("connectx4-old"));
  if (!serve({dev}, {"--bdf", "0000:05:00.0"})) return;
  ReplayCheck check(dir_.path());
  std::vector<std::pair<std::vector<std::string>, Recorded>> sessions;
  for (const std::string name : {"0000:05:00.0", "pciconf-0000:05:00.0"}) {
    for (const auto& command : kCommands) {
      // Config space moves a dword per FUSE round trip: the dump only through the BAR.
      if (name.starts_with("pciconf") && command[1] == "dump") continue;
      Recorded r = check.record(command, name, tool_env());
      ASSERT_EQ(r.exit_code, 0) << name << " " << command[1] << ": " << r.out << r.err;
      sessions.emplace_back(command, std::move(r));
    }
  }
  // The ICMD channel was recorded (MGIR, the configuration registers).
  const auto config = session_records_of(sessions.back().second.session);
  EXPECT_TRUE(std::any_of(config.begin(), config.end(), [](const std::string& s) { return s.starts_with("t "); }));
  stop_server();
  for (const auto& [command, recorded] : sessions) {
    SCOPED_TRACE(command[0] + " " + command[1]);
    check.expect_replay_of(recorded, command);
  }
}

class ReplayRemote : public ServerFixture {};

TEST_F(ReplayRemote, ABusServerSessionReplaysWithTheServerGone) {
  const auto port = start_server();
  ASSERT_NE(port, 0);
  const std::string name = "127.0.0.1:" + std::to_string(port) + "," + remote_name();
  ReplayCheck check(dir_.path());
  std::vector<std::pair<std::vector<std::string>, Recorded>> sessions;
  for (const auto& command : kCommands) {
    Recorded r = check.record(command, name);
    ASSERT_EQ(r.exit_code, 0) << command[1] << ": " << r.out << r.err;
    const auto records = session_records_of(r.session);
    ASSERT_FALSE(records.size() < 2 || !records[1].starts_with("open ")) << records.size();
    EXPECT_NE(records[1].find(" remote=1 "), std::string::npos) << records[1];
    sessions.emplace_back(command, std::move(r));
  }
  for (auto& server : servers_) server->signal(SIGKILL);
  servers_.clear();
  for (const auto& [command, recorded] : sessions) {
    SCOPED_TRACE(command[1]);
    check.expect_replay_of(recorded, command);
  }
}

}  // namespace
}  // namespace openflint::test
