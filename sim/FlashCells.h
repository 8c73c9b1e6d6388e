// FlashCells: the byte array of a simulated flash: owned memory, or a private (copy-on-write) mapping of a base file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "core/Result.h"

namespace openflint::sim {

// Owned: a vector (every byte resident). Mapped: MAP_PRIVATE of a base file that many devices
// share — reads come from the page cache, the first write to a page copies that page only, so N
// devices over one base cost the pages they changed (the base file is never written).
class FlashCells {
 public:
  FlashCells(std::size_t size, std::uint8_t fill) : owned_(size, fill), bytes_(owned_) {}
  ~FlashCells();
  FlashCells(const FlashCells& other);
  FlashCells& operator=(const FlashCells& other);
  FlashCells(FlashCells&&) = delete;
  FlashCells& operator=(FlashCells&&) = delete;

  // Replaces the cells with a private mapping of `base` (exactly size() bytes).
  [[nodiscard]] Result<void> map_private(const std::filesystem::path& base);
  [[nodiscard]] bool mapped() const { return mapped_; }

  [[nodiscard]] std::size_t size() const { return bytes_.size(); }
  [[nodiscard]] std::uint8_t* begin() { return bytes_.data(); }
  [[nodiscard]] std::uint8_t* end() { return bytes_.data() + bytes_.size(); }
  [[nodiscard]] const std::uint8_t* begin() const { return bytes_.data(); }
  [[nodiscard]] const std::uint8_t* end() const { return bytes_.data() + bytes_.size(); }
  [[nodiscard]] std::uint8_t& operator[](std::size_t i) { return bytes_[i]; }
  [[nodiscard]] std::uint8_t operator[](std::size_t i) const { return bytes_[i]; }
  [[nodiscard]] std::span<const std::uint8_t> view() const { return bytes_; }

 private:
  void unmap();

  std::vector<std::uint8_t> owned_;
  std::span<std::uint8_t> bytes_;
  bool mapped_ = false;
};

}  // namespace openflint::sim
