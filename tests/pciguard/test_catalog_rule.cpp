// The catalog rule in the library: ids read from the config header (read-only) or the attribute
// files, named as lspci names them, catalog ids (normal, alternate, recovery) admitted and the rest
// refused; mst status's listing, mst start's links and mst server's list leave the refused out.
#include <gtest/gtest.h>

#include <fstream>

#include "devices/DeviceCatalog.h"
#include "fwops/registers/AdapterReset.h"
#include "fwops/Device.h"
#include "fwops/access/DeviceListing.h"
#include "fwops/access/MstLinks.h"
#include "mtcr/pci/PciDeviceName.h"
#include "tests/pciguard/ForeignTree.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

// The names of the test's database in every message (deterministic, and loaded at once).
class CatalogRule : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("OPENFLINT_PCI_IDS", tree_.ids_file().c_str(), 1); }
  void TearDown() override { ::unsetenv("OPENFLINT_PCI_IDS"); }
  ForeignTree tree_;
};

const ForeignFunction& function(std::string_view label) {
  for (const auto& f : foreign_functions())
    if (label == f.label) return f;
  throw std::runtime_error("no function " + std::string(label));
}

// A vendor 0x15b3 function with this PCI device id, in the same layout.
ForeignFunction mellanox(const char* bdf, std::uint16_t device) {
  return {"Mellanox", bdf, kPciVendorMellanox, device, 0x020000, 0x00, 0, 0x15b3, 0x0001, 0, 0x100000, 0x14220c, ""};
}

TEST(PciFunctionIds, ReadFromTheConfigHeaderWithoutChangingIt) {
  ForeignTree tree;
  const ForeignFunction& nic = function("EthernetNic");
  const fs::path dir = tree.root() / "devices" / nic.bdf;
  const auto before = tree.snapshot();
  auto ids = read_pci_function_ids(dir);
  ASSERT_TRUE(ids.has_value()) << ids.error().message();
  EXPECT_EQ(ids->vendor, 0x8086);
  EXPECT_EQ(ids->device, 0x159b);
  EXPECT_EQ(ids->class_code, 0x020000u);
  EXPECT_EQ(ids->revision, 0x02);
  EXPECT_TRUE(tree.snapshot() == before);

  // The config header wins over the attribute files: it is the function itself.
  std::ofstream(dir / "vendor") << "0x15b3\n";
  EXPECT_EQ(read_pci_function_ids(dir)->vendor, 0x8086);
  // Without a config file, the attribute files.
  fs::remove(dir / "config");
  ids = read_pci_function_ids(dir);
  ASSERT_TRUE(ids.has_value()) << ids.error().message();
  EXPECT_EQ(ids->vendor, 0x15b3);
  EXPECT_EQ(ids->class_code, 0x020000u);
  // Neither: NotFound, saying what was tried.
  fs::remove(dir / "vendor");
  ids = read_pci_function_ids(dir);
  ASSERT_FALSE(ids.has_value());
  EXPECT_EQ(ids.error().code(), ErrorCode::NotFound);
  EXPECT_NE(ids.error().message().find("config"), std::string::npos) << ids.error().message();
}

// With the test's database: exactly what lspci -nn prints (compared with lspci itself when it is
// installed); with the host's, the names Debian's pci.ids gives; with none, plain hex.
TEST(PciFunctionIds, NamedAsLspciNamesThemOrInPlainHex) {
  ForeignTree tree;
  ::setenv("OPENFLINT_PCI_IDS", tree.ids_file().c_str(), 1);
  for (const ForeignFunction& f : foreign_functions()) {
    EXPECT_EQ(describe_pci_function(f.ids()), f.lspci);
    if (!have_program("lspci")) continue;
    const auto r = run_command({"lspci", "-nn", "-A", "linux-sysfs", "-O", "sysfs.path=" + tree.root().string(), "-i",
                                tree.ids_file().string(), "-s", f.bdf});
    EXPECT_EQ(r.out, std::string(f.bdf).substr(5) + " " + f.lspci + "\n") << r.err;
  }
  ::setenv("OPENFLINT_PCI_IDS", (tree.top() / "absent.ids").c_str(), 1);
  EXPECT_EQ(describe_pci_function(function("HostBridge").ids()), "vendor 0x8086, device 0x1237, class 0x060000, revision 0x02");
  ::unsetenv("OPENFLINT_PCI_IDS");
  if (fs::exists("/usr/share/misc/pci.ids")) {  // libpci's own database, where Debian puts it
    const std::string bridge = describe_pci_function(function("HostBridge").ids());
    EXPECT_TRUE(bridge.starts_with("Host bridge [0600]: Intel Corporation ")) << bridge;
    EXPECT_NE(bridge.find("[8086:1237] (rev 02)"), std::string::npos) << bridge;
  }
  EXPECT_EQ(describe_pci_function({0xfff0, 0x0001, 0xfe0000, 0x03}), "vendor 0xfff0, device 0x0001, class 0xfe0000, revision 0x03");
}

TEST_F(CatalogRule, CatalogIdsPassEveryOtherFunctionIsRefusedWithOneLine) {
  ForeignTree& tree = tree_;
  const DeviceInfo* cx3 = find_device_by_pci_id(4099).value();
  ASSERT_NE(cx3->pci_recovery_id, 0);
  tree.add(mellanox("0000:81:00.0", 4099));
  tree.add(mellanox("0000:82:00.0", cx3->pci_recovery_id));  // flash recovery mode: still ours
  auto normal = require_catalog_function(*parse_pci_address("81:00.0"), tree.root());
  ASSERT_TRUE(normal.has_value()) << normal.error().message();
  EXPECT_EQ(*normal, cx3);
  auto recovery = require_catalog_function(*parse_pci_address("82:00.0"), tree.root());
  ASSERT_TRUE(recovery.has_value()) << recovery.error().message();
  EXPECT_EQ(*recovery, cx3);
  for (const DeviceInfo& d : all_devices()) {  // an alternate id (compatibility mode) too
    if (d.pci_alt_device_id == 0) continue;
    tree.add(mellanox("0000:83:00.0", d.pci_alt_device_id));
    auto alt = require_catalog_function(*parse_pci_address("83:00.0"), tree.root());
    ASSERT_TRUE(alt.has_value()) << alt.error().message();
    EXPECT_EQ(*alt, &d);
    break;
  }
  for (const ForeignFunction& f : foreign_functions()) {
    auto refused = require_catalog_function(*parse_pci_address(f.bdf), tree.root());
    ASSERT_FALSE(refused.has_value()) << f.label;
    EXPECT_EQ(refused.error().code(), ErrorCode::InvalidArgument) << f.label;
    EXPECT_EQ(refused.error().message().find('\n'), std::string::npos) << refused.error().message();
    EXPECT_NE(refused.error().message().find(f.lspci), std::string::npos) << refused.error().message();
    // Through the name resolver, every form: the same refusal, the name as typed in front when it is not the BDF.
    auto by_name = resolve_pci_device_name(std::string("pcicr-") + f.bdf, tree.root());
    ASSERT_FALSE(by_name.has_value()) << f.label;
    EXPECT_EQ(by_name.error().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(by_name.error().message(), std::string("pcicr-") + f.bdf + ": " + refused.error().message());
  }
  auto rdma = resolve_pci_device_name(kForeignRdmaName, tree.root());
  ASSERT_FALSE(rdma.has_value());
  EXPECT_EQ(rdma.error().code(), ErrorCode::InvalidArgument) << rdma.error().message();
  // A missing function stays NotFound (nothing there to name).
  EXPECT_EQ(resolve_pci_device_name("0000:09:00.0", tree.root()).error().code(), ErrorCode::NotFound);
}

// mst status still lists the vendor's bridge (vendor 0x15b3) but as unknown, refused, never
// probed; mst start gives it no /dev/mst name; mst server does not offer it.
TEST_F(CatalogRule, ListingLinksAndServerLeaveTheRefusedOut) {
  ForeignTree& tree = tree_;
  tree.add(mellanox("0000:81:00.0", 4099));
  tree.add(mellanox("0000:81:00.2", 4120));  // a ConnectX-5 virtual function: not in the catalog, BAR0 exposed
  TempDir scratch;
  const std::vector<std::string> env{"OPENFLINT_SYSFS_ROOT=" + tree.root().string(),
                                     "OPENFLINT_RUN_DIR=" + (scratch / "run").string(),
                                     "OPENFLINT_PCI_IDS=" + tree.ids_file().string()};
  auto listed = list_pci_devices(tree.root(), ListingOptions{false});
  ASSERT_TRUE(listed.has_value()) << listed.error().message();
  ASSERT_EQ(listed->size(), 3u);
  EXPECT_EQ((*listed)[0].function.device_id, 0x1976);
  EXPECT_EQ((*listed)[0].info, nullptr);
  ASSERT_NE((*listed)[1].info, nullptr);
  EXPECT_EQ((*listed)[2].info, nullptr);

  ::setenv("OPENFLINT_RUN_DIR", (scratch / "run").c_str(), 1);  // the probes take locks as flint does
  auto probed = list_pci_devices(tree.root());
  ::unsetenv("OPENFLINT_RUN_DIR");
  ASSERT_TRUE(probed.has_value()) << probed.error().message();
  for (std::size_t i : {0u, 2u}) {
    const PciDeviceStatus& s = (*probed)[i];
    EXPECT_FALSE(s.config.works);
    EXPECT_NE(s.config.reason.find("the catalog does not list"), std::string::npos) << s.config.reason;
  }
  EXPECT_EQ((*probed)[2].bar.reason, (*probed)[2].config.reason) << "the BAR of a refused function is not tried";

  auto links = create_mst_links(scratch / "mst", tree.root(), *listed);
  ASSERT_TRUE(links.has_value()) << links.error().message();
  ASSERT_EQ(links->size(), 1u);  // the BAR of the plain file answers no hw id: the config-space name only
  EXPECT_EQ(links->front().name, "mt4099_pciconf0");

  // `L` through a stdio session: only the catalog function is served.
  const auto served = run_command({"sh", "-c", "printf 'L\\0' | \"$0\" server --stdio --audit-log /dev/null",
                                   bin("mst").string()}, env);
  ASSERT_EQ(served.exit_code, 0) << served.err;
  EXPECT_EQ(served.out, std::string("O 1\0mt4099_pciconf0\0", 20)) << served.out;
}

// A reset unbinds, saves and restores every function at the device's bus and device number: one
// of another vendor there is refused, and its files stay as they were. The catalog function is a
// plain file whose 0x58 window answers every CR-space read with the ConnectX-3 hw id (0x1f5), so
// it opens; its tools HCR semaphore then never frees (the running firmware stays unknown after
// the HCR's few-second wait), which the plan tolerates.
TEST_F(CatalogRule, AResetRefusesWhenAnotherVendorsFunctionSharesTheDevice) {
  ForeignFunction cx3 = mellanox("0000:81:00.0", 4099);
  tree_.add(cx3);
  auto config = read_file(tree_.root() / "devices" / cx3.bdf / "config");
  config[0x5c] = 0xf5;  // the window's data register: little-endian 0x000001f5
  config[0x5d] = 0x01;
  config[0x5e] = config[0x5f] = 0;
  write_file(tree_.root() / "devices" / cx3.bdf / "config", config);
  ForeignFunction intel = function("EthernetNic");
  intel.bdf = "0000:81:00.1";
  tree_.add(intel);
  TempDir run;
  ::setenv("OPENFLINT_RUN_DIR", run.path().c_str(), 1);
  DeviceOpenOptions options;
  options.sysfs_root = tree_.root();
  auto device = open_device("pciconf-81:00.0", options);
  ASSERT_TRUE(device.has_value()) << device.error().message();
  const auto before = tree_.snapshot();
  auto plan = plan_reset(*device, ResetOptions{});
  ::unsetenv("OPENFLINT_RUN_DIR");
  ASSERT_TRUE(plan.has_value()) << plan.error().message();
  ASSERT_FALSE(plan->blockers.empty());
  EXPECT_EQ(plan->blockers.front().code, ErrorCode::InvalidArgument);
  EXPECT_NE(plan->blockers.front().why.find("0000:81:00.1 shares the device with 0000:81:00.0 but is " + std::string(intel.lspci)),
            std::string::npos)
      << plan->blockers.front().why;
  auto ran = run_reset(*device, *plan, ResetOptions{});
  ASSERT_FALSE(ran.has_value());
  EXPECT_EQ(ran.error().code(), ErrorCode::InvalidArgument);
  const auto after = tree_.snapshot();
  for (const auto& [file, content] : before) {
    if (file.find("81:00.1") != std::string::npos) {
      EXPECT_TRUE(after.at(file) == content) << file;
    }
  }
}

}  // namespace
}  // namespace openflint::test
