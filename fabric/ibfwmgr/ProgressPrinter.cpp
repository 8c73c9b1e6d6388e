// ProgressPrinter: the redrawn terminal block and the JSON lines of an update's progress.
#include "fabric/ibfwmgr/ProgressPrinter.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "fabric/SystemNaming.h"

namespace openflint::ibfwmgr {
namespace {

std::string duration_text(std::optional<double> seconds) {
  if (!seconds) return "?";
  const auto s = static_cast<long long>(*seconds + 0.5);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%lldh%02lldm", s / 3600, s / 60 % 60);
  else if (s >= 60) std::snprintf(buf, sizeof buf, "%lldm%02llds", s / 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%llds", s);
  return buf;
}

nlohmann::json eta_json(std::optional<double> eta) { return eta ? nlohmann::json(*eta) : nlohmann::json(nullptr); }

}  // namespace

ProgressPrinter::ProgressPrinter(const std::vector<NodeFirmware>& nodes, std::size_t parallel, bool json_lines)
    : nodes_(nodes), progress_(nodes.size(), parallel), json_lines_(json_lines),
      terminal_(!json_lines && ::isatty(STDERR_FILENO) == 1) {
  if (json_lines_ || terminal_) thread_ = std::thread([this] { run(); });
}

ProgressPrinter::~ProgressPrinter() { stop(); }

void ProgressPrinter::attach(FabricUpdateOptions& options) {
  options.on_event = [this](const NodeUpdateEvent& e) {
    progress_.on_event(e);
    if (!json_lines_ || e.node >= nodes_.size()) return;
    const auto& n = nodes_[e.node].node;
    const nlohmann::json line{{"event", "node"},     {"node", e.node},       {"guid", guid_text(n.guid)},
                              {"lid", n.lid},        {"state", to_string(e.state)}, {"attempt", e.attempt},
                              {"message", e.message}};
    std::lock_guard lock(print_mutex_);
    std::cerr << line.dump() << '\n' << std::flush;
  };
  options.progress = [this](std::size_t node, const BurnProgress& p) { progress_.on_burn(node, p); };
}

void ProgressPrinter::stop() {
  if (stopping_.exchange(true)) return;
  if (thread_.joinable()) thread_.join();
  if (json_lines_) print_progress_json();
  if (terminal_) draw();
}

void ProgressPrinter::run() {
  using namespace std::chrono_literals;
  auto next_json = std::chrono::steady_clock::now() + 1s;
  while (!stopping_.load()) {
    std::this_thread::sleep_for(100ms);
    if (terminal_) draw();
    if (json_lines_ && std::chrono::steady_clock::now() >= next_json) {
      print_progress_json();
      next_json += 1s;
    }
  }
}

void ProgressPrinter::print_progress_json() {
  const auto s = progress_.snapshot();
  nlohmann::json running = nlohmann::json::array();
  for (const auto& r : s.running)
    running.push_back({{"node", r.node}, {"lid", nodes_[r.node].node.lid}, {"stage", r.stage},
                       {"fraction", r.fraction}, {"elapsed", r.elapsed}, {"eta", eta_json(r.eta)}});
  const nlohmann::json line{{"event", "progress"}, {"planned", s.planned},   {"done", s.done},
                            {"failed", s.failed},  {"not_started", s.not_started}, {"elapsed", s.elapsed},
                            {"eta", eta_json(s.eta)}, {"running", running}};
  std::lock_guard lock(print_mutex_);
  std::cerr << line.dump() << '\n' << std::flush;
}

void ProgressPrinter::draw() {
  const auto s = progress_.snapshot();
  std::string block;
  if (drawn_lines_ > 0) block += "\x1b[" + std::to_string(drawn_lines_) + "F\x1b[J";  // back over the last block
  char line[256];
  std::snprintf(line, sizeof line, "-I- %zu/%zu burned, %zu failed, %zu not started, %zu running; %s elapsed, ETA %s\n",
                s.done, s.planned, s.failed, s.not_started, s.running.size(), duration_text(s.elapsed).c_str(),
                duration_text(s.eta).c_str());
  block += line;
  for (const auto& r : s.running) {
    std::snprintf(line, sizeof line, "    lid %-5u %-10s %3.0f%%  %s elapsed, ETA %s%s\n", nodes_[r.node].node.lid,
                  r.stage.c_str(), r.fraction * 100, duration_text(r.elapsed).c_str(), duration_text(r.eta).c_str(),
                  r.attempt > 1 ? (" (attempt " + std::to_string(r.attempt) + ")").c_str() : "");
    block += line;
  }
  drawn_lines_ = 1 + s.running.size();
  std::lock_guard lock(print_mutex_);
  std::cerr << block << std::flush;
}

}  // namespace openflint::ibfwmgr
