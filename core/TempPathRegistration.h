// TempPathRegistration: a temporary file that SIGINT/SIGTERM must not leave behind (unlinked by the handler).
#pragma once

#include <string>

namespace openflint {

// A registered temporary path, unregistered when dropped (move-only). While any path is
// registered, SIGINT and SIGTERM — when the program left them at their default action —
// unlink every registered path, then end the process by the same signal as before.
// A program with its own handler for them keeps it (it exits through RAII, which removes
// the files; a stop signal that ends the process where nothing needs care — core/Interrupt.h —
// removes them through unlink_all()). Paths beyond the fixed table (kSlots) are simply not
// covered by the handler.
class TempPathRegistration {
 public:
  static constexpr int kSlots = 32;

  TempPathRegistration() = default;
  explicit TempPathRegistration(const std::string& path);
  TempPathRegistration(TempPathRegistration&& other) noexcept;
  TempPathRegistration& operator=(TempPathRegistration&& other) noexcept;
  TempPathRegistration(const TempPathRegistration&) = delete;
  TempPathRegistration& operator=(const TempPathRegistration&) = delete;
  ~TempPathRegistration();

  // Forgets the path (e.g. once it was renamed into place).
  void release();

  // Unlinks every registered path; async-signal-safe (for signal handlers).
  static void unlink_all() noexcept;

 private:
  int slot_ = -1;
};

}  // namespace openflint
