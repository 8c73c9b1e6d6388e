// Pure pieces of ibmon's traffic and ibls's selection, without a fabric (so they also run under
// ASan): the 64-bit PortCountersExtended decoding (values above 2^32), rates and utilisation
// between passes, the utilisation threshold and its findings, ibls's keys and -i DEVICE matching,
// the hosts file's hint for a name map given as --hosts, and which nodes go out-of-band.
#include <gtest/gtest.h>

#include <array>

#include "fabric/FabricNode.h"
#include "fabric/HealthCheck.h"
#include "fabric/HealthThresholds.h"
#include "fabric/HostsFile.h"
#include "fabric/OutOfBandNodes.h"
#include "devices/DeviceCatalog.h"
#include "fabric/PortCounters.h"
#include "fabric/PortTraffic.h"
#include "reports/FabricListing.h"

namespace openflint::test {
namespace {

void put_be64(std::array<std::uint8_t, 192>& buf, std::size_t offset, std::uint64_t v) {
  for (int i = 7; i >= 0; --i) {
    buf[offset + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v);
    v >>= 8;
  }
}

TEST(PortTrafficCounters, DecodesTheFour64BitCountersBigEndianAtTheirOffsets) {
  std::array<std::uint8_t, 192> attr{};
  attr[1] = 3;  // PortSelect: not a counter
  put_be64(attr, 8, 0x0000000123456789ull);   // PortXmitData above 2^32
  put_be64(attr, 16, 0xfedcba9876543210ull);  // PortRcvData: every byte differs
  put_be64(attr, 24, 0x100000000ull);         // PortXmitPkts exactly 2^32
  put_be64(attr, 32, 7);                      // PortRcvPkts
  put_be64(attr, 40, 0xffffffffffffffffull);  // PortUnicastXmitPkts: not read
  const auto v = decode_port_traffic_counters(attr);
  ASSERT_TRUE(v) << v.error().message();
  EXPECT_EQ(v->size(), 4u);
  EXPECT_EQ(v->at("PortXmitData"), 0x0000000123456789ull);
  EXPECT_EQ(v->at("PortRcvData"), 0xfedcba9876543210ull);
  EXPECT_EQ(v->at("PortXmitPkts"), 0x100000000ull);
  EXPECT_EQ(v->at("PortRcvPkts"), 7u);
  EXPECT_EQ(port_traffic_counter_names().size(), 4u);

  const auto short_attr = decode_port_traffic_counters(std::span<const std::uint8_t>(attr.data(), 39));
  ASSERT_FALSE(short_attr);
  EXPECT_EQ(short_attr.error().code(), ErrorCode::InvalidArgument);
}

TEST(PortTrafficRates, LinkDataRatesByWidthAndSpeed) {
  EXPECT_DOUBLE_EQ(link_data_bytes_per_s("4x", "EDR"), 4 * 25e9 / 8);
  EXPECT_DOUBLE_EQ(link_data_bytes_per_s("1x", "SDR"), 2e9 / 8);
  EXPECT_DOUBLE_EQ(link_data_bytes_per_s("12x", "QDR"), 12 * 8e9 / 8);
  EXPECT_DOUBLE_EQ(link_data_bytes_per_s("4x", "HDR"), 4 * 50e9 / 8);
  EXPECT_NEAR(link_data_bytes_per_s("4x", "FDR"), 4 * 13.636e9 / 8, 1e6);
  EXPECT_EQ(link_data_bytes_per_s("4x", ""), 0);
  EXPECT_EQ(link_data_bytes_per_s("", "EDR"), 0);
}

PortCounterValues traffic(std::uint64_t xd, std::uint64_t rd, std::uint64_t xp, std::uint64_t rp) {
  return {{"PortXmitData", xd}, {"PortRcvData", rd}, {"PortXmitPkts", xp}, {"PortRcvPkts", rp}};
}

TEST(PortTrafficRates, DataCountsFourByteUnitsAndRatesDivideByTheInterval) {
  // 2 s apart, above 2^32 in 4-byte units: 1e9 units more sent = 4e9 bytes = 2e9 bytes/s.
  const std::uint64_t base = 0x1'0000'0000ull;
  const auto t = port_traffic(traffic(base, base, 10, 20), 100.0, traffic(base + 1'000'000'000ull, base + 250'000'000ull, 30, 60),
                              102.0, link_data_bytes_per_s("4x", "EDR"));
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->xmit_bytes_per_s, 2e9);
  EXPECT_DOUBLE_EQ(t->rcv_bytes_per_s, 5e8);
  EXPECT_DOUBLE_EQ(t->xmit_pkts_per_s, 10);
  EXPECT_DOUBLE_EQ(t->rcv_pkts_per_s, 20);
  ASSERT_TRUE(t->utilisation_pct);
  EXPECT_DOUBLE_EQ(*t->utilisation_pct, 2e9 / 12.5e9 * 100);  // the busier direction
}

TEST(PortTrafficRates, ClearedCountersUnknownLinksAndBadIntervals) {
  // A counter that went down was cleared: its new value is the increase.
  const auto cleared = port_traffic(traffic(1000, 1000, 50, 50), 0, traffic(100, 2000, 5, 60), 1, 0);
  ASSERT_TRUE(cleared);
  EXPECT_DOUBLE_EQ(cleared->xmit_bytes_per_s, 400);
  EXPECT_DOUBLE_EQ(cleared->rcv_bytes_per_s, 4000);
  EXPECT_FALSE(cleared->utilisation_pct) << "an unknown link rate has no utilisation";
  EXPECT_FALSE(port_traffic(traffic(1, 1, 1, 1), 5, traffic(2, 2, 2, 2), 5, 1e9)) << "no interval";
  EXPECT_FALSE(port_traffic(traffic(1, 1, 1, 1), 6, traffic(2, 2, 2, 2), 5, 1e9)) << "backwards";
  PortCounterValues partial = traffic(2, 2, 2, 2);
  partial.erase("PortRcvPkts");
  EXPECT_FALSE(port_traffic(traffic(1, 1, 1, 1), 0, partial, 1, 1e9));
}

HealthSample traffic_sample(double at, std::uint64_t data_units) {
  HealthSample s;
  s.taken_s = at;
  s.port_state[{0x10, 1}] = "Active";
  s.port_state[{0x20, 3}] = "Active";
  s.traffic[{0x10, 1}] = traffic(data_units, 0, data_units / 1000, 0);
  s.traffic[{0x20, 3}] = traffic(0, 0, 0, 0);
  s.link_bytes_per_s[{0x10, 1}] = link_data_bytes_per_s("4x", "SDR");  // 1e9 bytes/s
  s.link_bytes_per_s[{0x20, 3}] = link_data_bytes_per_s("4x", "SDR");
  return s;
}

TEST(PortTrafficRates, UtilisationAboveTheThresholdIsAFindingBetweenPasses) {
  auto t = HealthThresholds::defaults();
  EXPECT_FALSE(t.utilisation_max_pct) << "off by default";
  ASSERT_TRUE(t.set("utilisation=50"));
  ASSERT_EQ(t.utilisation_max_pct, std::optional<std::uint32_t>(50));
  const auto first = traffic_sample(10, 0);
  const auto later = traffic_sample(11, 150'000'000);  // 600 MB in 1 s on a 1 GB/s link: 60%
  EXPECT_TRUE(check_health(later, nullptr, t).empty()) << "no rates without a previous pass";

  const auto rates = traffic_rates(later, first);
  ASSERT_EQ(rates.size(), 2u);
  EXPECT_EQ(rates[0].guid, 0x10u);
  ASSERT_TRUE(rates[0].traffic.utilisation_pct);
  EXPECT_DOUBLE_EQ(*rates[0].traffic.utilisation_pct, 60);
  EXPECT_DOUBLE_EQ(rates[1].traffic.xmit_bytes_per_s, 0);

  const auto findings = check_health(later, &first, t);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, HealthFinding::Kind::Utilisation);
  EXPECT_EQ(findings[0].guid, 0x10u);
  EXPECT_EQ(findings[0].port, 1);
  EXPECT_EQ(findings[0].metric, "utilisation");
  EXPECT_DOUBLE_EQ(findings[0].value, 60);
  EXPECT_DOUBLE_EQ(findings[0].limit, 50);
  EXPECT_STREQ(to_string(findings[0].kind), "utilisation");

  ASSERT_TRUE(t.set("utilisation=60"));
  EXPECT_TRUE(check_health(later, &first, t).empty()) << "up to and including the limit is fine";
}

TEST(PortTrafficRates, TheUtilisationThresholdInFilesAndAssignments) {
  const auto file = HealthThresholds::parse("utilisation 85\n", HealthThresholds::defaults());
  ASSERT_TRUE(file) << file.error().message();
  EXPECT_EQ(file->utilisation_max_pct, std::optional<std::uint32_t>(85));
  const auto off = HealthThresholds::parse("utilisation off\n", *file);
  ASSERT_TRUE(off);
  EXPECT_FALSE(off->utilisation_max_pct);
  const auto over = HealthThresholds::parse("utilisation 101\n", HealthThresholds::defaults());
  ASSERT_FALSE(over);
  EXPECT_NE(over.error().message().find("line 1: utilisation 101 is not a percentage"), std::string::npos)
      << over.error().message();
  auto t = HealthThresholds::defaults();
  const auto unknown = t.set("utilization=5");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message().find("utilisation"), std::string::npos) << "the known names list it";
}

TEST(IblsKeys, KeysChooseSectionsCommaSeparatedOrRepeatedCaseInsensitive) {
  const auto none = reports::parse_listing_keys({});
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->classic());
  const auto some = reports::parse_listing_keys({"systems,Cables", "FIRMWARE"});
  ASSERT_TRUE(some) << some.error().message();
  EXPECT_TRUE(some->systems);
  EXPECT_TRUE(some->cables);
  EXPECT_TRUE(some->firmware);
  EXPECT_FALSE(some->devices);
  EXPECT_FALSE(some->classic());
  const auto bad = reports::parse_listing_keys({"devices,ports"});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(bad.error().message().find("unknown key 'ports'"), std::string::npos) << bad.error().message();
  EXPECT_FALSE(reports::parse_listing_keys({"systems,"})) << "an empty key";
}

TEST(IblsDeviceFilter, MatchesNameOrPartNumberOrDeviceIdCaseInsensitively) {
  FabricNode cx4{.type = FabricNode::Type::Hca, .guid = 1, .lid = 2, .description = "h", .vendor_id = 0x2c9,
                 .device_id = 4115};
  for (const char* f : {"ConnectX-4", "connectx-4", "MT27700", "mt27700", "MT4115", "mt4115", "4115", ""})
    EXPECT_TRUE(reports::device_matches(f, cx4)) << f;
  for (const char* f : {"ConnectX-3", "MT4116", "4116", "MT", "ConnectX", "mlx5_0", "0x1013"})
    EXPECT_FALSE(reports::device_matches(f, cx4)) << f;
  // A device the catalog does not know is still matched by its id (the seeds' MT23108).
  FabricNode old{.type = FabricNode::Type::Hca, .guid = 3, .lid = 4, .description = "h", .vendor_id = 0x2c9,
                 .device_id = 23108};
  EXPECT_TRUE(reports::device_matches("MT23108", old));
  EXPECT_FALSE(reports::device_matches("ConnectX-4", old));
}

TEST(HostsFileHint, ANameMapGivenAsHostsSaysTheNameMapIsNames) {
  const auto names = parse_hosts("# names\nleaf-1 0x0002c90300001234\n", "map.txt");
  ASSERT_FALSE(names);
  EXPECT_EQ(names.error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(names.error().message().find("map.txt:2: "), std::string::npos) << names.error().message();
  EXPECT_NE(names.error().message().find("the name map is --names now"), std::string::npos) << names.error().message();
  const auto one_word = parse_hosts("host:notaport\n", "h");
  ASSERT_FALSE(one_word);
  EXPECT_EQ(one_word.error().message().find("--names"), std::string::npos) << "no hint for a bad host";
}

TEST(OutOfBandNodes, ServedNodesByFlashGuidAndAWarningPerUnreachableHost) {
  const auto cx4 = find_device_by_pci_id(4115);
  ASSERT_TRUE(cx4) << cx4.error().message();
  const RemoteHost up{.transport = RemoteTransport::Tcp, .user = "", .host = "127.0.0.1", .port = 4000};
  const RemoteHost down{.transport = RemoteTransport::Tcp, .user = "", .host = "mgmt9", .port = 23108};
  RemoteHostStatus served{.host = up, .error = "", .devices = {}};
  served.devices.push_back(RemoteDeviceStatus{.remote = {.server = up, .device = "mt4115_pciconf0"},
                                              .name = "127.0.0.1:4000,mt4115_pciconf0", .info = *cx4,
                                              .flash = std::nullopt, .node_guid = 0x10, .error = ""});
  served.devices.push_back(RemoteDeviceStatus{.remote = {.server = up, .device = "blank"}, .name = "x", .info = *cx4,
                                              .flash = std::nullopt, .node_guid = std::nullopt, .error = "blank flash"});
  served.devices.push_back(RemoteDeviceStatus{.remote = {.server = up, .device = "closed"}, .name = "y", .info = nullptr,
                                              .flash = std::nullopt, .node_guid = 0x20, .error = "not opened"});
  const RemoteHostStatus unreachable{.host = down, .error = "connection refused", .devices = {}};
  const auto oob = out_of_band_nodes({served, unreachable});
  ASSERT_EQ(oob.by_guid.size(), 1u) << "only a device opened and holding a node GUID serves a node";
  const auto names = oob.names();
  ASSERT_EQ(names.count(0x10), 1u);
  EXPECT_EQ(names.at(0x10).device, "mt4115_pciconf0");
  EXPECT_EQ(names.at(0x10).server, up);
  ASSERT_EQ(oob.warnings().size(), 1u);
  EXPECT_EQ(oob.warnings()[0], "host mgmt9:23108 unreachable (connection refused): its nodes are reached in-band");
  const auto none = reach_hosts("");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->hosts.empty());
}

}  // namespace
}  // namespace openflint::test
