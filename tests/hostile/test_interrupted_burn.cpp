// Stop signals (SIGINT, SIGTERM, SIGHUP, SIGPIPE) during a failsafe burn of a simulated ConnectX-4
// (old -> new sample images), as sim:PATH and through `mst server` on loopback: at points spread
// over the burn, each trial exits 128 + signal with one line (or completed, past its last safe
// point), the next flint opens the device at once (no lock left), and it boots the old or the new image.
#include <regex>

#include "tests/hostile/InterruptTrials.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

class InterruptedBurn : public ::testing::Test {
 protected:
  void SetUp() override {
    old_image_ = sample_image("connectx4-old");
    new_image_ = sample_image("connectx4-new");
    old_version_ = version_of(old_image_);
    new_version_ = version_of(new_image_);
    ASSERT_FALSE(old_version_.empty());
    ASSERT_NE(old_version_, new_version_);
    const auto r = run_tool("hcasim", {"create", "--model", "connectx4", template_.string(), "--image", old_image_.string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }

  static std::string version_of(const fs::path& image) {
    const auto r = run_tool("flint", {"-i", image.string(), "q"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return field_of(r.out, "FW Version");
  }

  // A device in the state every trial starts from (the old image, nothing burned yet).
  fs::path fresh_device(const std::string& name) const {
    const fs::path dir = dir_ / name;
    fs::copy(template_, dir, fs::copy_options::recursive);
    return dir;
  }

  // The burn of one trial, logging to `log` (the test sees its writing start and end there).
  [[nodiscard]] std::vector<std::string> burn(const std::string& device, const fs::path& log) const {
    return {bin("flint").string(), "-s", "-y", "--log", log.string(), "-d", device, "-i", new_image_.string(), "burn"};
  }

  // The device is held while its lock file is taken (by flint, or by the server of a remote session).
  static Probe held(const fs::path& dev) {
    return [lock = dev / "lock"] { return lock_held(lock); };
  }

  // What every trial must leave: the contract of the stop, the device free for the next flint
  // (a query with a short lock wait) and showing on flash the image that will boot.
  void check_trial(const TrialResult& r, int sig, bool writing, const std::string& device, const std::string& what) {
    expect_stopped_or_completed(r, sig, what);
    const std::string expected = r.stopped(sig) ? old_version_ : new_version_;
    const auto q = run_command({bin("flint").string(), "--lock-timeout", "1000", "-d", device, "q"}, env_);
    EXPECT_EQ(q.exit_code, 0) << what << ": the next flint cannot use the device:\n" << q.out << q.err;
    EXPECT_EQ(field_of(q.out, "FW Version"), expected) << what << ":\n" << q.out;
    tally_.count(r, sig, writing);
  }

  static void expect_no_temporaries(const fs::path& sim_dir, const std::string& what) {
    for (const auto& e : fs::directory_iterator(sim_dir)) {
      const std::string name = e.path().filename().string();
      EXPECT_TRUE(name.find(".tmp") == std::string::npos && name.find(".staging") == std::string::npos)
          << what << ": " << e.path() << " left behind";
    }
  }

  void report(const std::string& transport, const BurnPhases& p) {
    std::cout << "[ " << transport << " ] uninterrupted burn: reading " << p.reading << " s, writing " << p.writing
              << " s; " << tally_.text() << '\n';
    RecordProperty(transport + "_writing_seconds", std::to_string(p.writing));
    EXPECT_GE(tally_.stopped_writing, 1u) << transport << ": no signal stopped the burn while it wrote ("
                                          << tally_.text() << ")";
  }

  TempDir dir_;
  fs::path template_ = dir_ / "template";
  fs::path old_image_, new_image_;
  std::string old_version_, new_version_;
  std::vector<std::string> env_{"OPENFLINT_RUN_DIR=" + (dir_ / "run").string()};
  Tally tally_;
};

TEST_F(InterruptedBurn, SimDeviceStopsAtASafePointAndBootsOldOrNew) {
  const auto sim_name = [](const fs::path& dev) { return "sim:" + dev.string(); };
  const fs::path measured = fresh_device("measured");
  const BurnPhases phases = measure_phases(burn(sim_name(measured), dir_ / "measured.log"), env_, dir_.path(),
                                           held(measured), dir_ / "measured.log");
  const std::size_t trials = trial_count(4);
  for (std::size_t i = 0; i < trials + 2; ++i) {
    const fs::path dev = fresh_device("trial" + std::to_string(i));
    const fs::path log = dir_ / ("trial" + std::to_string(i) + ".log");
    auto points = spread_over(trials, phases, held(dev), log);
    // Then a SIGPIPE, and a SIGTERM sent again 20 ms into the cleanup, both halfway through the writing.
    points.push_back({SIGPIPE, Millis(static_cast<long>(500 * phases.writing)), std::nullopt, file_says(log, "burning FW")});
    points.push_back({SIGTERM, Millis(static_cast<long>(500 * phases.writing)), Millis(20), file_says(log, "burning FW")});
    const Interruption& when = points[i];
    const bool writing = i >= reading_points(trials);
    const std::string what = "sim " + describe(when, i, writing);
    SCOPED_TRACE(what);
    const TrialResult r = run_interrupted(burn(sim_name(dev), log), env_, dir_.path(), when);
    check_trial(r, when.signal, writing, sim_name(dev), what);
    expect_no_temporaries(dev, what);
    EXPECT_EQ(boots_after_reset(dev), r.stopped(when.signal) ? old_version_ : new_version_) << what;
  }
  report("sim", phases);
}

// `mst server` on loopback serving every trial's device at once; each trial burns its own.
TEST_F(InterruptedBurn, RemoteDeviceStopsAtASafePointAndBootsOldOrNew) {
  std::vector<fs::path> devices;
  std::vector<std::string> argv{bin("mst").string(), "server", "--port", "0", "--audit-log", (dir_ / "audit").string()};
  const std::size_t trials = trial_count(3);
  for (std::size_t i = 0; i <= trials; ++i) {
    devices.push_back(fresh_device("remote" + std::to_string(i)));
    argv.push_back("sim:" + devices.back().string());
  }
  ChildProcess server(background_tool(argv, env_, dir_ / "server.out", dir_ / "server.err"));
  ASSERT_GT(server.pid(), 0);
  const std::regex ready("-I- serving [0-9]+ device\\(s\\) on 127\\.0\\.0\\.1:([0-9]+)");
  std::string port;
  for (int waited = 0; port.empty() && waited < 2000 && server.running(); ++waited) {
    std::smatch m;
    const std::string err = server.err();
    if (std::regex_search(err, m, ready)) port = m[1].str();
    else std::this_thread::sleep_for(Millis(10));
  }
  ASSERT_FALSE(port.empty()) << "mst server did not come up: " << server.err();
  const auto remote_name = [&](const fs::path& dev) {
    std::string name = "sim:" + dev.string();
    for (char& ch : name)
      if (ch == '/') ch = '@';
    return "127.0.0.1:" + port + "," + name;
  };
  // The measured burn runs on the last device (a fresh one of the same state as the others).
  const BurnPhases phases = measure_phases(burn(remote_name(devices.back()), dir_ / "measured.log"), env_,
                                           dir_.path(), held(devices.back()), dir_ / "measured.log");
  std::vector<bool> stopped(trials);
  for (std::size_t i = 0; i < trials; ++i) {
    const fs::path log = dir_ / ("remote" + std::to_string(i) + ".log");
    const Interruption when = spread_over(trials, phases, held(devices[i]), log)[i];
    const bool writing = i >= reading_points(trials);
    const std::string what = "remote " + describe(when, i, writing);
    SCOPED_TRACE(what);
    const TrialResult r = run_interrupted(burn(remote_name(devices[i]), log), env_, dir_.path(), when);
    check_trial(r, when.signal, writing, remote_name(devices[i]), what);
    stopped[i] = r.stopped(when.signal);
  }
  server.signal(SIGTERM);
  EXPECT_EQ(server.wait_for(std::chrono::seconds(30)).value_or(-999), 0) << server.err();
  // The server frees a flash lock a vanished client left taken (issue 12): a stopped flint released its own.
  const auto audit = read_file(dir_ / "audit");
  const std::string audit_text(audit.begin(), audit.end());
  EXPECT_EQ(audit_text.find("left taken"), std::string::npos) << audit_text;
  for (std::size_t i = 0; i < trials; ++i)
    EXPECT_EQ(boots_after_reset(devices[i]), stopped[i] ? old_version_ : new_version_) << "remote trial " << i;
  report("remote", phases);
}

}  // namespace
}  // namespace openflint::test
