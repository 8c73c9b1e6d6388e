// Remote device names (HOST:PORT,DEVICE and ssh:[USER@]HOST[:PORT]/DEVICE): what parses, what is not remote, what is malformed; to_string round trips.
#include <gtest/gtest.h>

#include <string>

#include "mtcr/remote/RemoteDeviceName.h"

namespace openflint {
namespace {

struct Good {
  const char* name;
  const char* host;
  std::uint16_t port;
  const char* device;
};

TEST(RemoteDeviceName, ParsesTheRemoteForms) {
  const Good cases[] = {
      // mtcr_py/test.py's example: the local directory is dropped, '@' is '/'.
      {"/dev/mst/l-apps08:23108,@dev@mst@mt26448_pci_cr0", "l-apps08", 23108, "/dev/mst/mt26448_pci_cr0"},
      {"l-apps08:23108,@dev@mst@mt26448_pci_cr0", "l-apps08", 23108, "/dev/mst/mt26448_pci_cr0"},
      // The device follows the first ',' and may hold ':' and ',' itself.
      {"host:1,03:00.0", "host", 1, "03:00.0"},
      {"host:65535,0000:af:00.0", "host", 65535, "0000:af:00.0"},
      {"10.0.0.7:23108,mlx5_0,1", "10.0.0.7", 23108, "mlx5_0,1"},
      // Extension: an IPv6 host in brackets.
      {"[::1]:23108,@dev@mst@mt4115_pciconf0", "::1", 23108, "/dev/mst/mt4115_pciconf0"},
      {"/dev/mst/[fe80::1%eth0]:7,dev", "fe80::1%eth0", 7, "dev"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto parsed = parse_remote_device_name(c.name);
    ASSERT_TRUE(parsed.has_value()) << parsed.error().message();
    ASSERT_TRUE(parsed->has_value());
    EXPECT_EQ((*parsed)->server.host, c.host);
    EXPECT_EQ((*parsed)->server.port, c.port);
    EXPECT_EQ((*parsed)->device, c.device);
  }
}

TEST(RemoteDeviceName, OtherNameFormsAreNotRemote) {
  for (const char* name : {"0000:af:00.0", "03:00.0", "sim:/tmp/x", "sim:rel/dir", "lid-4", "lid-4,mlx5_0,1",
                           "iblid-7", "ibdr-0.1.2", "mt4115_pciconf0", "/dev/mst/mt4115_pci_cr0", "pciconf-03:00.0",
                           "mlx5_0", "", "host", "host:23108", "host,dev:1", "[::1]", "[::1]:23108"}) {
    SCOPED_TRACE(name);
    const auto parsed = parse_remote_device_name(name);
    ASSERT_TRUE(parsed.has_value()) << parsed.error().message();
    EXPECT_FALSE(parsed->has_value()) << (*parsed)->server.host;
  }
}

TEST(RemoteDeviceName, MalformedRemoteNamesSayWhy) {
  const std::pair<const char*, const char*> cases[] = {
      {"host:0,dev", "outside 1..65535"},
      {"host:65536,dev", "outside 1..65535"},
      {"host:1234567,dev", "outside 1..65535"},
      {"host:x,dev", "not a decimal number"},
      {"host:-1,dev", "not a decimal number"},
      {"host: 1,dev", "not a decimal number"},
      {"host:,dev", "empty port"},
      {":23108,dev", "empty host"},
      {"/dev/mst/:23108,dev", "empty host"},
      {"host:23108,", "empty device"},
      {"[]:23108,dev", "empty host"},
      {"[::1,dev", "brackets"},
      {"[::1]23108,dev", "brackets"},
  };
  for (const auto& [name, why] : cases) {
    SCOPED_TRACE(name);
    const auto parsed = parse_remote_device_name(name);
    ASSERT_FALSE(parsed.has_value()) << "parsed as remote";
    EXPECT_EQ(parsed.error().code(), ErrorCode::InvalidArgument);
    const std::string message = parsed.error().message();
    EXPECT_NE(message.find(why), std::string::npos) << message;
    EXPECT_NE(message.find(name), std::string::npos) << message;  // names what was given
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;  // one line
  }
}

TEST(RemoteDeviceName, ToStringReadsBackAsTheSameName) {
  const RemoteDeviceName names[] = {
      {{RemoteTransport::Tcp, "", "l-apps08", 23108}, "/dev/mst/mt26448_pci_cr0"},
      {{RemoteTransport::Tcp, "", "127.0.0.1", 1}, "03:00.0"},
      {{RemoteTransport::Tcp, "", "::1", 65535}, "/dev/mst/mt4115_pciconf0"},
  };
  for (const auto& name : names) {
    const std::string text = to_string(name);
    SCOPED_TRACE(text);
    EXPECT_EQ(text.find('/'), std::string::npos);
    const auto parsed = parse_remote_device_name(text);
    ASSERT_TRUE(parsed.has_value()) << parsed.error().message();
    ASSERT_TRUE(parsed->has_value());
    EXPECT_EQ((*parsed)->server.host, name.server.host);
    EXPECT_EQ((*parsed)->server.port, name.server.port);
    EXPECT_EQ((*parsed)->device, name.device);
  }
  EXPECT_EQ(to_string({{RemoteTransport::Tcp, "", "l-apps08", 23108}, "/dev/mst/mt26448_pci_cr0"}), "l-apps08:23108,@dev@mst@mt26448_pci_cr0");
  EXPECT_EQ(to_string({{RemoteTransport::Tcp, "", "::1", 23108}, "dev"}), "[::1]:23108,dev");
}

struct GoodSsh {
  const char* name;
  const char* user;
  const char* host;
  std::uint16_t port;  // 0: ssh's default
  const char* device;
};

TEST(RemoteDeviceName, ParsesTheSshForm) {
  const GoodSsh cases[] = {
      // DEVICE is everything after the first '/' that follows the host, kept literally.
      {"ssh:root@127.0.0.1:2222/sim:/tmp/dev", "root", "127.0.0.1", 2222, "sim:/tmp/dev"},
      {"ssh:host/03:00.0", "", "host", 0, "03:00.0"},
      {"ssh:host//dev/mst/mt4115_pciconf0", "", "host", 0, "/dev/mst/mt4115_pciconf0"},
      {"ssh:u@h/@dev@mst@x", "u", "h", 0, "@dev@mst@x"},  // no '@' decoding in the ssh form
      {"ssh:h:22/host:23108,dev", "", "h", 22, "host:23108,dev"},
      {"ssh:root@[::1]:2222/sim:/tmp/a b", "root", "::1", 2222, "sim:/tmp/a b"},
      {"ssh:[fe80::1%eth0]/mlx5_0", "", "fe80::1%eth0", 0, "mlx5_0"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto parsed = parse_remote_device_name(c.name);
    ASSERT_TRUE(parsed.has_value()) << parsed.error().message();
    ASSERT_TRUE(parsed->has_value());
    EXPECT_EQ((*parsed)->server.transport, RemoteTransport::Ssh);
    EXPECT_EQ((*parsed)->server.user, c.user);
    EXPECT_EQ((*parsed)->server.host, c.host);
    EXPECT_EQ((*parsed)->server.port, c.port);
    EXPECT_EQ((*parsed)->device, c.device);
    EXPECT_EQ(to_string(**parsed), c.name);  // prints back as given
  }
}

TEST(RemoteDeviceName, MalformedSshNamesSayWhy) {
  const std::pair<const char*, const char*> cases[] = {
      {"ssh:host", "no '/DEVICE'"},
      {"ssh:root@127.0.0.1:2222", "no '/DEVICE'"},
      {"ssh:host/", "empty device"},
      {"ssh:/sim:/tmp/x", "empty host"},
      {"ssh:@host/dev", "empty user"},
      {"ssh:host:0/dev", "1..65535"},
      {"ssh:host:99999/dev", "1..65535"},
      {"ssh:host:x/dev", "1..65535"},
      {"ssh:::1/dev", "brackets"},
      {"ssh:[::1/dev", "without ']'"},
      {"ssh:[::1]x/dev", "':PORT'"},
  };
  for (const auto& [name, why] : cases) {
    SCOPED_TRACE(name);
    const auto parsed = parse_remote_device_name(name);
    ASSERT_FALSE(parsed.has_value()) << "parsed as remote";
    EXPECT_EQ(parsed.error().code(), ErrorCode::InvalidArgument);
    const std::string message = parsed.error().message();
    EXPECT_NE(message.find(why), std::string::npos) << message;
    EXPECT_NE(message.find(name), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(RemoteDeviceName, SshToStringReadsBack) {
  const RemoteDeviceName names[] = {
      {{RemoteTransport::Ssh, "root", "127.0.0.1", 2222}, "sim:/tmp/dev"},
      {{RemoteTransport::Ssh, "", "::1", 0}, "/dev/mst/mt4115_pciconf0"},
      {{RemoteTransport::Ssh, "", "host", 0}, "a/b,c:d@e"},
  };
  for (const auto& name : names) {
    const std::string text = to_string(name);
    SCOPED_TRACE(text);
    const auto parsed = parse_remote_device_name(text);
    ASSERT_TRUE(parsed.has_value()) << parsed.error().message();
    ASSERT_TRUE(parsed->has_value());
    EXPECT_EQ((*parsed)->server, name.server);
    EXPECT_EQ((*parsed)->device, name.device);
  }
  EXPECT_EQ(to_string({{RemoteTransport::Ssh, "", "::1", 22}, "sim:/x"}), "ssh:[::1]:22/sim:/x");
}

}  // namespace
}  // namespace openflint
