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

MadChannel::Waiter* MadChannel::acquire_waiter() {
  if (idle_.empty()) {
    slots_.push_back(std::make_unique<Waiter>());
    return slots_.back().get();
  }
  Waiter* w = idle_.back();
  idle_.pop_back();
  return w;
}

void MadChannel::release_waiter(Waiter* w) {
  w->answer.reset();
  idle_.push_back(w);
}

MadChannel::Waiter* MadChannel::deliver(ReceivedMad in, const Waiter* self) {
  const auto tid = static_cast<std::uint32_t>(mad::get64(in.mad.data(), mad::kOffTid));
  for (Waiter* w : waiters_) {
    if (w->tid != tid || w->mgmt_class != in.mad[mad::kOffClass] || w->answer) continue;
    w->answer = std::move(in);
    return w == self ? nullptr : w;
  }
  inbox_.push_back(std::move(in));  // an answer that came before its waiter, or a stale one
  if (inbox_.size() > kInboxLimit) inbox_.pop_front();
  return nullptr;
}

MadChannel::Waiter* MadChannel::next_receiver() const {
  for (Waiter* w : waiters_)
    if (!w->answer) return w;
  return nullptr;
}

Result<std::optional<ReceivedMad>> MadChannel::wait(std::uint32_t tid, std::uint8_t mgmt_class,
                                                    Clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  if (auto found = take(tid, mgmt_class)) return found;
  Waiter* self = acquire_waiter();
  self->tid = tid;
  self->mgmt_class = mgmt_class;
  waiters_.push_back(self);
  // Leaves the waiters and releases the lock, then wakes a successor to receive if nobody does.
  const auto leave = [&] {
    std::erase(waiters_, self);
    release_waiter(self);
    Waiter* successor = receiving_ ? nullptr : next_receiver();
    lock.unlock();
    if (successor) successor->wake.notify_one();
  };
  while (true) {
    if (self->answer) {
      std::optional<ReceivedMad> answer = std::move(self->answer);
      leave();
      return answer;
    }
    const auto now = Clock::now();
    if (now >= deadline) {
      leave();
      return std::optional<ReceivedMad>{};
    }
    if (receiving_) {
      self->wake.wait_until(lock, std::min(deadline, now + kReceiveSlice));
      continue;
    }
    receiving_ = true;
    lock.unlock();
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(std::min(deadline - now,
                                                                                     Clock::duration(kReceiveSlice)));
    auto in = port_.recv(static_cast<int>(std::max<std::int64_t>(1, left.count())));
    lock.lock();
    receiving_ = false;
    if (!in) {
      leave();
      return make_error(std::move(in).error());
    }
    if (!*in) continue;
    if (Waiter* owner = deliver(std::move(**in), self)) {
      // Woken without the lock held, so it does not wake only to sleep again on the mutex. The
      // receiving role is kept meanwhile: no other waiter starts a receive.
      receiving_ = true;
      lock.unlock();
      owner->wake.notify_one();
      lock.lock();
      receiving_ = false;
    }
  }
}

}  // namespace openflint
