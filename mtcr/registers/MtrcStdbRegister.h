// MtrcStdbRegister: the MTRC_STDB access register (0x9042), one chunk of a firmware string-DB section.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"

namespace openflint {

// Fields (fw-trace-and-fwctl.md A1/A3; PRM mtrc_stdb, Linux mlx5_ifc_mtrc_stdb_bits):
// 0x00 string_db_index [31:28] and read_size [23:0] (INDEX), 0x04 start_offset (INDEX),
// string_db_data from 0x08 (read_size bytes, in string order). The register is sent and
// received as kHeaderSize + read_size bytes (the Linux driver's reply: 8 + 256; the adb gives the
// register as 0xC + data, which we take to count a reserved dword the driver does not send).
struct MtrcStdbRegister {
  static constexpr std::uint16_t kId = 0x9042;
  static constexpr std::size_t kHeaderSize = 0x08;
  static constexpr std::uint32_t kAlignment = 64;       // read_size and start_offset
  static constexpr std::uint32_t kMaxReadSize = 0xffffff;

  std::uint8_t string_db_index = 0;  // 4 bits
  std::uint32_t read_size = 0;       // 24 bits
  std::uint32_t start_offset = 0;
  std::vector<std::uint8_t> data;    // encode pads or cuts it to read_size

  // The GET a host sends for one chunk (data all zero).
  [[nodiscard]] static MtrcStdbRegister request(std::uint8_t index, std::uint32_t offset, std::uint32_t size);
  // Whether the firmware can answer this request for a section of `section_size` bytes:
  // read_size a non-zero multiple of 64, start_offset a multiple of 64, the chunk inside the
  // section, and at most `max_read` bytes (the transport's limit). InvalidArgument naming the rule.
  [[nodiscard]] Result<void> check_request(std::uint32_t section_size, std::uint32_t max_read) const;

  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  // The header, and read_size data bytes (InvalidImage when the reply is shorter).
  [[nodiscard]] static Result<MtrcStdbRegister> decode(std::span<const std::uint8_t> bytes);
};

}  // namespace openflint
