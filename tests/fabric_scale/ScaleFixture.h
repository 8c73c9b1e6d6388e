// ScaleFixture: the largest fabric of devices today's simulator starts cheaply (a switch and five
// adapters, each with its own GUIDs), ibfwmgr runs on it (foreground, or in the background to be
// killed), its journal read back, and each node's flash asked (flint q).
#pragma once

#include <signal.h>

#include <nlohmann/json.hpp>
#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/ChildProcess.h"
#include "tests/inband/DeviceFabricFixture.h"
#include "tests/support/UpdateJournalRecords.h"

namespace openflint::test {

using nlohmann::json;

inline constexpr const char* kSwitchPsid = "MT_1780110032";
inline constexpr const char* kAdapterPsid = "MT_2190110032";
inline constexpr std::uint32_t kSwitchHwId = 0x249;
inline constexpr std::uint32_t kAdapterHwId = 0x209;

// One node of the scale fabric: its name, model, PSID, and the GUID its board carries.
struct ScaleNode {
  std::string name;
  std::string model;
  std::string psid;
  std::uint32_t hw_id;
  std::uint64_t guid;
};

inline std::vector<ScaleNode> scale_nodes() {
  std::vector<ScaleNode> nodes{{"Switch1", "spectrum", kSwitchPsid, kSwitchHwId, 0x0002c90300d10000ull}};
  for (std::size_t i = 2; i <= 6; ++i)
    nodes.push_back({SimFabric::hca(i), "connectx4", kAdapterPsid, kAdapterHwId, 0x0002c90300d10000ull + (i << 8)});
  return nodes;
}

class ScaleFixture : public DeviceFabricFixture {
 protected:
  void TearDown() override {
    if (background_) background_->signal(SIGKILL);
    background_.reset();
    DeviceFabricFixture::TearDown();
  }

  // Every node on its old image (minor 10) with its own GUIDs; the images folder holds the new
  // ones (minor 20 adapters, 30 switch). `code_bytes`: the images' code section (the burn's length).
  // `psids`: a node's PSID when not its model's (a node no good image exists for).
  void bring_up_scale(std::size_t code_bytes, const std::map<std::string, std::string>& psids = {}) {
    images_ = dir_.path() / "images";
    std::filesystem::create_directories(images_);
    std::vector<FabricDevice> devices;
    for (auto n : scale_nodes()) {
      if (psids.count(n.name) != 0) n.psid = psids.at(n.name);
      const auto old = dir_.path() / (n.name + "-old.bin");
      write_file(old, small_fs3_image(10, n.psid, n.hw_id, code_bytes, n.guid));
      devices.push_back({n.name, n.model, old});
    }
    write_file(images_ / "adapter-new.bin", small_fs3_image(20, kAdapterPsid, kAdapterHwId, code_bytes));
    write_file(images_ / "switch-new.bin", small_fs3_image(30, kSwitchPsid, kSwitchHwId, code_bytes));
    bring_up(devices);
  }

  std::vector<std::string> ibfwmgr_argv(std::vector<std::string> args) {
    std::vector<std::string> argv{bin("ibfwmgr").string(), "update", "--images", images_.string(), "-y", "--json",
                                  "--journal", journal().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }

  json update(std::vector<std::string> args, int expected_rc) {
    const auto r = run(ibfwmgr_argv(std::move(args)));
    EXPECT_EQ(r.exit_code, expected_rc) << r.out << r.err;
    auto j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
    last_err_ = r.err;
    return j;
  }

  // Starts ibfwmgr update in the background and SIGKILLs it once its journal holds `count`
  // records of `state` (counted over the whole journal), `delay` later.
  void kill_update_when(const std::string& state, std::size_t count, std::chrono::milliseconds delay,
                        std::vector<std::string> args) {
    auto child = ChildProcess::spawn(SpawnSpec{ibfwmgr_argv(std::move(args)), fabric_->client_env(SimFabric::hca(1)),
                                               fabric_->dir(), dir_.path() / "background.out", {}});
    ASSERT_TRUE(child) << child.error().message();
    background_ = std::make_unique<ChildProcess>(std::move(*child));
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    while (states_in_journal(state) < count) {
      ASSERT_TRUE(background_->running()) << "ibfwmgr ended before its journal held " << count << " '" << state
                                          << "': " << read_text(dir_.path() / "background.out");
      ASSERT_LT(std::chrono::steady_clock::now(), give_up) << "no " << count << " '" << state << "' in the journal";
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::this_thread::sleep_for(delay);
    const pid_t pid = background_->pid();
    background_->signal(SIGKILL);
    EXPECT_TRUE(background_->wait_for(std::chrono::seconds(10)).has_value());
    background_.reset();
    std::error_code ec;  // the preload's dir of a client killed by a signal
    std::filesystem::remove_all(fabric_->dir() / ("sys-" + std::to_string(pid)), ec);
  }

  std::filesystem::path journal() const { return dir_.path() / "update.journal"; }

  // The journal's records as (GUID, state) in order, and how many carry `state`.
  std::vector<std::pair<std::string, std::string>> journal_records() const { return test::journal_records(journal()); }
  std::size_t states_in_journal(const std::string& state) const { return journal_states(journal(), state); }

  static std::string guid_of(const json& node) { return node["guid"].get<std::string>(); }

  std::filesystem::path images_;
  std::unique_ptr<ChildProcess> background_;
  std::string last_err_;
};

}  // namespace openflint::test
