// The catalog records of today's switches hold the facts of their sources (docs/devices.md):
// mstflint 4.21's device table and mflash (hw ids, PCI ids, port counts, boot-address registers,
// 4-byte addresses, the 7 nm gateway, the cache-replacement guards), the kernel's mlxsw and pci.ids.
#include <gtest/gtest.h>

#include "devices/DeviceCatalog.h"
#include "devices/FlashChip.h"

namespace openflint {
namespace {

struct Expected {
  const char* model;
  const char* name;
  std::uint16_t hw_id;
  std::uint16_t pci_id;
  std::uint16_t ports;
  std::uint32_t boot_address;
  GatewayGeneration gateway;
  std::uint32_t guard_offset;
  std::uint32_t guard_cmd;
};

constexpr Expected kExpected[] = {
    {"quantum", "Quantum", 0x24d, 0xd2f0, 80, 0xf0080, GatewayGeneration::Gen5, 0xf0440, 0xf0448},
    {"quantum2", "Quantum-2", 0x257, 0xd2f2, 128, 0xf1000, GatewayGeneration::Gen6, 0xf0484, 0xf0488},
    {"spectrum3", "Spectrum-3", 0x250, 0xcf70, 128, 0xf0080, GatewayGeneration::Gen5, 0xf0440, 0xf0448},
    {"spectrum4", "Spectrum-4", 0x254, 0xcf80, 128, 0xf1000, GatewayGeneration::Gen6, 0xf0484, 0xf0488},
};

TEST(TodaysSwitchCatalog, RecordsHoldTheirSourcesFacts) {
  for (const Expected& e : kExpected) {
    SCOPED_TRACE(e.model);
    auto found = find_device_by_sim_model(e.model);
    ASSERT_TRUE(found.has_value());
    const DeviceInfo& d = **found;
    EXPECT_EQ(d.name, e.name);
    EXPECT_EQ(d.kind, DeviceKind::Switch);
    EXPECT_EQ(d.hw_id, e.hw_id);
    EXPECT_EQ(d.pci_device_id, e.pci_id);
    EXPECT_EQ(d.pci_recovery_id, e.hw_id) << "5th gen and later: the recovery PCI id is the hw id";
    EXPECT_EQ(d.port_count, e.ports);
    EXPECT_EQ(d.image_format, ImageFormat::Fs4);
    EXPECT_EQ(d.pci_config_gateway, PciConfigGateway::Vsec);
    EXPECT_EQ(d.boot_address.address, e.boot_address);
    EXPECT_EQ(d.boot_address.shift, 0);
    EXPECT_EQ(d.flash_gateway.generation, e.gateway);
    EXPECT_TRUE(d.flash_gateway.supports_4byte_address);
    EXPECT_EQ(d.flash_gateway.cache_guard.offset_addr, e.guard_offset);
    EXPECT_EQ(d.flash_gateway.cache_guard.cmd_addr, e.guard_cmd);
    EXPECT_TRUE(d.firmware_flash.component_update);
    EXPECT_NE(d.tracer, nullptr);
    auto chip = find_flash_chip_by_name(d.default_flash_chip);
    ASSERT_TRUE(chip.has_value());
    EXPECT_EQ((*chip)->size, 32u << 20) << "a 32 MiB part mstflint 4.21's flash table knows";
    EXPECT_EQ((*chip)->jedec_id >> 16, 0xc2u);
    // Looked up by what a tool reads: the hw id in CR-space, the PCI id in config space.
    auto by_hw = find_device_by_hw_id(e.hw_id);
    ASSERT_TRUE(by_hw.has_value());
    EXPECT_EQ((*by_hw)->sim_model, e.model);
    bool recovery = true;
    auto by_pci = find_device_by_pci_id(e.pci_id, &recovery);
    ASSERT_TRUE(by_pci.has_value());
    EXPECT_EQ((*by_pci)->sim_model, e.model);
    EXPECT_FALSE(recovery);
    by_pci = find_device_by_pci_id(e.hw_id, &recovery);
    ASSERT_TRUE(by_pci.has_value());
    EXPECT_EQ((*by_pci)->sim_model, e.model);
    EXPECT_TRUE(recovery);
  }
}

}  // namespace
}  // namespace openflint
