// SwitchModels: today's switches as the tests expect them (facts from mstflint 4.21's device
// table, the kernel's mlxsw PCI ids and pci.ids; docs/devices.md), and the helpers the tests of
// this folder share: a board made from the old sample with its own GUIDs/MACs/VSD, and the
// query documents read back.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <cstdio>
#include <ostream>
#include <string>

#include "tests/support/TestSupport.h"

namespace openflint::test {

struct SwitchModel {
  const char* model;       // hcasim / sample name
  const char* name;        // catalog and `mst status` name
  const char* hw_id;       // "0x024d" as mst status prints it
  const char* pci_id;      // "0xd2f0"
  const char* mst_prefix;  // mt<decimal PCI id>
  bool infiniband;         // answers vendor MADs on an InfiniBand fabric
  const char* boot_register;   // where a burn writes the boot copy's address (mstflint mf_update_boot_addr)
  const char* guard_register;  // the cache-replacement guard's offset register
  // mstflint 4.21 burns it over PCI through the flash gateway, not the firmware's MCC (its
  // work-around for non-secured Quantum-2), and its firmware keeps running under those writes.
  bool gateway_burn_over_pci;
  // mstflint 4.21 reads the flash of the device itself (--no_fw_ctrl q, v); false: its
  // CRSpaceRegisters::getLifeCycle knows no Spectrum-4 and stops both with "life_cycle query is
  // not implemented for the current device" (its default query goes through the firmware; its
  // burn stops there too, before it writes).
  bool mstflint_reads_flash;
};

inline constexpr SwitchModel kTodaysSwitches[] = {
    {"quantum", "Quantum", "0x024d", "0xd2f0", "mt54000", true, "0x000f0080", "0x000f0440", false, true},
    {"quantum2", "Quantum-2", "0x0257", "0xd2f2", "mt54002", true, "0x000f1000", "0x000f0484", true, true},
    {"spectrum3", "Spectrum-3", "0x0250", "0xcf70", "mt53104", false, "0x000f0080", "0x000f0440", false, true},
    {"spectrum4", "Spectrum-4", "0x0254", "0xcf80", "mt53120", false, "0x000f1000", "0x000f0484", false, false},
};

inline void PrintTo(const SwitchModel& m, std::ostream* os) { *os << m.model; }
inline std::string switch_model_name(const ::testing::TestParamInfo<SwitchModel>& info) { return info.param.model; }

// A board's identity: what a burn must keep.
struct BoardIdentity {
  std::uint64_t guid = 0;
  std::uint64_t mac = 0;
  std::string vsd;
};

inline std::string hex64(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// `flint -i IMAGE --json q` (or -d DEVICE), parsed; a failure when it does not answer.
inline nlohmann::json flint_query_json(const std::vector<std::string>& target) {
  std::vector<std::string> args = target;
  args.insert(args.end(), {"--json", "q"});
  const auto q = run_tool("flint", args);
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  auto j = nlohmann::json::parse(q.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << q.out;
  return j;
}

// A copy of `model`'s old sample at `path` with the board's own identity written into its
// device data (flint -i sg / sv), as a factory leaves each board.
inline void make_board_image(const std::string& model, const std::filesystem::path& path, const BoardIdentity& id) {
  std::filesystem::copy_file(sample_image(model + "-old"), path, std::filesystem::copy_options::overwrite_existing);
  const auto g = run_tool("flint", {"-i", path.string(), "sg", hex64(id.guid), hex64(id.mac).substr(6)});
  EXPECT_EQ(g.exit_code, 0) << g.out << g.err;
  const auto v = run_tool("flint", {"-i", path.string(), "sv", id.vsd});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

// The query document holds the board's identity and the firmware version `version`.
inline void expect_board(const nlohmann::json& q, const BoardIdentity& id, const std::string& version) {
  if (!q.is_object() || !q.contains("base_guid") || !q.contains("base_mac")) {
    ADD_FAILURE() << "not a query document: " << q.dump(2);
    return;
  }
  EXPECT_EQ(q["fw_version"], version) << q.dump(2);
  EXPECT_EQ(q["base_guid"]["base"], hex64(id.guid)) << q.dump(2);
  EXPECT_EQ(q["base_mac"]["base"], hex64(id.mac)) << q.dump(2);
  EXPECT_EQ(q["device_vsd"], id.vsd) << q.dump(2);
}

}  // namespace openflint::test
