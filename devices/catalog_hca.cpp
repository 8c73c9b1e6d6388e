// catalog_hca: adapter (HCA) records. Facts: mstflint dev_mgt/tools_dev_types.c, mflash/, pci.ids.
#include "devices/CatalogCrSpace.h"
#include "devices/CatalogGateways.h"
#include "devices/CatalogRecords.h"

// Designated initializers that leave members at their defaults are the point of these data
// records; GCC 12 -Wextra flags every omitted member, so that one warning is off here.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace openflint::catalog {
namespace {

using enum DeviceKind;
using enum ImageFormat;

// Boot-address registers of the later adapters (mstflint mf_update_boot_addr).
constexpr BootAddressRegister kBootCx5{0xf00c0, 0};
constexpr BootAddressRegister kBootCx6{0xf0080, 0};
constexpr BootAddressRegister kBootCx7{0xf2000, 0};

// MFRL as the ConnectX-4 generation's firmware reports it (mstfwreset's supported-device list
// starts at Connect-IB): levels 3 (PCI reset) and 4 (warm reboot), the full-chip reset type.
constexpr FirmwareResetSupport kMfrlLevels3And4{0x48, 0x01};

// Firmware-mediated flash access (MCC component update) from ConnectX-4 on; mstflint's
// getFwSupport refuses ConnectX-3 outright, and Connect-IB firmware predates MCC.
constexpr FirmwareFlashAccess kComponentUpdate{.component_update = true};

// PCI ids of InfiniHost-era parts are their decimal part numbers; recovery ids from pci.ids.
const DeviceInfo kHcas[] = {
    {.hw_id = 23108, .name = "InfiniHost", .part_number = "MT23108", .kind = Hca,
     .pci_device_id = 23108, .pci_recovery_id = 0x5a45, .port_count = 2, .image_format = Fs1,
     .flash_gateway = kParallelGateway, .pci_config_gateway = kWindow, .default_flash_chip = "Am29LV033C",
     .sim_model = "mt23108", .cr_space = kInfiniHostCrSpace},
    {.hw_id = 25208, .name = "InfiniHost III Ex", .part_number = "MT25208", .kind = Hca,
     .pci_device_id = 25208, .pci_recovery_id = 0x6279, .pci_alt_device_id = 0x6282,
     .port_count = 2, .image_format = Fs1, .flash_gateway = kParallelGateway,
     .pci_config_gateway = kWindow, .default_flash_chip = "28F320J3", .sim_model = "mt25208",
     .cr_space = kInfiniHostCrSpace},
    {.hw_id = 25204, .name = "InfiniHost III Lx", .part_number = "MT25204", .kind = Hca,
     .pci_device_id = 25204, .pci_recovery_id = 0x5e8d, .port_count = 1, .image_format = Fs1,
     .flash_gateway = kInfiniHostSpiGateway, .pci_config_gateway = kWindow,
     .default_flash_chip = "M25P16",
     .sim_model = "mt25204", .cr_space = kInfiniHostCrSpace},
    // ConnectX (A0) and ConnectX-2 era MT26428 (B0) share hw id 0x190; the revision tells them apart.
    {.hw_id = 0x190, .hw_revision = 0xa0, .name = "ConnectX", .part_number = "MT25418",
     .kind = Hca, .pci_device_id = 25418, .pci_recovery_id = 0x191, .port_count = 2,
     .image_format = Fs2, .flash_gateway = kConnectXGateway, .pci_config_gateway = kWindow,
     .default_flash_chip = "M25P16",
     .sim_model = "mt25418", .cr_space = kGen4CrSpace},
    {.hw_id = 0x190, .hw_revision = 0xb0, .name = "ConnectX-2", .part_number = "MT26428",
     .kind = Hca, .pci_device_id = 26428, .pci_recovery_id = 0x191, .port_count = 2,
     .image_format = Fs2, .flash_gateway = kConnectXGateway, .pci_config_gateway = kWindow,
     .default_flash_chip = "W25Q32",
     .sim_model = "mt26428", .cr_space = kGen4CrSpace},
    // 4th gen: recovery PCI id = hw id + 1 (mstflint dm_is_livefish_mode).
    {.hw_id = 0x1f5, .name = "ConnectX-3", .part_number = "MT27500", .kind = Hca,
     .pci_device_id = 4099, .pci_recovery_id = 0x1f6, .port_count = 2, .image_format = Fs2,
     .flash_gateway = kConnectXGateway, .pci_config_gateway = kWindow, .boot_address = kBootF0000,
     .default_flash_chip = "N25Q128A", .sim_model = "connectx3", .cr_space = kGen4CrSpace,
     .nv_config = &kGen4HcaNvConfig, .tools_hcr = &kConnectX3ToolsHcr, .running_fw_version_addr = 0x1f064},
    {.hw_id = 0x1f7, .name = "ConnectX-3 Pro", .part_number = "MT27520", .kind = Hca,
     .pci_device_id = 4103, .pci_recovery_id = 0x1f8, .port_count = 2, .image_format = Fs2,
     .flash_gateway = kConnectXGateway, .pci_config_gateway = kWindow, .boot_address = kBootF0000,
     .default_flash_chip = "N25Q128A", .sim_model = "connectx3pro", .cr_space = kGen4CrSpace,
     .nv_config = &kGen4HcaNvConfig, .tools_hcr = &kConnectX3ToolsHcr},
    // 5th gen onwards: recovery PCI id = hw id.
    {.hw_id = 0x1ff, .name = "Connect-IB", .part_number = "MT27600", .kind = Hca,
     .pci_device_id = 4113, .pci_recovery_id = 0x1ff, .port_count = 2, .image_format = Fs3,
     .flash_gateway = kGen5Gateway, .pci_config_gateway = kVsec, .boot_address = kBootF0000,
     .default_flash_chip = "N25Q128A", .sim_model = "connectib", .cr_space = kConnectIbCrSpace,
     .firmware_reset = kMfrlLevels3And4,
     .tracer = &kHcaFirmwareTracer},
    {.hw_id = 0x209, .name = "ConnectX-4", .part_number = "MT27700", .kind = Hca,
     .pci_device_id = 4115, .pci_recovery_id = 0x209, .port_count = 2, .image_format = Fs3,
     .flash_gateway = kGen5Gateway, .pci_config_gateway = kVsec, .boot_address = kBootF0000,
     .default_flash_chip = "N25Q128A", .sim_model = "connectx4", .cr_space = kConnectX4CrSpace,
     .firmware_reset = kMfrlLevels3And4,
     .firmware_flash = kComponentUpdate, .nv_config = &kGen5HcaNvConfig,
     .tracer = &kHcaFirmwareTracer},
    {.hw_id = 0x20b, .name = "ConnectX-4 Lx", .part_number = "MT27710", .kind = Hca,
     .pci_device_id = 4117, .pci_recovery_id = 0x20b, .port_count = 2, .image_format = Fs3,
     .flash_gateway = kGen5Gateway, .pci_config_gateway = kVsec, .boot_address = kBootF0000,
     .default_flash_chip = "N25Q128A", .sim_model = "connectx4lx", .cr_space = kConnectX4CrSpace,
     .firmware_reset = kMfrlLevels3And4,
     .firmware_flash = kComponentUpdate, .nv_config = &kGen5HcaNvConfig,
     .tracer = &kHcaFirmwareTracer},
    {.hw_id = 0x20d, .name = "ConnectX-5", .part_number = "MT27800", .kind = Hca,
     .pci_device_id = 4119, .pci_recovery_id = 0x20d, .port_count = 2, .image_format = Fs4,
     .flash_gateway = kGen5Gateway, .pci_config_gateway = kVsec, .boot_address = kBootCx5,
     .default_flash_chip = "MX25L12835F", .sim_model = "connectx5", .cr_space = kConnectX5CrSpace,
     .firmware_reset = kMfrlLevels3And4,
     .firmware_flash = kComponentUpdate, .nv_config = &kGen5HcaNvConfig,
     .tracer = &kHcaFirmwareTracer},
    {.hw_id = 0x20f, .name = "ConnectX-6", .part_number = "MT28908", .kind = Hca,
     .pci_device_id = 4123, .pci_recovery_id = 0x20f, .port_count = 2, .image_format = Fs4,
     .flash_gateway = kGen5Gateway4B, .pci_config_gateway = kVsec, .boot_address = kBootCx6,
     .default_flash_chip = "MX25L25635F", .sim_model = "connectx6", .cr_space = kConnectX5CrSpace,
     .firmware_reset = kMfrlLevels3And4,
     .firmware_flash = kComponentUpdate, .nv_config = &kGen5HcaNvConfig,
     .tracer = &kHcaFirmwareTracer},
    // ConnectX-6 Dx / 6 Lx: the ConnectX-6 generation (mstflint: same ICMD semaphore, boot
    // address 0xf0080, 4-byte addressing, 5th-gen gateway); PCI ids from the kernel's mlx5 table.
    {.hw_id = 0x212, .name = "ConnectX-6 Dx", .part_number = "MT2892", .kind = Hca,
     .pci_device_id = 4125, .pci_recovery_id = 0x212, .port_count = 2, .image_format = Fs4,
     .flash_gateway = kGen5Gateway4B, .pci_config_gateway = kVsec, .boot_address = kBootCx6,
     .default_flash_chip = "MX25L25635F", .sim_model = "connectx6dx", .cr_space = kConnectX5CrSpace,
     .firmware_reset = kMfrlLevels3And4,
     .firmware_flash = kComponentUpdate, .nv_config = &kGen5HcaNvConfig,
     .tracer = &kHcaFirmwareTracer},
    {.hw_id = 0x216, .name = "ConnectX-6 Lx", .part_number = "MT2894", .kind = Hca,
     .pci_device_id = 4127, .pci_recovery_id = 0x216, .port_count = 2, .image_format = Fs4,
     .flash_gateway = kGen5Gateway4B, .pci_config_gateway = kVsec, .boot_address = kBootCx6,
     .default_flash_chip = "MX25L25635F", .sim_model = "connectx6lx", .cr_space = kConnectX5CrSpace,
     .firmware_reset = kMfrlLevels3And4,
     .firmware_flash = kComponentUpdate, .nv_config = &kGen5HcaNvConfig,
     .tracer = &kHcaFirmwareTracer},
    // BlueField-2: the DPU's integrated ConnectX-6 Dx function (PCI 0xa2d6, mstflint's sw_dev_id
    // 41686 and the kernel's mlx5 table); flash access as ConnectX-6 (mstflint mflash, icmd_cif).
    {.hw_id = 0x214, .name = "BlueField-2", .part_number = "MT42822", .kind = Hca,
     .pci_device_id = 41686, .pci_recovery_id = 0x214, .port_count = 2, .image_format = Fs4,
     .flash_gateway = kGen5Gateway4B, .pci_config_gateway = kVsec, .boot_address = kBootCx6,
     .default_flash_chip = "MX25L25635F", .sim_model = "bluefield2", .cr_space = kConnectX5CrSpace,
     .firmware_reset = kMfrlLevels3And4,
     .firmware_flash = kComponentUpdate, .nv_config = &kGen5HcaNvConfig,
     .tracer = &kHcaFirmwareTracer},
    {.hw_id = 0x218, .name = "ConnectX-7", .part_number = "MT2910", .kind = Hca,
     .pci_device_id = 4129, .pci_recovery_id = 0x218, .port_count = 4, .image_format = Fs4,
     .flash_gateway = kGen6Gateway, .pci_config_gateway = kVsec, .boot_address = kBootCx7,
     .default_flash_chip = "MX25L25635F", .sim_model = "connectx7", .cr_space = kConnectX7CrSpace,
     .firmware_reset = kMfrlLevels3And4,
     .firmware_flash = kComponentUpdate, .nv_config = &kGen5HcaNvConfig,
     .tracer = &kHcaFirmwareTracer},
    // BlueField-3: the DPU's integrated ConnectX-7 function (PCI 0xa2dc, mstflint sw_dev_id 41692);
    // flash access, semaphore and boot address as ConnectX-7 (mstflint mflash, icmd_cif).
    {.hw_id = 0x21c, .name = "BlueField-3", .part_number = "MT43244", .kind = Hca,
     .pci_device_id = 41692, .pci_recovery_id = 0x21c, .port_count = 4, .image_format = Fs4,
     .flash_gateway = kGen6Gateway, .pci_config_gateway = kVsec, .boot_address = kBootCx7,
     .default_flash_chip = "MX25L25635F", .sim_model = "bluefield3", .cr_space = kConnectX7CrSpace,
     .firmware_reset = kMfrlLevels3And4,
     .firmware_flash = kComponentUpdate, .nv_config = &kGen5HcaNvConfig,
     .tracer = &kHcaFirmwareTracer},
};

}  // namespace

std::span<const DeviceInfo> hca_records() { return kHcas; }

}  // namespace openflint::catalog
