// MadChannel: one umad port shared by several InbandAccess clients (threads), answers routed by TID.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>

#include "core/Result.h"
#include "mtcr/UmadPort.h"

namespace openflint {

// Why share a port: a process normally holds one umad port per HCA port, and under the ibsim
// umad2sim preload a second port of the same process would steal the first one's answers (the
// preload routes every incoming MAD of a class to the last fd that registered the class).
// Threads send on the shared port and each waits for the answer carrying its own TID; whoever
// waits first receives for everybody and parks other threads' answers in an inbox.
class MadChannel {
 public:
  // Opens the port and registers client agents for SMP (LID and directed) and vendor class 0x0A.
  [[nodiscard]] static Result<std::shared_ptr<MadChannel>> open(const std::string& ca, int port);

  MadChannel(const MadChannel&) = delete;
  MadChannel& operator=(const MadChannel&) = delete;

  // A TID unique on this channel (low 32 bits; the fabric may use the upper ones).
  [[nodiscard]] std::uint32_t next_tid() { return next_tid_.fetch_add(1); }
  [[nodiscard]] int agent_for(std::uint8_t mgmt_class) const { return port_.agent_for(mgmt_class); }
  [[nodiscard]] Result<void> send(int agent, std::span<const std::uint8_t, mad::kMadSize> mad, std::uint16_t dlid,
                                  std::uint32_t dqp, std::uint32_t qkey);
  // The next MAD of class `mgmt_class` whose TID's low 32 bits are `tid`, or nullopt at `deadline`.
  [[nodiscard]] Result<std::optional<ReceivedMad>> wait(std::uint32_t tid, std::uint8_t mgmt_class,
                                                        std::chrono::steady_clock::time_point deadline);

 private:
  explicit MadChannel(UmadPort port);
  [[nodiscard]] std::optional<ReceivedMad> take(std::uint32_t tid, std::uint8_t mgmt_class);

  static constexpr std::size_t kInboxLimit = 512;  // unclaimed (stale) answers kept at most
  UmadPort port_;
  std::atomic<std::uint32_t> next_tid_;
  std::mutex send_mutex_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  bool receiving_ = false;
  std::deque<ReceivedMad> inbox_;
};

}  // namespace openflint
