// Self-check of the device and flash-chip catalogs: every record consistent, lookups agree.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include "devices/DeviceCatalog.h"
#include "devices/FlashChip.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

bool is_power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

TEST(DeviceCatalog, HasTheRequiredParts) {
  for (const char* model : {"mt25204", "connectx3", "connectx4", "spectrum", "spectrum2", "connectx3pro",
                            "connectib", "connectx4lx", "connectx5", "connectx6", "connectx6dx", "connectx6lx", "connectx7",
                            "bluefield2", "bluefield3", "switchib",
                            "switchib2", "mt23108", "mt25208", "mt25418", "mt26428", "mt43132", "mt47396",
                            "switchx"}) {
    EXPECT_TRUE(find_device_by_sim_model(model).has_value()) << model;
  }
  EXPECT_GE(all_devices().size(), 20u);
}

TEST(DeviceCatalog, RecordsAreUniqueAndComplete) {
  std::set<std::pair<std::uint16_t, int>> hw_ids;
  std::set<std::string> models;
  std::set<std::string> names;
  std::set<std::uint16_t> pci_ids;
  for (const DeviceInfo& d : all_devices()) {
    SCOPED_TRACE(std::string(d.name));
    EXPECT_TRUE(hw_ids.insert({d.hw_id, d.hw_revision.value_or(-1)}).second) << "duplicate hw id";
    EXPECT_TRUE(models.insert(std::string(d.sim_model)).second) << "duplicate model";
    EXPECT_TRUE(names.insert(std::string(d.name)).second) << "duplicate name";
    EXPECT_TRUE(pci_ids.insert(d.pci_device_id).second) << "duplicate pci id";
    EXPECT_FALSE(d.name.empty());
    EXPECT_FALSE(d.part_number.empty());
    EXPECT_NE(d.hw_id, 0);
    EXPECT_NE(d.pci_device_id, 0);
    EXPECT_NE(d.port_count, 0);
  }
}

TEST(DeviceCatalog, SpiGatewaysHaveAddressesAndChips) {
  for (const DeviceInfo& d : all_devices()) {
    SCOPED_TRACE(std::string(d.name));
    const FlashGatewayInfo& g = d.flash_gateway;
    if (g.generation == GatewayGeneration::FirmwareMediated) continue;
    if (g.is_i2c_eeprom()) {  // no CR-space gateway: EEPROMs on the I2C bus, the set in the catalog
      EXPECT_GT(g.eeprom.device_count, 0u);
      auto chip = find_flash_chip_by_name(d.default_flash_chip);
      ASSERT_THAT(chip, test::IsOk());
      EXPECT_EQ((*chip)->bus, FlashInterface::I2cEeprom);
      EXPECT_EQ((*chip)->size, g.eeprom.total_size());
      EXPECT_EQ((*chip)->page_size, g.eeprom.page_size);
      continue;
    }
    ASSERT_NE(g.generation, GatewayGeneration::None);
    EXPECT_NE(g.cmd_addr, 0u);
    EXPECT_NE(g.addr_addr, 0u);
    EXPECT_NE(g.data_addr, 0u);
    EXPECT_EQ(g.cmd_addr % 4, 0u);
    EXPECT_EQ(g.data_addr % 4, 0u);
    EXPECT_NE(g.lock, FlashLockKind::None);
    if (g.lock == FlashLockKind::Semaphore) {
      EXPECT_EQ(g.semaphore_addr, kFlashSemaphoreAddr);
    }
    if (!g.is_spi_gateway() && g.generation != GatewayGeneration::InfiniHostSpi) continue;
    EXPECT_GE(g.data_dwords, 1u);
    EXPECT_LE(g.data_dwords, 4u);
    auto chip = find_flash_chip_by_name(d.default_flash_chip);
    ASSERT_THAT(chip, test::IsOk());
    if ((*chip)->needs_4byte_address()) {
      EXPECT_TRUE(g.supports_4byte_address);
    }
    if (g.is_spi_gateway()) {
      // The 16-byte DATA window must not overlap CMD or ADDR.
      const std::uint32_t data_end = g.data_addr + 4 * g.data_dwords;
      EXPECT_FALSE(g.cmd_addr >= g.data_addr && g.cmd_addr < data_end);
      EXPECT_FALSE(g.addr_addr >= g.data_addr && g.addr_addr < data_end);
    }
  }
}

// Chip-select support masks fit the 4-bit field; a config area only on FS2 parts, with a
// reserve that leaves room for an image in each half of the default part.
TEST(DeviceCatalog, ChipSelectSupportAndFs2ConfigAreasAreConsistent) {
  for (const DeviceInfo& d : all_devices()) {
    SCOPED_TRACE(std::string(d.name));
    const FlashGatewayInfo& g = d.flash_gateway;
    EXPECT_GE(g.flash_banks, 1);
    EXPECT_LE(g.flash_banks, 4);
    if (g.chip_select_support_addr != 0) {
      EXPECT_EQ(g.chip_select_support_addr % 4, 0u);
    }
    if (g.cache_guard.present()) {
      EXPECT_NE(g.cache_guard.offset_mask, 0u);
      EXPECT_NE(g.cache_guard.cmd_mask, 0u);
      EXPECT_EQ(g.cache_guard.trigger_addr, kHwIdAddr);
    }
    if (!d.fs2_config_area.present()) continue;
    EXPECT_EQ(d.image_format, ImageFormat::Fs2);
    auto chip = find_flash_chip_by_name(d.default_flash_chip);
    ASSERT_TRUE(chip.has_value());
    EXPECT_GT(d.fs2_config_area.max_image_size((*chip)->size, true), 0x100000u);
    EXPECT_LT(d.fs2_config_area.base((*chip)->size), (*chip)->size);
  }
}

TEST(DeviceCatalog, InfiniHostIIILxGatewayFacts) {
  auto d = find_device_by_sim_model("mt25204");
  ASSERT_TRUE(d.has_value());
  const FlashGatewayInfo& g = (*d)->flash_gateway;
  EXPECT_EQ(g.generation, GatewayGeneration::InfiniHostSpi);
  EXPECT_TRUE(g.is_spi_gateway());
  EXPECT_EQ(g.cmd_addr, 0xf0400u);
  EXPECT_EQ(g.addr_addr, 0xf0404u);
  EXPECT_EQ(g.data_addr, 0xf0408u);
  EXPECT_EQ(g.data_dwords, 4u);
  EXPECT_EQ(g.bank_select_addr, 0xf0418u);
  EXPECT_EQ(g.bank_select_addr, g.data_addr + 4 * g.data_dwords);  // right after the DATA window
  EXPECT_EQ(g.lock, FlashLockKind::Semaphore);
  EXPECT_EQ(g.chip_probe, FlashChipProbe::ElectronicSignature);
  EXPECT_EQ(g.layout.style, GatewayCommandStyle::Special);
  EXPECT_EQ(g.layout.read_op_bit, 0);
  EXPECT_EQ(g.layout.no_data_bit, 4);
  EXPECT_EQ(g.layout.no_addr_bit, 5);
  EXPECT_EQ(g.layout.special_bit, 6);
  EXPECT_EQ(g.layout.data_size_shift, 8);
  EXPECT_EQ(g.layout.busy_bit, 30);
  EXPECT_EQ(g.layout.addr_opcode_shift, 24);
  auto chip = find_flash_chip_by_name((*d)->default_flash_chip);
  ASSERT_TRUE(chip.has_value());
  EXPECT_NE((*chip)->electronic_signature, 0);  // the part must answer RES
}

// InfiniScale-era switches: the hw id lives at their own register (docs/legacy-devices.md).
TEST(DeviceCatalog, InfiniScaleFacts) {
  auto is3 = find_device_by_sim_model("mt47396");
  auto is1 = find_device_by_sim_model("mt43132");
  ASSERT_TRUE(is3.has_value() && is1.has_value());
  EXPECT_EQ((*is3)->hw_id, 0xb924);
  EXPECT_EQ((*is3)->hw_id_addr, 0x60014u);
  EXPECT_EQ((*is1)->hw_id, 0xa87c);
  EXPECT_EQ((*is1)->hw_id_addr, 0x3014u);
  for (const DeviceInfo* d : {*is3, *is1}) {
    EXPECT_TRUE(d->flash_gateway.is_i2c_eeprom());
    EXPECT_EQ(d->image_format, ImageFormat::Fs1);
    const I2cEepromMap& m = d->flash_gateway.eeprom;
    ASSERT_EQ(m.device_count, 4);
    EXPECT_EQ(m.devices[0], 0x56);  // mtcr's in-band EEPROM access names 0x56 (a fact) ...
    EXPECT_EQ(m.devices[1], 0x57);  // ... the rest is the inferred table (our choice)
    EXPECT_EQ(m.devices[2], 0x52);
    EXPECT_EQ(m.devices[3], 0x53);
  }
  for (const DeviceInfo& d : all_devices()) {
    if (d.kind == DeviceKind::Hca) {
      EXPECT_EQ(d.hw_id_addr, kHwIdAddr) << d.name;
    }
  }
}

TEST(FlashChipCatalog, ElectronicSignaturesAreLog2SizeMinusOne) {
  int with_signature = 0;
  for (const FlashChip& c : all_flash_chips()) {
    if (c.electronic_signature == 0) continue;
    SCOPED_TRACE(std::string(c.name));
    ++with_signature;
    EXPECT_EQ(std::uint64_t{1} << (c.electronic_signature + 1), c.size);  // mflash: log2 size = ES + 1
    auto found = find_flash_chip_by_electronic_signature(c.electronic_signature);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(*found, &c);
  }
  EXPECT_GE(with_signature, 1);
  EXPECT_EQ(find_flash_chip_by_electronic_signature(0x7e).error().code(), ErrorCode::NotSupported);
  EXPECT_FALSE(find_flash_chip_by_electronic_signature(0).has_value());
}

TEST(DeviceCatalog, ImageFormatsFollowTheGenerations) {
  auto expect_format = [](const char* model, ImageFormat f) {
    auto d = find_device_by_sim_model(model);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ((*d)->image_format, f) << model;
  };
  expect_format("mt25204", ImageFormat::Fs1);
  expect_format("connectx3", ImageFormat::Fs2);
  expect_format("connectx4", ImageFormat::Fs3);
  expect_format("spectrum", ImageFormat::Fs3);
  expect_format("spectrum2", ImageFormat::Fs4);
}

TEST(DeviceCatalog, LookupsAgree) {
  for (const DeviceInfo& d : all_devices()) {
    SCOPED_TRACE(std::string(d.name));
    auto by_hw = find_device_by_hw_id(d.hw_id, d.hw_revision.value_or(0));
    ASSERT_TRUE(by_hw.has_value());
    EXPECT_EQ(*by_hw, &d);
    bool recovery = true;
    auto by_pci = find_device_by_pci_id(d.pci_device_id, &recovery);
    ASSERT_TRUE(by_pci.has_value());
    EXPECT_EQ(*by_pci, &d);
    EXPECT_FALSE(recovery);
  }
  bool recovery = false;
  auto cx3 = find_device_by_pci_id(0x1f6, &recovery);
  ASSERT_TRUE(cx3.has_value());
  EXPECT_EQ((*cx3)->name, "ConnectX-3");
  EXPECT_TRUE(recovery);
  auto cx4 = find_device_by_hw_id(0x209);
  ASSERT_TRUE(cx4.has_value());
  EXPECT_EQ((*cx4)->pci_device_id, 4115);
  auto unknown = find_device_by_hw_id(0x1234);
  ASSERT_THAT(unknown, test::FailsWith(ErrorCode::NotFound));
  EXPECT_NE(unknown.error().message().find("0x1234"), std::string::npos);
}

TEST(FlashChipCatalog, ChipsAreConsistent) {
  std::set<std::uint32_t> jedec;
  std::set<std::string> names;
  bool has_64k_only = false;
  bool has_4byte = false;
  for (const FlashChip& c : all_flash_chips()) {
    SCOPED_TRACE(std::string(c.name));
    EXPECT_TRUE(names.insert(std::string(c.name)).second);
    if (c.bus == FlashInterface::I2cEeprom) {
      // An EEPROM set (InfiniScale): no id, replaced in place (no erase), whole pages of a
      // 24Cxx part, the logical sector a whole number of pages.
      EXPECT_EQ(c.jedec_id, 0u);
      EXPECT_FALSE(c.erase_before_program());
      EXPECT_FALSE(c.has_4k_sectors);
      EXPECT_EQ(c.block_size % c.page_size, 0u);
      EXPECT_EQ(c.size % c.block_size, 0u);
      EXPECT_FALSE(find_flash_chip_by_jedec(0).has_value());
      continue;
    }
    EXPECT_TRUE(c.erase_before_program());
    EXPECT_TRUE(jedec.insert(c.jedec_id).second);
    EXPECT_TRUE(is_power_of_two(c.size));
    EXPECT_GE(c.size, 2u * 1024 * 1024);
    EXPECT_LE(c.size, 64u * 1024 * 1024);
    EXPECT_EQ(c.page_size, 256u);
    EXPECT_EQ(c.size % c.block_size, 0u);
    EXPECT_NE(c.jedec_id >> 16, 0u);
    EXPECT_EQ(c.needs_4byte_address(), c.size > 16u * 1024 * 1024);
    if (c.bus == FlashInterface::ParallelCfi) {
      // Parallel parts: no 4 KiB erase, a CFI command set, reachable through the 4 MiB of GPIO banks.
      EXPECT_FALSE(c.has_4k_sectors);
      EXPECT_TRUE(c.cfi.command_set == 1 || c.cfi.command_set == 2);
      EXPECT_TRUE(c.cfi.stride == 1 || c.cfi.stride == 2);
      EXPECT_LE(c.size, 4u * 1024 * 1024);
      auto by_cfi = find_flash_chip_by_cfi(c.cfi.command_set, c.size, c.block_size);
      ASSERT_THAT(by_cfi, test::IsOk());
      EXPECT_EQ(*by_cfi, &c);
      EXPECT_FALSE(find_flash_chip_by_jedec(c.jedec_id).has_value());  // never answers an SPI probe
      continue;
    }
    EXPECT_EQ(c.block_size, 64u * 1024);
    has_64k_only = has_64k_only || !c.has_4k_sectors;
    has_4byte = has_4byte || c.needs_4byte_address();
    auto found = find_flash_chip_by_jedec(c.jedec_id);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(*found, &c);
  }
  EXPECT_TRUE(has_64k_only);
  EXPECT_TRUE(has_4byte);
  auto missing = find_flash_chip_by_jedec(0x123456);
  ASSERT_THAT(missing, test::FailsWith(ErrorCode::NotSupported));
}

// Every record says how config space reaches CR-space; the VSEC arrived with the 5th
// generation (Connect-IB, ConnectX-4, Switch-IB), the same step as the FS3 image format.
TEST(DeviceCatalog, PciConfigGatewayFollowsTheGenerations) {
  for (const DeviceInfo& d : all_devices()) {
    SCOPED_TRACE(std::string(d.name));
    EXPECT_NE(d.pci_config_gateway, PciConfigGateway::None);
    const bool fs34 = d.image_format == ImageFormat::Fs3 || d.image_format == ImageFormat::Fs4;
    EXPECT_EQ(d.pci_config_gateway, fs34 ? PciConfigGateway::Vsec : PciConfigGateway::AddressWindow);
  }
  auto cx3 = find_device_by_sim_model("connectx3");
  auto cx4 = find_device_by_sim_model("connectx4");
  ASSERT_TRUE(cx3.has_value() && cx4.has_value());
  EXPECT_EQ((*cx3)->pci_config_gateway, PciConfigGateway::AddressWindow);
  EXPECT_EQ((*cx4)->pci_config_gateway, PciConfigGateway::Vsec);
}

}  // namespace
}  // namespace openflint
