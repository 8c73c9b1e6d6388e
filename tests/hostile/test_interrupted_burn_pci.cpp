// Stop signals during a failsafe burn over PCI — config space (the VSEC gateway and its semaphore),
// the BAR (the flash gateway's lock) and the running firmware's component update (MCC/MCDA over
// ICMD) — of simulated ConnectX-4s served by `hcasim pci-serve`: each trial exits 128 + signal with
// one line (or completed), then flint and the real mstflint open the device at once, and it boots
// the old or the new image. Every trial's device is served at once, each on its own bus.
#include <cstdio>

#include "tests/hostile/InterruptTrials.h"
#include "tests/pci_cli/PciServeFixture.h"
#include "tests/support/LiveDevice.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

std::string bdf_of(std::size_t i) {
  char text[16];
  std::snprintf(text, sizeof text, "0000:%02zx:00.0", 3 + i);
  return text;
}

class InterruptedBurnPci : public PciServeFixture {
 protected:
  struct Images {
    fs::path old_image, new_image;
    std::string old_version, new_version;
  };

  // plan.trials interrupted burns through `prefix` + BDF, points spread over an uninterrupted
  // burn of the same kind measured first.
  struct Plan {
    std::size_t trials = 6;
    Millis writing_cap{60000};     // points beyond it are not spread (measure_phases)
    std::size_t mstflint = 10;     // the first N trials' devices are queried by mstflint too
    bool reburn = false;           // each stopped device then takes a whole burn at once
  };

  void run_trials(const std::string& transport, const std::string& prefix, const Images& images, const Plan& plan) {
    const std::size_t trials = plan.trials;
    const fs::path template_dir = create_device("template", "connectx4", images.old_image);
    std::vector<fs::path> devices;
    for (std::size_t i = 0; i <= trials; ++i) {
      devices.push_back(dir_ / ("dev" + std::to_string(i)));
      fs::copy(template_dir, devices.back(), fs::copy_options::recursive);
    }
    Stopwatch watch;
    if (!serve(devices)) return;
    watch.lap("serving " + std::to_string(devices.size()) + " devices");
    const auto log_of = [&](std::size_t i) { return dir_ / ("burn" + std::to_string(i) + ".log"); };
    const auto burn = [&](std::size_t i) {
      return std::vector<std::string>{bin("flint").string(), "-s", "-y", "--log", log_of(i).string(), "-d",
                                      prefix + bdf_of(i), "-i", images.new_image.string(), "burn"};
    };
    const BurnPhases phases =
        measure_phases(burn(trials), tool_env(), dir_.path(), held(trials), log_of(trials), plan.writing_cap);
    watch.lap("the measured burn");
    Tally tally;
    std::vector<bool> stopped(trials);
    for (std::size_t i = 0; i < trials; ++i) {
      const Interruption when = spread_over(trials, phases, held(i), log_of(i))[i];
      const bool writing = i >= reading_points(trials);
      const std::string what = transport + " " + describe(when, i, writing);
      SCOPED_TRACE(what);
      const TrialResult r = run_interrupted(burn(i), tool_env(), dir_.path(), when);
      expect_stopped_or_completed(r, when.signal, what);
      stopped[i] = r.stopped(when.signal);
      tally.count(r, when.signal, writing);
      const auto q = flint({"--lock-timeout", "1000", "-d", prefix + bdf_of(i), "q"});
      EXPECT_EQ(q.exit_code, 0) << what << ": the next flint cannot use the device:\n" << q.out << q.err;
      EXPECT_EQ(field_of(q.out, "FW Version"), stopped[i] ? images.old_version : images.new_version) << what << q.out;
    }
    watch.lap("the trials");
    check_with_mstflint(std::min(trials, plan.mstflint));
    watch.lap("mstflint");
    if (plan.reburn) {
      for (std::size_t i = 0; i < trials; ++i) {
        if (!stopped[i]) continue;
        const auto again = run_command(burn(i), tool_env());
        EXPECT_EQ(again.exit_code, 0) << transport << " trial " << i << ": a burn after the stop:\n" << again.out << again.err;
        stopped[i] = again.exit_code != 0;
      }
    }
    if (plan.reburn) watch.lap("the burns after the stops");
    stop_server();
    watch.lap("stopping the server");
    for (std::size_t i = 0; i < trials; ++i)
      EXPECT_EQ(boots_after_reset(devices[i]), stopped[i] ? images.old_version : images.new_version)
          << transport << " trial " << i;
    watch.lap("the boot checks");
    std::cout << "[ " << transport << " ] " << watch.text() << '\n';
    std::cout << "[ " << transport << " ] uninterrupted burn: reading " << phases.reading << " s, writing "
              << phases.writing << " s; " << tally.text() << '\n';
    RecordProperty(transport + "_writing_seconds", std::to_string(phases.writing));
    EXPECT_GE(tally.stopped_writing, 1u) << transport << ": no signal stopped the burn while it wrote";
  }

  // Device i is held while its lock file (OPENFLINT_RUN_DIR/locks/BDF@ROOT.lock) is taken.
  Probe held(std::size_t i) const {
    return [dir = run_dir_ / "locks", prefix = bdf_of(i) + "@"] {
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().filename().string().starts_with(prefix)) return lock_held(e.path());
      return false;
    };
  }

  // The real mstflint queries every trial's device (config space: it takes the VSEC semaphore
  // and the flash lock our tool would have left held). Skipped, saying so, without mstflint or
  // the private mount namespace it runs in.
  void check_with_mstflint(std::size_t trials) {
    if (trials == 0) return;
    if (!have_program("mstflint") || !have_program("unshare")) {
      std::cout << "mstflint or unshare is not installed: the devices were not checked with mstflint\n";
      return;
    }
    if (const std::string problem = pci_namespace_problem(); !problem.empty()) {
      std::cout << "mstflint not run: " << problem << '\n';
      return;
    }
    // Four at a time (each is about a second of FUSE round trips); every failure is printed.
    std::string script = "printf '%s\\n'";
    for (std::size_t i = 0; i < trials; ++i) script += " " + bdf_of(i);
    script += " | xargs -P 4 -I @ sh -c 'mstflint -d @ q >/dev/null 2>\"$0.@\" || { echo \"mstflint -d @ q failed:\"; "
              "cat \"$0.@\"; exit 1; }' \"$0\"";
    const auto r = in_pci_namespace({"sh", "-c", script, (dir_ / "mstflint").string()}, 600);
    EXPECT_EQ(r.exit_code, 0) << "mstflint after the stopped burns:\n" << r.out << r.err;
  }

  static Images samples() {
    Images s{sample_image("connectx4-old"), sample_image("connectx4-new"), {}, {}};
    s.old_version = image_version(s.old_image);
    s.new_version = image_version(s.new_image);
    return s;
  }
};

// A whole burn over config space takes about a minute here (every dword is a FUSE round trip):
// its points are spread over the reading and the first 1.5 s of the writing, the same sector loop
// all the way (the last steps are the sim's and the remote trials'). mstflint checks every
// device: a VSEC semaphore left held is what makes it fail.
TEST_F(InterruptedBurnPci, ConfigSpaceReleasesTheVsecSemaphoreAndTheFlashLock) {
  Plan plan;
  plan.trials = trial_count(6);
  plan.mstflint = plan.trials;
  plan.writing_cap = Millis(1500);
  run_trials("pci config space", "pciconf-", samples(), plan);
}

// Over the BAR a flash lock left held fails the next flint q (its flash open takes the lock);
// mstflint checks two devices on top.
TEST_F(InterruptedBurnPci, BarReleasesTheFlashLock) {
  Plan plan;
  plan.trials = trial_count(4);
  plan.mstflint = 2;
  run_trials("pci BAR", "pcicr-", samples(), plan);
}

// A ConnectX-4 whose firmware takes images: the burn is the firmware's component update; a stop
// cancels it and releases the update handle, so the next burn gets it at once.
TEST_F(InterruptedBurnPci, FirmwareUpdateIsCancelledAndItsHandleReleased) {
  Images live{dir_ / "mcc-28.bin", dir_ / "mcc-29.bin", "12.28.1100", "12.29.1100"};
  write_file(live.old_image, mcc_fs3(28));
  write_file(live.new_image, mcc_fs3(29));
  Plan plan;
  plan.trials = trial_count(3);
  plan.mstflint = 0;
  plan.reburn = true;
  run_trials("pci firmware update", "", live, plan);
}

}  // namespace
}  // namespace openflint::test
