// The threshold file and command-line assignments (errors by line), and check_health on made-up
// samples: every kind of finding, limits, "off", and counter deltas between passes.
#include <gtest/gtest.h>

#include "fabric/HealthCheck.h"
#include "fabric/HealthThresholds.h"
#include "fabric/PortCounters.h"

namespace openflint::test {
namespace {

TEST(HealthThresholds, DefaultsCheckEveryErrorCounterAtZeroAndTemperatureAt85) {
  const auto t = HealthThresholds::defaults();
  EXPECT_EQ(t.counter_max.size(), port_error_counter_names().size());
  for (const auto& [name, limit] : t.counter_max) EXPECT_EQ(limit, std::optional<std::uint64_t>(0)) << name;
  EXPECT_EQ(t.temperature_max_c, std::optional<std::uint32_t>(85));
  EXPECT_TRUE(t.port_state);
}

TEST(HealthThresholds, AFileSetsLimitsOverTheBase) {
  const auto t = HealthThresholds::parse(
      "# limits for the lab\n"
      "SymbolErrorCounter 10   # noisy optics\n"
      "\n"
      "LinkDownedCounter off\n"
      "temperature 70\n"
      "port-state off\n",
      HealthThresholds::defaults());
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->counter_max.at("SymbolErrorCounter"), std::optional<std::uint64_t>(10));
  EXPECT_EQ(t->counter_max.at("LinkDownedCounter"), std::nullopt);
  EXPECT_EQ(t->counter_max.at("PortRcvErrors"), std::optional<std::uint64_t>(0));  // kept from the base
  EXPECT_EQ(t->temperature_max_c, std::optional<std::uint32_t>(70));
  EXPECT_FALSE(t->port_state);
}

TEST(HealthThresholds, ErrorsNameTheirLine) {
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"SymbolErrorCounter 1\nSymbolErrorCount 3\n", "line 2: unknown threshold SymbolErrorCount"},
      {"\n\ntemperature hot\n", "line 3: bad value 'hot' for temperature"},
      {"temperature 70\n# again\ntemperature 80\n", "line 3: temperature given twice (first on line 1)"},
      {"PortRcvErrors\n", "line 1: expected 'NAME VALUE'"},
      {"PortRcvErrors 1 2\n", "line 1: expected 'NAME VALUE'"},
      {"port-state 1\n", "line 1: bad value '1' for port-state (on or off)"},
      {"VL15Dropped -1", "line 1: bad value '-1' for VL15Dropped"},
  };
  for (const auto& c : cases) {
    const auto t = HealthThresholds::parse(c.text, HealthThresholds::defaults());
    ASSERT_FALSE(t) << c.text;
    EXPECT_EQ(t.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(t.error().message().find(c.message), std::string::npos) << t.error().message();
  }
}

TEST(HealthThresholds, CommandLineAssignments) {
  auto t = HealthThresholds::defaults();
  ASSERT_TRUE(t.set("temperature=off"));
  EXPECT_EQ(t.temperature_max_c, std::nullopt);
  ASSERT_TRUE(t.set("PortXmitDiscards = 5"));
  EXPECT_EQ(t.counter_max.at("PortXmitDiscards"), std::optional<std::uint64_t>(5));
  EXPECT_FALSE(t.set("PortXmitDiscards"));
  EXPECT_FALSE(t.set("Bogus=1"));
}

HealthSample sample(std::uint64_t symbol_errors, double celsius, const std::string& state = "Active") {
  HealthSample s;
  s.port_state[{0x10, 3}] = state;
  s.port_state[{0x20, 1}] = "Active";
  PortCounterValues clean;
  for (auto n : port_error_counter_names()) clean[std::string(n)] = 0;
  s.counters[{0x20, 1}] = clean;
  clean["SymbolErrorCounter"] = symbol_errors;
  s.counters[{0x10, 3}] = clean;
  s.temperature_c[0x10] = 40;
  s.temperature_c[0x20] = celsius;
  return s;
}

TEST(HealthCheck, FlagsWhatCrossesItsLimitAndNothingElse) {
  const auto t = HealthThresholds::defaults();
  EXPECT_TRUE(check_health(sample(0, 85), nullptr, t).empty());  // 85 C is at the limit: fine
  const auto f = check_health(sample(7, 85.5, "Init"), nullptr, t);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].kind, HealthFinding::Kind::PortState);
  EXPECT_EQ(f[0].state, "Init");
  EXPECT_EQ(f[1].kind, HealthFinding::Kind::Counter);
  EXPECT_EQ(f[1].guid, 0x10u);
  EXPECT_EQ(f[1].port, 3);
  EXPECT_EQ(f[1].metric, "SymbolErrorCounter");
  EXPECT_EQ(f[1].value, 7);
  EXPECT_EQ(f[1].delta, std::nullopt);
  EXPECT_EQ(f[2].kind, HealthFinding::Kind::Temperature);
  EXPECT_EQ(f[2].guid, 0x20u);
  EXPECT_DOUBLE_EQ(f[2].value, 85.5);
}

TEST(HealthCheck, OffLimitsAreNotChecked) {
  auto t = HealthThresholds::defaults();
  ASSERT_TRUE(t.set("SymbolErrorCounter=off"));
  ASSERT_TRUE(t.set("temperature=off"));
  ASSERT_TRUE(t.set("port-state=off"));
  EXPECT_TRUE(check_health(sample(7, 120, "Down"), nullptr, t).empty());
}

TEST(HealthCheck, LaterPassesJudgeTheIncrease) {
  auto t = HealthThresholds::defaults();
  ASSERT_TRUE(t.set("SymbolErrorCounter=2"));
  const auto first = sample(7, 40);
  EXPECT_EQ(check_health(first, nullptr, t).size(), 1u);    // 7 > 2
  EXPECT_TRUE(check_health(sample(9, 40), &first, t).empty());  // +2: at the limit
  const auto f = check_health(sample(10, 40), &first, t);      // +3
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].delta, std::optional<std::uint64_t>(3));
  EXPECT_EQ(f[0].value, 10);
  const auto cleared = check_health(sample(4, 40), &first, t);  // went down: cleared, 4 is the increase
  ASSERT_EQ(cleared.size(), 1u);
  EXPECT_EQ(cleared[0].delta, std::optional<std::uint64_t>(4));
}

// ibmon --watch --json's deltas: every counter that rose, whatever its limit; a cleared counter's
// value is its increase; a port the earlier pass did not read has no baseline.
TEST(HealthCheck, CounterDeltasListWhatRose) {
  const auto first = sample(7, 40);
  EXPECT_TRUE(counter_deltas(first, first).empty());
  auto later = sample(10, 40);
  later.counters[{0x20, 1}]["LinkDownedCounter"] = 1;
  later.counters[{0x30, 2}]["SymbolErrorCounter"] = 50;  // not read before
  const auto d = counter_deltas(later, first);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].guid, 0x10u);
  EXPECT_EQ(d[0].port, 3);
  EXPECT_EQ(d[0].counter, "SymbolErrorCounter");
  EXPECT_EQ(d[0].value, 10u);
  EXPECT_EQ(d[0].delta, 3u);
  EXPECT_EQ(d[1].guid, 0x20u);
  EXPECT_EQ(d[1].counter, "LinkDownedCounter");
  EXPECT_EQ(d[1].delta, 1u);
  const auto cleared = counter_deltas(sample(4, 40), first);
  ASSERT_EQ(cleared.size(), 1u);
  EXPECT_EQ(cleared[0].delta, 4u);
}

}  // namespace
}  // namespace openflint::test
