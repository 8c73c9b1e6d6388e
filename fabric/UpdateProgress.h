// UpdateProgress: an update's progress as people and scripts see it (overall and per node, with ETAs).
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "fabric/FabricUpdater.h"
#include "fwops/BurnTypes.h"

namespace openflint {

// Fed from the nodes' threads (FabricUpdateOptions::on_event and ::progress), read by the front
// end's own thread (snapshot()); thread-safe. The ETAs are estimates: a node's from its write
// stage's bytes and the time it took so far, the fabric's from the nodes that finished (their
// mean) and the slots free to take the rest.
class UpdateProgress {
 public:
  UpdateProgress(std::size_t nodes, std::size_t parallel);

  void on_event(const NodeUpdateEvent& event);
  void on_burn(std::size_t node, const BurnProgress& progress);

  struct NodeLine {
    std::size_t node = 0;
    int attempt = 1;
    std::string stage;        // the burn's stage ("writing", ...), or "starting"
    double fraction = 0;      // of the write stage done (0 before it)
    double elapsed = 0;       // seconds since the node started
    std::optional<double> eta;
  };
  struct Snapshot {
    std::size_t planned = 0;      // nodes to burn
    std::size_t done = 0;         // verified or activated (burned and checked)
    std::size_t failed = 0;
    std::size_t not_started = 0;  // the failure budget or a stop signal kept them
    std::size_t up_to_date = 0;
    double elapsed = 0;
    std::optional<double> eta;
    std::vector<NodeLine> running;  // in node order
  };
  [[nodiscard]] Snapshot snapshot() const;

 private:
  using Clock = std::chrono::steady_clock;
  struct NodeState {
    JournalState state = JournalState::Planned;
    bool planned = false;
    int attempt = 1;
    std::string stage;
    double fraction = 0;
    Clock::time_point started{};
    double seconds = 0;  // a finished node's
  };
  mutable std::mutex mutex_;
  Clock::time_point start_;
  std::size_t parallel_;
  std::vector<NodeState> nodes_;
};

}  // namespace openflint
