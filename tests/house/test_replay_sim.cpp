// Recording and replay (fwops/recording/SessionRecording.h) over the simulator's transport: a recording that no
// longer matches the tool fails loudly at its first divergence, bad files and names are one error
// line, and --record is the option form of OPENFLINT_RECORD (the byte-for-byte replays of q, v, a
// burn, dump and config query: tests/house_large).
#include <gtest/gtest.h>

#include "fwops/recording/SessionRecording.h"
#include "tests/devcli/SampleDevice.h"
#include "tests/house/ReplayCheck.h"

namespace openflint::test {
namespace {

class ReplaySim : public SampleDeviceTest {};

// A tool whose accesses changed: replaying `flint q`'s session into `flint v`, and a session one
// of whose requests was altered, stop at the first divergence with exit 3 and say where.
TEST_F(ReplaySim, ADifferentAccessSequenceIsCaughtAtItsFirstDivergence) {
  create_sample("connectx4", "old");
  ReplayCheck check(dir_.path());
  const Recorded q = check.record({"flint", "-d", "{dev}", "q"}, dev());
  ASSERT_EQ(q.exit_code, 0) << q.err;

  const CommandResult other = run_command({bin("flint").string(), "-d", "replay:" + q.session.string(), "v"});
  EXPECT_EQ(other.exit_code, 3) << other.out << other.err;
  EXPECT_NE(other.err.find("diverged at record"), std::string::npos) << other.err;

  // The same tool, but the recording says the tool read another address at its first read.
  std::vector<std::string> records = session_records_of(q.session);
  bool altered = false;
  for (std::string& record : records) {
    if (!record.starts_with("r ")) continue;
    record.replace(2, 1, record[2] == '1' ? "2" : "1");
    altered = true;
    break;
  }
  ASSERT_TRUE(altered) << "no CR-space read in the session";
  const auto changed = write_session(dir_ / "altered.session.gz", records);
  const CommandResult replayed = run_command({bin("flint").string(), "-d", "replay:" + changed.string(), "q"});
  EXPECT_EQ(replayed.exit_code, 3) << replayed.out << replayed.err;
  EXPECT_NE(replayed.err.find("diverged at record"), std::string::npos) << replayed.err;
  EXPECT_NE(replayed.err.find("the tool asked 'r "), std::string::npos) << replayed.err;

  // A session cut short: the tool asks past its end.
  records = session_records_of(q.session);
  records.resize(records.size() / 2);
  const auto cut = write_session(dir_ / "cut.session.gz", records);
  const CommandResult short_replay = run_command({bin("flint").string(), "-d", "replay:" + cut.string(), "q"});
  EXPECT_NE(short_replay.exit_code, 0) << short_replay.out;
  EXPECT_NE(short_replay.err.find("the recording has 'its end'"), std::string::npos) << short_replay.err;
}

// Recordings are written in the current format version (2: the `fc` record); a file of version 1,
// which has no `fc` records, still replays; a version this build does not know is refused.
TEST_F(ReplaySim, RecordingsCarryTheirVersionAndOlderVersionsReplay) {
  create_sample("connectx4", "old");
  ReplayCheck check(dir_.path());
  const Recorded q = check.record({"flint", "-d", "{dev}", "q"}, dev());
  ASSERT_EQ(q.exit_code, 0) << q.err;
  std::vector<std::string> records = session_records_of(q.session);
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records.front(), "openflint-session " + std::to_string(kSessionVersion));
  EXPECT_EQ(kSessionVersion, 2);

  for (const auto& [version, replays] : std::vector<std::pair<int, bool>>{{1, true}, {3, false}, {0, false}}) {
    SCOPED_TRACE(version);
    records.front() = "openflint-session " + std::to_string(version);
    const auto file = write_session(dir_ / ("v" + std::to_string(version) + ".session.gz"), records);
    const CommandResult r = run_command({bin("flint").string(), "-d", "replay:" + file.string(), "q"});
    if (replays) {
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, q.out);
    } else {
      EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
      EXPECT_NE(r.err.find("not an openflint session recording (versions 1 to 2)"), std::string::npos) << r.err;
    }
  }
}

TEST_F(ReplaySim, BadFilesAndNamesAreOneErrorLine) {
  write_file(dir_ / "text.gz", {'h', 'e', 'l', 'l', 'o', '\n'});
  for (const auto& [name, code, words] :
       std::vector<std::tuple<std::string, int, std::string>>{
           {"replay:" + (dir_ / "missing.gz").string(), 4, "cannot open the session recording"},
           {"replay:" + (dir_ / "text.gz").string(), 3, "not an openflint session recording"},
           {"replay:", 2, "lacks a FILE"}}) {
    const CommandResult r = run_command({bin("flint").string(), "-d", name, "q"});
    EXPECT_EQ(r.exit_code, code) << name << ": " << r.err;
    EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // A recording that cannot be created is refused before the device is touched.
  create_sample("connectx4", "old");
  const CommandResult r = run_command({bin("flint").string(), "--record", (dir_ / "no" / "such" / "dir.gz").string(),
                                       "-d", dev(), "q"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("cannot create the session recording"), std::string::npos) << r.err;
}

// --record FILE is the option form of OPENFLINT_RECORD, on every tool.
TEST_F(ReplaySim, TheRecordOptionRecordsLikeTheVariable) {
  create_sample("connectx4", "old");
  const std::string session = (dir_ / "option.session.gz").string();
  const CommandResult recorded = run_command({bin("mst").string(), "--record", session, "dump", dev()});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
  const CommandResult replayed = run_command({bin("mst").string(), "dump", "replay:" + session});
  EXPECT_EQ(replayed.exit_code, 0) << replayed.err;
  EXPECT_EQ(replayed.out, recorded.out);
  for (const char* tool : {"flint", "mst", "ibfwmgr", "hcasim"}) {
    const CommandResult help = run_command({bin(tool).string(), "--help"});
    EXPECT_NE(help.out.find("--record"), std::string::npos) << tool;
  }
}

}  // namespace
}  // namespace openflint::test
