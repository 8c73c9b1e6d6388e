// PCI device names: BDF forms, pciconf-/pcicr- prefixes, MST names, RDMA names, on a plain
// directory tree laid out like /sys (DIR/bus/pci/devices/BDF, DIR/class/infiniband/NAME/device).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "mtcr/pci/PciDeviceName.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

class PciNames : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = dir_.path() / "bus" / "pci";
    add("0000:03:00.0", 0x15b3, 4115);
    add("0000:03:00.1", 0x15b3, 4115);
    add("0000:04:00.0", 0x15b3, 4099);
    add("0000:05:00.0", 0x8086, 4115);  // another vendor's 4115 is not an MST device
    add("0001:81:00.0", 0x15b3, 4115);
    const fs::path ib = dir_.path() / "class" / "infiniband" / "mlx5_1";
    fs::create_directories(ib);
    fs::create_symlink("../../../bus/pci/devices/0000:03:00.1", ib / "device");
  }
  void add(const std::string& bdf, unsigned vendor, unsigned device) {
    const fs::path d = root_ / "devices" / bdf;
    fs::create_directories(d);
    std::ofstream(d / "vendor") << "0x" << std::hex << vendor << "\n";
    std::ofstream(d / "device") << "0x" << std::hex << device << "\n";
  }
  Result<PciDeviceName> resolve(const std::string& name) { return resolve_pci_device_name(name, root_); }

  test::TempDir dir_;
  fs::path root_;
};

TEST(PciAddress, ParsesBothFormsAndRefusesMalformed) {
  auto a = parse_pci_address("0000:03:00.0");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->to_string(), "0000:03:00.0");
  auto b = parse_pci_address("81:1f.7");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->to_string(), "0000:81:1f.7");
  auto c = parse_pci_address("ab12:ff:00.3");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->domain, 0xab12);
  for (const char* bad : {"", "03:00", "03.00.0", "03:20.0", "03:00.8", "0000:100:00.0", "x3:00.0", "03:00.01", "1:2:3:4.0"}) {
    auto r = parse_pci_address(bad);
    EXPECT_FALSE(r.has_value()) << bad;
    if (!r) {
      EXPECT_EQ(r.error().code(), ErrorCode::InvalidArgument) << bad;
    }
  }
}

TEST_F(PciNames, BdfFormsAndForcedMethods) {
  auto a = resolve("03:00.0");
  ASSERT_TRUE(a.has_value()) << a.error().message();
  EXPECT_EQ(a->address.to_string(), "0000:03:00.0");
  EXPECT_EQ(a->method, PciMethod::Auto);
  auto c = resolve("pciconf-0000:04:00.0");
  ASSERT_TRUE(c.has_value()) << c.error().message();
  EXPECT_EQ(c->method, PciMethod::Config);
  EXPECT_EQ(c->address.bus, 4);
  auto r = resolve("pcicr-0001:81:00.0");
  ASSERT_TRUE(r.has_value()) << r.error().message();
  EXPECT_EQ(r->method, PciMethod::Bar);
  EXPECT_EQ(r->address.domain, 1);
  auto missing = resolve("07:00.0");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code(), ErrorCode::NotFound);
  EXPECT_NE(missing.error().message().find("0000:07:00.0"), std::string::npos) << missing.error().message();
  auto bad = resolve("pciconf-zz");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), ErrorCode::InvalidArgument);
}

TEST_F(PciNames, MstNamesCountFunctionsOfThatDeviceIdInBdfOrder) {
  struct Case {
    const char* name;
    const char* bdf;
    PciMethod method;
  };
  for (const Case& c : {Case{"mt4115_pciconf0", "0000:03:00.0", PciMethod::Config},
                        Case{"mt4115_pciconf1", "0000:03:00.1", PciMethod::Config},
                        Case{"/dev/mst/mt4115_pci_cr2", "0001:81:00.0", PciMethod::Bar},
                        Case{"mt4099_pci_cr0", "0000:04:00.0", PciMethod::Bar}}) {
    auto r = resolve(c.name);
    ASSERT_TRUE(r.has_value()) << c.name << ": " << r.error().message();
    EXPECT_EQ(r->address.to_string(), c.bdf) << c.name;
    EXPECT_EQ(r->method, c.method) << c.name;
  }
  auto beyond = resolve("mt4115_pciconf3");  // three Mellanox 4115 functions, the 8086 one not counted
  ASSERT_FALSE(beyond.has_value());
  EXPECT_EQ(beyond.error().code(), ErrorCode::NotFound);
  EXPECT_NE(beyond.error().message().find("3 function(s)"), std::string::npos) << beyond.error().message();
  EXPECT_FALSE(resolve("mt4115_pciconfX").has_value());
}

TEST_F(PciNames, RdmaNamesFollowTheClassLink) {
  EXPECT_EQ(infiniband_class_dir(root_), dir_.path() / "class" / "infiniband");
  EXPECT_EQ(infiniband_class_dir("/sys/bus/pci"), fs::path("/sys/class/infiniband"));
  auto r = resolve("mlx5_1");
  ASSERT_TRUE(r.has_value()) << r.error().message();
  EXPECT_EQ(r->address.to_string(), "0000:03:00.1");
  EXPECT_TRUE(is_pci_device_name("mlx5_1", root_));
  EXPECT_FALSE(is_pci_device_name("mlx5_9", root_));
  auto none = resolve("mlx5_9");
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().code(), ErrorCode::NotFound);
  EXPECT_NE(none.error().message().find("no such RDMA device 'mlx5_9'"), std::string::npos) << none.error().message();
  // Present or not, these are RDMA names of the vendor's devices; the others are no name at all.
  for (const char* rdma : {"mlx5_9", "mlx4_0", "mthca0", "ibp59s0", "rocep1s0f0"})
    EXPECT_TRUE(looks_like_rdma_device_name(rdma)) << rdma;
  for (const char* other : {"pci0", "mlx5_", "mlx5_0x", "MLX5_0", "", "lid-3", "mlx5_0/../x"})
    EXPECT_FALSE(looks_like_rdma_device_name(other)) << other;
}

TEST_F(PciNames, OtherTransportsNamesAreNotPci) {
  for (const char* other : {"sim:/tmp/x", "lid-3", "iblid-4", "ibdr-0.1.2", "lid-3,mlx5_0,1"})
    EXPECT_FALSE(is_pci_device_name(other, root_)) << other;
  for (const char* pci : {"03:00.0", "0000:03:00.0", "pciconf-03:00.0", "pcicr-03:00.0", "mt4115_pciconf0", "/dev/mst/mt4115_pci_cr0"})
    EXPECT_TRUE(is_pci_device_name(pci, root_)) << pci;
}

TEST(PciSysfsRoot, EnvironmentOverridesTheDefault) {
  ::unsetenv("OPENFLINT_SYSFS_ROOT");
  EXPECT_EQ(default_sysfs_root(), fs::path("/sys/bus/pci"));
  ::setenv("OPENFLINT_SYSFS_ROOT", "/tmp/served/bus/pci", 1);
  EXPECT_EQ(default_sysfs_root(), fs::path("/tmp/served/bus/pci"));
  ::unsetenv("OPENFLINT_SYSFS_ROOT");
}

}  // namespace
}  // namespace openflint
