// catalog_nvconfig: the NV configuration items and parameters openflint knows (docs/nvconfig.md §3.1).
// Layouts, names and values are mstflint 4.21's database facts; defaults, limits and the item
// versions are the simulated firmware's choices (no public per-family data), said in the docs.
#include "devices/NvConfigInfo.h"

#include <array>

namespace openflint {
namespace {

using K = NvValueKind;
using C = NvItemClass;

constexpr std::uint32_t kMaxVfsPerPf = 16;
constexpr std::uint32_t kMaxPfs = 2;

constexpr std::array kLinkTypeNames{NvEnumName{"IB", 1}, NvEnumName{"ETH", 2}};
constexpr std::array kPayloadNames{NvEnumName{"AUTOMATIC", 0}, NvEnumName{"_4KB", 0xc}};
constexpr std::array kCqeNames{NvEnumName{"BALANCED", 0}, NvEnumName{"AGGRESSIVE", 1}};

constexpr NvField kSriovValid{.byte = 0x0, .lsb = 31, .width = 1};
constexpr NvField kNumPfsValid{.byte = 0x0, .lsb = 28, .width = 1};

constexpr std::array kLinkType{
    NvParameter{.name = "LINK_TYPE", .field = {0x0, 2, 2}, .kind = K::Enum, .names = kLinkTypeNames,
                .factory_default = 1, .description = "the port's protocol: InfiniBand or Ethernet"},
};

constexpr std::array kGlobalPciConf{
    NvParameter{.name = "NUM_OF_VFS", .field = {0x4, 0, 16}, .kind = K::Unsigned, .valid = kSriovValid,
                .factory_default = 8, .max_value = kMaxVfsPerPf,
                .description = "virtual functions per physical function"},
    NvParameter{.name = "NUM_OF_PF", .field = {0x4, 16, 8}, .kind = K::Unsigned, .valid = kNumPfsValid,
                .factory_default = 1, .max_value = kMaxPfs,
                .description = "PCIe physical functions the adapter exposes"},
    NvParameter{.name = "SRIOV_EN", .field = {0x4, 31, 1}, .kind = K::Bool, .valid = kSriovValid,
                .description = "expose the SR-IOV capability"},
};

constexpr std::array kGlobalPciCap{
    NvParameter{.name = "max_vfs_per_pf_valid", .field = {0x0, 31, 1}, .kind = K::Bool, .factory_default = 1},
    NvParameter{.name = "num_pfs_supported", .field = {0x0, 28, 1}, .kind = K::Bool, .factory_default = 1},
    NvParameter{.name = "max_vfs_per_pf", .field = {0x4, 0, 16}, .factory_default = kMaxVfsPerPf},
    NvParameter{.name = "max_num_pfs", .field = {0x4, 16, 8}, .factory_default = kMaxPfs},
    NvParameter{.name = "sriov_support", .field = {0x4, 31, 1}, .kind = K::Bool, .factory_default = 1},
};

constexpr std::array kTptConf{
    NvParameter{.name = "INT_LOG_MAX_PAYLOAD_SIZE", .field = {0x0, 0, 4}, .kind = K::Enum, .names = kPayloadNames,
                .description = "PCIe burst size of the internal translation and protection unit"},
};

constexpr std::array kKeepLinkUp{
    NvParameter{.name = "KEEP_ETH_LINK_UP", .field = {0x0, 0, 1}, .kind = K::Bool, .factory_default = 1,
                .description = "keep the Ethernet link up while the server is not in standby"},
    NvParameter{.name = "KEEP_IB_LINK_UP", .field = {0x0, 1, 1}, .kind = K::Bool,
                .description = "keep the InfiniBand link up while the server is not in standby"},
    NvParameter{.name = "KEEP_LINK_UP_ON_BOOT", .field = {0x0, 2, 1}, .kind = K::Bool,
                .description = "keep the link up from power-up until the driver loads"},
    NvParameter{.name = "KEEP_LINK_UP_ON_STANDBY", .field = {0x0, 3, 1}, .kind = K::Bool,
                .description = "keep the link up while the server is in standby"},
};

constexpr std::array kSwOffloadConf{
    NvParameter{.name = "CQE_COMPRESSION", .field = {0x0, 0, 3}, .kind = K::Enum, .names = kCqeNames,
                .description = "the completion-queue entry compression algorithm"},
};

constexpr std::array kLegacyBootNames{NvEnumName{"NONE", 0}, NvEnumName{"PXE", 1}, NvEnumName{"ISCSI", 2},
                                     NvEnumName{"PXE_WO_FAIL_ISCSI", 4}, NvEnumName{"ISCSI_WO_FAIL_PXE", 5}};

// Items the expansion ROM (FlexBoot/UEFI) reads; per host and function (host 0, function 0).
constexpr std::array kRomBootConf1{
    NvParameter{.name = "BOOT_VLAN", .field = {0x0, 0, 12}, .kind = K::Unsigned, .factory_default = 1,
                .description = "the VLAN the boot ROM uses when BOOT_VLAN_EN is set"},
    NvParameter{.name = "LEGACY_BOOT_PROTOCOL", .field = {0x0, 16, 8}, .kind = K::Enum, .names = kLegacyBootNames,
                .factory_default = 1, .description = "what the legacy-BIOS boot ROM boots from (NONE: not a boot target)"},
    NvParameter{.name = "BOOT_VLAN_EN", .field = {0x0, 30, 1}, .kind = K::Bool,
                .description = "the boot ROM tags its traffic with BOOT_VLAN"},
};

constexpr std::array kRomIbBootConf{
    NvParameter{.name = "BOOT_PKEY", .field = {0x0, 0, 16}, .kind = K::Unsigned,
                .description = "the partition key the boot ROM uses on InfiniBand (0: the default)"},
};

constexpr std::array kRomBootConf2{
    NvParameter{.name = "BOOT_UNDI_NETWORK_WAIT", .field = {0x0, 16, 8}, .kind = K::Unsigned,
                .description = "seconds the UNDI boot waits for the network link"},
};

constexpr std::array kGen5HcaItems{
    NvItem{.name = "nv_global_pci_conf", .title = "GLOBAL PCI CONF", .item_class = C::Global, .index = 0x80,
           .size = 12, .parameters = kGlobalPciConf},
    NvItem{.name = "nv_global_pci_cap", .title = "GLOBAL PCI CAP", .item_class = C::Global, .index = 0x81,
           .size = 20, .capability = true, .parameters = kGlobalPciCap},
    NvItem{.name = "nv_tpt_conf", .title = "TPT CONF", .item_class = C::Global, .index = 0x82, .size = 4,
           .parameters = kTptConf},
    NvItem{.name = "nv_sw_offload_conf", .title = "SW OFFLOAD CONF", .item_class = C::Global, .index = 0x10a,
           .size = 8, .parameters = kSwOffloadConf},
    NvItem{.name = "nv_vpi_link_type", .title = "VPI LINK TYPE", .item_class = C::PhysicalPort, .index = 0x12,
           .size = 4, .parameters = kLinkType},
    NvItem{.name = "nv_keep_link_up", .title = "KEEP LINK UP", .item_class = C::PhysicalPort, .index = 0x190,
           .size = 4, .version = 1, .parameters = kKeepLinkUp},
    NvItem{.name = "nv_rom_boot_conf2", .title = "ROM BOOT CONF2", .item_class = C::HostFunction, .index = 0x195,
           .size = 4, .parameters = kRomBootConf2},
    NvItem{.name = "nv_rom_boot_conf1", .title = "ROM BOOT CONF1", .item_class = C::HostFunction, .index = 0x221,
           .size = 4, .parameters = kRomBootConf1},
    NvItem{.name = "nv_rom_ib_boot_conf", .title = "ROM IB BOOT CONF", .item_class = C::HostFunction, .index = 0x222,
           .size = 4, .parameters = kRomIbBootConf},
    // What the boot ROM can do: all optional features off (mstconfig reads it for the ROM items).
    NvItem{.name = "nv_rom_cap", .title = "ROM CAP", .item_class = C::Global, .index = 0x101, .size = 4,
           .capability = true},
    // Served (the boot ROM's own settings) but with no parameter openflint names yet.
    NvItem{.name = "nv_rom_uefi_conf", .title = "ROM UEFI CONF", .item_class = C::HostFunction, .index = 0x196, .size = 4},
    NvItem{.name = "nv_rom_debug_level", .title = "ROM DEBUG LEVEL", .item_class = C::HostFunction, .index = 0x202,
           .size = 12},
    NvItem{.name = "nv_rom_uefi_debug_level", .title = "ROM UEFI DEBUG LEVEL", .item_class = C::HostFunction,
           .index = 0x206, .size = 4},
};

// ConnectX-3 (4th generation, docs/nvconfig.md §4). Values are mstconfig's FourthGenCommander
// spellings; the defaults are the simulated firmware's (it answers them in QUERY_DEF_PARAMS).
constexpr std::uint32_t kGen4MaxVfs = 16;
constexpr std::uint32_t kGen4MaxLogBarSize = 10;

constexpr std::array kGen4LinkTypeNames{NvEnumName{"IB", 1}, NvEnumName{"ETH", 2}, NvEnumName{"VPI", 3}};
constexpr std::array kGen4BootProtocolNames{NvEnumName{"None", 0}, NvEnumName{"PXE", 1}, NvEnumName{"iSCSI", 2},
                                           NvEnumName{"Both", 3}};

constexpr std::array kGen4Sriov{
    NvParameter{.name = "SRIOV_EN", .field = {0x0, 31, 1}, .kind = K::Bool, .description = "Enable SR-IOV"},
    NvParameter{.name = "NUM_OF_VFS", .field = {0x0, 0, 16}, .kind = K::Unsigned, .factory_default = 8,
                .max_value = kGen4MaxVfs, .description = "desired amount of virtual functions"},
};

constexpr std::array kGen4Vpi{
    NvParameter{.name = "LINK_TYPE", .field = {0x0, 0, 2}, .kind = K::Enum, .names = kGen4LinkTypeNames,
                .factory_default = 1, .description = "the port's protocol: InfiniBand, Ethernet or VPI (sensed)"},
};

constexpr std::array kGen4BarSize{
    NvParameter{.name = "LOG_BAR_SIZE", .field = {0x0, 0, 32}, .kind = K::Unsigned, .factory_default = 3,
                .max_value = kGen4MaxLogBarSize, .description = "log2 of the BAR size in MB (3: 8 MB)"},
};

constexpr std::array kGen4PrebootBoot{
    NvParameter{.name = "BOOT_OPTION_ROM_EN", .field = {0x0, 31, 1}, .kind = K::Bool, .factory_default = 1,
                .description = "Disable/Enable boot option ROM"},
    NvParameter{.name = "BOOT_VLAN_EN", .field = {0x0, 30, 1}, .kind = K::Bool,
                .description = "Disable/Enable VLAN mode for network boot"},
    NvParameter{.name = "BOOT_RETRY_CNT", .field = {0x0, 24, 3}, .kind = K::Unsigned,
                .description = "retries on a boot failure (7: infinite)"},
    NvParameter{.name = "LEGACY_BOOT_PROTOCOL", .field = {0x0, 16, 8}, .kind = K::Enum,
                .names = kGen4BootProtocolNames, .factory_default = 1,
                .description = "None: disable legacy boot. PXE: DHCP/TFTP boot. Both: PXE and iSCSI"},
    NvParameter{.name = "BOOT_VLAN", .field = {0x0, 0, 12}, .kind = K::Unsigned, .factory_default = 1,
                .description = "VLAN ID for the network boot"},
};

// mstconfig's order (its parameter enumeration): SR-IOV, VPI per port, BAR size, boot settings.
constexpr std::array kGen4HcaItems{
    NvItem{.name = "sriov", .title = "SR-IOV", .item_class = C::Global, .index = 0x11, .size = 4,
           .parameters = kGen4Sriov},
    NvItem{.name = "vpi_settings", .title = "VPI SETTINGS", .item_class = C::PhysicalPort, .index = 0x12, .size = 4,
           .parameters = kGen4Vpi},
    NvItem{.name = "bar_size", .title = "BAR SIZE", .item_class = C::Global, .index = 0x13, .size = 4,
           .parameters = kGen4BarSize},
    NvItem{.name = "preboot_boot_settings", .title = "PREBOOT BOOT SETTINGS", .item_class = C::PhysicalPort,
           .index = 0x2021, .size = 4, .parameters = kGen4PrebootBoot},
};

}  // namespace

const NvConfigTable kGen4HcaNvConfig{.access = NvConfigAccess::Gen4Registers, .items = kGen4HcaItems};

const NvConfigTable kGen5HcaNvConfig{.access = NvConfigAccess::AccessRegisters, .items = kGen5HcaItems};

}  // namespace openflint
