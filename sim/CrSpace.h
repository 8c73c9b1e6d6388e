// CrSpace: a simulated CR-space register file with read/write side-effect hooks on address ranges.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "core/Result.h"

namespace openflint::sim {

class CrSpace {
 public:
  using ReadHandler = std::function<Result<std::uint32_t>(std::uint32_t address)>;
  using WriteHandler = std::function<Result<void>(std::uint32_t address, std::uint32_t value)>;

  // Routes accesses to [first, last] (inclusive, byte addresses) to the handlers. A missing
  // handler falls back to plain storage. Later hooks win over earlier ones.
  void add_hook(std::uint32_t first, std::uint32_t last, ReadHandler on_read, WriteHandler on_write);

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address);
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value);

  // Raw storage, bypassing hooks (for handlers and state setup). Unwritten registers read 0.
  [[nodiscard]] std::uint32_t peek(std::uint32_t address) const;
  void poke(std::uint32_t address, std::uint32_t value);
  [[nodiscard]] const std::map<std::uint32_t, std::uint32_t>& registers() const { return registers_; }

 private:
  struct Hook {
    std::uint32_t first;
    std::uint32_t last;
    ReadHandler on_read;
    WriteHandler on_write;
  };
  [[nodiscard]] const Hook* find_hook(std::uint32_t address) const;

  std::map<std::uint32_t, std::uint32_t> registers_;
  std::vector<Hook> hooks_;
};

}  // namespace openflint::sim
