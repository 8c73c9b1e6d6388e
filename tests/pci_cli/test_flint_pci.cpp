// flint over a served sysfs PCI tree (hcasim pci-serve): query, verify, burn, reset and query
// again for ConnectX-3 (FS2, 0x58 window) and ConnectX-4 (FS3, VSEC), through the BAR and
// through config space; MST names; a second flint on a held device is busy.
#include <chrono>
#include <ostream>
#include <thread>

#include "tests/pci_cli/PciServeFixture.h"

namespace openflint::test {
namespace {

struct Case {
  std::string model;   // hcasim model and sample prefix
  std::string bdf;     // where it is served
  std::string prefix;  // "" (the BDF: BAR first), "pcicr-", "pciconf-"
  bool verify;         // run v too (a ConnectX-4 v reads ~30 s over config space or a loaded BAR)
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.prefix << c.bdf << " (" << c.model << ")"; }

class FlintPci : public PciServeFixture, public ::testing::WithParamInterface<Case> {};

TEST_P(FlintPci, QueryVerifyBurnResetQuery) {
  const Case& c = GetParam();
  const auto old_image = sample_image(c.model + "-old"), new_image = sample_image(c.model + "-new");
  const std::string old_version = image_version(old_image), new_version = image_version(new_image);
  ASSERT_FALSE(old_version.empty());
  ASSERT_NE(old_version, new_version);
  const auto dev = create_device("dev", c.model, old_image);
  if (!serve({dev}, {"--bdf", c.bdf})) return;
  const std::string name = c.prefix + c.bdf;

  // Each step's duration goes to the test output (config space is slow: every dword is a FUSE
  // round trip).
  auto step = [&](const std::string& what, std::vector<std::string> args) {
    const auto start = std::chrono::steady_clock::now();
    auto r = flint(std::move(args));
    const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "[ " << what << " ] flint -d " << name << " (" << c.model << "): " << seconds << " s\n";
    RecordProperty(what + "_seconds", std::to_string(seconds));
    return r;
  };
  auto q = step("q", {"-d", name, "q"});
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(query_field(q.out, "FW Version"), old_version) << q.out;
  if (c.verify) {
    auto v = step("v", {"-d", name, "v"});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  }
  auto b = step("burn", {"-d", name, "-i", new_image.string(), "-y", "burn"});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  auto r = step("reset", {"-d", name, "reset"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  q = step("q", {"-d", name, "q"});
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(query_field(q.out, "FW Version"), new_version) << q.out;
  // The running firmware comes from MGIR: through the ICMD mailbox on VSEC devices (ConnectX-4),
  // through the tools HCR on a ConnectX-3 (0x58 window) — also after the reset, whose config-space
  // save no longer reads the window (it took the HCR's semaphore, and no running line showed).
  EXPECT_EQ(query_field(q.out, "FW Version(Running)"), new_version) << q.out;

  stop_server();
  EXPECT_EQ(saved_running_version(dev), new_version);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const std::string via = info.param.prefix == "pciconf-" ? "Config" : info.param.prefix == "pcicr-" ? "Bar" : "Bdf";
  return info.param.model + via;
}

INSTANTIATE_TEST_SUITE_P(Models, FlintPci,
                         ::testing::Values(Case{"connectx3", "0000:04:00.0", "pcicr-", true},
                                           Case{"connectx3", "0000:04:00.0", "pciconf-", true},
                                           Case{"connectx4", "0000:03:00.0", "", true},
                                           Case{"connectx4", "0000:03:00.0", "pciconf-", false}),
                         case_name);

using FlintPciNames = PciServeFixture;

TEST_F(FlintPciNames, MstNamesReachTheirDevices) {
  const auto cx4 = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  const auto cx3 = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  if (!serve({cx4, cx3})) return;  // 03:00.0 and 04:00.0
  for (const auto& [name, image] : {std::pair{"mt4115_pciconf0", "connectx4-old"}, std::pair{"mt4115_pci_cr0", "connectx4-old"},
                                    std::pair{"mt4099_pciconf0", "connectx3-old"}, std::pair{"mt4099_pci_cr0", "connectx3-old"}}) {
    const auto q = flint({"-d", name, "q"});
    EXPECT_EQ(q.exit_code, 0) << name << ": " << q.out << q.err;
    EXPECT_EQ(query_field(q.out, "FW Version"), image_version(sample_image(image))) << name << ": " << q.out;
  }
}

// While one flint burns the device another, with a short --lock-timeout, finds it busy (5).
// The burn waits long for the lock and the queries are spaced out, so the burn gets it.
TEST_F(FlintPciNames, SecondFlintOnAHeldDeviceIsBusy) {
  const auto dev = create_device("dev", "connectx3", sample_image("connectx3-old"));
  if (!serve({dev}, {"--bdf", "0000:04:00.0"})) return;
  ChildProcess burn(background_tool({bin("flint").string(), "--lock-timeout", "60000", "-d", "pciconf-04:00.0", "-i",
                     sample_image("connectx3-new").string(), "-y", "burn"},
                    tool_env(), dir_ / "burn.out", dir_ / "burn.err"));
  ASSERT_GT(burn.pid(), 0);
  int busy = 0, other = 0;
  std::string last;
  while (burn.running() && busy == 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const auto q = flint({"--lock-timeout", "100", "-d", "pciconf-04:00.0", "q"});
    (q.exit_code == 5 ? busy : other)++;
    last = q.out + q.err;
  }
  EXPECT_GT(busy, 0) << "no query found the device busy while the burn ran (" << other << " others): " << last;
  EXPECT_NE(last.find("busy"), std::string::npos) << last;
  const auto status = burn.wait_for(std::chrono::seconds(120));
  EXPECT_EQ(status.value_or(-999), 0) << burn.out() << burn.err();
}

}  // namespace
}  // namespace openflint::test
