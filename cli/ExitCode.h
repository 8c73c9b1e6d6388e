// ExitCode: the documented process exit codes of every tool (README table), and the mapping from library errors.
#pragma once

#include "core/Error.h"
#include "core/Interrupt.h"

namespace openflint::cli {

enum ExitCode : int {
  kOk = 0,            // success
  kFailed = 1,        // the command ran and the answer is "no" (e.g. image not bootable)
  kUsage = 2,         // bad command line
  kBadInput = 3,      // the image/archive is malformed or fails its checks
  kIoError = 4,       // a file or device could not be read/written/found
  kBusy = 5,          // device busy or a wait timed out
  kNotSupported = 6,  // the format/device/command is not supported
  kDeclined = 7,      // the user (or --no) declined a confirmation
  kInternal = 70,     // a bug
  // 128 + the signal: a stop signal ended the command at a safe point (core/Interrupt.h),
  // as a shell reports a process a signal ended: 129 SIGHUP, 130 SIGINT, 141 SIGPIPE, 143 SIGTERM.
  kInterruptedBase = 128,
};

// kInterruptedBase + the first stop signal received (SIGINT when none was).
[[nodiscard]] inline int interrupted_exit_code() {
  const int sig = interrupt_signal();
  return kInterruptedBase + (sig != 0 ? sig : SIGINT);
}

[[nodiscard]] inline int exit_code_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidImage:
    case ErrorCode::Mismatch: return kBadInput;
    case ErrorCode::Io:
    case ErrorCode::NotFound:
    case ErrorCode::PermissionDenied: return kIoError;
    case ErrorCode::Busy:
    case ErrorCode::Timeout: return kBusy;
    case ErrorCode::NotSupported: return kNotSupported;
    case ErrorCode::InvalidArgument: return kUsage;
    case ErrorCode::Interrupted: return interrupted_exit_code();
    case ErrorCode::Cancelled: return kDeclined;
    case ErrorCode::Internal: return kInternal;
  }
  return kInternal;
}

}  // namespace openflint::cli
