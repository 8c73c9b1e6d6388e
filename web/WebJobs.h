// WebJobs: the web console's long operations (a burn, an identity edit) run in the background,
// one per device at a time, with their progress and result kept for the page to poll.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/Result.h"

namespace openflint {

class WebJobs {
 public:
  // What a job reports as it goes: its stage ("reading", "writing"...) and how far it is.
  using Progress = std::function<void(std::string_view stage, std::uint64_t done, std::uint64_t total)>;
  // What a job of many parts shows of each (e.g. every node of a fabric update): the document's "detail".
  using Detail = std::function<void(nlohmann::json detail)>;
  // The job itself: its result document, or the error that stopped it.
  using Work = std::function<Result<nlohmann::json>(const Progress&, const Detail&)>;

  WebJobs() = default;
  // Waits for the jobs still running: a burn is never cut short by the server stopping.
  ~WebJobs();
  // The same wait, earlier: before what the jobs use is destroyed.
  void wait();
  WebJobs(const WebJobs&) = delete;
  WebJobs& operator=(const WebJobs&) = delete;

  // The device index of a job that is not one device's (a fabric update): its document's
  // "device" is null.
  static constexpr std::size_t kNoDevice = static_cast<std::size_t>(-1);
  // Starts `work` for `device` and returns the job's id; Busy while another job of that device runs.
  [[nodiscard]] Result<std::string> start(std::size_t device, std::string what, Work work);
  // {"ok", "id", "device", "what", "state": "running"|"done"|"failed", "stage", "done", "total",
  //  "seconds", "detail" (when the job gives one), "result" (done) | "error" (failed: the error
  //  document)}. NotFound for an unknown id.
  [[nodiscard]] Result<nlohmann::json> document(const std::string& id) const;
  // Kept finished jobs (the oldest are forgotten beyond this).
  static constexpr std::size_t kKeptJobs = 64;

 private:
  struct Job {
    std::size_t device = 0;
    std::string what;
    std::string state = "running";
    std::string stage = "starting";
    std::uint64_t done = 0, total = 0;
    double seconds = 0;
    nlohmann::json outcome;  // the result, or the error document
    nlohmann::json detail;   // null: none
    std::uint64_t serial = 0;
  };
  void forget_old();

  mutable std::mutex mutex_;
  std::map<std::string, Job> jobs_;
  std::map<std::uint64_t, std::thread> threads_;  // by serial; joined once their job ended
  std::uint64_t next_serial_ = 1;
};

}  // namespace openflint
