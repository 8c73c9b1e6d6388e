// catalog_switch: switch ASIC records. Facts: mstflint dev_mgt/tools_dev_types.c, mflash/, pci.ids.
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

constexpr BootAddressRegister kBootSpectrum2{0xf0080, 0};  // also Quantum, Spectrum-3
constexpr BootAddressRegister kBootGen6Switch{0xf1000, 0};  // Quantum-2, Spectrum-4

// Firmware-mediated flash access (MCC component update) from Spectrum on; mstflint's
// getFwSupport refuses Switch-IB and Switch-IB 2.
constexpr FirmwareFlashAccess kSwitchComponentUpdate{.component_update = true};
// Quantum-2: mstflint 4.21 burns a non-secured one over PCI through the gateway, not MCC
// (fw_ops.cpp FwOperationsCreate), so its firmware is modelled as tolerating that.
constexpr FirmwareFlashAccess kQuantum2ComponentUpdate{.component_update = true, .tolerates_gateway_writes = true};

// InfiniScale-era PCI and hw ids follow the decimal part number (no recovery id known). Their hw
// id registers sit elsewhere (IS3: 0x60014, MFT 2.7.1 tools_dev_types; gen 1: 0x3014, as ibutils'
// ibmgtsim seeds it, revision A0 in both) and their firmware lives in I2C EEPROMs. The image
// format on those EEPROMs is unknown; openflint uses its own FS1 layout with 4 KiB sectors
// there (docs/legacy-devices.md).
const DeviceInfo kSwitches[] = {
    {.hw_id = 43132, .hw_id_addr = 0x3014, .hw_revision = 0xa0, .name = "InfiniScale", .part_number = "MT43132",
     .kind = Switch, .pci_device_id = 43132, .port_count = 8, .image_format = Fs1,
     .flash_gateway = kI2cEepromGateway, .pci_config_gateway = kWindow, .default_flash_chip = "4x24C512",
     .sim_model = "mt43132", .cr_space = kInfiniScaleCrSpace},
    {.hw_id = 47396, .hw_id_addr = 0x60014, .hw_revision = 0xa0, .name = "InfiniScale III", .part_number = "MT47396",
     .kind = Switch, .pci_device_id = 47396, .port_count = 24, .image_format = Fs1,
     .flash_gateway = kI2cEepromGateway, .pci_config_gateway = kWindow, .default_flash_chip = "4x24C512",
     .sim_model = "mt47396", .cr_space = kInfiniScale3CrSpace},
    // SwitchX is 4th gen: recovery id = hw id + 1; FS2 with the configuration area (4 KiB
    // sectors; the sector and pad counts are our choice, the reference gives none).
    {.hw_id = 0x245, .name = "SwitchX", .part_number = "MT51000", .kind = Switch,
     .pci_device_id = 51000, .pci_recovery_id = 0x246, .port_count = 64, .image_format = Fs2,
     .flash_gateway = kSwitchXGateway, .pci_config_gateway = kWindow, .boot_address = kBootF0000,
     .default_flash_chip = "N25Q128A", .sim_model = "switchx", .cr_space = kSwitchXCrSpace,
     .fs2_config_area = {.config_sectors = 16, .config_pad = 2, .log2_sector_kib = 2},
     .running_fw_version_addr = 0x60040},
    {.hw_id = 0x247, .name = "Switch-IB", .part_number = "MT52000", .kind = Switch,
     .pci_device_id = 52000, .pci_recovery_id = 0x247, .port_count = 36, .image_format = Fs3,
     .flash_gateway = kGen5Gateway, .pci_config_gateway = kVsec, .boot_address = kBootF0000,
     .default_flash_chip = "N25Q128A", .sim_model = "switchib", .cr_space = kSwitchGen5CrSpace,
     .tracer = &kSwitchFirmwareTracer},
    {.hw_id = 0x24b, .name = "Switch-IB 2", .part_number = "MT53000", .kind = Switch,
     .pci_device_id = 53000, .pci_recovery_id = 0x24b, .port_count = 36, .image_format = Fs3,
     .flash_gateway = kGen5Gateway, .pci_config_gateway = kVsec, .boot_address = kBootF0000,
     .default_flash_chip = "N25Q128A", .sim_model = "switchib2", .cr_space = kSwitchGen5CrSpace,
     .tracer = &kSwitchFirmwareTracer},
    {.hw_id = 0x249, .name = "Spectrum", .part_number = "MT52100", .kind = Switch,
     .pci_device_id = 52100, .pci_recovery_id = 0x249, .port_count = 64, .image_format = Fs3,
     .flash_gateway = kGen5Gateway, .pci_config_gateway = kVsec, .boot_address = kBootF0000,
     .default_flash_chip = "N25Q128A", .sim_model = "spectrum", .cr_space = kSwitchGen5CrSpace,
     .firmware_flash = kSwitchComponentUpdate,
     .tracer = &kSwitchFirmwareTracer},
    {.hw_id = 0x24e, .name = "Spectrum-2", .part_number = "MT53100", .kind = Switch,
     .pci_device_id = 53100, .pci_recovery_id = 0x24e, .port_count = 128, .image_format = Fs4,
     .flash_gateway = kGen5Gateway4B, .pci_config_gateway = kVsec, .boot_address = kBootSpectrum2,
     .default_flash_chip = "MT25QL256", .sim_model = "spectrum2", .cr_space = kSwitchGen5CrSpace,
     .firmware_flash = kSwitchComponentUpdate,
     .tracer = &kSwitchFirmwareTracer},
    // Today's switches (docs/devices.md): hw ids, PCI ids (decimal part numbers, as mstflint 4.21
    // tools_dev_types lists them; the kernel's mlxsw and pci.ids agree), port counts as mstflint
    // counts them, recovery id = hw id (pci.ids; Quantum's by the same 5th-gen rule). FS4;
    // 4-byte flash addresses (mflash is_four_byte_address_needed). Quantum and Spectrum-3 keep the
    // gen5 block, Quantum-2 and Spectrum-4 the 7 nm gen6 one. The flash part is our choice: a
    // 32 MiB part in mstflint 4.21's flash table (Macronix; its Micron 256 Mbit entry is disabled).
    {.hw_id = 0x24d, .name = "Quantum", .part_number = "MT54000", .kind = Switch,
     .pci_device_id = 54000, .pci_recovery_id = 0x24d, .port_count = 80, .image_format = Fs4,
     .flash_gateway = kRavenSwitchGateway, .pci_config_gateway = kVsec, .boot_address = kBootSpectrum2,
     .default_flash_chip = "MX25L25635F", .sim_model = "quantum", .cr_space = kSwitchRavenCrSpace,
     .firmware_flash = kSwitchComponentUpdate,
     .tracer = &kSwitchFirmwareTracer},
    {.hw_id = 0x257, .name = "Quantum-2", .part_number = "MT54002", .kind = Switch,
     .pci_device_id = 54002, .pci_recovery_id = 0x257, .port_count = 128, .image_format = Fs4,
     .flash_gateway = kGen6SwitchGateway, .pci_config_gateway = kVsec, .boot_address = kBootGen6Switch,
     .default_flash_chip = "MX25L25635F", .sim_model = "quantum2", .cr_space = kSwitchGen6CrSpace,
     .firmware_flash = kQuantum2ComponentUpdate,
     .tracer = &kSwitchFirmwareTracer},
    {.hw_id = 0x250, .name = "Spectrum-3", .part_number = "MT53104", .kind = Switch,
     .pci_device_id = 53104, .pci_recovery_id = 0x250, .port_count = 128, .image_format = Fs4,
     .flash_gateway = kRavenSwitchGateway, .pci_config_gateway = kVsec, .boot_address = kBootSpectrum2,
     .default_flash_chip = "MX25L25635F", .sim_model = "spectrum3", .cr_space = kSwitchRavenCrSpace,
     .firmware_flash = kSwitchComponentUpdate,
     .tracer = &kSwitchFirmwareTracer},
    {.hw_id = 0x254, .name = "Spectrum-4", .part_number = "MT53120", .kind = Switch,
     .pci_device_id = 53120, .pci_recovery_id = 0x254, .port_count = 128, .image_format = Fs4,
     .flash_gateway = kGen6SwitchGateway, .pci_config_gateway = kVsec, .boot_address = kBootGen6Switch,
     .default_flash_chip = "MX25L25635F", .sim_model = "spectrum4", .cr_space = kSwitchGen6CrSpace,
     .firmware_flash = kSwitchComponentUpdate,
     .tracer = &kSwitchFirmwareTracer},
};

}  // namespace

std::span<const DeviceInfo> switch_records() { return kSwitches; }

}  // namespace openflint::catalog
