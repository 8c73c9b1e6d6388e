// Stop signals during a failsafe burn over MADs (ibsim): a few trials, SIGINT, SIGTERM and SIGHUP at
// points spread over the burn of a ConnectX-4 served by ibsim-responder. Each exits 128 + signal with
// one line (or completed), the next flint opens the device at once and it boots the old or the new image.
#include "tests/hostile/InterruptTrials.h"
#include "tests/inband/DeviceFabricFixture.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

class InterruptedBurnInband : public DeviceFabricFixture {
 protected:
  // flint on Hca1 in the background: the fabric's client environment, run in the fabric dir
  // (where the preload keeps its sys-<pid>); `exec` keeps the pid flint's.
  std::vector<std::string> background_flint(const std::vector<std::string>& args) const {
    std::vector<std::string> argv{"sh", "-c", "cd \"$0\" && exec \"$@\"", fabric_->dir().string(), bin("flint").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }
  std::vector<std::string> client_env() const {
    std::vector<std::string> env;
    for (const auto& [name, value] : fabric_->client_env(SimFabric::hca(1))) env.push_back(name + "=" + value);
    return env;
  }
  void restore(const fs::path& base) {
    fs::remove_all(device_dir("Hca2"));
    fs::copy(base, device_dir("Hca2"), fs::copy_options::recursive);
  }
};

TEST_F(InterruptedBurnInband, StopsAtASafePointAndBootsOldOrNew) {
  const fs::path a = dir_.path() / "a.bin", b = dir_.path() / "b.bin";
  write_file(a, small_fs3_image(10, "MT_2190110032", 0x209, 56 * 1024));
  write_file(b, small_fs3_image(20, "MT_2190110032", 0x209, 56 * 1024));
  bring_up({{SimFabric::hca(2), "connectx4", a}});
  if (HasFatalFailure() || IsSkipped()) return;
  const fs::path base = dir_.path() / "base";
  ASSERT_NE(stop_and_load("Hca2"), nullptr);
  fs::copy(device_dir("Hca2"), base, fs::copy_options::recursive);
  start_responder("Hca2");
  const auto burn = [&](const fs::path& log) {
    return background_flint({"-s", "-y", "--log", log.string(), "-d", lid_name("Hca2"), "-i", b.string(), "burn"});
  };
  const fs::path measured = dir_.path() / "measured.log";
  const BurnPhases phases = measure_phases(burn(measured), client_env(), dir_.path(), {}, measured);
  const std::size_t trials = trial_count(3);  // 3: SIGINT, SIGTERM, SIGHUP at 1/6, 1/2, 5/6 of the writing
  Tally tally;
  for (std::size_t i = 0; i < trials; ++i) {
    const fs::path log = dir_.path() / ("trial" + std::to_string(i) + ".log");
    const Interruption when = spread_over(trials, phases, {}, log)[i];
    const bool writing = i >= reading_points(trials);
    const std::string what = "in-band " + describe(when, i, writing);
    SCOPED_TRACE(what);
    ASSERT_NE(stop_and_load("Hca2"), nullptr);
    restore(base);
    start_responder("Hca2");
    const TrialResult r = run_interrupted(burn(log), client_env(), dir_.path(), when);
    expect_stopped_or_completed(r, when.signal, what);
    tally.count(r, when.signal, writing);
    const bool stopped = r.stopped(when.signal);
    const auto q = run(background_flint({"--lock-timeout", "1000", "-d", lid_name("Hca2"), "q"}));
    EXPECT_EQ(q.exit_code, 0) << what << ": the next flint cannot use the device:\n" << q.out << q.err;
    EXPECT_EQ(field_of(q.out, "FW Version"), stopped ? "12.10.1000" : "12.20.1000") << what << q.out;
    ASSERT_NE(stop_and_load("Hca2"), nullptr);
    EXPECT_EQ(boots_after_reset(device_dir("Hca2")), stopped ? "12.10.1000" : "12.20.1000") << what;
    start_responder("Hca2");
  }
  std::cout << "[ in-band ] uninterrupted burn: reading " << phases.reading << " s, writing " << phases.writing
            << " s; " << tally.text() << '\n';
  RecordProperty("inband_writing_seconds", std::to_string(phases.writing));
  EXPECT_GE(tally.stopped_writing, 1u) << "no signal stopped the burn while it wrote";
}

}  // namespace
}  // namespace openflint::test
