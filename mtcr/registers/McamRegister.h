// McamRegister: the MCAM access register (0x907F), which access registers the running firmware answers.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"

namespace openflint {

// Fields (mstflint tools_open_mcam; Linux mlx5_ifc_mcam_reg_bits): access_reg_group in byte 3
// (INDEX), feature_group in byte 1, mng_access_reg_cap_mask at 0x08-0x17: a 128-bit big-endian
// mask where bit n set means register 0x9000 + 0x80 * group + n is answered (bit 0 is the LSB of
// byte 0x17). Group 0's tracer_registers field is bits 0x40-0x43 (MTRC_CAP .. MTRC_CTRL); the
// Linux driver creates its tracer only when that field is non-zero.
// (sim/CapabilityRegister builds its answer with it; fwops/burn/ComponentUpdater and fwops/trace read it.)
struct McamRegister {
  static constexpr std::uint16_t kId = 0x907f;
  static constexpr std::size_t kSize = 0x48;
  static constexpr std::size_t kMaskAt = 0x08;
  static constexpr std::size_t kMinSize = kMaskAt + 16;

  std::uint8_t access_reg_group = 0;
  std::uint8_t feature_group = 0;
  std::array<std::uint8_t, 16> mng_access_reg_cap_mask{};  // as on the wire

  // Whether `id` (0x9000 + 0x80 * access_reg_group + n) is listed; false for another group's id.
  [[nodiscard]] bool lists(std::uint16_t id) const;
  void set_listed(std::uint16_t id, bool listed = true);
  // tracer_registers: bit i = register 0x9040 + i listed (group 0 only; 0 for other groups).
  [[nodiscard]] std::uint8_t tracer_registers() const;

  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  [[nodiscard]] static Result<McamRegister> decode(std::span<const std::uint8_t> bytes);
};

}  // namespace openflint
