// ToolsHcrQueries: QUERY_DEV_CAP and QUERY_DEF_PARAMS mailbox contents as named field tables over the catalog's NV items.
#include "sim/ToolsHcrQueries.h"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "mtcr/registers/NvConfigRegisters.h"

namespace openflint::sim {
namespace {

// Catalog item and parameter names (devices/catalog_nvconfig.cpp, kGen4HcaItems).
constexpr std::string_view kSriovItem = "sriov";
constexpr std::string_view kVpiItem = "vpi_settings";
constexpr std::string_view kBarSizeItem = "bar_size";
constexpr std::string_view kPrebootItem = "preboot_boot_settings";
constexpr std::string_view kNumOfVfs = "NUM_OF_VFS";
constexpr std::string_view kLogBarSize = "LOG_BAR_SIZE";

// QUERY_DEV_CAP: each field in the big-endian dword at its byte offset (mlxcfg_param_lib.cpp
// MAX_VFS_ADDR, MAX_BAR_SZ_ADDR, DEFAULT_BAR_SZ_ADDR; mlxcfg_4thgen_commander.cpp TOOL_CAP_BITS_ADDR).
constexpr NvField kToolCapabilities{.byte = 0xc0, .lsb = 0, .width = 6};
constexpr NvField kMaxFunctionIndex{.byte = 0x38, .lsb = 0, .width = 8};
constexpr NvField kMaxLogBarSize{.byte = 0xc8, .lsb = 3, .width = 6};
constexpr NvField kDefaultLogUarSize{.byte = 0x48, .lsb = 16, .width = 6};  // log BAR size - 1
constexpr std::size_t kDevCapBytes = 0xcc;  // through the last field's dword

// The tool capability bits (mlxcfg_param_lib.cpp: SRIOV_MASK .. BAR_SZ_MASK).
constexpr std::uint32_t kCapSriov = 0x1;
constexpr std::uint32_t kCapVpiPort1 = 0x8;  // port 2: the next bit
constexpr std::uint32_t kCapBarSize = 0x20;
constexpr std::uint32_t kCapPorts = 2;       // the capability word has VPI bits for two ports

// QUERY_DEF_PARAMS (tools_open_query_def_params_global / _per_port; an adb bit offset o of
// width w sits in dword o/32 at lsb 31 - o%32 - (w-1)).
constexpr std::size_t kGlobalBytes = 0x14;
constexpr std::size_t kPerPortBytes = 0x1c;
constexpr NvField kPayloadVersion{.byte = 0x0, .lsb = 24, .width = 8};  // both layouts
constexpr std::uint32_t kPayloadVersionServed = 1;
constexpr NvField kGlobalMaxUarBarSize{.byte = 0x4, .lsb = 12, .width = 4};
constexpr NvField kPortNvConfigVpi{.byte = 0x0, .lsb = 18, .width = 1};  // the port has VPI settings

// A parameter whose factory default the firmware reports, and where.
struct DefaultField {
  std::string_view item;
  std::string_view parameter;
  NvField field;
};

constexpr std::array kGlobalDefaults{
    DefaultField{kSriovItem, "SRIOV_EN", {.byte = 0x4, .lsb = 31, .width = 1}},
    DefaultField{kSriovItem, kNumOfVfs, {.byte = 0x4, .lsb = 0, .width = 8}},
    DefaultField{kBarSizeItem, kLogBarSize, {.byte = 0x4, .lsb = 8, .width = 4}},  // uar_bar_size
};

constexpr std::array kPortDefaults{
    DefaultField{kVpiItem, "LINK_TYPE", {.byte = 0x4, .lsb = 25, .width = 2}},
    DefaultField{kPrebootItem, "BOOT_VLAN", {.byte = 0x4, .lsb = 0, .width = 12}},
    DefaultField{kPrebootItem, "LEGACY_BOOT_PROTOCOL", {.byte = 0x4, .lsb = 16, .width = 4}},
    DefaultField{kPrebootItem, "BOOT_RETRY_CNT", {.byte = 0x4, .lsb = 20, .width = 4}},
    DefaultField{kPrebootItem, "BOOT_VLAN_EN", {.byte = 0x4, .lsb = 28, .width = 1}},
    DefaultField{kPrebootItem, "BOOT_OPTION_ROM_EN", {.byte = 0x4, .lsb = 29, .width = 1}},
};

const NvItem* find_item(const DeviceInfo& info, std::string_view name) {
  if (info.nv_config == nullptr) return nullptr;
  for (const NvItem& item : info.nv_config->items)
    if (item.name == name) return &item;
  return nullptr;
}

const NvParameter* find_parameter(const DeviceInfo& info, std::string_view item_name, std::string_view name) {
  const NvItem* item = find_item(info, item_name);
  if (item == nullptr) return nullptr;
  for (const NvParameter& p : item->parameters)
    if (p.name == name) return &p;
  return nullptr;
}

Result<void> check_room(std::span<const std::uint8_t> mailbox, std::size_t needed, std::string_view what) {
  if (mailbox.size() >= needed) return {};
  return make_error(ErrorCode::InvalidArgument, std::string(what) + " needs " + std::to_string(needed) +
                                                    " mailbox bytes, the mailbox has " + std::to_string(mailbox.size()));
}

void put_defaults(const DeviceInfo& info, std::span<const DefaultField> fields, std::span<std::uint8_t> mailbox) {
  for (const DefaultField& f : fields)
    if (const NvParameter* p = find_parameter(info, f.item, f.parameter)) nv_reg::put_field(mailbox, f.field, p->factory_default);
}

std::uint32_t tool_capabilities(const DeviceInfo& info) {
  std::uint32_t caps = 0;
  if (find_item(info, kSriovItem) != nullptr) caps |= kCapSriov;
  if (find_item(info, kVpiItem) != nullptr)
    for (std::uint32_t port = 0; port < std::min<std::uint32_t>(info.port_count, kCapPorts); ++port)
      caps |= kCapVpiPort1 << port;
  if (find_item(info, kBarSizeItem) != nullptr) caps |= kCapBarSize;
  return caps;
}

}  // namespace

Result<void> fill_dev_cap(const DeviceInfo& info, std::span<std::uint8_t> mailbox) {
  OF_TRY(check_room(mailbox, kDevCapBytes, "QUERY_DEV_CAP"));
  std::fill(mailbox.begin(), mailbox.end(), 0);
  nv_reg::put_field(mailbox, kToolCapabilities, tool_capabilities(info));
  // mstconfig: max VFs = the highest function index - 1 (the PF is function 0).
  if (const NvParameter* vfs = find_parameter(info, kSriovItem, kNumOfVfs))
    nv_reg::put_field(mailbox, kMaxFunctionIndex, vfs->max_value + 1);
  if (const NvParameter* bar = find_parameter(info, kBarSizeItem, kLogBarSize)) {
    nv_reg::put_field(mailbox, kMaxLogBarSize, bar->max_value);
    // The field counts the UAR half of the BAR only (mstconfig adds 1 back).
    if (bar->factory_default != 0) nv_reg::put_field(mailbox, kDefaultLogUarSize, bar->factory_default - 1);
  }
  return {};
}

Result<void> fill_def_params(const DeviceInfo& info, std::uint8_t port, std::span<std::uint8_t> mailbox) {
  if (port > info.port_count)
    return make_error(ErrorCode::InvalidArgument, "QUERY_DEF_PARAMS for port " + std::to_string(port) + ": " +
                                                      std::string(info.name) + " has " +
                                                      std::to_string(info.port_count) + " ports");
  OF_TRY(check_room(mailbox, port == 0 ? kGlobalBytes : kPerPortBytes, "QUERY_DEF_PARAMS"));
  std::fill(mailbox.begin(), mailbox.end(), 0);
  nv_reg::put_field(mailbox, kPayloadVersion, kPayloadVersionServed);
  // Everything else the layouts have (WoL, phy/force modes, IB boot, boot IP version,
  // timestamp/steering/clock modes) stays 0: this firmware offers none of it.
  if (port == 0) {
    put_defaults(info, kGlobalDefaults, mailbox);
    if (const NvParameter* bar = find_parameter(info, kBarSizeItem, kLogBarSize))
      nv_reg::put_field(mailbox, kGlobalMaxUarBarSize, bar->max_value);
    return {};
  }
  if (find_item(info, kVpiItem) != nullptr) nv_reg::put_field(mailbox, kPortNvConfigVpi, 1);
  put_defaults(info, kPortDefaults, mailbox);
  return {};
}

}  // namespace openflint::sim
