// DeviceInfo: one adapter or switch ASIC as catalog data (ids, image format, flash gateway).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "devices/CrSpaceLayout.h"
#include "devices/FirmwareTracerInfo.h"
#include "devices/FlashGatewayInfo.h"
#include "devices/NvConfigInfo.h"
#include "devices/PciConfigGateway.h"
#include "devices/ToolsHcrLayout.h"
#include "image/Fs2ConfigArea.h"
#include "image/ImageFormat.h"  // the one format enum: the catalog names each device's

namespace openflint {

enum class DeviceKind { Hca, Switch };

[[nodiscard]] constexpr std::string_view to_string(DeviceKind k) {
  return k == DeviceKind::Hca ? "HCA" : "switch";
}

// Where the boot (failsafe) start address is written after a burn: value << shift into address.
struct BootAddressRegister {
  std::uint32_t address = 0;  // 0 = none known
  std::uint8_t shift = 0;
};

// What the firmware's reset register (MFRL, 0x9028) offers: the reset levels it arms as a
// bitmask (reset_trigger: bit 3 = level 3 "driver restart + PCI reset", bit 6 = level 4 "warm
// reboot") and the reset types (bit 0 = full chip). levels == 0: no such register — on these
// parts a PCI link reset (hot reset, link down) always reloads the firmware.
struct FirmwareResetSupport {
  std::uint8_t levels = 0;
  std::uint8_t types = 0;
};

// What the running firmware offers for reaching the flash through access registers instead of
// the CR-space gateway (mstflint fw_comps_mgr getFwSupport): component update = MCAM lists
// MCQS/MCQI/MCC/MCDA/MQIS (0x9060-0x9064) and MGIR, and the firmware runs the MCC update
// state machine (a new image downloaded through MCDA, verified and activated by the firmware).
struct FirmwareFlashAccess {
  bool component_update = false;
  // The running firmware, although it offers the component update, lets a tool erase and
  // program the flash through the gateway under it (it does not hang): mstflint 4.21 burns a
  // non-secured Quantum-2 over PCI through the gateway instead of MCC (fw_ops.cpp, its "non
  // secured BB" work-around), so that part's firmware must tolerate it. docs/fwaccess.md.
  bool tolerates_gateway_writes = false;
};

struct DeviceInfo {
  std::uint16_t hw_id = 0;             // CR-space hw_id_addr [15:0]
  std::uint32_t hw_id_addr = kHwIdAddr;  // where the hw id register is: 0xf0014 but on InfiniScale-era switches
  std::optional<std::uint8_t> hw_revision;  // [23:16] when it tells records apart
  std::string_view name;               // "ConnectX-3"
  std::string_view part_number;        // "MT27500"
  DeviceKind kind = DeviceKind::Hca;
  std::uint16_t pci_device_id = 0;     // normal operation
  std::uint16_t pci_recovery_id = 0;   // flash recovery ("livefish"); 0 = unknown
  std::uint16_t pci_alt_device_id = 0; // a second normal-mode id (e.g. compatibility mode); 0 = none
  std::uint16_t port_count = 0;        // 0 = unknown
  ImageFormat image_format = ImageFormat::Fs2;
  FlashGatewayInfo flash_gateway;
  PciConfigGateway pci_config_gateway = PciConfigGateway::None;  // how config space reaches CR-space
  BootAddressRegister boot_address;
  std::string_view default_flash_chip;  // FlashChip::name: the part the simulator fits
  std::string_view sim_model;           // simulator model name, e.g. "connectx3"
  CrSpaceLayout cr_space;               // CR-space size, register-dump ranges, named registers
  FirmwareResetSupport firmware_reset;  // the reset register, when the firmware has one
  FirmwareFlashAccess firmware_flash;   // flash access through the running firmware, if any
  const NvConfigTable* nv_config = nullptr;  // non-volatile configuration (mst config); null: none known
  const ToolsHcrLayout* tools_hcr = nullptr;  // the firmware's tools command interface in CR-space, if any
  // FS2 parts whose images carry a configuration area (SwitchX); config_sectors 0 = none.
  Fs2ConfigArea fs2_config_area;
  // CR-space address of the running firmware's version (FS2 parts: ConnectX-3 0x1f064, SwitchX
  // 0x60040; mstflint fs2_ops); 0 = none known. Layout (our model, the reference gives only the
  // address): [31:16] major, [15:0] minor, then at +4 [31:16] subminor.
  std::uint32_t running_fw_version_addr = 0;
  // The running firmware's tracer (MTRC_* registers, ICMD SET_ITRACE trace mask): its mask
  // classes as mstfwtrace names them; null on families without one (before Connect-IB / Switch-IB).
  const FirmwareTracerInfo* tracer = nullptr;
};

}  // namespace openflint
