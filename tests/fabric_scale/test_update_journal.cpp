// The update's library pieces without a fabric: the journal (records, resume view, torn lines,
// the lock), the failure budget, the dry run's total and the progress ETAs.
#include <gtest/gtest.h>

#include <fstream>

#include "fabric/FabricUpdater.h"
#include "fabric/UpdateJournal.h"
#include "fabric/UpdateProgress.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

JournalEntry entry(std::uint64_t guid, JournalState state, const std::string& version = "12.20.1000") {
  return JournalEntry{.guid = guid, .lid = 7, .state = state, .version = version, .image = "new\twith tab.bin",
                      .message = "line\nbreak"};
}

TEST(UpdateJournal, RecordsSurviveAReopenAndATornLastLineIsIgnored) {
  TempDir dir;
  const auto path = dir.path() / "j";
  {
    auto j = UpdateJournal::open(path);
    ASSERT_TRUE(j) << j.error().message();
    ASSERT_TRUE(j->record(entry(0x10, JournalState::Started)));
    ASSERT_TRUE(j->record(entry(0x10, JournalState::Burned)));
    ASSERT_TRUE(j->record(entry(0x20, JournalState::Started)));
    EXPECT_EQ(j->counts()[JournalState::Started], 2u);
    // A second ibfwmgr on the same journal is refused while the first holds it.
    auto second = UpdateJournal::open(path);
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().code(), ErrorCode::Busy);
  }
  {  // a run killed in the middle of writing a record: the torn line does not count
    std::ofstream out(path, std::ios::app);
    out << "1700000000\t42\t0x0000000000000020\t7\tverified\t12.20";
  }
  auto j = UpdateJournal::open(path);
  ASSERT_TRUE(j) << j.error().message();
  const auto a = j->last(0x10, "12.20.1000");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->state, JournalState::Burned);
  EXPECT_EQ(a->image, "new with tab.bin") << "tabs and newlines in values become spaces";
  EXPECT_EQ(a->message, "line break");
  EXPECT_GT(a->pid, 0);
  const auto b = j->last(0x20, "12.20.1000");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->state, JournalState::Started) << "the torn 'verified' was ignored";
  EXPECT_FALSE(j->last(0x10, "12.30.1000").has_value()) << "another target version starts a new story";
  EXPECT_FALSE(j->last(0x30, "12.20.1000").has_value());
  EXPECT_TRUE(j->counts().empty()) << "counts are this run's";
  // The next record starts on a line of its own (the torn one was ended).
  ASSERT_TRUE(j->record(entry(0x20, JournalState::Verified)));
  auto again = UpdateJournal::open(dir.path() / "other");  // another file is not locked
  ASSERT_TRUE(again);
}

TEST(UpdateJournal, RefusesAFileThatIsNotAJournal) {
  TempDir dir;
  const auto path = dir.path() / "notes.txt";
  write_file(path, {'h', 'e', 'l', 'l', 'o', '\n'});
  auto j = UpdateJournal::open(path);
  ASSERT_FALSE(j);
  EXPECT_EQ(j.error().code(), ErrorCode::InvalidImage);
  EXPECT_NE(j.error().message().find("not an ibfwmgr journal"), std::string::npos);
}

TEST(UpdateJournal, DefaultPathOnlyWhenTheRunDirExists) {
  TempDir dir;
  EXPECT_FALSE(default_journal_path((dir.path() / "absent").string(), 1).has_value());
  const auto p = default_journal_path(dir.path().string(), 0x0002c90300001234ull);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->filename(), "ibfwmgr-0x0002c90300001234.journal");
  EXPECT_EQ(default_journal_path(dir.path().string(), 0)->filename(), "ibfwmgr-hosts.journal");
}

TEST(FailureBudget, ParsesCountsAndPercentages) {
  auto n = parse_failure_budget("3");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->allowed(100), 3u);
  auto p = parse_failure_budget("10%");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->allowed(64), 6u) << "rounded down";
  EXPECT_EQ(p->allowed(5), 0u);
  auto zero = parse_failure_budget("0");
  ASSERT_TRUE(zero);
  EXPECT_EQ(zero->allowed(10), 0u);
  EXPECT_GT(FailureBudget{}.allowed(10), 1000000u) << "unlimited by default";
  for (const char* bad : {"", "%", "x", "-1", "101%", "3 ", "1.5"}) EXPECT_FALSE(parse_failure_budget(bad)) << bad;
}

TEST(PlanTotal, SchedulesTheNodesLongestFirstOnTheSlots) {
  std::vector<NodeUpdate> updates(5);
  const double secs[] = {4, 3, 3, 2, 0};
  for (std::size_t i = 0; i < 4; ++i) {
    updates[i].plan = NodeUpdatePlan{};
    updates[i].plan->seconds = secs[i];
    updates[i].plan->requests = 100;
  }
  const auto one = plan_total(updates, 1);
  EXPECT_EQ(one.nodes, 4u);
  EXPECT_EQ(one.requests, 400u);
  EXPECT_DOUBLE_EQ(one.seconds, 12);
  EXPECT_DOUBLE_EQ(plan_total(updates, 2).seconds, 6);  // {4,2} {3,3}
  EXPECT_DOUBLE_EQ(plan_total(updates, 16).seconds, 4);
  EXPECT_DOUBLE_EQ(plan_total({}, 4).seconds, 0);
}

NodeUpdateEvent event(std::size_t node, JournalState state, const std::string& message = {}) {
  return NodeUpdateEvent{.node = node, .state = state, .attempt = 1, .message = message};
}

TEST(UpdateProgress, CountsStatesAndEstimatesFromFinishedNodes) {
  UpdateProgress progress(4, 2);
  for (std::size_t i = 0; i < 4; ++i) progress.on_event(event(i, JournalState::Planned));
  progress.on_event(event(0, JournalState::Started));
  progress.on_event(event(1, JournalState::Started));
  progress.on_burn(0, BurnProgress{.stage = "writing", .done = 50, .total = 100});
  auto s = progress.snapshot();
  EXPECT_EQ(s.planned, 4u);
  ASSERT_EQ(s.running.size(), 2u);
  EXPECT_DOUBLE_EQ(s.running[0].fraction, 0.5);
  EXPECT_TRUE(s.running[0].eta.has_value());
  EXPECT_FALSE(s.eta.has_value()) << "unknown until a node finished (node 1 has no write progress)";
  progress.on_event(event(1, JournalState::Failed, "retrying after: busy"));
  EXPECT_EQ(progress.snapshot().failed, 0u) << "a retry is not the node's end";
  progress.on_event(event(0, JournalState::Verified));
  progress.on_event(event(1, JournalState::Failed, "refused"));
  progress.on_event(event(3, JournalState::NotStarted));
  s = progress.snapshot();
  EXPECT_EQ(s.done, 1u);
  EXPECT_EQ(s.failed, 1u);
  EXPECT_EQ(s.not_started, 1u);
  EXPECT_TRUE(s.running.empty());
  EXPECT_TRUE(s.eta.has_value()) << "node 2 waits: the mean of the finished one";
}

}  // namespace
}  // namespace openflint::test
