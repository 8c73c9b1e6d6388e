// WebJobs: one thread per job, progress and outcome under one mutex.
#include "web/WebJobs.h"

#include <chrono>

#include "cli/ErrorReport.h"

namespace openflint {

WebJobs::~WebJobs() { wait(); }

void WebJobs::wait() {
  std::map<std::uint64_t, std::thread> running;
  {
    const std::lock_guard lock(mutex_);
    running.swap(threads_);
  }
  for (auto& [serial, t] : running)
    if (t.joinable()) t.join();
}

Result<std::string> WebJobs::start(std::size_t device, std::string what, Work work) {
  const std::lock_guard lock(mutex_);
  for (const auto& [id, job] : jobs_)
    if (job.device == device && job.state == "running")
      return make_error(ErrorCode::Busy, "device " + std::to_string(device) + " is busy: " + job.what + " (job " + id + ") runs");
  for (auto it = threads_.begin(); it != threads_.end();) {  // the threads of ended jobs
    bool ended = true;
    for (const auto& [id, job] : jobs_)
      if (job.serial == it->first && job.state == "running") ended = false;
    if (!ended) {
      ++it;
      continue;
    }
    it->second.join();  // its last step released the mutex
    it = threads_.erase(it);
  }
  forget_old();
  const std::uint64_t serial = next_serial_++;
  const std::string id = "job-" + std::to_string(serial);
  Job& job = jobs_[id];
  job.device = device;
  job.what = std::move(what);
  job.serial = serial;
  threads_[serial] = std::thread([this, id, work = std::move(work)] {
    const auto start = std::chrono::steady_clock::now();
    const Progress progress = [this, &id](std::string_view stage, std::uint64_t done, std::uint64_t total) {
      const std::lock_guard l(mutex_);
      Job& j = jobs_[id];
      j.stage = std::string(stage);
      j.done = done;
      j.total = total;
    };
    const Detail detail = [this, &id](nlohmann::json d) {
      const std::lock_guard l(mutex_);
      jobs_[id].detail = std::move(d);
    };
    auto outcome = work(progress, detail);
    const std::lock_guard l(mutex_);
    Job& j = jobs_[id];
    j.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    j.state = outcome ? "done" : "failed";
    j.stage = outcome ? "done" : "failed";
    j.outcome = outcome ? std::move(*outcome) : cli::error_json(outcome.error());
  });
  return id;
}

void WebJobs::forget_old() {
  while (jobs_.size() >= kKeptJobs) {
    auto oldest = jobs_.end();
    for (auto it = jobs_.begin(); it != jobs_.end(); ++it)
      if (it->second.state != "running" && (oldest == jobs_.end() || it->second.serial < oldest->second.serial)) oldest = it;
    if (oldest == jobs_.end()) return;
    jobs_.erase(oldest);
  }
}

Result<nlohmann::json> WebJobs::document(const std::string& id) const {
  const std::lock_guard lock(mutex_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) return make_error(ErrorCode::NotFound, "no job " + id);
  const Job& j = it->second;
  nlohmann::json doc{{"ok", true},     {"id", id},         {"device", j.device == kNoDevice ? nlohmann::json(nullptr) : nlohmann::json(j.device)}, {"what", j.what},
                     {"state", j.state}, {"stage", j.stage}, {"done", j.done},     {"total", j.total},
                     {"seconds", j.seconds}};
  if (!j.detail.is_null()) doc["detail"] = j.detail;
  if (j.state == "done") doc["result"] = j.outcome;
  if (j.state == "failed") doc["error"] = j.outcome;
  return doc;
}

}  // namespace openflint
