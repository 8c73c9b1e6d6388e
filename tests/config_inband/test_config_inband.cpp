// mst config in-band: a simulated ConnectX-4 and a ConnectX-3 on an ibsim fabric, reached
// through the vendor GMP register access (lid-N): query, set, reset round-trip, and the stored
// items are the device's own (they take effect when it next boots).
#include <algorithm>

#include <nlohmann/json.hpp>

#include "mtcr/registers/NvConfigRegisters.h"
#include "tests/inband/DeviceFabricFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

class ConfigInband : public DeviceFabricFixture {
 protected:
  CapturedRun mst_config(std::vector<std::string> args) {
    std::vector<std::string> argv{bin("mst").string(), "--json", "config", lid_name("Hca2")};
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv);
  }
  std::map<std::string, json> query() {
    const auto r = mst_config({"query"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    std::map<std::string, json> out;
    const json doc = json::parse(r.out, nullptr, false);
    if (doc.is_discarded()) return out;
    for (const auto& p : doc["parameters"]) out[p["name"].get<std::string>()] = p;
    return out;
  }
};

TEST_F(ConfigInband, QuerySetAndResetRoundTripThroughTheVendorGmp) {
  bring_up({{"Hca2", "connectx4", sample_image("connectx4-old")}});
  if (HasFatalFailure() || IsSkipped()) return;
  auto q = query();
  ASSERT_EQ(q.size(), 20u);
  EXPECT_EQ(q.at("LINK_TYPE_P1")["next"]["text"], "IB");

  const auto s = mst_config({"set", "LINK_TYPE_P1=ETH", "SRIOV_EN=1", "NUM_OF_VFS=6", "-y"});
  ASSERT_EQ(s.exit_code, 0) << s.out << s.err;
  q = query();
  EXPECT_EQ(q.at("LINK_TYPE_P1")["next"]["text"], "ETH");
  EXPECT_EQ(q.at("LINK_TYPE_P1")["current"]["text"], "IB");  // until the device boots again
  EXPECT_EQ(q.at("SRIOV_EN")["next"]["value"], 1);
  EXPECT_EQ(q.at("NUM_OF_VFS")["next"]["value"], 6);

  auto device = stop_and_load("Hca2");
  ASSERT_NE(device, nullptr);
  const std::uint32_t link_p1 = nv_reg::item_type(NvItemClass::PhysicalPort, 0x12, 1);
  ASSERT_EQ(device->nv_config().stored().count(link_p1), 1u);
  EXPECT_EQ(nv_reg::get_be32(device->nv_config().stored().at(link_p1), 0) >> 2 & 3, 2u);
  device->power_cycle();  // the host reboots: the firmware loads the stored items
  ASSERT_TRUE(device->save_state(device_dir("Hca2")));
  device.reset();

  start_responder("Hca2");
  if (HasFatalFailure()) return;
  q = query();
  EXPECT_EQ(q.at("LINK_TYPE_P1")["current"]["text"], "ETH");
  const auto r = mst_config({"reset", "-y"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  q = query();
  EXPECT_EQ(q.at("LINK_TYPE_P1")["next"]["text"], "IB");
  EXPECT_EQ(q.at("NUM_OF_VFS")["next"]["value"], 8);
  EXPECT_EQ(q.at("LINK_TYPE_P1")["current"]["text"], "ETH");
}

}  // namespace
}  // namespace openflint::test

namespace openflint::test {
namespace {

// A ConnectX-3 in-band: the same MNVA items (8-byte header) through the vendor GMP; a set lands
// in the device's own store, survives its power cycle, and a reset (MNVIA 0x9029) clears it.
TEST_F(ConfigInband, ConnectX3RoundTripsTheFourthGenerationItems) {
  bring_up({{"Hca2", "connectx3", sample_image("connectx3-old")}});
  if (HasFatalFailure() || IsSkipped()) return;
  auto q = query();
  ASSERT_EQ(q.size(), 15u);
  EXPECT_EQ(q.at("LINK_TYPE_P2")["next"]["text"], "IB");
  const auto s = mst_config({"set", "LINK_TYPE_P2=ETH", "BOOT_RETRY_CNT_P1=7", "-y"});
  ASSERT_EQ(s.exit_code, 0) << s.out << s.err;

  auto device = stop_and_load("Hca2");
  ASSERT_NE(device, nullptr);
  const std::uint32_t vpi_p2 = nv_reg::item_type(NvItemClass::PhysicalPort, 0x12, 2);
  ASSERT_EQ(device->nv_config().stored().count(vpi_p2), 1u);
  EXPECT_EQ(nv_reg::get_be32(device->nv_config().stored().at(vpi_p2), 0) & 3, 2u);
  device->power_cycle();
  ASSERT_TRUE(device->save_state(device_dir("Hca2")));
  device.reset();

  start_responder("Hca2");
  if (HasFatalFailure()) return;
  q = query();
  EXPECT_EQ(q.at("LINK_TYPE_P2")["next"]["text"], "ETH");
  EXPECT_EQ(q.at("BOOT_RETRY_CNT_P1")["next"]["value"], 7);
  ASSERT_EQ(mst_config({"reset", "-y"}).exit_code, 0);
  q = query();
  EXPECT_EQ(q.at("LINK_TYPE_P2")["next"]["text"], "IB");
  EXPECT_EQ(q.at("BOOT_RETRY_CNT_P1")["next"]["value"], 0);
}

}  // namespace
}  // namespace openflint::test

namespace openflint::test {
namespace {

// mst trace in-band: the string DB read through MTRC_STDB over the vendor GMP register access
// (chunks sized by what a MAD carries), and the messages refused with the reason: no driver on
// this host prints a fabric node's traces, and nobody owns its tracer.
class TraceInband : public DeviceFabricFixture {};

TEST_F(TraceInband, StringsReadOverMadsAndMessagesRefusedWithTheReason) {
  bring_up({{"Hca2", "connectx4", sample_image("connectx4-old")}});
  if (HasFatalFailure() || IsSkipped()) return;
  const auto r = run({bin("mst").string(), "--json", "trace", lid_name("Hca2"), "--strings"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  ASSERT_EQ(doc["sections"].size(), 1u) << r.out;
  std::vector<std::string> texts;
  for (const auto& s : doc["sections"][0]["strings"]) texts.push_back(s["text"].get<std::string>());
  EXPECT_NE(std::find(texts.begin(), texts.end(), "NV config: item type 0x%x stored"), texts.end()) << r.out;
  EXPECT_NE(std::find(texts.begin(), texts.end(), "itrace: unit mask 0x%x, level %u, delay %u us"), texts.end()) << r.out;

  const auto m = run({bin("mst").string(), "trace", lid_name("Hca2")});
  EXPECT_EQ(m.exit_code, 6) << m.out << m.err;
  EXPECT_NE(m.err.find("not reached over PCI"), std::string::npos) << m.err;
  EXPECT_NE(m.err.find("no driver reads this device's tracer"), std::string::npos) << m.err;
}

}  // namespace
}  // namespace openflint::test
