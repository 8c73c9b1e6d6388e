// MtrcCapRegister: the MTRC_CAP access register (0x9040, tracer capabilities and ownership).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"

namespace openflint {

// One string-DB section as MTRC_CAP reports it: string_db_param[i] at 0x10 + 8 * i, the base
// address (+0, 32 bits; the offset of the section's first string in the whole DB) and the size
// in bytes (+4 [23:0]).
struct MtrcStringDbParam {
  std::uint32_t base_address = 0;
  std::uint32_t size = 0;  // 24 bits on the wire
};

// Fields (fw-trace-and-fwctl.md A1; PRM mtrc_cap, Linux mlx5_ifc_mtrc_cap_bits):
// 0x00: trace_owner [31], trace_to_memory [30], trc_ver [25:24], num_string_db [3:0];
// 0x04: first_string_trace [31:24], num_string_trace [23:16];
// 0x08: tracer_capabilities [31:30] (adb only: bit 0 FIFO, bit 1 MEM), log_max_trace_buffer_size [7:0];
// 0x10 + 8 * i: string_db_param[i], i = 0..7.
struct MtrcCapRegister {
  static constexpr std::uint16_t kId = 0x9040;
  static constexpr std::size_t kSize = 0x80;     // what the Linux driver sends (the adb says 0x84)
  static constexpr std::size_t kMinSize = 0x50;  // through the last string_db_param
  static constexpr std::size_t kMaxStringDbs = 8;
  static constexpr std::uint32_t kMaxStringDbSize = 0xffffff;

  bool trace_owner = false;      // RW: write 1 to ask for ownership, 0 to give it up
  bool trace_to_memory = false;  // RO: host-memory mode available
  std::uint8_t trc_ver = 0;      // RO: 0 or 1; picks the timestamp event's "unreliable" bit
  std::uint8_t num_string_db = 0;
  std::uint8_t first_string_trace = 0;
  std::uint8_t num_string_trace = 0;
  std::uint8_t tracer_capabilities = 0;
  std::uint8_t log_max_trace_buffer_size = 0;  // log2, in 4 KiB units
  std::array<MtrcStringDbParam, kMaxStringDbs> string_db_param{};

  // Out-of-range values are cut to their field's width.
  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  // At least kMinSize bytes; InvalidImage otherwise.
  [[nodiscard]] static Result<MtrcCapRegister> decode(std::span<const std::uint8_t> bytes);
  // The sections in use: the first min(num_string_db, 8) params (the driver handles up to 8).
  [[nodiscard]] std::span<const MtrcStringDbParam> string_dbs() const;
};

}  // namespace openflint
