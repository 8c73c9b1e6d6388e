// LibpciTrap: libpci's error and warning callbacks turned into a failed call instead of a print and exit(1).
#pragma once

#include <csetjmp>
#include <type_traits>

struct pci_access;

namespace openflint {

// What libpci reported during one trapped call (per thread: libpci's callbacks carry no context).
struct LibpciTrap {
  std::jmp_buf env;
  unsigned warnings = 0;
  char message[256] = {};
};

// Points `access`'s error, warning and debug callbacks at the trap of the running call: an
// error() (libpci's "fatal") unwinds back to it with longjmp (only libpci's C frames are
// skipped), a warning is recorded, debug output is dropped.
void install_libpci_trap(pci_access* access);

// Runs fn(ctx) with the callbacks pointed at `trap`. False when libpci failed (error() or a
// warning); the message is in trap.message. Nothing with a destructor lives in this frame.
bool run_trapped(LibpciTrap& trap, void (*fn)(void*), void* ctx);

template <typename F>
bool trapped(LibpciTrap& trap, F&& f) {
  return run_trapped(trap, [](void* ctx) { (*static_cast<std::remove_reference_t<F>*>(ctx))(); }, &f);
}

}  // namespace openflint
