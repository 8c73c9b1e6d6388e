// FabricUpdater: the update's driver: decisions, then a bounded pool of burns under a failure budget.
#include "fabric/FabricUpdater.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <thread>

#include "core/Interrupt.h"
#include "fabric/NodeUpdater.h"

namespace openflint {
namespace {

using UpdaterClock = std::chrono::steady_clock;

// The burns' shared state: the next node to start, and the failures so far.
struct BurnQueue {
  std::vector<std::size_t> order;  // indices into `nodes` of the nodes to burn
  std::vector<const FirmwareFile*> files;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> failures{0};
  std::size_t allowed = std::numeric_limits<std::size_t>::max();
};

void not_started(const FabricUpdateOptions& options, std::size_t index, NodeUpdate& out, const std::string& why) {
  out.status = NodeUpdateStatus::NotStarted;
  out.message = why;
  node_update_event(options, index, out, JournalState::NotStarted, why);
}

void burn_worker(const std::vector<NodeFirmware>& nodes, const std::shared_ptr<MadChannel>& channel,
                 const FabricUpdateOptions& options, BurnQueue& queue, std::vector<NodeUpdate>& out) {
  while (true) {
    const std::size_t k = queue.next.fetch_add(1);
    if (k >= queue.order.size()) return;
    const std::size_t i = queue.order[k];
    if (auto stop = check_interrupted(); !stop) {  // a stop signal: no node starts a burn after it
      not_started(options, i, out[i], stop.error().message() + ": not started; the device runs what it ran");
      continue;
    }
    if (queue.failures.load() > queue.allowed) {
      not_started(options, i, out[i], "not started: " + std::to_string(queue.failures.load()) +
                                          " node(s) failed, more than --max-failures allows (" +
                                          std::to_string(queue.allowed) + ")");
      continue;
    }
    const auto start = UpdaterClock::now();
    burn_node_update(nodes[i], *queue.files[k], channel, options, i, out[i]);
    out[i].seconds = std::chrono::duration<double>(UpdaterClock::now() - start).count();
    if (out[i].status == NodeUpdateStatus::Failed) queue.failures.fetch_add(1);
  }
}

}  // namespace

std::size_t FailureBudget::allowed(std::size_t planned) const {
  std::size_t n = std::numeric_limits<std::size_t>::max();
  if (count) n = *count;
  if (percent) n = std::min(n, static_cast<std::size_t>(std::floor(static_cast<double>(planned) * *percent / 100.0)));
  return n;
}

Result<FailureBudget> parse_failure_budget(const std::string& text) {
  FailureBudget budget;
  const bool percent = !text.empty() && text.back() == '%';
  const std::string number = percent ? text.substr(0, text.size() - 1) : text;
  const char* first = number.data();
  const char* last = number.data() + number.size();
  if (percent) {
    double p = 0;
    const auto [end, ec] = std::from_chars(first, last, p);
    if (number.empty() || ec != std::errc() || end != last || !(p >= 0 && p <= 100))
      return make_error(ErrorCode::InvalidArgument, "--max-failures " + text + ": a count N or a percentage P% (0-100) expected");
    budget.percent = p;
    return budget;
  }
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(first, last, n);
  if (number.empty() || ec != std::errc() || end != last)
    return make_error(ErrorCode::InvalidArgument, "--max-failures " + text + ": a count N or a percentage P% (0-100) expected");
  budget.count = n;
  return budget;
}

const char* to_string(NodeActivation a) {
  switch (a) {
    case NodeActivation::None: return "";
    case NodeActivation::Running: return "running";
    case NodeActivation::Armed: return "armed";
    case NodeActivation::Pending: return "pending";
    case NodeActivation::Unknown: return "unknown";
  }
  return "";
}

const char* to_string(NodeUpdateStatus s) {
  switch (s) {
    case NodeUpdateStatus::Updated: return "updated";
    case NodeUpdateStatus::UpToDate: return "up-to-date";
    case NodeUpdateStatus::NoImage: return "no-image";
    case NodeUpdateStatus::NoAccess: return "no-access";
    case NodeUpdateStatus::Failed: return "failed";
    case NodeUpdateStatus::WouldUpdate: return "would-update";
    case NodeUpdateStatus::NotStarted: return "not-started";
  }
  return "failed";
}

std::vector<NodeUpdate> update_fabric(const std::vector<NodeFirmware>& nodes, const ImageSet& images,
                                      const std::shared_ptr<MadChannel>& channel, const FabricUpdateOptions& options) {
  std::vector<NodeUpdate> out(nodes.size());
  BurnQueue queue;
  // The decisions first (no burn): the dry run's plans, and the list of nodes to burn, each
  // recorded "planned" before any starts.
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto start = UpdaterClock::now();
    if (const FirmwareFile* file = decide_node_update(nodes[i], images, channel, options, i, out[i])) {
      queue.order.push_back(i);
      queue.files.push_back(file);
      node_update_event(options, i, out[i], JournalState::Planned);
    }
    out[i].seconds = std::chrono::duration<double>(UpdaterClock::now() - start).count();
  }
  queue.allowed = options.max_failures.allowed(queue.order.size());
  const std::size_t workers = std::min(std::max<std::size_t>(options.parallel, 1), queue.order.size());
  std::vector<std::thread> pool;
  pool.reserve(workers);
  for (std::size_t w = 0; w < workers; ++w)
    pool.emplace_back([&] { burn_worker(nodes, channel, options, queue, out); });
  for (auto& t : pool) t.join();
  return out;
}

UpdatePlanTotal plan_total(const std::vector<NodeUpdate>& updates, std::size_t parallel) {
  UpdatePlanTotal total;
  total.parallel = std::max<std::size_t>(parallel, 1);
  std::vector<double> times;
  for (const auto& u : updates) {
    if (!u.plan) continue;
    ++total.nodes;
    total.requests += u.plan->requests;
    times.push_back(u.plan->seconds);
  }
  // Longest first onto the slot that frees first: the wall time of `parallel` at a time.
  std::sort(times.rbegin(), times.rend());
  std::vector<double> slots(std::min(total.parallel, std::max<std::size_t>(times.size(), 1)), 0.0);
  for (const double t : times) *std::min_element(slots.begin(), slots.end()) += t;
  total.seconds = slots.empty() ? 0 : *std::max_element(slots.begin(), slots.end());
  return total;
}

}  // namespace openflint
