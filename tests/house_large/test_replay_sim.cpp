// Recording and replay (fwops/recording/SessionRecording.h) over the simulator's transport: flint q, v, a burn,
// mst dump and mst config query recorded with OPENFLINT_RECORD replay into the same unmodified
// tools with byte-identical output. Whole-flash reads and a burn are thousands of records: these
// run in the release stage (label large); refusals and divergences run under ASan (tests/house).
#include <gtest/gtest.h>

#include "fwops/recording/SessionRecording.h"
#include "tests/devcli/SampleDevice.h"
#include "tests/house/ReplayCheck.h"

namespace openflint::test {
namespace {

class ReplaySim : public SampleDeviceTest {};

TEST_F(ReplaySim, QueryVerifyDumpAndConfigQueryReplayByteForByte) {
  create_sample("connectx4", "old");
  ReplayCheck check(dir_.path());
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{{"flint", "-d", "{dev}", "q"},
                                             {"flint", "-d", "{dev}", "--json", "q"},
                                             {"flint", "-d", "{dev}", "v"},
                                             {"mst", "dump", "{dev}"},
                                             {"mst", "config", "{dev}", "query"}}) {
    SCOPED_TRACE(command[0] + " " + command[1] + " " + command.back());
    check.expect_replays(command, dev());
  }
}

TEST_F(ReplaySim, ABurnReplaysWithoutTheDevice) {
  create_sample("connectx4", "old");
  const std::string image = sample("connectx4", "new");
  ReplayCheck check(dir_.path());
  const Recorded burn = check.expect_replays({"flint", "-d", "{dev}", "-i", image, "-y", "burn"}, dev());
  EXPECT_EQ(burn.exit_code, 0) << burn.err;
  // The replay touched nothing: the device (burned by the recording run) is released and intact.
  const CommandResult q = flint({"-d", dev(), "q"});
  EXPECT_EQ(q.exit_code, 0) << q.err;
}

TEST_F(ReplaySim, AnFs2DeviceAndItsI2cFreeGatewayReplay) {
  create("connectx3", fs2_image());
  ReplayCheck check(dir_.path());
  check.expect_replays({"flint", "-d", "{dev}", "q"}, dev());
  check.expect_replays({"flint", "-d", "{dev}", "v"}, dev());
}

}  // namespace
}  // namespace openflint::test
