// FlashView: a flash-sized byte buffer filled on demand (64-byte blocks) from a device or a file.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"

namespace openflint {

// Parsers need the whole address space (FS3/FS4 device data and the FS4 DTOC live at the end
// of flash), but reading a whole flash through a 16-byte gateway is slow: only the blocks a
// caller ensure()s are read; the rest reads as erased (0xFF).
class FlashView {
 public:
  using Reader = std::function<Result<void>(std::uint64_t address, std::span<std::uint8_t> out)>;

  FlashView(std::uint64_t size, Reader reader);
  // A view of bytes already in memory (an image file), borrowed, not copied: `bytes` must
  // outlive the view. Everything counts as loaded.
  static FlashView of_bytes(Bytes bytes);

  // Loads [address, address + length) clipped to the size; a no-op for loaded blocks.
  [[nodiscard]] Result<void> ensure(std::uint64_t address, std::uint64_t length);
  [[nodiscard]] Bytes bytes() const { return borrowed_.empty() ? Bytes(data_) : borrowed_; }
  [[nodiscard]] std::uint64_t size() const { return bytes().size(); }
  // ensure() then a big-endian dword (0xFFFFFFFF when out of range).
  [[nodiscard]] Result<std::uint32_t> be32(std::uint64_t address);
  [[nodiscard]] std::uint64_t bytes_read() const { return bytes_read_; }

 private:
  static constexpr std::uint64_t kBlock = 0x40;  // small: in-band every 16 bytes cost a gateway transaction
  std::vector<std::uint8_t> data_;
  Bytes borrowed_;
  std::vector<bool> loaded_;
  Reader reader_;
  std::uint64_t bytes_read_ = 0;
};

}  // namespace openflint
