// MadChannel: thread-safe send and TID-routed receive on one umad port.
#include "mtcr/inband/MadChannel.h"

#include <unistd.h>

#include <random>

namespace openflint {

namespace {
using Clock = std::chrono::steady_clock;
constexpr auto kReceiveSlice = std::chrono::milliseconds(20);  // so waiters re-check their deadline
}  // namespace

MadChannel::MadChannel(UmadPort port) : port_(std::move(port)) {
  std::random_device rd;
  next_tid_ = rd() ^ static_cast<std::uint32_t>(::getpid());
}

Result<std::shared_ptr<MadChannel>> MadChannel::open(const std::string& ca, int port) {
  OF_ASSIGN(UmadPort umad, UmadPort::open(ca, port));
  for (std::uint8_t cls : {mad::kClassSmpLid, mad::kClassSmpDirected, mad::kClassVendorA}) {
    auto agent = umad.register_class(cls, false);
    if (!agent) return make_error(std::move(agent).error());
  }
  return std::shared_ptr<MadChannel>(new MadChannel(std::move(umad)));
}

Result<void> MadChannel::send(int agent, std::span<const std::uint8_t, mad::kMadSize> mad, std::uint16_t dlid,
                              std::uint32_t dqp, std::uint32_t qkey) {
  std::lock_guard lock(send_mutex_);
  return port_.send(agent, mad, dlid, dqp, qkey);
}

std::optional<ReceivedMad> MadChannel::take(std::uint32_t tid, std::uint8_t mgmt_class) {
  for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
    if (static_cast<std::uint32_t>(mad::get64(it->mad.data(), mad::kOffTid)) == tid &&
        it->mad[mad::kOffClass] == mgmt_class) {
      ReceivedMad found = *it;
      inbox_.erase(it);
      return found;
    }
  }
  return std::nullopt;
}

void MadChannel::deliver(ReceivedMad in, const Waiter& self) {
  const auto tid = static_cast<std::uint32_t>(mad::get64(in.mad.data(), mad::kOffTid));
  for (Waiter* w : waiters_) {
    if (w->tid != tid || w->mgmt_class != in.mad[mad::kOffClass] || w->answer) continue;
    w->answer = std::move(in);
    if (w != &self) w->wake.notify_one();
    return;
  }
  inbox_.push_back(std::move(in));  // an answer that came before its waiter, or a stale one
  if (inbox_.size() > kInboxLimit) inbox_.pop_front();
}

void MadChannel::hand_over() {
  for (Waiter* w : waiters_) {
    if (!w->answer) {
      w->wake.notify_one();
      return;
    }
  }
}

Result<std::optional<ReceivedMad>> MadChannel::wait(std::uint32_t tid, std::uint8_t mgmt_class,
                                                    Clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  if (auto found = take(tid, mgmt_class)) return found;
  Waiter self;
  self.tid = tid;
  self.mgmt_class = mgmt_class;
  waiters_.push_back(&self);
  const auto leave = [&] {
    std::erase(waiters_, &self);
    if (!receiving_) hand_over();
  };
  while (true) {
    if (self.answer) {
      leave();
      return std::optional<ReceivedMad>(std::move(self.answer));
    }
    const auto now = Clock::now();
    if (now >= deadline) {
      leave();
      return std::optional<ReceivedMad>{};
    }
    if (receiving_) {
      self.wake.wait_until(lock, std::min(deadline, now + kReceiveSlice));
      continue;
    }
    receiving_ = true;
    lock.unlock();
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(std::min(deadline - now,
                                                                                     Clock::duration(kReceiveSlice)));
    auto in = port_.recv(static_cast<int>(std::max<std::int64_t>(1, left.count())));
    lock.lock();
    receiving_ = false;
    if (in && *in) deliver(std::move(**in), self);
    if (!in) {
      leave();
      return make_error(std::move(in).error());
    }
  }
}

}  // namespace openflint
