// ToolsHcrQueries: what a simulated ConnectX-3 firmware answers to the tools HCR's QUERY_DEV_CAP and QUERY_DEF_PARAMS, from the catalog.
#pragma once

#include <cstdint>
#include <span>

#include "core/Result.h"
#include "devices/DeviceInfo.h"

namespace openflint::sim {

// QUERY_DEV_CAP (opcode 0x03): the mailbox (zeroed first) gets the capabilities mstconfig's
// FourthGenCommander reads (mlxcfg_4thgen_commander.cpp, mlxcfg_param_lib.cpp), each in the
// big-endian dword at its byte offset: 0xc0 [5:0] the tools' configuration capability bits
// (SR-IOV, VPI per port, BAR size — for the items of info.nv_config, the ports info has; no
// Wake-on-LAN), 0x38 [7:0] the highest function index (NUM_OF_VFS's maximum + 1), 0xc8 [8:3]
// the largest log BAR size and 0x48 [21:16] the default log BAR size less one (the UAR half of
// the BAR, as mlx4's QUERY_DEV_CAP UAR_SZ). InvalidArgument when the mailbox is too small.
[[nodiscard]] Result<void> fill_dev_cap(const DeviceInfo& info, std::span<std::uint8_t> mailbox);

// QUERY_DEF_PARAMS (opcode 0x73): the mailbox (zeroed first) starts with the firmware's defaults
// in tools_open_query_def_params_global (port 0; 0x14 bytes) or _per_port (port N; 0x1c bytes)
// layout (mstflint tools_layouts/tools_open_layouts.c), taken from the catalog items' factory
// defaults. InvalidArgument for a port above info.port_count or a mailbox too small.
[[nodiscard]] Result<void> fill_def_params(const DeviceInfo& info, std::uint8_t port, std::span<std::uint8_t> mailbox);

}  // namespace openflint::sim
