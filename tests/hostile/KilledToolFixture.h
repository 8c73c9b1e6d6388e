// KilledToolFixture: simulated devices served by `hcasim pci-serve`, flint killed with SIGKILL
// mid-command (nothing can clean up), and what the next tools find (issue 33).
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sim/SimDevice.h"
#include "tests/pci_cli/PciServeFixture.h"
#include "core/ChildProcess.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// What a series of kills left, for the test's output.
struct KillTally {
  int kills = 0;
  int finished_first = 0;  // the burn was done before its kill came
  int busy_after = 0;      // the next q was Busy (a stale holder named)
  std::map<std::string, int> freed;  // clear_semaphore's "what" -> how often
  int mstflint_queries = 0;
  double kill_s = 0, query_s = 0, clear_s = 0, requery_s = 0, mstflint_s = 0;  // time spent in each step
};

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class KilledToolFixture : public PciServeFixture {
 protected:
  using Ms = std::chrono::milliseconds;

  // flint ARGS started in the background and SIGKILLed after `delay`: nullopt when the kill
  // came, else about how long it ran before it exited on its own.
  std::optional<Ms> run_killed(const std::vector<std::string>& args, Ms delay) {
    std::vector<std::string> argv{bin("flint").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildProcess tool(background_tool(argv, tool_env(), dir_ / "killed.out", dir_ / "killed.err"));
    if (tool.pid() <= 0) {
      ADD_FAILURE() << "cannot start flint";
      return std::nullopt;
    }
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < delay) {
      if (!tool.running()) return std::chrono::duration_cast<Ms>(std::chrono::steady_clock::now() - start);
      std::this_thread::sleep_for(Ms(5));
    }
    tool.signal(SIGKILL);
    const auto status = tool.wait_for(std::chrono::seconds(10));
    EXPECT_TRUE(status.has_value()) << "flint did not die on SIGKILL";
    return std::nullopt;
  }

  // A whole burn of `image` into `name` (it must succeed); its wall time, the scale of the kills.
  Ms timed_burn(const std::string& name, const std::filesystem::path& image) {
    const auto start = std::chrono::steady_clock::now();
    const auto r = flint({"-d", name, "-i", image.string(), "-y", "burn"});
    const auto took = std::chrono::duration_cast<Ms>(std::chrono::steady_clock::now() - start);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return took;
  }

  // After a kill: `q` works or is Busy naming the stale holder and clear_semaphore; ONE
  // clear_semaphore then makes `q` work — and mstflint's q of `mstflint_bdf` (unless empty),
  // where mstflint runs here — and the flash boots one of `versions`.
  void check_after_kill(const std::string& name, const std::set<std::string>& versions, KillTally& tally,
                        const std::string& mstflint_bdf) {
    auto start = std::chrono::steady_clock::now();
    const auto q = flint({"-d", name, "q"});
    tally.query_s += seconds_since(start);
    if (q.exit_code != 0) {
      ++tally.busy_after;
      EXPECT_EQ(q.exit_code, 5) << q.out << q.err;
      EXPECT_TRUE(contains(q.err, "no openflint process holds " + name)) << q.err;
      EXPECT_TRUE(contains(q.err, "run 'flint -d " + name + " clear_semaphore'")) << q.err;
    } else {
      EXPECT_TRUE(versions.contains(query_field(q.out, "FW Version"))) << q.out;
    }
    start = std::chrono::steady_clock::now();
    const auto cleared = flint({"-d", name, "clear_semaphore", "--json"});
    tally.clear_s += seconds_since(start);
    ASSERT_EQ(cleared.exit_code, 0) << cleared.out << cleared.err;
    const auto j = nlohmann::json::parse(cleared.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << cleared.out;
    for (const auto& freed : j["freed"]) ++tally.freed[freed["what"].get<std::string>()];
    if (q.exit_code != 0) {
      EXPECT_FALSE(j["freed"].empty()) << "q was busy, but clear_semaphore freed nothing: " << q.err;
    }
    EXPECT_TRUE(j["not_checked"].empty()) << cleared.out;
    start = std::chrono::steady_clock::now();
    const auto again = flint({"-d", name, "q"});
    tally.requery_s += seconds_since(start);
    ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
    EXPECT_TRUE(versions.contains(query_field(again.out, "FW Version"))) << "neither image boots: " << again.out;
    if (mstflint_bdf.empty()) return;
    start = std::chrono::steady_clock::now();
    if (const auto mq = mstflint_query(mstflint_bdf)) {
      tally.mstflint_s += seconds_since(start);
      ++tally.mstflint_queries;
      EXPECT_EQ(mq->exit_code, 0) << "mstflint after clear_semaphore: " << mq->out << mq->err;
      EXPECT_TRUE(versions.contains(query_field(mq->out, "FW Version"))) << mq->out;
    }
  }

  // `kills` burns of `name`, alternating the images, each killed at a point spread from 10% to 80%
  // of a whole burn's time `full` (the calibration burn; a burn that finishes before its kill
  // comes sets `full` to its own time: on a loaded machine burns vary 2x), each followed by
  // check_after_kill.
  KillTally kill_burns(const std::string& name, const std::vector<std::filesystem::path>& images,
                       const std::set<std::string>& versions, Ms full, int kills, const std::string& mstflint_bdf = {}) {
    KillTally tally;
    for (int i = 0; i < kills && !HasFatalFailure(); ++i) {
      const Ms at{full.count() * (10 + 70 * i / std::max(1, kills - 1)) / 100};
      ++tally.kills;
      const auto start = std::chrono::steady_clock::now();
      const auto& image = images[static_cast<std::size_t>(i) % images.size()];
      const auto finished = run_killed({"-d", name, "-i", image.string(), "-y", "burn"}, at);
      tally.kill_s += seconds_since(start);
      if (finished) {
        ++tally.finished_first;
        full = *finished;
      }
      check_after_kill(name, versions, tally, mstflint_bdf);
    }
    std::cout << name << ": " << tally.kills << " kills over a " << full.count() << " ms burn, " << tally.finished_first
              << " after it finished, " << tally.busy_after << " left q busy; freed:";
    for (const auto& [what, n] : tally.freed) std::cout << " " << what << " x" << n << ";";
    std::cout << " seconds: burns until killed " << tally.kill_s << ", q " << tally.query_s << ", clear_semaphore "
              << tally.clear_s << ", q again " << tally.requery_s << ", mstflint q (" << tally.mstflint_queries << ") "
              << tally.mstflint_s << '\n';
    return tally;
  }

  // mstflint's q in a namespace where the served tree is /sys/bus/pci; skipped (empty) when
  // mstflint or the namespace is not available here.
  std::optional<CommandResult> mstflint_query(const std::string& bdf) {
    if (!mstflint_runs_) {
      mstflint_runs_ = ::geteuid() == 0;
      for (const char* tool : {"mstflint", "unshare", "mount", "timeout"}) *mstflint_runs_ = *mstflint_runs_ && have_program(tool);
      if (*mstflint_runs_) mstflint_runs_ = pci_namespace_problem().empty();
      if (!*mstflint_runs_) std::cout << "mstflint's q not run: no mstflint, unshare or mount namespace here\n";
    }
    if (!*mstflint_runs_) return std::nullopt;
    return in_pci_namespace({"mstflint", "-d", bdf, "q"}, 120);
  }
  std::optional<bool> mstflint_runs_;

  static sim::SimCounters saved_counters(const std::filesystem::path& dev) {
    auto d = sim::SimDevice::load_state(dev);
    EXPECT_TRUE(d) << d.error().message();
    return d ? (*d)->counters() : sim::SimCounters{};
  }
};

}  // namespace openflint::test
