// mst trace as a user runs it: refusals (usage, no tracer, no driver, the tracepoint missing or
// off), the driver's lines for one device from a fake tracefs (text, --json, --follow and its
// SIGINT), the string DB and the trace mask on sim: devices and over PCI (hcasim pci-serve).
// The tests that reach the firmware's tracer need the simulated tracer (MCAM bits, MTRC_*, ICMD
// SET_ITRACE): see docs/trace.md.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/ChildProcess.h"
#include "fwops/Device.h"
#include "fwops/trace/FirmwareTracer.h"
#include "tests/pci_cli/PciServeFixture.h"
#include "tests/support/ResultMatchers.h"

namespace openflint::test {
namespace {

constexpr const char* kTraceLines =
    "# tracer: nop\n"
    "   kworker/0:1-42    [000] d..1  100.000001: mlx5_fw: 0000:03:00.0 [0x100] 0 [0x2c] first\n"
    "   kworker/0:1-42    [000] d..1  100.000002: mlx5_fw: 0000:04:00.0 [0x200] 0 [0x2c] another function\n"
    "   kworker/0:1-42    [000] d..1  100.000003: mlx5_fw: 0000:03:00.0 [0x100] 0 [0x2c] repeated\n"
    "   kworker/0:1-42    [000] d..1  100.000004: mlx5_fw: 0000:03:00.0 [0xff] 0 [0x2c] older\n"
    "   kworker/0:1-42    [000] d..1  100.000005: mlx5_fw: 0000:03:00.0 [0x1f00] 1 [0x2d] lost before \"this\"\n"
    "   kworker/0:1-42    [000] d..1  100.000006: mlx5_fw: 0000:03:00.0 garbage\n"
    "   kworker/0:1-42    [000] d..1  100.000007: fw_tracer: 0000:03:00.0 [0x2000] 0 [0x2e] OFED name\n";

constexpr const char* kExpectedText =
    "[0x100] 0 [0x2c] first\n"
    "[0x1f00] 1 [0x2d] lost before \"this\"\n"
    "[0x2000] 0 [0x2e] OFED name\n";

class TraceCli : public PciServeFixture {
 protected:
  // A tracefs tree with the driver's event (enabled or not) and the trace file.
  void make_tracefs(bool with_event = true, const char* enable = "1\n") {
    std::filesystem::create_directories(tracefs_);
    std::ofstream(tracefs_ / "trace") << kTraceLines;
    if (!with_event) return;
    std::filesystem::create_directories(tracefs_ / "events/mlx5/mlx5_fw");
    std::ofstream(tracefs_ / "events/mlx5/mlx5_fw/enable") << enable;
  }
  std::vector<std::string> env() const {
    auto e = tool_env();
    e.push_back("OPENFLINT_TRACEFS_ROOT=" + tracefs_.string());
    return e;
  }
  CommandResult mst(std::vector<std::string> args) const {
    args.insert(args.begin(), {bin("mst").string(), "trace"});
    return run_command(args, env());
  }
  // A served ConnectX-4 with the simulated mlx5_core bound (or none); false when the test cannot go on.
  bool serve_cx4(bool driver = true) {
    const auto dev = create_device("cx4", "connectx4", sample_image("connectx4-old"));
    std::vector<std::string> extra{"--bdf", "0000:03:00.0"};
    if (driver) extra.insert(extra.end(), {"--driver", "mlx5_core"});
    return serve({dev}, extra);
  }
  std::filesystem::path tracefs_ = dir_ / "tracing";
};

TEST_F(TraceCli, UsageRefusalsComeFirst) {
  const auto r = mst({"sim:/nonexistent", "--mask", "FLASH"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--mask and --level go together"), std::string::npos) << r.err;
  const auto s = mst({"sim:/nonexistent", "--strings", "--follow"});
  EXPECT_EQ(s.exit_code, 2) << s.err;
  EXPECT_NE(s.err.find("--strings reads the string DB only"), std::string::npos) << s.err;
  const auto h = run_command({bin("mst").string(), "trace", "--help"});
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_NE(h.out.find("--follow"), std::string::npos);
  EXPECT_NE(h.out.find("Refusals:"), std::string::npos);
}

TEST_F(TraceCli, FamiliesWithoutTracerAndBadClassesAreRefused) {
  const auto cx3 = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  const auto r = mst({"sim:" + cx3.string()});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_NE(r.err.find("(ConnectX-3): this family has no firmware tracer"), std::string::npos) << r.err;
  const auto j = mst({"sim:" + cx3.string(), "--json"});
  EXPECT_EQ(j.exit_code, 6);
  EXPECT_EQ(nlohmann::json::parse(j.out)["error"]["code"], "not supported") << j.out;

  const auto cx4 = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  const auto bad = mst({"sim:" + cx4.string(), "--mask", "FLASH+NO_SUCH_CLASS", "--level", "1"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("NO_SUCH_CLASS"), std::string::npos) << bad.err;
  const auto level = mst({"sim:" + cx4.string(), "--mask", "FLASH", "--level", "LOUD"});
  EXPECT_EQ(level.exit_code, 2) << level.err;
  EXPECT_NE(level.err.find("--level"), std::string::npos) << level.err;
}

// Needs the simulated tracer (MTRC_CAP, MTRC_STDB).
TEST_F(TraceCli, SimDeviceHasNoDriverButItsStringsRead) {
  const auto cx4 = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  const auto r = mst({"sim:" + cx4.string()});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_NE(r.err.find("not reached over PCI"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no driver reads this device's tracer"), std::string::npos) << r.err;
  const auto s = mst({"sim:" + cx4.string(), "--strings"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(s.out.rfind("section 0: base 0x", 0), 0u) << s.out;
  EXPECT_NE(s.out.find("\n  0x"), std::string::npos) << s.out;
  const auto j = mst({"sim:" + cx4.string(), "--strings", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  ASSERT_FALSE(doc["sections"].empty());
  ASSERT_FALSE(doc["sections"][0]["strings"].empty()) << j.out;
  EXPECT_GT(doc["sections"][0]["strings"][0]["pointer"].get<std::uint32_t>(), doc["sections"][0]["base_address"].get<std::uint32_t>());
}

// Through a bus server (mst server): the string DB reads over its register channel (G) exactly as
// locally, and reading the messages is refused as for any device that is not a PCI function here.
TEST_F(TraceCli, StringsReadThroughABusServer) {
  const auto cx4 = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  ChildProcess server(background_tool({bin("mst").string(), "server", "--port", "0", "sim:" + cx4.string()}, {},
                                      dir_ / "server.out", dir_ / "server.err"));
  const std::regex ready("-I- serving 1 device\\(s\\) on 127\\.0\\.0\\.1:([0-9]+)");
  std::string port;
  for (int i = 0; i < 1000 && server.running() && port.empty(); ++i) {
    std::smatch m;
    const std::string err = server.err();
    if (std::regex_search(err, m, ready)) port = m[1].str();
    else std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_FALSE(port.empty()) << "mst server did not come up: " << server.err();
  std::string served = "sim:" + cx4.string();  // "/" in the served name is written "@" (mtcr/remote/RemoteDeviceName.h)
  std::replace(served.begin(), served.end(), '/', '@');
  const std::string remote = "127.0.0.1:" + port + "," + served;

  const auto local = mst({"sim:" + cx4.string(), "--strings"});
  ASSERT_EQ(local.exit_code, 0) << local.err;
  const auto s = mst({remote, "--strings"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(s.out, local.out);
  const auto r = mst({remote});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_NE(r.err.find("not reached over PCI"), std::string::npos) << r.err;
  server.signal(SIGTERM);
  EXPECT_TRUE(server.wait_for(std::chrono::seconds(10)).has_value()) << "mst server did not stop";
}

// Needs the simulated firmware's SET_ITRACE (ICMD 0xF003).
TEST_F(TraceCli, TheMaskIsSetThroughTheSimulatedFirmware) {
  const auto cx4 = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  auto device = open_device("sim:" + cx4.string());
  ASSERT_THAT(device, IsOk());
  auto tracer = FirmwareTracer::open(*device);
  ASSERT_THAT(tracer, IsOk());
  EXPECT_TRUE(tracer->host_memory_mode());
  EXPECT_THAT(tracer->set_trace_mask(0x00800020, 1), IsOk());
  EXPECT_THAT(tracer->probe_owner(), IsOk());
}

// The rest need the simulated tracer over PCI (hcasim pci-serve).
TEST_F(TraceCli, PrintsTheDevicesMessagesAsTextAndJson) {
  make_tracefs();
  if (!serve_cx4()) return;
  const auto r = mst({"03:00.0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kExpectedText);
  const auto j = mst({"03:00.0", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(j.out,
            "{\"event_id\":44,\"lost\":false,\"message\":\"first\",\"timestamp\":256}\n"
            "{\"event_id\":45,\"lost\":true,\"message\":\"lost before \\\"this\\\"\",\"timestamp\":7936}\n"
            "{\"event_id\":46,\"lost\":false,\"message\":\"OFED name\",\"timestamp\":8192}\n");
}

TEST_F(TraceCli, FollowPrintsLaterLinesAndEndsCleanlyOnSigint) {
  make_tracefs();
  if (!serve_cx4()) return;
  ChildProcess follower(background_tool({bin("mst").string(), "trace", "03:00.0", "--follow"}, env(), dir_ / "follow.out",
                                         dir_ / "follow.err"));
  ASSERT_GT(follower.pid(), 0);
  auto wait_for_text = [&](const std::string& text) {
    for (int i = 0; i < 300 && follower.out().find(text) == std::string::npos; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return follower.out().find(text) != std::string::npos;
  };
  ASSERT_TRUE(wait_for_text("OFED name")) << follower.out() << follower.err();
  std::ofstream(tracefs_ / "trace", std::ios::app)
      << "   kworker/0:1-42    [000] d..1  101.0: mlx5_fw: 0000:03:00.0 [0x3000] 0 [0x2c] later\n";
  ASSERT_TRUE(wait_for_text("[0x3000] 0 [0x2c] later\n")) << follower.out() << follower.err();
  follower.signal(SIGINT);
  EXPECT_EQ(follower.wait_for(std::chrono::seconds(10)).value_or(-999), 0) << follower.err();
  EXPECT_EQ(follower.out(), std::string(kExpectedText) + "[0x3000] 0 [0x2c] later\n");
}

TEST_F(TraceCli, MissingOrDisabledTracepointIsRefusedAndEnableRestores) {
  make_tracefs(false);
  if (!serve_cx4()) return;
  const auto missing = mst({"03:00.0"});
  EXPECT_EQ(missing.exit_code, 6) << missing.err;
  EXPECT_NE(missing.err.find("events/mlx5/mlx5_fw (or fw_tracer) is absent"), std::string::npos) << missing.err;
  make_tracefs(true, "0\n");
  const auto off = mst({"03:00.0"});
  EXPECT_EQ(off.exit_code, 6) << off.err;
  EXPECT_NE(off.err.find("echo 1 > " + (tracefs_ / "events/mlx5/mlx5_fw/enable").string()), std::string::npos) << off.err;
  const auto on = mst({"03:00.0", "--enable"});
  EXPECT_EQ(on.exit_code, 0) << on.err;
  EXPECT_EQ(on.out, kExpectedText);
  std::ifstream enable(tracefs_ / "events/mlx5/mlx5_fw/enable");
  std::string value;
  std::getline(enable, value);
  EXPECT_EQ(value, "0");
}

TEST_F(TraceCli, NoDriverBoundIsRefusedAfterTheOwnershipProbe) {
  make_tracefs();
  if (!serve_cx4(false)) return;
  const auto r = mst({"03:00.0"});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_NE(r.err.find("(0000:03:00.0) has no driver bound: no driver reads this device's tracer (bind mlx5_core"),
            std::string::npos)
      << r.err;
  const auto s = mst({"03:00.0", "--strings"});  // needs no driver
  EXPECT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(s.out.rfind("section 0: base 0x", 0), 0u) << s.out;
}

TEST_F(TraceCli, MaskOverPciIsStatedAndTheMessagesFollow) {
  make_tracefs();
  if (!serve_cx4()) return;
  const auto r = mst({"03:00.0", "--mask", "FLASH+CMD_IF", "--level", "INFO"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("trace mask set to CMD_IF+FLASH (0x800020), level INFO and above; it stays set"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, kExpectedText);
}

}  // namespace
}  // namespace openflint::test
