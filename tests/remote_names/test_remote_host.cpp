// Remote hosts (HOST[:PORT], ssh:[USER@]HOST[:PORT]): what parses to what, what is refused and why, to_string round trips.
#include <gtest/gtest.h>

#include <string>

#include "mtcr/remote/RemoteHost.h"

namespace openflint {
namespace {

TEST(RemoteHost, ParsesTcpAndSshForms) {
  const std::pair<const char*, RemoteHost> cases[] = {
      {"node7", {RemoteTransport::Tcp, "", "node7", kDefaultBusPort}},
      {"node7:4000", {RemoteTransport::Tcp, "", "node7", 4000}},
      {"10.0.0.7:1", {RemoteTransport::Tcp, "", "10.0.0.7", 1}},
      {"[::1]", {RemoteTransport::Tcp, "", "::1", kDefaultBusPort}},
      {"[fe80::1%eth0]:65535", {RemoteTransport::Tcp, "", "fe80::1%eth0", 65535}},
      {"ssh:node7", {RemoteTransport::Ssh, "", "node7", 0}},
      {"ssh:admin@node7", {RemoteTransport::Ssh, "admin", "node7", 0}},
      {"ssh:admin@127.0.0.1:2222", {RemoteTransport::Ssh, "admin", "127.0.0.1", 2222}},
      {"ssh:[::1]:22", {RemoteTransport::Ssh, "", "::1", 22}},
  };
  for (const auto& [text, expected] : cases) {
    SCOPED_TRACE(text);
    const auto parsed = parse_remote_host(text);
    ASSERT_TRUE(parsed.has_value()) << parsed.error().message();
    EXPECT_EQ(*parsed, expected);
    const auto again = parse_remote_host(to_string(*parsed));
    ASSERT_TRUE(again.has_value()) << to_string(*parsed);
    EXPECT_EQ(*again, expected);
  }
  EXPECT_EQ(to_string({RemoteTransport::Tcp, "", "node7", kDefaultBusPort}), "node7:23108");
  EXPECT_EQ(to_string({RemoteTransport::Ssh, "root", "::1", 0}), "ssh:root@[::1]");
}

TEST(RemoteHost, MalformedHostsSayWhy) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "empty host"},
      {":23108", "empty host"},
      {"ssh:", "empty host"},
      {"ssh:@node", "empty user"},
      {"node:0", "1..65535"},
      {"node:65536", "1..65535"},
      {"node:x", "1..65535"},
      {"node:", "1..65535"},
      {"::1", "brackets"},
      {"fe80::1:23108", "brackets"},
      {"[::1", "without ']'"},
      {"[::1]x", "':PORT'"},
      {"node/dev", "'/'"},
      {"node,dev", "','"},
  };
  for (const auto& [text, why] : cases) {
    SCOPED_TRACE(text);
    const auto parsed = parse_remote_host(text);
    ASSERT_FALSE(parsed.has_value()) << to_string(*parsed);
    EXPECT_EQ(parsed.error().code(), ErrorCode::InvalidArgument);
    const std::string message = parsed.error().message();
    EXPECT_NE(message.find(why), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace openflint
