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
#include <vector>

#include "core/Result.h"
#include "mtcr/inband/UmadPort.h"

namespace openflint {

// Why share a port: a process normally holds one umad port per HCA port, and under the ibsim
// umad2sim preload a second port of the same process would steal the first one's answers (the
// preload routes every incoming MAD of a class to the last fd that registered the class).
// Threads send on the shared port and each waits for the answer carrying its own TID; one
// waiting thread at a time receives for everybody, hands each answer to the thread waiting for
// it (waking that thread only: with 8 devices updated at once, waking every waiter on every MAD
// cost more CPU than the MADs; and only after releasing the channel's lock), parks answers
// nobody waits for yet in an inbox, and passes the receiving role to another waiter when its own
// answer has come. Sends take no lock of the channel's (UmadPort::send is reentrant).
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
  // A waiting thread's slot. The thread an answer is for is woken after mutex_ is released
  // (woken under it, it found the mutex held and slept again: two wakeups per answer), so the
  // waker may notify a slot whose owner has already left. Slots therefore live as long as the
  // channel and are reused (no allocation per MAD): at worst the next owner wakes spuriously
  // and checks again.
  struct Waiter {
    std::uint32_t tid = 0;
    std::uint8_t mgmt_class = 0;
    std::optional<ReceivedMad> answer;
    std::condition_variable wake;
  };

  explicit MadChannel(UmadPort port);
  [[nodiscard]] std::optional<ReceivedMad> take(std::uint32_t tid, std::uint8_t mgmt_class);
  // With mutex_ held: a free slot (new or reused), and its return.
  [[nodiscard]] Waiter* acquire_waiter();
  void release_waiter(Waiter* w);
  // With mutex_ held: gives `in` to its waiter or parks it in the inbox; returns the waiter to
  // wake once mutex_ is released (null: none, or `self`).
  [[nodiscard]] Waiter* deliver(ReceivedMad in, const Waiter* self);
  // With mutex_ held: a waiter still without an answer, to wake (after the release) so it takes
  // over receiving; null when there is none.
  [[nodiscard]] Waiter* next_receiver() const;

  static constexpr std::size_t kInboxLimit = 512;  // unclaimed (stale) answers kept at most
  UmadPort port_;
  std::atomic<std::uint32_t> next_tid_;
  std::mutex mutex_;
  bool receiving_ = false;
  std::deque<ReceivedMad> inbox_;
  std::vector<Waiter*> waiters_;
  std::vector<std::unique_ptr<Waiter>> slots_;  // every slot made; freed with the channel
  std::vector<Waiter*> idle_;                   // slots not in use
};

}  // namespace openflint
