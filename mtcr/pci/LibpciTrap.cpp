// LibpciTrap: the callbacks libpci calls, recording into the trap of the running call.
#include "mtcr/pci/LibpciTrap.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

extern "C" {
#include <pci/pci.h>
}

namespace openflint {
namespace {

thread_local LibpciTrap* t_trap = nullptr;

void record(const char* format, va_list args) {
  if (t_trap != nullptr) std::vsnprintf(t_trap->message, sizeof t_trap->message, format, args);
}

// libpci declares error() as not returning: unwind to the trapped call (only C frames between).
__attribute__((noreturn)) void on_error(char* format, ...) {  // GNU form: part of the type for clang, as libpci declares it
  va_list args;
  va_start(args, format);
  record(format, args);
  va_end(args);
  if (t_trap == nullptr) std::abort();  // a libpci call outside run_trapped: a bug here
  std::longjmp(t_trap->env, 1);
}

void on_warning(char* format, ...) {
  va_list args;
  va_start(args, format);
  record(format, args);
  va_end(args);
  if (t_trap != nullptr) ++t_trap->warnings;
}

void on_debug(char*, ...) {}

}  // namespace

void install_libpci_trap(pci_access* access) {
  access->error = on_error;
  access->warning = on_warning;
  access->debug = on_debug;
}

bool run_trapped(LibpciTrap& trap, void (*fn)(void*), void* ctx) {
  LibpciTrap* const saved = t_trap;
  t_trap = &trap;
  volatile bool ok = false;
  if (setjmp(trap.env) == 0) {
    fn(ctx);
    ok = trap.warnings == 0;
  }
  t_trap = saved;
  return ok;
}

}  // namespace openflint
