// InterruptedBurn: start a remote `flint burn` as a child, find when it is part-way, and check a device afterwards
// (unlocked, bootable, burnable again) — shared by the TCP and the ssh interrupted-burn tests.
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/ChildProcess.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

inline constexpr const char* kOldVersion = "2.40.5030";
inline constexpr const char* kNewVersion = "2.42.5000";

inline std::string file_text(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return {};
  const auto bytes = read_file(path);
  return {bytes.begin(), bytes.end()};
}

// Waits up to `timeout` until `path` holds `text` `count` times.
inline bool wait_for_text(const std::filesystem::path& path, const std::string& text, std::chrono::milliseconds timeout,
                          int count = 1) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const std::string now = file_text(path);
    int seen = 0;
    for (std::size_t at = now.find(text); at != std::string::npos; at = now.find(text, at + 1)) ++seen;
    if (seen >= count) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// `flint -d NAME -i connectx3-new.bin -y burn` in the background, output in DIR/TAG.out/.err.
inline std::unique_ptr<ChildProcess> start_burn(const std::filesystem::path& dir, const std::string& tag,
                                                const std::string& name, const std::vector<std::string>& env) {
  return std::make_unique<ChildProcess>(background_tool(
      std::vector<std::string>{bin("flint").string(), "-d", name, "-i", sample_image("connectx3-new").string(), "-y",
                               "burn"},
      env, dir / (tag + ".out"), dir / (tag + ".err")));
}

// The audit line a server writes when the session's first write reaches `device` (a burn starts
// writing the flash gateway at once, so "part-way" is timed from here).
inline std::string first_write_line(const std::string& device) { return "W " + device + " "; }

// How long a whole burn of `name` takes after its first write: a calibration run on a copy of the
// device, so the kill below lands part-way on a fast and on a slow machine alike.
inline std::chrono::milliseconds measure_burn(const std::filesystem::path& dir, const std::string& name,
                                              const std::string& device, const std::filesystem::path& audit,
                                              const std::vector<std::string>& env) {
  auto probe = start_burn(dir, "probe", name, env);
  EXPECT_TRUE(wait_for_text(audit, first_write_line(device), std::chrono::seconds(60))) << file_text(audit);
  const auto start = std::chrono::steady_clock::now();
  const auto status = probe->wait_for(std::chrono::seconds(180));
  EXPECT_EQ(status, std::optional<int>(0)) << probe->err();
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
}

struct DeviceState {
  bool ok = false;
  std::string running_version;  // what the simulated boot ROM started at power-on
};

// The device after an interruption: a local query succeeds at once (no lock left: busy would be
// exit 5 after --lock-timeout), and a power cycle boots an image (old or new), not recovery.
inline DeviceState expect_unlocked_and_bootable(const std::filesystem::path& device_dir) {
  DeviceState state;
  const auto q = run_tool("flint", {"-d", "sim:" + device_dir.string(), "--lock-timeout", "0", "q"});
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(q.err.find("busy"), std::string::npos) << q.err;
  const auto on = run_tool("hcasim", {"power-on", device_dir.string()});
  EXPECT_EQ(on.exit_code, 0) << on.out << on.err;
  const auto show = run_tool("hcasim", {"show", device_dir.string(), "--json"});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  const auto running = nlohmann::json::parse(show.out, nullptr, false)["running"];
  EXPECT_FALSE(running.value("recovery", true)) << "bricked: " << show.out;
  state.running_version = running.value("fw_version", "");
  EXPECT_TRUE(state.running_version == kOldVersion || state.running_version == kNewVersion) << show.out;
  state.ok = q.exit_code == 0 && !running.value("recovery", true);
  return state;
}

}  // namespace openflint::test
