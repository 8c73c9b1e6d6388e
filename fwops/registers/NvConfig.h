// NvConfig: a device's non-volatile configuration (mst config): its parameters, query, set, reset to defaults.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "devices/NvConfigInfo.h"
#include "fwops/Device.h"

namespace openflint {

// One parameter as this device has it: LINK_TYPE of item nv_vpi_link_type on port 1 is
// "LINK_TYPE_P1".
struct NvSetting {
  std::string name;
  const NvItem* item = nullptr;
  const NvParameter* parameter = nullptr;
  std::uint8_t port = 0;  // per-port items: 1..N; else 0
};

// A parameter's values; nullopt where the firmware cannot report that kind (docs/nvconfig.md §2.3).
struct NvReading {
  NvSetting setting;
  std::optional<std::uint32_t> factory;  // the default
  std::optional<std::uint32_t> current;  // in effect since the last boot
  std::uint32_t next = 0;                // applied at the next boot
  // The next boot changes it: next differs from current (or, without current, from the default).
  [[nodiscard]] bool pending() const;
};

struct NvAssignment {
  NvSetting setting;
  std::uint32_t value = 0;
};

// Opened on a device whose catalog record has NV configuration and whose firmware answers its
// registers: MNVQC on ConnectX-4 and later, MNVA on ConnectX-3 (whose factory defaults are the
// catalog's and whose "current" values cannot be read); NotSupported otherwise, with the reason
// (no NV configuration known for the family, no firmware runs, no register channel). Every
// access goes through the device's register port; the Device must outlive it.
class NvConfig {
 public:
  [[nodiscard]] static Result<NvConfig> open(Device& device);

  // The parameters the firmware offers for read and write (MNVQC), in catalog order, ports
  // ascending. Capability items (read-only limits) are not parameters.
  [[nodiscard]] const std::vector<NvSetting>& settings() const { return settings_; }
  // By name, case-insensitive ("link_type_p1"): InvalidArgument "unknown parameter" for a name
  // no device has; NotSupported when this device lacks it.
  [[nodiscard]] Result<NvSetting> find(std::string_view name) const;
  [[nodiscard]] bool reads_factory() const { return reads_factory_; }
  [[nodiscard]] bool reads_current() const { return reads_current_; }

  // One NVDA read per item and mode.
  [[nodiscard]] Result<std::vector<NvReading>> query(std::span<const NvSetting> settings);
  // "NAME=VALUE" checked against the table (names, value spellings, ranges); nothing is sent.
  [[nodiscard]] Result<NvAssignment> parse_assignment(std::string_view text) const;
  // Writes the stored items: each touched item is read (next-boot values), the values (and their
  // valid bits) put in, and written back whole. Takes effect at the next reset.
  [[nodiscard]] Result<void> set(std::span<const NvAssignment> assignments);
  // Invalidates every stored item (MNVIA): each parameter returns to its default at the next reset.
  [[nodiscard]] Result<void> reset_to_defaults();

  // Register accesses sent so far.
  [[nodiscard]] std::uint64_t accesses() const;

 private:
  NvConfig(RegisterPort& port, const DeviceInfo& info, const NvConfigTable& table)
      : port_(&port), info_(&info), table_(&table) {}
  [[nodiscard]] Result<void> open_gen4(const std::string& name);
  [[nodiscard]] Result<std::vector<std::uint8_t>> read_item(std::uint32_t type, const NvItem& item, int mode);
  [[nodiscard]] Result<std::vector<std::uint8_t>> read_gen4_item(std::uint32_t type, const NvItem& item, int mode);
  [[nodiscard]] Result<std::optional<std::uint32_t>> item_caps(std::uint32_t type);

  RegisterPort* port_;
  const DeviceInfo* info_;
  const NvConfigTable* table_;
  std::vector<NvSetting> settings_;
  std::vector<const NvItem*> capabilities_;  // readable capability items
  bool reads_factory_ = false;
  bool reads_current_ = false;
};

// The protocol each port runs since the device's last boot — LINK_TYPE_Pn's current value:
// "InfiniBand" or "Ethernet", port 1 first; empty when the device has no such setting or its
// firmware does not answer. Reads only (MNVDA "current").
[[nodiscard]] std::vector<std::string> running_port_protocols(Device& device);

// A value as mstconfig prints it: "ETH(2)", "True(1)", "8" (an enum number without a name: "5").
[[nodiscard]] std::string nv_value_text(const NvParameter& parameter, std::uint32_t value);
// The value's name alone ("ETH", "True"), or the number for unsigned values and unnamed numbers.
[[nodiscard]] std::string nv_value_name(const NvParameter& parameter, std::uint32_t value);
// What the parameter accepts, for show_confs: "False|True", "IB|ETH", "<NUM>" (max when bounded).
[[nodiscard]] std::string nv_value_choices(const NvParameter& parameter);

}  // namespace openflint
