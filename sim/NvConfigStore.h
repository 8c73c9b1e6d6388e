// NvConfigStore: a simulated firmware's non-volatile configuration — stored items and the ones in effect since boot.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "devices/NvConfigInfo.h"

namespace openflint::sim {

// One change a register write made to the stored items (what the firmware traces).
struct NvConfigChange {
  enum class Kind : std::uint8_t { Stored, Reset, ResetAll };
  Kind kind = Kind::Stored;
  std::uint32_t type = 0;  // the item's type dword; 0 for ResetAll
};

// Items by type dword (mtcr/registers/NvConfigRegisters.h item_type). `stored` is what the NV area holds
// (a set writes it; it survives power cycles: saved in state.json); `current` is what the
// firmware loaded at its last boot (a set does not change it; boot() copies stored over it).
// An item never stored reads as its factory default (every parameter's default, valid bits set).
class NvConfigStore {
 public:
  using Items = std::map<std::uint32_t, std::vector<std::uint8_t>>;

  [[nodiscard]] const Items& stored() const { return stored_; }
  [[nodiscard]] const Items& current() const { return current_; }
  void store(std::uint32_t type, std::vector<std::uint8_t> data) {
    stored_[type] = std::move(data);
    note({.kind = NvConfigChange::Kind::Stored, .type = type});
  }
  void invalidate(std::uint32_t type) {
    stored_.erase(type);
    note({.kind = NvConfigChange::Kind::Reset, .type = type});
  }
  void invalidate_all() {
    stored_.clear();
    note({.kind = NvConfigChange::Kind::ResetAll, .type = 0});
  }
  // The changes since the last call (at most kMaxChanges kept), oldest first.
  [[nodiscard]] std::vector<NvConfigChange> take_changes() { return std::exchange(changes_, {}); }
  // The firmware (re)loads its configuration: a reset or power cycle.
  void boot() { current_ = stored_; }
  void restore(Items stored, Items current) {
    stored_ = std::move(stored);
    current_ = std::move(current);
  }

 private:
  static constexpr std::size_t kMaxChanges = 64;
  void note(NvConfigChange change) {
    if (changes_.size() < kMaxChanges) changes_.push_back(change);
  }

  Items stored_;
  Items current_;
  std::vector<NvConfigChange> changes_;
};

// The catalog item `type` names on a device of `table` with `ports` ports (per-port items:
// port 1..ports); nullptr when the device has no such item.
[[nodiscard]] const NvItem* find_nv_item(const NvConfigTable& table, std::uint32_t type, unsigned ports);

}  // namespace openflint::sim
