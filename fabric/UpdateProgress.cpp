// UpdateProgress: the per-node states and the ETAs a front end prints.
#include "fabric/UpdateProgress.h"

#include <algorithm>

namespace openflint {
namespace {

bool running_state(JournalState s) {
  return s == JournalState::Started || s == JournalState::Burned;
}

}  // namespace

UpdateProgress::UpdateProgress(std::size_t nodes, std::size_t parallel)
    : start_(Clock::now()), parallel_(std::max<std::size_t>(parallel, 1)), nodes_(nodes) {}

void UpdateProgress::on_event(const NodeUpdateEvent& event) {
  std::lock_guard lock(mutex_);
  if (event.node >= nodes_.size()) return;
  auto& n = nodes_[event.node];
  if (event.state == JournalState::Planned) n.planned = true;
  if (event.state == JournalState::Started) {
    if (n.state != JournalState::Started && n.state != JournalState::Failed) n.started = Clock::now();
    if (n.started == Clock::time_point{}) n.started = Clock::now();
    n.stage = "starting";
    n.fraction = 0;
  }
  n.attempt = event.attempt;
  // A retry's "failed" (the node starts again) is not the node's end.
  if (event.state == JournalState::Failed && event.message.starts_with("retrying")) return;
  n.state = event.state;
  if (event.state == JournalState::Verified || event.state == JournalState::Activated ||
      event.state == JournalState::Failed)
    n.seconds = std::chrono::duration<double>(Clock::now() - n.started).count();
}

void UpdateProgress::on_burn(std::size_t node, const BurnProgress& progress) {
  std::lock_guard lock(mutex_);
  if (node >= nodes_.size()) return;
  auto& n = nodes_[node];
  n.stage = std::string(progress.stage);
  if (progress.stage == "writing" && progress.total > 0)
    n.fraction = static_cast<double>(progress.done) / static_cast<double>(progress.total);
  else if (progress.stage == "verifying")
    n.fraction = 1;
}

UpdateProgress::Snapshot UpdateProgress::snapshot() const {
  std::lock_guard lock(mutex_);
  Snapshot s;
  const auto now = Clock::now();
  s.elapsed = std::chrono::duration<double>(now - start_).count();
  double finished_seconds = 0;
  std::size_t finished = 0;
  std::size_t waiting = 0;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const auto& n = nodes_[i];
    s.planned += n.planned ? 1 : 0;
    switch (n.state) {
      case JournalState::Verified:
      case JournalState::Activated: ++s.done; break;
      case JournalState::Failed: ++s.failed; break;
      case JournalState::NotStarted: ++s.not_started; break;
      case JournalState::UpToDate: ++s.up_to_date; break;
      case JournalState::Planned: waiting += n.planned ? 1 : 0; break;
      default: break;
    }
    if (n.state == JournalState::Verified || n.state == JournalState::Activated) {
      finished_seconds += n.seconds;
      ++finished;
    }
    if (!running_state(n.state)) continue;
    NodeLine line{.node = i, .attempt = n.attempt, .stage = n.stage, .fraction = n.fraction,
                  .elapsed = std::chrono::duration<double>(now - n.started).count(), .eta = std::nullopt};
    if (n.fraction > 0.02) line.eta = std::max(0.0, line.elapsed * (1 - n.fraction) / n.fraction);
    s.running.push_back(line);
  }
  // The fabric's ETA: what the running nodes still need, then the waiting ones at the mean
  // node time, spread over the slots.
  std::optional<double> mean;
  if (finished > 0) mean = finished_seconds / static_cast<double>(finished);
  double left = 0;
  bool known = true;
  for (const auto& r : s.running) {
    if (r.eta) left += *r.eta;
    else if (mean) left += std::max(0.0, *mean - r.elapsed);
    else known = false;
  }
  if (waiting > 0) {
    if (mean) left += static_cast<double>(waiting) * *mean;
    else known = false;
  }
  const std::size_t slots = std::max<std::size_t>(1, std::min(parallel_, waiting + s.running.size()));
  if (known) s.eta = left / static_cast<double>(slots);
  return s;
}

}  // namespace openflint
