// The collection against three local hosts with simulated devices: facts, check mode, a failure
// budget that stops the rollout, the update, and a second run that changes nothing.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/ansible/AnsibleFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

constexpr const char* kOld = "2.40.5030";  // firmware-samples/connectx3 old.fwdesc
constexpr const char* kNew = "2.42.5000";

class RollingUpdate : public AnsibleFixture {
 protected:
  void SetUp() override {
    AnsibleFixture::SetUp();
    if (IsSkipped()) return;
    ASSERT_TRUE(install_collection());
    // h1 has two devices; h2 will fail during its burn (power cut) in the failure-budget run.
    make_inventory({"h1", "h2", "h3"}, {2, 1, 1});
  }

  static json tool_json(const std::string& tool, const std::vector<std::string>& args) {
    auto r = run_tool(tool, args);
    auto j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << tool << ": " << r.out << r.err;
    return j;
  }
  static json query(const std::filesystem::path& dev) {
    return tool_json("flint", {"-d", "sim:" + dev.string(), "q", "--json"});
  }
  static json show(const std::filesystem::path& dev) { return tool_json("hcasim", {"show", dev.string(), "--json"}); }
  static std::string running(const std::filesystem::path& dev) {
    const json s = show(dev);
    return s["running"]["fw_version"].is_string() ? s["running"]["fw_version"].get<std::string>() : "";
  }
  static std::uint64_t writes(const std::filesystem::path& dev) {
    const json s = show(dev);
    return s["counters"]["erases"].get<std::uint64_t>() + s["counters"]["programs"].get<std::uint64_t>();
  }

  CommandResult rollout(const std::vector<std::string>& extra) {
    std::vector<std::string> args{"-e", "openflint_image=" + sample_image("connectx3-new").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return playbook("openflint.firmware.rolling_update", args);
  }
};

TEST_F(RollingUpdate, FactsCheckModeFailureBudgetUpdateAndIdempotence) {
  if (IsSkipped() || HasFatalFailure()) return;

  // One run: the facts of every device of every host (written to files even in check mode), then
  // the rolling update in check mode. Nothing may be written to any flash.
  std::map<std::filesystem::path, std::vector<std::uint8_t>> flash_before;
  for (const auto& host : hosts_)
    for (const auto& dev : devices_of(host)) flash_before[dev] = read_file(dev / "flash.bin");
  const auto facts_playbook = std::filesystem::path(OPENFLINT_SOURCE_DIR) / "tests/ansible/playbooks/facts_then_rollout.yml";
  auto check = playbook(facts_playbook.string(), {"-e", "report_dir=" + dir_.path().string(), "-e",
                                                  "openflint_image=" + sample_image("connectx3-new").string(),
                                                  "--check", "--diff", "-e", "openflint_serial=3"});
  ASSERT_EQ(check.exit_code, 0) << check.out << check.err;

  // Facts: every device of every host, as flint itself reports it.
  for (const auto& host : hosts_) {
    std::ifstream in(dir_ / (host + ".json"));
    const json doc = json::parse(in, nullptr, false);
    ASSERT_TRUE(doc.is_object()) << host;
    EXPECT_EQ(doc.size(), devices_of(host).size()) << doc.dump(2);
    for (const auto& dev : devices_of(host)) {
      const json& f = doc["sim:" + dev.string()];
      const json q = query(dev);
      EXPECT_TRUE(f["ok"].get<bool>()) << f.dump(2);
      EXPECT_EQ(f["model"], "ConnectX-3");
      EXPECT_EQ(f["format"], "FS2");
      EXPECT_EQ(f["flash_fw_version"], kOld);
      EXPECT_EQ(f["running_fw_version"], kOld);
      EXPECT_EQ(f["psid"], q["psid"]);
      EXPECT_EQ(f["identity"]["base_guid"], q["base_guid"]) << f.dump(2);
      EXPECT_EQ(f["identity"]["vsd"], q["image_vsd"]);
    }
  }

  // Check mode: every host reports a change, the diff names old and new, no flash is touched.
  for (const auto& host : hosts_) EXPECT_EQ(recap(check.out)[host].changed, 1) << host << "\n" << check.out;
  EXPECT_NE(check.out.find(std::string("-flash: ") + kOld), std::string::npos) << check.out;
  EXPECT_NE(check.out.find(std::string("+flash: ") + kNew), std::string::npos) << check.out;
  for (const auto& [dev, bytes] : flash_before) {
    EXPECT_TRUE(read_file(dev / "flash.bin") == bytes) << dev << " was written in check mode";
    EXPECT_EQ(writes(dev), 0u) << dev;
  }

  // A failure budget of 25% with batches of two: h2's device loses power during its burn, half
  // of the first batch fails, and the rollout stops before h3.
  auto cut = run_tool("hcasim", {"fault", devices_of("h2")[0].string(), "--power-cut-after-ops", "3"});
  ASSERT_EQ(cut.exit_code, 0) << cut.err;
  auto budget = rollout({"-e", "openflint_serial=2", "-e", "openflint_max_fail_percentage=25"});
  EXPECT_NE(budget.exit_code, 0) << budget.out;
  auto stopped = recap(budget.out);
  EXPECT_EQ(stopped["h2"].failed, 1) << budget.out;
  EXPECT_EQ(stopped["h1"].failed, 0) << budget.out;
  EXPECT_EQ(stopped.count("h3"), 0u) << "h3 must not start: " << budget.out;
  for (const auto& dev : devices_of("h1")) EXPECT_EQ(running(dev), kNew) << dev;  // updated and reset
  EXPECT_EQ(running(devices_of("h3")[0]), kOld);
  EXPECT_EQ(writes(devices_of("h3")[0]), 0u) << "h3 was written";
  // h2 came back from the power cut on its old firmware (failsafe).
  const auto h2 = devices_of("h2")[0];
  ASSERT_EQ(run_tool("hcasim", {"power-on", h2.string()}).exit_code, 0);
  ASSERT_EQ(run_tool("hcasim", {"fault", h2.string(), "--power-cut-after-ops", "0"}).exit_code, 0);
  EXPECT_EQ(running(h2), kOld);

  // The update: h1 is already done (ok, not changed), the others are burned and reset; each board
  // keeps its identity (the role's post-check compares it, and so do we).
  std::map<std::filesystem::path, json> guid_before;
  for (const auto& host : hosts_)
    for (const auto& dev : devices_of(host)) guid_before[dev] = query(dev)["base_guid"];
  auto update = rollout({"-e", "openflint_serial=2", "-e", "openflint_max_fail_percentage=25"});
  ASSERT_EQ(update.exit_code, 0) << update.out << update.err;
  auto updated = recap(update.out);
  EXPECT_EQ(updated["h1"].changed, 0) << update.out;
  for (const char* host : {"h2", "h3"}) EXPECT_EQ(updated[host].changed, 1) << host << "\n" << update.out;
  for (const auto& host : hosts_) {
    EXPECT_EQ(updated[host].failed, 0) << host;
    for (const auto& dev : devices_of(host)) {
      const json q = query(dev);
      EXPECT_EQ(q["fw_version"], kNew) << dev;
      EXPECT_EQ(q["running"]["fw_version"], kNew) << dev;
      EXPECT_EQ(q["base_guid"], guid_before[dev]) << dev;
    }
  }

  // A second run finds every device on the wanted firmware: nothing changes, nothing is written.
  std::map<std::filesystem::path, std::uint64_t> writes_before;
  for (const auto& [dev, guid] : guid_before) writes_before[dev] = writes(dev);
  auto again = rollout({"-e", "openflint_serial=3"});
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  for (const auto& host : hosts_) {
    EXPECT_EQ(recap(again.out)[host].changed, 0) << host << "\n" << again.out;
    EXPECT_GT(recap(again.out)[host].ok, 0) << host;
  }
  for (const auto& [dev, count] : writes_before) EXPECT_EQ(writes(dev), count) << dev << " was written again";
}

}  // namespace
}  // namespace openflint::test
