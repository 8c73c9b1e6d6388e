// The ssh argv for ssh: names: the user's command split on whitespace, never-prompt options, the quoted remote command.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mtcr/remote/SshCommand.h"

namespace openflint {
namespace {

using namespace std::chrono_literals;

RemoteHost ssh_host(std::string user, std::string host, std::uint16_t port) {
  return RemoteHost{RemoteTransport::Ssh, std::move(user), std::move(host), port};
}

TEST(SshCommand, BuildsTheArgv) {
  SshCommandSettings settings;
  settings.ssh_command = "  ssh -F /dev/null\t-i /k/id  ";
  settings.remote_mst = "/opt/of/bin/mst";
  const std::vector<std::string> devices{"sim:/tmp/dev"};
  const auto argv = ssh_command_line(ssh_host("root", "127.0.0.1", 2222), devices, 10s, settings);
  ASSERT_TRUE(argv.has_value()) << argv.error().message();
  const std::vector<std::string> expected{"ssh", "-F", "/dev/null", "-i", "/k/id", "-o", "BatchMode=yes", "-o",
                                          "ConnectTimeout=10", "-T", "-x", "-a", "-p", "2222", "root@127.0.0.1",
                                          "/opt/of/bin/mst server --stdio 'sim:/tmp/dev'"};
  EXPECT_EQ(*argv, expected);
}

TEST(SshCommand, DefaultsAndNoPortNoUser) {
  const std::vector<std::string> devices{"a", "b c"};
  const auto argv = ssh_command_line(ssh_host("", "::1", 0), devices, 1500ms, SshCommandSettings{});
  ASSERT_TRUE(argv.has_value()) << argv.error().message();
  const std::vector<std::string> expected{"ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=2", "-T", "-x", "-a",
                                          "::1", "mst server --stdio 'a' 'b c'"};
  EXPECT_EQ(*argv, expected);
}

TEST(SshCommand, QuotesDevicesForTheRemoteShell) {
  EXPECT_EQ(shell_quoted("sim:/tmp/x"), "'sim:/tmp/x'");
  EXPECT_EQ(shell_quoted("a'b"), "'a'\\''b'");
  EXPECT_EQ(shell_quoted("$(reboot); `x` \"y\""), "'$(reboot); `x` \"y\"'");
  EXPECT_EQ(shell_quoted(""), "''");
}

TEST(SshCommand, RefusesWhatSshWouldReadAsAnOption) {
  const std::vector<std::string> devices{"d"};
  for (const auto& host : {ssh_host("", "-oProxyCommand=touch /tmp/pwned", 0), ssh_host("-oX=y", "h", 0)}) {
    const auto argv = ssh_command_line(host, devices, 1s, SshCommandSettings{});
    ASSERT_FALSE(argv.has_value());
    EXPECT_EQ(argv.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(argv.error().message().find("ssh option"), std::string::npos) << argv.error().message();
  }
  SshCommandSettings blank;
  blank.ssh_command = "   ";
  EXPECT_FALSE(ssh_command_line(ssh_host("", "h", 0), devices, 1s, blank).has_value());
  EXPECT_FALSE(ssh_command_line(RemoteHost{RemoteTransport::Tcp, "", "h", 1}, devices, 1s, SshCommandSettings{})
                   .has_value());
}

}  // namespace
}  // namespace openflint
