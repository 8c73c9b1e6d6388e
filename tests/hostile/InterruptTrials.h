// InterruptTrials: a burn started in the background and stopped by a signal at a chosen moment, and
// what it must leave behind: exit 128 + signal with one line (or, past its last safe point, a
// completed burn), a device the next tool opens at once, booting the old or the new image.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "sim/SimDevice.h"
#include "core/ChildProcess.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

using Millis = std::chrono::milliseconds;

// A moment of a burn seen from outside: the device's lock taken, a line in the burn's --log.
using Probe = std::function<bool()>;

// One stop: `signal` (0: none) `after` the moment `from` first holds (empty: the start);
// optionally the same signal again `second_after` the first (it lands in the cleanup).
struct Interruption {
  int signal = SIGINT;
  Millis after{0};
  std::optional<Millis> second_after;
  Probe from;
};

struct TrialResult {
  int status = -999;  // exit code, or -signal
  std::string out, err;
  bool sent = false;  // the signal went out while the tool still ran
  // Stopped at a safe point: exit 128 + signal and its "-E-" line. (A SIGPIPE after the last safe
  // point exits 141 too, without a word: the burn completed, only its output was lost.)
  [[nodiscard]] bool stopped(int sig) const { return status == 128 + sig && err.find("-E- ") != std::string::npos; }
};

// Whether /proc/locks lists a lock on `file`, whoever holds it.
inline bool lock_held(const std::filesystem::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return false;
  char id[64];
  std::snprintf(id, sizeof id, " %02x:%02x:%llu ", ::major(st.st_dev), ::minor(st.st_dev),
                static_cast<unsigned long long>(st.st_ino));
  std::ifstream locks("/proc/locks");
  for (std::string line; std::getline(locks, line);)
    if ((line + " ").find(id) != std::string::npos) return true;
  return false;
}

// Whether the file holds `text` (a burn's --log: "burning FW" when it starts writing, "done:" at its end).
inline Probe file_says(const std::filesystem::path& file, const std::string& text) {
  return [file, text] {
    const std::string all = read_text(file);
    return all.find(text) != std::string::npos;
  };
}

inline std::string name_of(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGPIPE: return "SIGPIPE";
    default: return "signal " + std::to_string(sig);
  }
}

// The non-empty lines of `text`.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// Waits until `probe` holds or the child ends (30 s at most); the moment it was seen.
inline std::chrono::steady_clock::time_point wait_until(ChildProcess& child, const Probe& probe) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  if (probe)
    while (!probe() && child.running() && std::chrono::steady_clock::now() < give_up) std::this_thread::sleep_for(Millis(1));
  return std::chrono::steady_clock::now();
}

// Runs argv in the background (stdout/stderr in files under `dir`), stops it as `when` says and
// waits for it (a tool still running 120 s later is killed and fails the trial).
inline TrialResult run_interrupted(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                                   const std::filesystem::path& dir, const Interruption& when) {
  TrialResult r;
  // The tool gets the signal's default action to start from (a test run from a background shell
  // or under nohup would pass SIGINT or SIGHUP on ignored, and an ignored signal stays ignored).
  struct sigaction inherited {}, dfl {};
  dfl.sa_handler = SIG_DFL;
  const int sig = when.signal != 0 ? when.signal : SIGINT;
  ::sigaction(sig, &dfl, &inherited);
  ChildProcess child(background_tool(argv, env, dir / "trial.out", dir / "trial.err"));
  ::sigaction(sig, &inherited, nullptr);
  EXPECT_GT(child.pid(), 0) << "cannot start " << argv.front();
  if (child.pid() <= 0) return r;
  const auto until = [&](std::chrono::steady_clock::time_point t) {
    while (std::chrono::steady_clock::now() < t && child.running()) std::this_thread::sleep_for(Millis(1));
  };
  until(wait_until(child, when.from) + when.after);
  if (when.signal != 0 && child.running()) {
    child.signal(when.signal);
    r.sent = true;
    if (when.second_after) {
      until(std::chrono::steady_clock::now() + *when.second_after);
      child.signal(when.signal);
    }
  }
  auto status = child.wait_for(std::chrono::seconds(120));
  if (!status) {
    ADD_FAILURE() << argv.front() << " still ran 120 s after " << name_of(when.signal) << "; killed";
    child.signal(SIGKILL);
    status = child.wait_for(std::chrono::seconds(10));
  }
  r.status = status.value_or(-999);
  r.out = child.out();
  r.err = child.err();
  return r;
}

// The contract of a stopped burn: exit 128 + signal and exactly one stderr line, an "-E-" naming
// the signal and saying the device was left usable; or exit 0 when the signal came after the
// last safe point (then at most one "-W-" line saying so; SIGPIPE: 141 and no line). A death by the signal itself is
// accepted only where the tool had already let the device go (its burn complete: the caller
// then expects the new image).
inline void expect_stopped_or_completed(const TrialResult& r, int sig, const std::string& what) {
  const auto lines = lines_of(r.err);
  if (r.stopped(sig)) {
    ASSERT_EQ(lines.size(), 1u) << what << ": one line expected on stderr:\n" << r.err;
    EXPECT_EQ(lines[0].rfind("-E- ", 0), 0u) << what << ": " << lines[0];
    EXPECT_NE(lines[0].find("interrupted by " + name_of(sig)), std::string::npos) << what << ": " << lines[0];
    EXPECT_NE(lines[0].find("the device was left usable"), std::string::npos) << what << ": " << lines[0];
    return;
  }
  if (sig == SIGPIPE && r.status == 128 + SIGPIPE && lines.empty()) return;  // completed, output lost
  if (r.status == -sig) {
    std::cout << what << ": ended by " << name_of(sig) << " itself after releasing the device\n";
    return;
  }
  ASSERT_EQ(r.status, 0) << what << ": neither exit " << 128 + sig << " (" << name_of(sig)
                         << " at a safe point) nor a completed burn:\n" << r.out << r.err;
  EXPECT_LE(lines.size(), 1u) << what << ":\n" << r.err;
  for (const auto& l : lines) EXPECT_EQ(l.rfind("-W- ", 0), 0u) << what << ": " << l;
}

// The value of a "Name:   value" line of flint's query output.
inline std::string field_of(const std::string& out, const std::string& name) {
  std::smatch m;
  const std::regex line("(^|\n)" + std::regex_replace(name, std::regex(R"([()])"), R"(\$&)") + ":\\s+([^\n]*)");
  return std::regex_search(out, m, line) ? m[2].str() : std::string();
}

// The FW version a saved simulated device runs after a reset (its boot ROM over the flash): what
// it boots. Empty in recovery (no bootable copy).
inline std::string boots_after_reset(const std::filesystem::path& sim_dir) {
  auto device = sim::SimDevice::load_state(sim_dir);
  EXPECT_TRUE(device) << device.error().message();
  if (!device) return {};
  const sim::BootState& boot = (*device)->reset();
  return !boot.recovery && boot.running && boot.running->fw_version ? boot.running->fw_version->to_string() : "";
}

// A burn's two phases, measured on an uninterrupted one: reading and comparing (from `held`, the
// device taken, to "burning FW" in its --log `log`) and writing (to "done:" in it). A writing
// longer than `cap` is not waited for: the burn is stopped there (SIGTERM) and `cap` reported.
struct BurnPhases {
  double reading = 0, writing = 0;
};

inline BurnPhases measure_phases(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                                 const std::filesystem::path& dir, const Probe& held, const std::filesystem::path& log,
                                 Millis cap = Millis(60000)) {
  ChildProcess child(background_tool(argv, env, dir / "measure.out", dir / "measure.err"));
  EXPECT_GT(child.pid(), 0);
  const auto taken = wait_until(child, held);
  const bool seen = child.running();  // else the moments below are all "after the end"
  const auto writing = wait_until(child, file_says(log, "burning FW"));
  const Probe done = file_says(log, "done:");
  // Not seen (once, on a heavily loaded machine): the points then all fall at the phases' starts,
  // which still stops the burn while it writes; said so rather than failed.
  if (!seen) std::cout << "note: the measured burn ended before the test saw it take the device\n";
  while (!done() && child.running() && std::chrono::steady_clock::now() < writing + cap) std::this_thread::sleep_for(Millis(1));
  const auto end = std::chrono::steady_clock::now();
  const bool capped = !done() && child.running();
  if (capped) child.signal(SIGTERM);
  const auto status = child.wait_for(std::chrono::seconds(120));
  EXPECT_EQ(status.value_or(-999), capped ? 128 + SIGTERM : 0) << child.out() << child.err();
  return {std::chrono::duration<double>(writing - taken).count(), std::chrono::duration<double>(end - writing).count()};
}

// How many trials a transport gets: OPENFLINT_INTERRUPT_TRIALS when set (e.g. 10 for a thorough
// run), else `usual` — every trial is a burn and more, and CI time is short.
inline std::size_t trial_count(std::size_t usual) {
  const char* env = std::getenv("OPENFLINT_INTERRUPT_TRIALS");
  const long n = env != nullptr ? std::atol(env) : 0;
  return n > 0 ? static_cast<std::size_t>(n) : usual;
}

// Of n trials, how many stop the reading and comparing (the rest stop the writing).
inline std::size_t reading_points(std::size_t n) { return n >= 6 ? 2 : n >= 4 ? 1 : 0; }

// n stops spread over a burn of `phases` (the points, from the moments of `held` and of `log`'s
// "burning FW"): reading_points(n) in the reading phase, the rest over the writing, each a
// signal in turn (SIGINT, SIGTERM, SIGHUP).
inline std::vector<Interruption> spread_over(std::size_t n, const BurnPhases& phases, const Probe& held,
                                             const std::filesystem::path& log) {
  const auto ms = [](double seconds) { return Millis(static_cast<long>(1000.0 * seconds)); };
  std::vector<Interruption> out;
  const std::size_t reading = reading_points(n);
  for (std::size_t i = 0; i < reading; ++i)
    out.push_back({SIGINT, ms(phases.reading * (static_cast<double>(i) + 1.0) / static_cast<double>(reading + 1)),
                   std::nullopt, held});
  for (std::size_t i = 0; i + reading < n; ++i)
    out.push_back({SIGINT, ms(phases.writing * (static_cast<double>(i) + 0.5) / static_cast<double>(n - reading)),
                   std::nullopt, file_says(log, "burning FW")});
  constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
  for (std::size_t i = 0; i < out.size(); ++i) out[i].signal = kSignals[i % 3];
  return out;
}

// "trial 3, SIGINT 40 ms into the writing" for a trial's messages.
inline std::string describe(const Interruption& when, std::size_t i, bool writing) {
  return "trial " + std::to_string(i) + ", " + name_of(when.signal) + " " + std::to_string(when.after.count()) +
         " ms into the " + (writing ? "writing" : "reading") + (when.second_after ? ", twice" : "");
}

// Where a test's time went: "serving 11 devices 1.2 s, the trials 20.5 s, ..."
class Stopwatch {
 public:
  void lap(const std::string& what) {
    const auto now = std::chrono::steady_clock::now();
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, " %.1f s", std::chrono::duration<double>(now - last_).count());
    text_ += (text_.empty() ? "" : ", ") + what + seconds;
    last_ = now;
  }
  [[nodiscard]] const std::string& text() const { return text_; }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::string text_;
};

// Per signal: how many trials stopped at a safe point and how many had completed; and how many
// stopped while writing (the case that matters most: a device half burned).
struct Tally {
  std::size_t stopped[65] = {};
  std::size_t completed[65] = {};
  std::size_t stopped_writing = 0;
  void count(const TrialResult& r, int sig, bool writing) {
    (r.stopped(sig) ? stopped : completed)[sig]++;
    if (writing && r.stopped(sig)) ++stopped_writing;
  }
  [[nodiscard]] std::string text() const {
    std::string t;
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
      if (stopped[sig] + completed[sig] > 0)
        t += name_of(sig) + ": " + std::to_string(stopped[sig]) + " stopped, " + std::to_string(completed[sig]) +
             " completed; ";
    return t + std::to_string(stopped_writing) + " stopped while writing";
  }
};

}  // namespace openflint::test
