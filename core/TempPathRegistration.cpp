// TempPathRegistration: a fixed table of paths and an async-signal-safe handler that unlinks them.
#include "core/TempPathRegistration.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <utility>

namespace openflint {
namespace {

constexpr std::size_t kMaxPath = 4096;
enum SlotState : int { kFree = 0, kFilling = 1, kLive = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  char path[kMaxPath];
};

Slot g_slots[TempPathRegistration::kSlots];
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads slot states");

// Only unlink, sigaction and raise: all async-signal-safe (signal-safety(7)).
extern "C" void unlink_registered_and_reraise(int sig) {
  TempPathRegistration::unlink_all();
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);  // blocked until the handler returns, then ends the process as before
}

// Takes SIGINT/SIGTERM only where the program left the default action: a program that
// handles them itself unwinds normally and the files go with their owners.
void install_handlers_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const int sig : {SIGINT, SIGTERM}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0) continue;
      if ((old.sa_flags & SA_SIGINFO) != 0 || old.sa_handler != SIG_DFL) continue;
      struct sigaction act {};
      act.sa_handler = unlink_registered_and_reraise;
      ::sigemptyset(&act.sa_mask);
      ::sigaddset(&act.sa_mask, SIGINT);
      ::sigaddset(&act.sa_mask, SIGTERM);
      ::sigaction(sig, &act, nullptr);
    }
  });
}

}  // namespace

TempPathRegistration::TempPathRegistration(const std::string& path) {
  if (path.size() >= kMaxPath) return;
  install_handlers_once();
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(kLive);
    slot_ = i;
    return;
  }
}

TempPathRegistration::TempPathRegistration(TempPathRegistration&& other) noexcept
    : slot_(std::exchange(other.slot_, -1)) {}

TempPathRegistration& TempPathRegistration::operator=(TempPathRegistration&& other) noexcept {
  if (this != &other) {
    release();
    slot_ = std::exchange(other.slot_, -1);
  }
  return *this;
}

TempPathRegistration::~TempPathRegistration() { release(); }

void TempPathRegistration::unlink_all() noexcept {
  for (Slot& slot : g_slots) {
    if (slot.state.load() == kLive) ::unlink(slot.path);
  }
}

void TempPathRegistration::release() {
  if (slot_ >= 0) g_slots[slot_].state.store(kFree);
  slot_ = -1;
}

}  // namespace openflint
