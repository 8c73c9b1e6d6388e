// NvConfigInfo: a device family's non-volatile configuration items and parameters (mstconfig's names) as data.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace openflint {

// How a family's NV configuration is reached (docs/nvconfig.md §1): the 5th-generation NV access
// registers (MNVDA with its 12-byte item header, MNVDI/MNVQC/MNVIA/MNVGC; ConnectX-4 and later),
// or the 4th-generation ones (MNVA with the 8-byte header, MNVI, MNVIA at 0x9029; ConnectX-3,
// whose PCI register channel is the tools HCR). Both go over any register channel.
enum class NvConfigAccess : std::uint8_t { AccessRegisters, Gen4Registers };

// The item type dword's class byte [31:24] (docs/nvconfig.md §2.2).
enum class NvItemClass : std::uint8_t { Global = 0, PhysicalPort = 1, HostFunction = 3, PerHost = 7 };

enum class NvValueKind : std::uint8_t { Bool, Unsigned, Enum };

// A bit field of an item's data: bits [lsb+width-1 : lsb] of the big-endian dword at `byte`.
struct NvField {
  std::uint16_t byte = 0;
  std::uint8_t lsb = 0;
  std::uint8_t width = 1;
};

struct NvEnumName {
  std::string_view name{};  // as mstconfig prints and accepts it ("ETH")
  std::uint32_t value = 0;
};

struct NvParameter {
  std::string_view name{};  // mstconfig's name; per-port items add _P<port> ("LINK_TYPE" → LINK_TYPE_P1)
  NvField field{};
  NvValueKind kind = NvValueKind::Unsigned;
  std::span<const NvEnumName> names{};  // Enum: the accepted names
  std::optional<NvField> valid{};      // the valid bit a set also sets; while 0 the value is the default
  std::uint32_t factory_default = 0;  // what the simulated firmware has before any set
  std::uint32_t max_value = 0;        // 0: the field's width bounds it
  std::string_view description{};
};

struct NvItem {
  std::string_view name{};   // the PRM/database name ("nv_vpi_link_type")
  std::string_view title{}; // mstconfig's heading ("VPI LINK TYPE")
  NvItemClass item_class = NvItemClass::Global;
  std::uint32_t index = 0;     // the item id inside its class (ids repeat across classes)
  std::uint16_t size = 4;      // data bytes
  std::uint8_t version = 0;    // the item version the firmware answers in MNVQC
  bool capability = false;     // read-only: what the firmware allows (limits of other items)
  std::span<const NvParameter> parameters{};
};

struct NvConfigTable {
  NvConfigAccess access = NvConfigAccess::AccessRegisters;
  std::span<const NvItem> items{};
};

// ConnectX-4 and later adapters (docs/nvconfig.md §3.1).
extern const NvConfigTable kGen5HcaNvConfig;
// ConnectX-3 and ConnectX-3 Pro (docs/nvconfig.md §4): the item index is the 16-bit type,
// per-port items carry the port in the header's type_mod.
extern const NvConfigTable kGen4HcaNvConfig;

}  // namespace openflint
