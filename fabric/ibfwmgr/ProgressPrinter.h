// ProgressPrinter: ibfwmgr update's progress on a terminal (overall and per node, with ETAs) and as JSON lines.
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

#include "fabric/FabricUpdater.h"
#include "fabric/NodeFirmware.h"
#include "fabric/UpdateProgress.h"

namespace openflint::ibfwmgr {

// Hooks itself into `options` (on_event, progress) and prints until stop():
//  - json_lines: one JSON object per line on stderr, {"event":"node",...} at each node's state
//    change and {"event":"progress",...} every second (stdout keeps --json's document);
//  - terminal: when stderr is a TTY, an overall line and one line per running node, redrawn
//    ten times a second; nothing when stderr is not a TTY.
class ProgressPrinter {
 public:
  ProgressPrinter(const std::vector<NodeFirmware>& nodes, std::size_t parallel, bool json_lines);
  ~ProgressPrinter();
  ProgressPrinter(const ProgressPrinter&) = delete;
  ProgressPrinter& operator=(const ProgressPrinter&) = delete;

  void attach(FabricUpdateOptions& options);
  void stop();

 private:
  void run();
  void draw();
  void print_progress_json();

  const std::vector<NodeFirmware>& nodes_;
  UpdateProgress progress_;
  bool json_lines_;
  bool terminal_;
  std::mutex print_mutex_;
  std::atomic<bool> stopping_{false};
  std::size_t drawn_lines_ = 0;
  std::thread thread_;
};

}  // namespace openflint::ibfwmgr
