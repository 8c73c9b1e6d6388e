// ibfwmgr update at scale on the largest fabric today's simulator gives cheaply (a switch and five
// adapters): killed mid-update at several points and run again, it finishes the fabric without
// burning a finished node twice and no node is ever left unbootable; a failure budget stops new
// burns; --parallel 1 and 4 end in the same state; the dry run's plan.
#include <set>

#include "sim/SimDevice.h"

#include "tests/fabric_scale/ScaleFixture.h"

namespace openflint::test {
namespace {

class IbfwmgrScale : public ScaleFixture {
 protected:
  // Every device boots: each responder is stopped (it saves its device), the saved device is
  // powered on (the boot ROM picks a copy: the old image or the new, never recovery) and the
  // responder is started again on the saved state (a flash lock a killed run held stays held).
  void expect_every_node_bootable(const std::string& when) {
    for (const auto& n : scale_nodes()) {
      auto device = stop_and_load(n.name);
      ASSERT_NE(device, nullptr) << when << ": " << n.name;
      device->power_cycle();
      EXPECT_FALSE(device->boot_state().recovery) << when << ": " << n.name << " does not boot";
      if (!device->boot_state().recovery) {
        const int minor = device->boot_state().running->fw_version->minor;
        EXPECT_TRUE(minor == 10 || minor == 20 || minor == 30) << when << ": " << n.name << " boots 12." << minor;
      }
      ASSERT_NO_FATAL_FAILURE(start_responder(n.name));
    }
  }
  // The end state every test wants: each node's flash holds its new image, with its own GUID.
  void expect_new_firmware_and_own_identity() {
    for (const auto& n : scale_nodes()) {
      const auto q = query(n.name);
      EXPECT_EQ(q["fw_version"], n.psid == kSwitchPsid ? "12.30.1000" : "12.20.1000") << n.name << q.dump(2);
      char guid[24];
      std::snprintf(guid, sizeof guid, "0x%016llx", static_cast<unsigned long long>(n.guid));
      EXPECT_EQ(q["base_guid"]["base"], guid) << n.name << q.dump(2);
    }
  }
};

TEST_F(IbfwmgrScale, KilledMidUpdateAtSeveralPointsResumesWithoutReburningFinishedNodes) {
  bring_up_scale(48 * 1024);  // a burn takes long enough to be killed in the middle of it
  if (HasFatalFailure() || IsSkipped()) return;
  const std::vector<std::string> args{"--parallel", "2"};
  // Kill 1: in the middle of the first burns (nothing verified yet).
  ASSERT_NO_FATAL_FAILURE(kill_update_when("started", 1, std::chrono::milliseconds(400), args));
  expect_every_node_bootable("after a kill in the first burns");
  // Kill 2: right after a second node was verified (a run resumed, then killed again).
  ASSERT_NO_FATAL_FAILURE(kill_update_when("verified", 2, std::chrono::milliseconds(0), args));
  expect_every_node_bootable("after a kill after two nodes were verified");
  // Kill 3: in the middle of a later burn.
  const std::size_t started = states_in_journal("started");
  ASSERT_NO_FATAL_FAILURE(kill_update_when("started", started + 1, std::chrono::milliseconds(300), args));
  expect_every_node_bootable("after a kill in a later burn");

  // The nodes burned before the last run: the journal's word, checked against each flash below.
  std::set<std::string> finished;
  for (const auto& [guid, state] : journal_records())
    if (state == "burned") finished.insert(guid);
  ASSERT_GE(finished.size(), 2u);
  const json up = update(args, 0);
  ASSERT_TRUE(up["ok"].get<bool>()) << up.dump(2);
  std::size_t burned_now = 0, unrecorded = 0;
  for (const auto& n : up["nodes"]) {
    if (!n["vendor_access"].get<bool>()) continue;
    if (finished.count(guid_of(n)) != 0) {
      EXPECT_EQ(n["status"], "up-to-date") << "finished before: not burned again " << n.dump(2);
      EXPECT_EQ(n["mads"], 0) << n.dump(2);
    } else if (n["status"] == "up-to-date") {
      ++unrecorded;  // killed between the burn's end and its "burned" record: the flash says done
    } else {
      EXPECT_EQ(n["status"], "updated") << n.dump(2);
      ++burned_now;
    }
  }
  EXPECT_LE(unrecorded, 1u);
  EXPECT_EQ(burned_now + finished.size() + unrecorded, scale_nodes().size());
  // Over the four runs no node's burn completed twice (a kill between a burn's end and its
  // record leaves none: the next run finds the flash up to date).
  std::map<std::string, int> burned;
  for (const auto& [guid, state] : journal_records())
    if (state == "burned") ++burned[guid];
  EXPECT_GE(burned.size(), scale_nodes().size() - 1);
  for (const auto& [guid, count] : burned) EXPECT_EQ(count, 1) << guid;
  expect_new_firmware_and_own_identity();
}

TEST_F(IbfwmgrScale, FailureBudgetStopsNewBurnsAndNamesTheNodesNotStarted) {
  // Hca2 and Hca3 carry a PSID whose image is built for another device: their burns are refused.
  const std::string bad = "MT_0000000999";
  bring_up_scale(4096, {{"Hca2", bad}, {"Hca3", bad}});
  if (HasFatalFailure() || IsSkipped()) return;
  write_file(images_ / "wrong-device.bin", small_fs3_image(20, bad, kSwitchHwId));
  const json up = update({"--parallel", "1", "--max-failures", "0"}, 1);
  std::size_t failed = 0, not_started = 0, updated = 0;
  for (const auto& n : up["nodes"]) {
    const std::string status = n["status"];
    failed += status == "failed" ? 1 : 0;
    not_started += status == "not-started" ? 1 : 0;
    updated += status == "updated" ? 1 : 0;
    if (status == "not-started") {
      EXPECT_NE(n["message"].get<std::string>().find("--max-failures"), std::string::npos) << n.dump(2);
    }
  }
  EXPECT_EQ(failed, 1u) << "one at a time, the first failure spends the budget: " << up.dump(2);
  EXPECT_GE(not_started, 1u) << "the other bad node at least was not started";
  EXPECT_EQ(failed + not_started + updated, scale_nodes().size()) << up.dump(2);
  EXPECT_NE(last_err_.find("not started (lid"), std::string::npos) << last_err_;
  EXPECT_EQ(states_in_journal("not-started"), not_started);
  EXPECT_EQ(states_in_journal("started"), failed + updated) << "a node not started has no 'started' record";
  // A budget of 50%: both bad nodes fail (2 of the nodes left), every good one is burned.
  const json again = update({"--parallel", "1", "--max-failures", "50%"}, 1);
  for (const auto& n : again["nodes"]) {
    if (!n["vendor_access"].get<bool>()) continue;
    const bool is_bad = n["psid"] == bad;
    const std::string status = n["status"];
    EXPECT_TRUE(is_bad ? status == "failed" : (status == "updated" || status == "up-to-date")) << n.dump(2);
  }
  // --max-failures that is neither N nor P%: a usage error before anything is burned.
  const auto usage = run(ibfwmgr_argv({"--max-failures", "lots"}));
  EXPECT_EQ(usage.exit_code, 2) << usage.out << usage.err;
}

TEST_F(IbfwmgrScale, DryRunPlansEveryNodeWithMadsTimeAndTotal) {
  bring_up_scale(4096);
  if (HasFatalFailure() || IsSkipped()) return;
  const json dry = update({"--dry-run", "--parallel", "4"}, 0);
  std::size_t planned = 0;
  double seconds = 0;
  for (const auto& n : dry["nodes"]) {
    if (n["status"] != "would-update") continue;
    ++planned;
    EXPECT_EQ(n["path"], "in-band");
    EXPECT_GT(n["plan"]["requests"].get<int>(), 0) << n.dump(2);
    EXPECT_TRUE(n["plan"]["round_trip_us"].is_number()) << "measured on the node: " << n.dump(2);
    EXPECT_GT(n["plan"]["seconds"].get<double>(), 0) << n.dump(2);
    seconds += n["plan"]["seconds"].get<double>();
  }
  EXPECT_EQ(planned, scale_nodes().size()) << dry.dump(2);
  EXPECT_EQ(dry["plan_total"]["nodes"], planned);
  EXPECT_EQ(dry["plan_total"]["parallel"], 4);
  EXPECT_LE(dry["plan_total"]["seconds"].get<double>(), seconds) << "4 at a time take less than one after another";
  EXPECT_FALSE(std::filesystem::exists(journal())) << "a dry run writes nothing, not even the journal";
  const auto table = run({bin("ibfwmgr").string(), "update", "--images", images_.string(), "--dry-run"});
  EXPECT_NE(table.out.find("-I- plan: 6 node(s) to burn"), std::string::npos) << table.out;
}

class IbfwmgrParallel : public IbfwmgrScale, public ::testing::WithParamInterface<int> {};

TEST_P(IbfwmgrParallel, EveryNodeEndsOnItsNewImageWithItsOwnIdentity) {
  bring_up_scale(4096);
  if (HasFatalFailure() || IsSkipped()) return;
  const auto r = run(ibfwmgr_argv({"--parallel", std::to_string(GetParam()), "--progress-json"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto up = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(up.is_discarded()) << r.out;
  std::size_t updated = 0;
  for (const auto& n : up["nodes"]) updated += n["status"] == "updated" ? 1 : 0;
  EXPECT_EQ(updated, scale_nodes().size()) << up.dump(2);
  // The journal: each node planned, started, burned and verified once (the switch also activated).
  for (const char* state : {"planned", "started", "burned", "verified"})
    EXPECT_EQ(states_in_journal(state), scale_nodes().size()) << state;
  EXPECT_EQ(states_in_journal("activated"), 0u) << "no --reset: nothing was made to run";
  // The JSON lines on stderr: a line per state change, the last progress line with every node done.
  std::size_t node_lines = 0;
  json last_progress;
  std::istringstream err(r.err);
  std::size_t most_running = 0;
  for (std::string line; std::getline(err, line);) {
    const auto j = json::parse(line, nullptr, false);
    if (j.is_discarded()) continue;
    if (j["event"] == "node") ++node_lines;
    if (j["event"] == "progress") {
      last_progress = j;
      most_running = std::max(most_running, j["running"].size());
    }
  }
  EXPECT_EQ(node_lines, 4 * scale_nodes().size()) << r.err;
  ASSERT_TRUE(last_progress.is_object()) << r.err;
  EXPECT_EQ(last_progress["done"], scale_nodes().size()) << last_progress.dump();
  EXPECT_LE(most_running, static_cast<std::size_t>(GetParam())) << "never more than --parallel at once";
  expect_new_firmware_and_own_identity();
}

INSTANTIATE_TEST_SUITE_P(OneOrFourAtOnce, IbfwmgrParallel, ::testing::Values(1, 4));

}  // namespace
}  // namespace openflint::test
