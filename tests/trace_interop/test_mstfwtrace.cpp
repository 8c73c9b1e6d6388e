// The unmodified Debian mstfwtrace against a simulated ConnectX-4 served as a PCI function with a
// simulated mlx5_core bound: both it and `mst trace` read the firmware's messages the driver wrote
// into the served tracefs, for the same firmware activity (a configuration change, a burn through
// the component update, a reset), and print the same ones; mstfwtrace's -m/-l reach the
// simulated firmware (ICMD SET_ITRACE). mstfwtrace runs in a mount namespace where the served
// tree is /sys/bus/pci and the served tracefs is /sys/kernel/debug/tracing.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/pci_cli/PciServeFixture.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

struct Message {
  std::uint64_t timestamp = 0;
  int lost = 0;
  unsigned event_id = 0;
  std::string text;
  friend bool operator==(const Message&, const Message&) = default;
};

std::ostream& operator<<(std::ostream& os, const Message& m) {
  return os << "[0x" << std::hex << m.timestamp << "] " << std::dec << m.lost << " [0x" << std::hex << m.event_id << std::dec
            << "] " << m.text;
}

// mstfwtrace's event lines: "[0x<ts>] <lost> [0x<event_id>] <message>".
std::vector<Message> parse_mstfwtrace(const std::string& out) {
  std::vector<Message> messages;
  const std::regex line(R"(^\[0x([0-9a-f]+)\] ([01]) \[0x([0-9a-f]+)\] (.*)$)");
  std::istringstream in(out);
  std::string text;
  std::smatch m;
  while (std::getline(in, text))
    if (std::regex_match(text, m, line))
      messages.push_back({std::stoull(m[1], nullptr, 16), std::stoi(m[2]), static_cast<unsigned>(std::stoul(m[3], nullptr, 16)), m[4]});
  return messages;
}

class MstfwtraceInterop : public PciServeFixture {
 protected:
  void SetUp() override {
    for (const char* tool : {"mstfwtrace", "unshare", "mount", "timeout"})
      if (!have_program(tool)) GTEST_SKIP() << tool << " is not installed; mstfwtrace interop not checked";
    if (::geteuid() != 0) GTEST_SKIP() << "not root: cannot mount over /sys in a mount namespace";
  }

  // The ConnectX-4 sample `version` (old, new) built with the component update (IMAGE_INFO
  // mcc_en), so its firmware takes burns itself: fwburn from the sample's description.
  fs::path mcc_image(const std::string& version) const {
    const fs::path src = fs::path(OPENFLINT_SOURCE_DIR) / "firmware-samples" / "connectx4";
    std::ifstream in(src / (version + ".fwdesc"));
    std::ostringstream desc;
    std::string line;
    while (std::getline(in, line)) {
      desc << line << '\n';
      if (line.rfind("format = ", 0) == 0) desc << "component_update = yes\n";
    }
    const fs::path fwdesc = dir_ / ("mcc-" + version + ".fwdesc"), out = dir_ / ("mcc-" + version + ".bin");
    std::ofstream(fwdesc) << desc.str();
    const auto r = run_tool("fwburn", {"-fw", fwdesc.string(), "-conf", (src / (version + ".ini")).string(), "-wrimage", out.string()});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return out;
  }

  bool start() {
    const auto dev = create_device("dev", "connectx4", mcc_image("old"));
    if (!serve({dev}, {"--driver", "mlx5_core", "--tracefs", tracefs_.string()})) return false;
    const std::string problem = pci_namespace_problem();
    if (!problem.empty()) {
      ADD_FAILURE() << problem;
      return false;
    }
    return true;
  }

  std::vector<std::string> env() const {
    auto e = tool_env();
    e.push_back("OPENFLINT_TRACEFS_ROOT=" + tracefs_.string());
    return e;
  }
  CommandResult tool(const std::string& name, std::vector<std::string> args) const {
    args.insert(args.begin(), bin(name).string());
    return run_command(args, env());
  }

  // mstfwtrace ARGS for `seconds`, then SIGINT (its Ctrl-C: "Interrupted, exiting ...", exit 0),
  // in a namespace with the served sysfs and tracefs where a host has them.
  CommandResult mstfwtrace(const std::vector<std::string>& args, int seconds) const {
    fs::create_directories(dir_ / "mstflint_lockfiles");
    std::vector<std::string> cmd{
        "unshare", "-m", "--fork", "sh", "-c",
        "mount --bind \"$0\" /sys/bus/pci || exit 97; mkdir -p /tmp/mstflint_lockfiles && "
        "mount --bind \"$1\" /tmp/mstflint_lockfiles || exit 98; mount -t tmpfs none /sys/kernel/debug || exit 96; "
        "mkdir /sys/kernel/debug/tracing && mount --bind \"$2\" /sys/kernel/debug/tracing || exit 95; "
        "shift 2; exec \"$@\"",
        sysfs_.string(), (dir_ / "mstflint_lockfiles").string(), tracefs_.string(), "timeout", "--foreground", "--preserve-status", "-s", "INT",
        std::to_string(seconds), "mstfwtrace", "-d", "0000:03:00.0"};
    cmd.insert(cmd.end(), args.begin(), args.end());
    return run_command(cmd);
  }

  // mstfwtrace stopped by our SIGINT through its own handler ("Interrupted, exiting ...", exit 0).
  // Python may still end by the signal (130) when the interpreter is already shutting down as the
  // signal lands (seen once in CI): the handler's line says it stopped cleanly either way.
  static void expect_clean_stop(const CommandResult& run) {
    EXPECT_NE(run.out.find("Interrupted, exiting ..."), std::string::npos) << run.out << run.err;
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 130) << run.exit_code << ": " << run.out << run.err;
  }

  // `mst trace 03:00.0 --json`: one JSON object per message.
  std::vector<Message> ours() const {
    const auto r = tool("mst", {"trace", "03:00.0", "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    std::vector<Message> messages;
    std::istringstream in(r.out);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.contains("message")) continue;
      Message m;
      m.timestamp = j["timestamp"].is_string() ? std::stoull(j["timestamp"].get<std::string>(), nullptr, 16)
                                               : j["timestamp"].get<std::uint64_t>();
      m.lost = j["lost"].get<bool>() ? 1 : 0;
      m.event_id = j["event_id"].is_string() ? static_cast<unsigned>(std::stoul(j["event_id"].get<std::string>(), nullptr, 16))
                                             : j["event_id"].get<unsigned>();
      m.text = j["message"].get<std::string>();
      messages.push_back(m);
    }
    return messages;
  }

  // Waits until the served trace file stops growing (the driver polls every 100 ms).
  void settle() const {
    std::uintmax_t last = 0;
    for (int quiet = 0, i = 0; quiet < 4 && i < 100; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      std::error_code ec;
      const auto size = fs::file_size(tracefs_ / "trace", ec);
      quiet = size == last ? quiet + 1 : 0;
      last = size;
    }
  }

  static std::string all(const std::vector<Message>& messages) {
    std::ostringstream out;
    for (const auto& m : messages) out << m << '\n';
    return out.str();
  }
  static bool has(const std::vector<Message>& messages, const std::string& pattern) {
    const std::regex re(pattern, std::regex::icase);
    for (const auto& m : messages)
      if (std::regex_search(m.text, re)) return true;
    return false;
  }

  fs::path tracefs_ = dir_ / "tracing";
};

TEST_F(MstfwtraceInterop, SameMessagesForTheSameFirmwareActivity) {
  if (!start()) return;
  // Firmware activity: an NV configuration change, a burn handed to the firmware, a reset.
  auto r = tool("mst", {"config", "03:00.0", "set", "SRIOV_EN=1", "-y"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = tool("flint", {"-d", "03:00.0", "-i", mcc_image("new").string(), "-y", "b"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  settle();
  const auto before_reset = ours();
  r = tool("mst", {"reset", "03:00.0", "-y", "--unbind"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  settle();

  const auto mine = ours();
  ASSERT_GE(mine.size(), before_reset.size());
  EXPECT_TRUE(has(mine, "nv config")) << "no configuration message:\n" << all(mine);
  EXPECT_TRUE(has(mine, "component update")) << "no component-update message:\n" << all(mine);
  EXPECT_TRUE(has(mine, "reset")) << "no reset message:\n" << all(mine);
  for (std::size_t i = 1; i < mine.size(); ++i) EXPECT_GT(mine[i].timestamp, mine[i - 1].timestamp) << mine[i];

  const auto run = mstfwtrace({}, 4);
  expect_clean_stop(run);
  EXPECT_NE(run.out.find("Read old events"), std::string::npos) << run.out << run.err;
  EXPECT_EQ(run.out.find("-E-"), std::string::npos) << run.out << run.err;
  const auto theirs = parse_mstfwtrace(run.out);
  ASSERT_EQ(theirs.size(), mine.size()) << run.out;
  for (std::size_t i = 0; i < mine.size(); ++i) EXPECT_EQ(theirs[i], mine[i]) << "message " << i;
}

TEST_F(MstfwtraceInterop, ItsMaskReachesTheFirmware) {
  if (!start()) return;
  settle();
  // FLASH + CMD_IF at level 0 (DEBUG): ICMD 0xF003 from mstflint's cmdif to the simulated firmware.
  const auto run = mstfwtrace({"-m", "FLASH+CMD_IF", "-l", "0"}, 3);
  expect_clean_stop(run);
  EXPECT_EQ(run.out.find("-E-"), std::string::npos) << run.out << run.err;
  settle();
  const auto mine = ours();
  EXPECT_TRUE(has(mine, "0x800020")) << "the firmware did not trace the new mask 0x800020:\n" << all(mine);
}

}  // namespace
}  // namespace openflint::test
