// mst web's live firmware trace (GET /api/devices/N/trace?after=TS): a ConnectX-4 served as a PCI
// function by `hcasim pci-serve` with the simulated mlx5_core bound and a served tracefs; the
// console (in process) shows the messages the driver printed, then only the newer ones, and says
// why there are none where there are none.
#include <stdlib.h>

#include <httplib.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/pci_cli/PciServeFixture.h"
#include "tests/web/InProcessWeb.h"

namespace openflint::test {
namespace {

class TraceWeb : public PciServeFixture {
 protected:
  void TearDown() override {
    web_.stop();
    ::unsetenv("OPENFLINT_SYSFS_ROOT");
    ::unsetenv("OPENFLINT_TRACEFS_ROOT");
    PciServeFixture::TearDown();
  }
  void start_console(std::vector<std::string> devices) {
    ::setenv("OPENFLINT_SYSFS_ROOT", sysfs_.c_str(), 1);
    ::setenv("OPENFLINT_TRACEFS_ROOT", tracefs_.c_str(), 1);
    WebOptions options;
    options.devices = std::move(devices);
    options.audit = [](std::string_view) {};
    web_.start(std::move(options));
    ASSERT_TRUE(web_.ready());
  }
  nlohmann::json trace(std::size_t index, std::uint64_t after) {
    const std::string path = "/api/devices/" + std::to_string(index) + "/trace?after=" + std::to_string(after);
    auto res = web_.client().Get(path.c_str(), web_.with_token());
    EXPECT_TRUE(res) << path;
    if (!res) return nlohmann::json();
    EXPECT_EQ(res->status, 200) << res->body;
    return nlohmann::json::parse(res->body, nullptr, false);
  }
  // Waits (bounded) until the console shows at least `n` records after `after`.
  nlohmann::json trace_with(std::size_t index, std::uint64_t after, std::size_t n) {
    nlohmann::json doc;
    for (int i = 0; i < 50; ++i) {
      doc = trace(index, after);
      if (doc.value("records", nlohmann::json::array()).size() >= n) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return doc;
  }
  CommandResult mst(std::vector<std::string> args) const {
    args.insert(args.begin(), bin("mst").string());
    return run_command(args, tool_env());
  }

  std::filesystem::path tracefs_ = dir_ / "tracing";
  InProcessWeb web_;
};

TEST_F(TraceWeb, ShowsTheDriversMessagesThenOnlyNewerOnes) {
  const auto cx4 = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  const auto cx3 = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  if (!serve({cx4, cx3}, {"--driver", "mlx5_core", "--driver", "-", "--tracefs", tracefs_.string()})) return;
  const auto file = create_device("file", "connectx4", sample_image("connectx4-old"));  // not served
  start_console({"03:00.0", "04:00.0", "sim:" + file.string()});

  auto r = mst({"config", "03:00.0", "set", "SRIOV_EN=1", "-y"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto doc = trace_with(0, 0, 1);
  ASSERT_EQ(doc["available"], true) << doc.dump();
  ASSERT_GE(doc["records"].size(), 1u) << doc.dump();
  EXPECT_EQ(doc["records"].back()["message"], "NV config: item type 0x80 stored") << doc.dump();
  EXPECT_EQ(doc["records"].back()["lost"], false);
  const std::uint64_t last = doc["last"].get<std::uint64_t>();
  EXPECT_EQ(last, doc["records"].back()["timestamp"].get<std::uint64_t>());

  // Nothing new: nothing after `last`; then one more change, and only it.
  EXPECT_TRUE(trace(0, last)["records"].empty());
  r = mst({"config", "03:00.0", "set", "SRIOV_EN=0", "-y"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  doc = trace_with(0, last, 1);
  ASSERT_EQ(doc["records"].size(), 1u) << doc.dump();
  EXPECT_GT(doc["records"][0]["timestamp"].get<std::uint64_t>(), last);

  // No trace, with the reason: a family without a tracer; a simulated file (no PCI function).
  doc = trace(1, 0);
  EXPECT_EQ(doc["available"], false) << doc.dump();
  EXPECT_NE(doc.value("reason", "").find("no firmware tracer"), std::string::npos) << doc.dump();
  doc = trace(2, 0);
  EXPECT_EQ(doc["available"], false) << doc.dump();
  EXPECT_NE(doc.value("reason", "").find("not a PCI function"), std::string::npos) << doc.dump();
}

}  // namespace
}  // namespace openflint::test
