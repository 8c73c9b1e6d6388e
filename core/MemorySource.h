// MemorySource: a ByteSource over bytes in memory — owned, or a view the caller keeps alive.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/ByteSource.h"

namespace openflint {

class MemorySource final : public ByteSource {
 public:
  // Owns `bytes`.
  explicit MemorySource(std::vector<std::uint8_t> bytes) : owned_(std::move(bytes)), view_(owned_) {}
  // Views `bytes`, which must outlive this source.
  explicit MemorySource(std::span<const std::uint8_t> bytes) : view_(bytes) {}
  // Not copyable or movable: view_ may point into owned_.
  MemorySource(const MemorySource&) = delete;
  MemorySource& operator=(const MemorySource&) = delete;
  ~MemorySource() override = default;

  [[nodiscard]] std::uint64_t size() const override { return view_.size(); }
  [[nodiscard]] Result<void> read(std::uint64_t offset, std::span<std::uint8_t> out) const override;

 private:
  std::vector<std::uint8_t> owned_;
  std::span<const std::uint8_t> view_;
};

}  // namespace openflint
