// ibadm.conf (fabric/IbadmConfig), its line grammar (core/KeyValueText) and the hosts file: strict, "FILE:LINE: why".
#include <gtest/gtest.h>

#include "core/KeyValueText.h"
#include "fabric/HostsFile.h"
#include "fabric/IbadmConfig.h"
#include "mtcr/remote/NameClient.h"

namespace openflint::test {
namespace {

std::string error_of(std::string_view text) {
  auto c = parse_ibadm_config(text, "/etc/ibadm.conf");
  if (c) return "(parsed)";
  EXPECT_EQ(c.error().code(), ErrorCode::InvalidArgument);
  return c.error().message();
}

TEST(IbadmConfig, DefaultsWhenEmpty) {
  auto c = parse_ibadm_config("# nothing enabled\n\n", "/etc/ibadm.conf");
  ASSERT_TRUE(c) << c.error().message();
  EXPECT_FALSE(c->bus_server);
  EXPECT_FALSE(c->name_server);
  EXPECT_EQ(c->bus_server_port, 23108);
  EXPECT_EQ(c->name_server_port, 23109);
  EXPECT_EQ(c->bus_server_listen, "127.0.0.1");
  EXPECT_EQ(c->hosts, "/etc/ibadm.hosts");
  EXPECT_FALSE(c->hosts_given);
  EXPECT_EQ(c->run_dir, "/run/openflint-ibadm");
  EXPECT_TRUE(c->sweep);
  EXPECT_FALSE(c->name_server_address.has_value()) << "no name server: clients find none";
}

TEST(IbadmConfig, EveryKey) {
  const std::string text =
      "bus_server = yes   # this host's adapters\n"
      "bus_server_listen = ::1\n"
      "bus_server_port = 0\n"
      "bus_server_allow = 10.0.0.0/8\n"
      "bus_server_allow = 192.168.1.0/24 fd00::/8\n"
      "bus_server_devices = sim:/tmp/a sim:/tmp/b\n"
      "bus_server_read_only = yes\n"
      "sysfs = /sys/bus/pci\n"
      "name_server = yes\n"
      "name_server_listen = 0.0.0.0\n"
      "name_server_port = 24000\n"
      "name_server_refresh = 600\n"
      "sweep = no\n"
      "hosts = cluster.hosts\n"
      "names = /etc/ibadm.names\n"
      "topology = fabric.topo\n"
      "ca = mlx5_0\n"
      "port = 2\n"
      "run_dir = /var/run/ibadm\n";
  auto c = parse_ibadm_config(text, "/srv/conf/ibadm.conf");
  ASSERT_TRUE(c) << c.error().message();
  EXPECT_TRUE(c->bus_server);
  EXPECT_EQ(c->bus_server_listen, "::1");
  EXPECT_EQ(c->bus_server_port, 0);
  EXPECT_EQ(c->bus_server_allow, (std::vector<std::string>{"10.0.0.0/8", "192.168.1.0/24", "fd00::/8"}));
  EXPECT_EQ(c->bus_server_devices, (std::vector<std::string>{"sim:/tmp/a", "sim:/tmp/b"}));
  EXPECT_TRUE(c->bus_server_read_only);
  EXPECT_TRUE(c->name_server);
  EXPECT_EQ(c->name_server_port, 24000);
  EXPECT_EQ(c->name_server_refresh_s, 600u);
  EXPECT_FALSE(c->sweep);
  EXPECT_EQ(c->hosts, "/srv/conf/cluster.hosts") << "relative to the config's folder";
  EXPECT_TRUE(c->hosts_given);
  EXPECT_EQ(c->topology, "/srv/conf/fabric.topo");
  EXPECT_EQ(c->names, "/etc/ibadm.names");
  EXPECT_EQ(c->ca, "mlx5_0");
  EXPECT_EQ(c->port, 2);
  ASSERT_TRUE(c->name_server_address.has_value());
  EXPECT_EQ(to_string(*c->name_server_address), "127.0.0.1:24000") << "a wildcard listen is reached on loopback";
}

TEST(IbadmConfig, NameServerAddress) {
  auto given = parse_ibadm_config("name_server_address = names.example\n", "c");
  ASSERT_TRUE(given) << given.error().message();
  ASSERT_TRUE(given->name_server_address);
  EXPECT_EQ(to_string(*given->name_server_address), "names.example:23109") << "HOST alone: the name server's port";
  auto with_port = parse_ibadm_config("name_server_address = [::1]:4000\nname_server = yes\n", "c");
  ASSERT_TRUE(with_port) << with_port.error().message();
  EXPECT_EQ(with_port->name_server_address->port, 4000);
  EXPECT_EQ(with_port->name_server_address->host, "::1");
  EXPECT_NE(error_of("name_server_address = ssh:host\n").find("c"), std::string::npos);
}

TEST(IbadmConfig, BadLinesAreUsageErrorsNamingTheLine) {
  EXPECT_EQ(error_of("bus_server = yes\nbus_sever = yes\n"), "/etc/ibadm.conf:2: unknown key 'bus_sever'");
  EXPECT_EQ(error_of("bus_server yes\n"), "/etc/ibadm.conf:1: expected KEY = VALUE");
  EXPECT_EQ(error_of("\n\nname_server = maybe\n"), "/etc/ibadm.conf:3: name_server: expected yes or no, not 'maybe'");
  EXPECT_EQ(error_of("bus_server_port = 70000\n"), "/etc/ibadm.conf:1: bus_server_port: 70000 is more than 65535");
  EXPECT_EQ(error_of("bus_server_port = -1\n"), "/etc/ibadm.conf:1: bus_server_port: '-1' is not a number");
  EXPECT_EQ(error_of("run_dir = /a\nrun_dir = /b\n"), "/etc/ibadm.conf:2: run_dir given twice (first on line 1)");
  EXPECT_EQ(error_of("hosts =\n"), "/etc/ibadm.conf:1: hosts has no value");
  EXPECT_EQ(error_of("Bus_Server = yes\n"), "/etc/ibadm.conf:1: 'Bus_Server' is not a key (lower-case letters, digits, '_')");
  EXPECT_EQ(error_of(std::string("names = a\x01b\n")), "/etc/ibadm.conf:1: a control or non-ASCII character");
  EXPECT_EQ(error_of("name_server_address = host:99999\n").substr(0, 18), "/etc/ibadm.conf:1:");
}

TEST(IbadmConfig, RepeatableKeysAccumulate) {
  auto c = parse_ibadm_config("bus_server_devices = a\nbus_server_devices = b c\n", "x");
  ASSERT_TRUE(c) << c.error().message();
  EXPECT_EQ(c->bus_server_devices, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(IbadmConfig, ConfigPathFromTheEnvironment) {
  EXPECT_EQ(ibadm_config_path("/given"), "/given");
  ::setenv("OPENFLINT_IBADM_CONF", "/from/env", 1);
  EXPECT_EQ(ibadm_config_path(""), "/from/env");
  ::unsetenv("OPENFLINT_IBADM_CONF");
  EXPECT_EQ(ibadm_config_path(""), "/etc/ibadm.conf");
}

TEST(IbadmConfig, ReadingAMissingFileIsNotFound) {
  auto c = read_ibadm_config("/nonexistent/ibadm.conf");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code(), ErrorCode::NotFound) << c.error().message();
}

TEST(KeyValueText, LinesKeepTheirNumbers) {
  auto lines = parse_key_value_text("# c\n a = b c  \n\nx_1=2#tail\n", "f");
  ASSERT_TRUE(lines) << lines.error().message();
  ASSERT_EQ(lines->size(), 2u);
  EXPECT_EQ((*lines)[0].key, "a");
  EXPECT_EQ((*lines)[0].value, "b c");
  EXPECT_EQ((*lines)[0].line, 2u);
  EXPECT_EQ((*lines)[1].key, "x_1");
  EXPECT_EQ((*lines)[1].value, "2");
  EXPECT_EQ((*lines)[1].line, 4u);
}

TEST(HostsFile, TheSeedsFormat) {
  auto hosts = parse_hosts("# bus servers\nnode1\nnode2:4000  # its own port\nssh:root@node3\n", "/etc/ibadm.hosts");
  ASSERT_TRUE(hosts) << hosts.error().message();
  ASSERT_EQ(hosts->size(), 3u);
  EXPECT_EQ(to_string((*hosts)[0]), "node1:23108");
  EXPECT_EQ((*hosts)[1].port, 4000);
  EXPECT_EQ((*hosts)[2].transport, RemoteTransport::Ssh);
  auto bad = parse_hosts("node1\nnode2:0\n", "/etc/ibadm.hosts");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message().substr(0, 19), "/etc/ibadm.hosts:2:");
}

TEST(NameServerLocation, EnvironmentFirstThenTheConfig) {
  ::setenv("OPENFLINT_NAME_SERVER", "127.0.0.1:4321", 1);
  auto found = find_name_server();
  ASSERT_TRUE(found) << found.error().message();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->server.port, 4321);
  EXPECT_EQ((*found)->source, "OPENFLINT_NAME_SERVER");
  ::setenv("OPENFLINT_NAME_SERVER", "ssh:h", 1);
  EXPECT_FALSE(find_name_server()) << "ssh is not how a name server is reached";
  ::unsetenv("OPENFLINT_NAME_SERVER");
  ::setenv("OPENFLINT_IBADM_CONF", "/nonexistent/ibadm.conf", 1);
  auto missing = find_name_server();
  EXPECT_FALSE(missing) << "a named config that cannot be read is an error";
  ::unsetenv("OPENFLINT_IBADM_CONF");
}

}  // namespace
}  // namespace openflint::test
