// Recording and replay over the in-band transport (MADs through ibsim and the real libibmad): the
// session is recorded on a device served on a fabric, the fabric is torn down, and the replay
// alone gives the tools' output byte for byte.
#include <gtest/gtest.h>

#include "tests/house/ReplayCheck.h"
#include "tests/inband/SimDeviceFabricFixture.h"

namespace openflint::test {
namespace {

class ReplayInband : public SimDeviceFabricFixture {};

TEST_F(ReplayInband, AnInbandSessionReplaysWithTheFabricGone) {
  serve("connectx4", read_file(sample_image("connectx4-old")));
  if (HasFatalFailure() || IsSkipped()) return;
  ReplayCheck check(dir_.path());
  std::vector<std::pair<std::vector<std::string>, Recorded>> sessions;
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{{"flint", "-d", "{dev}", "q"}, {"flint", "-d", "{dev}", "v"}}) {
    Recorded r;
    r.session = dir_.path() / ("inband-" + command.back() + ".gz");
    std::vector<std::string> argv{"/usr/bin/env", "OPENFLINT_RECORD=" + r.session.string(), bin(command[0]).string()};
    for (std::size_t i = 1; i < command.size(); ++i) argv.push_back(command[i] == "{dev}" ? lid_name() : command[i]);
    const CapturedRun run_on_fabric = run(argv);
    r.exit_code = run_on_fabric.exit_code;
    r.out = run_on_fabric.out;
    r.err = run_on_fabric.err;
    ASSERT_EQ(r.exit_code, 0) << command.back() << ": " << r.out << r.err;
    // Vendor MADs carried CR-space reads (the flash gateway's commands and data), and the
    // query's MGIR register access.
    const auto records = session_records_of(r.session);
    EXPECT_GT(std::count_if(records.begin(), records.end(),
                            [](const std::string& s) { return s.starts_with("r ") || s.starts_with("wr "); }),
              10)
        << command.back();
    if (command.back() == "q") {
      EXPECT_TRUE(std::any_of(records.begin(), records.end(), [](const std::string& s) { return s.starts_with("t "); }));
    }
    sessions.emplace_back(command, std::move(r));
  }
  stop_fabric();
  for (const auto& [command, recorded] : sessions) {
    SCOPED_TRACE(command.back());
    check.expect_replay_of(recorded, command);
  }
}

}  // namespace
}  // namespace openflint::test
