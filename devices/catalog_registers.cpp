// catalog_registers: access-register layouts mst reg knows, with the PRM field names and positions
// mstflint 4.21's register database gives them (mstreg --show_reg), checked field by field by the
// mstreg interop test.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "devices/RegisterLayout.h"

namespace openflint {
namespace {

using A = FieldAccess;

constexpr std::array kMgir{
    AccessRegisterField{"device_id", 0x00, 0, 16}, AccessRegisterField{"device_hw_revision", 0x00, 16, 16},
    AccessRegisterField{"num_ports", 0x04, 16, 8}, AccessRegisterField{"hw_dev_id", 0x08, 0, 16},
    AccessRegisterField{"sub_minor", 0x20, 0, 8}, AccessRegisterField{"minor", 0x20, 8, 8}, AccessRegisterField{"major", 0x20, 16, 8},
    AccessRegisterField{"psid[3]", 0x30, 0, 8}, AccessRegisterField{"psid[2]", 0x30, 8, 8},
    AccessRegisterField{"psid[1]", 0x30, 16, 8}, AccessRegisterField{"psid[0]", 0x30, 24, 8},
    AccessRegisterField{"psid[7]", 0x34, 0, 8}, AccessRegisterField{"psid[6]", 0x34, 8, 8},
    AccessRegisterField{"psid[5]", 0x34, 16, 8}, AccessRegisterField{"psid[4]", 0x34, 24, 8},
    AccessRegisterField{"psid[11]", 0x38, 0, 8}, AccessRegisterField{"psid[10]", 0x38, 8, 8},
    AccessRegisterField{"psid[9]", 0x38, 16, 8}, AccessRegisterField{"psid[8]", 0x38, 24, 8},
    AccessRegisterField{"psid[15]", 0x3c, 0, 8}, AccessRegisterField{"psid[14]", 0x3c, 8, 8},
    AccessRegisterField{"psid[13]", 0x3c, 16, 8}, AccessRegisterField{"psid[12]", 0x3c, 24, 8},
    AccessRegisterField{"extended_major", 0x44, 0, 32}, AccessRegisterField{"extended_minor", 0x48, 0, 32},
    AccessRegisterField{"extended_sub_minor", 0x4c, 0, 32},
};

constexpr std::array kMfrl{
    AccessRegisterField{"reset_trigger", 0x04, 0, 8, A::RW}, AccessRegisterField{"reset_type", 0x04, 8, 8},
    AccessRegisterField{"rst_type_sel", 0x04, 24, 3, A::RW}, AccessRegisterField{"pci_rescan_required", 0x04, 31, 1},
};

constexpr std::array kMtmp{
    AccessRegisterField{"sensor_index", 0x00, 0, 12, A::Index}, AccessRegisterField{"slot_index", 0x00, 16, 4, A::Index},
    AccessRegisterField{"temperature", 0x04, 0, 16},
    AccessRegisterField{"max_temperature", 0x08, 0, 16}, AccessRegisterField{"mte", 0x08, 31, 1, A::RW},
    AccessRegisterField{"temperature_threshold_hi", 0x0c, 0, 16, A::RW},
    AccessRegisterField{"temperature_threshold_lo", 0x10, 0, 16, A::RW},
};

constexpr std::array kMnvgc{
    AccessRegisterField{"nvda_read_factory_settings", 0x00, 0, 1},
    AccessRegisterField{"nvda_read_current_settings", 0x00, 1, 1},
};

constexpr std::array kMnvqc{
    AccessRegisterField{"type", 0x00, 0, 32, A::Index}, AccessRegisterField{"support_rd", 0x04, 0, 1},
    AccessRegisterField{"support_wr", 0x04, 1, 1}, AccessRegisterField{"version", 0x04, 4, 4},
};

// The firmware tracer's registers (docs/trace.md; fw-trace-and-fwctl.md A1), as the 4.21 adb has
// them (tracer_capabilities, adb-only at HEAD, is not in 4.21's).
constexpr std::array kMtrcCap{
    AccessRegisterField{"num_string_db", 0x00, 0, 4}, AccessRegisterField{"trc_ver", 0x00, 24, 2},
    AccessRegisterField{"trace_to_memory", 0x00, 30, 1}, AccessRegisterField{"trace_owner", 0x00, 31, 1, A::RW},
    AccessRegisterField{"num_string_trace", 0x04, 16, 8}, AccessRegisterField{"first_string_trace", 0x04, 24, 8},
    AccessRegisterField{"log_max_trace_buffer_size", 0x08, 0, 8},
};

constexpr std::array kMtrcConf{
    AccessRegisterField{"trace_mode", 0x00, 0, 4, A::RW}, AccessRegisterField{"log_trace_buffer_size", 0x04, 0, 8, A::RW},
    AccessRegisterField{"trace_mkey", 0x08, 0, 32, A::RW},
};

// string_db_data (read_size bytes from 0x08) is not a field mst reg shows: dump it with mst trace --strings.
constexpr std::array kMtrcStdb{
    AccessRegisterField{"read_size", 0x00, 0, 24, A::Index}, AccessRegisterField{"string_db_index", 0x00, 28, 4, A::Index},
    AccessRegisterField{"start_offset", 0x04, 0, 32, A::Index},
};

constexpr std::array kMtrcCtrl{
    AccessRegisterField{"modify_field_select", 0x00, 0, 16, A::WO}, AccessRegisterField{"arm_event", 0x00, 27, 1, A::WO},
    AccessRegisterField{"trace_status", 0x00, 30, 2, A::RW}, AccessRegisterField{"current_timestamp_52_32", 0x08, 0, 21},
    AccessRegisterField{"current_timestamp_31_0", 0x0c, 0, 32},
};

constexpr std::array kLayouts{
    RegisterLayout{"MGIR", 0x9020, 0xa0, kMgir},
    RegisterLayout{"MFRL", 0x9028, 0x08, kMfrl},
    RegisterLayout{"MNVQC", 0x9030, 0x08, kMnvqc},
    RegisterLayout{"MNVGC", 0x9034, 0x10, kMnvgc},
    RegisterLayout{"MTMP", 0x900a, 0x20, kMtmp},
    RegisterLayout{"MTRC_CAP", 0x9040, 0x84, kMtrcCap},
    RegisterLayout{"MTRC_CONF", 0x9041, 0x80, kMtrcConf},
    RegisterLayout{"MTRC_STDB", 0x9042, 0x0c, kMtrcStdb},
    RegisterLayout{"MTRC_CTRL", 0x9043, 0x40, kMtrcCtrl},
};

bool same(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::span<const RegisterLayout> register_layouts() { return kLayouts; }

Result<const RegisterLayout*> find_register_layout(std::string_view name) {
  for (const RegisterLayout& r : kLayouts)
    if (same(r.name, name)) return &r;
  std::string known;
  for (const RegisterLayout& r : kLayouts) known += (known.empty() ? "" : ", ") + std::string(r.name);
  return make_error(ErrorCode::NotFound, "unknown register " + std::string(name) + " (known: " + known + ")");
}

}  // namespace openflint
