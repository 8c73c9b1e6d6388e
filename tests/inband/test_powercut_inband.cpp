// Power cuts during a burn over MADs: the device always boots A or B afterwards, never recovery.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <cstdlib>
#include <thread>

#include "tests/inband/DeviceFabricFixture.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

class PowerCutInband : public DeviceFabricFixture {
 protected:
  static constexpr int kLanes = 4;  // 4 responders + 4 flint clients: within ibsim's 10 clients
  std::mutex fabric_mutex_;

  void restore(const std::string& node, const fs::path& base) {
    std::error_code ec;
    fs::remove_all(device_dir(node), ec);
    fs::copy(base, device_dir(node), fs::copy_options::recursive, ec);
    ASSERT_FALSE(ec) << ec.message();
  }
  void locked_start(const std::string& node, std::vector<std::string> extra) {
    std::lock_guard lock(fabric_mutex_);
    start_responder(node, std::move(extra));
  }
  std::unique_ptr<sim::SimDevice> locked_stop(const std::string& node) {
    std::lock_guard lock(fabric_mutex_);
    return stop_and_load(node);
  }
};

struct Tally {
  std::atomic<int> points{0}, booted_a{0}, booted_b{0}, recovery{0}, reburns{0}, reburn_failures{0};
  std::mutex m;
  std::vector<std::string> problems;
  void problem(const std::string& p) {
    std::lock_guard lock(m);
    if (problems.size() < 10) problems.push_back(p);
  }
};

TEST_F(PowerCutInband, EveryCutBootsAOrBAndASecondBurnCompletes) {
  const fs::path a = dir_.path() / "a.bin";
  const fs::path b = dir_.path() / "b.bin";
  write_file(a, small_fs3_image(10, "MT_2190110032", 0x209, 56 * 1024));
  write_file(b, small_fs3_image(20, "MT_2190110032", 0x209, 56 * 1024));
  std::vector<FabricDevice> lanes;
  for (int i = 0; i < kLanes; ++i) lanes.push_back({SimFabric::hca(static_cast<std::size_t>(i) + 2), "connectx4", a});
  bring_up(lanes);
  if (HasFatalFailure() || IsSkipped()) return;
  // The factory state every cut starts from, and the length of an unfaulted burn in flash ops.
  const fs::path base = dir_.path() / "base";
  {
    auto device = locked_stop("Hca2");
    ASSERT_NE(device, nullptr);
    ASSERT_TRUE(device->save_state(base));
  }
  locked_start("Hca2", {});
  auto clean = flint("Hca2", {"-i", b.string(), "burn", "-y"});
  ASSERT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  auto burned = locked_stop("Hca2");
  ASSERT_NE(burned, nullptr);
  auto fresh = sim::SimDevice::load_state(base);
  ASSERT_TRUE(fresh);
  const std::uint64_t total = burned->counters().flash.erases + burned->counters().flash.programs -
                              (*fresh)->counters().flash.erases - (*fresh)->counters().flash.programs;
  ASSERT_GE(total, 200u) << "the burn must have at least 200 flash ops to cut";
  // Cut points spread evenly over the whole burn, the first and the last op included, and every
  // one of the last kTail ops (the new copy's magic, the old one's invalidation: the commit an
  // even spread may step over). The exhaustive per-op proof runs in memory (label powercut);
  // over MADs every cut costs a responder restart, so the default spread is 24 points
  // (OPENFLINT_INBAND_CUTS=N for N, 0 cuts after every op; 64 until December 2026, ~175 s).
  constexpr std::uint64_t kTail = 8;
  const char* env = std::getenv("OPENFLINT_INBAND_CUTS");
  const std::uint64_t wanted = env != nullptr ? std::strtoull(env, nullptr, 10) : 24;
  std::vector<std::uint64_t> points;
  if (wanted == 0 || wanted >= total) {
    for (std::uint64_t p = 1; p <= total; ++p) points.push_back(p);
  } else {
    for (std::uint64_t k = 0; k < wanted; ++k) points.push_back(1 + k * (total - 1) / (wanted - 1));
    for (std::uint64_t p = total - kTail + 1; p < total; ++p) points.push_back(p);  // `total` is in the spread
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
  }
  RecordProperty("flash_ops", static_cast<int>(total));

  for (int lane = 1; lane < kLanes; ++lane) (void)locked_stop(SimFabric::hca(static_cast<std::size_t>(lane) + 2));

  Tally t;
  std::vector<std::thread> workers;
  for (int lane = 0; lane < kLanes; ++lane) {
    workers.emplace_back([&, lane] {
      const std::string node = SimFabric::hca(static_cast<std::size_t>(lane) + 2);
      for (std::size_t i = static_cast<std::size_t>(lane); i < points.size(); i += kLanes) {
        restore(node, base);
        locked_start(node, {"--power-cut-after", std::to_string(points[i])});
        auto cut = flint(node, {"-i", b.string(), "burn", "-y"});
        auto device = locked_stop(node);
        if (!device) return t.problem("cannot reload " + node);
        device->power_cycle();  // power returns: the boot ROM runs
        ++t.points;
        const auto& boot = device->boot_state();
        if (boot.recovery || !boot.running || !boot.running->fw_version) {
          ++t.recovery;
          t.problem("cut after op " + std::to_string(points[i]) + ": recovery mode; flint said " + cut.err);
          continue;
        }
        (boot.running->fw_version->minor == 20 ? t.booted_b : t.booted_a)++;
        if (i % 8 != 0) continue;
        // Power is back: a clean second burn must complete and boot B.
        ++t.reburns;
        if (!device->save_state(device_dir(node))) return t.problem("cannot save " + node);
        locked_start(node, {});
        auto again = flint(node, {"-i", b.string(), "burn", "-y"});
        auto after = locked_stop(node);
        if (after) after->power_cycle();
        if (again.exit_code != 0 || !after || after->boot_state().recovery || !after->boot_state().running ||
            after->boot_state().running->fw_version->minor != 20) {
          ++t.reburn_failures;
          t.problem("reburn after cut " + std::to_string(points[i]) + " failed: " + again.err);
        }
      }
    });
  }
  for (auto& w : workers) w.join();
  for (const auto& p : t.problems) ADD_FAILURE() << p;
  RecordProperty("cut_points", t.points.load());
  RecordProperty("booted_a", t.booted_a.load());
  RecordProperty("booted_b", t.booted_b.load());
  std::printf("in-band power cuts: %d points over %llu flash ops: A %d, B %d, recovery %d; %d reburns, %d failed\n",
              t.points.load(), static_cast<unsigned long long>(total), t.booted_a.load(), t.booted_b.load(),
              t.recovery.load(), t.reburns.load(), t.reburn_failures.load());
  EXPECT_EQ(t.points.load(), static_cast<int>(points.size()));
  EXPECT_GE(t.points.load(), std::min<int>(24, static_cast<int>(total)));
  EXPECT_EQ(t.recovery.load(), 0);
  EXPECT_GT(t.booted_a.load(), 0);
  EXPECT_GT(t.booted_b.load(), 0);
  EXPECT_GT(t.reburns.load(), 0);
  EXPECT_EQ(t.reburn_failures.load(), 0);
}

}  // namespace
}  // namespace openflint::test
