// Error: the closed set of failure kinds plus a message that gains context on the way up.
#pragma once

#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace openflint {

// Closed set: every library failure maps to exactly one of these. CLIs map them to exit codes.
enum class ErrorCode {
  Io,                // a read/write/open of a file or device failed
  Timeout,           // a poll or wait ran out of time
  Busy,              // a lock or semaphore is held by someone else
  NotSupported,      // the device/format/option is not handled
  InvalidImage,      // firmware image or archive is malformed
  Mismatch,          // data differs from what was expected (CRC, verify-after-write, hw id)
  PermissionDenied,  // the OS or the device refused access
  InvalidArgument,   // a caller-supplied value is out of range or ill-formed
  NotFound,          // a named thing (PSID, section, device) does not exist
  Interrupted,       // a stop signal (SIGINT, SIGTERM, ...) ended the work at a safe point (core/Interrupt.h)
  Cancelled,         // the user declined (a question answered no): nothing was done
  Internal,          // a bug: an invariant broke
};

[[nodiscard]] constexpr std::string_view to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::Io: return "i/o error";
    case ErrorCode::Timeout: return "timeout";
    case ErrorCode::Busy: return "busy";
    case ErrorCode::NotSupported: return "not supported";
    case ErrorCode::InvalidImage: return "invalid image";
    case ErrorCode::Mismatch: return "mismatch";
    case ErrorCode::PermissionDenied: return "permission denied";
    case ErrorCode::InvalidArgument: return "invalid argument";
    case ErrorCode::NotFound: return "not found";
    case ErrorCode::Interrupted: return "interrupted";
    case ErrorCode::Cancelled: return "cancelled";
    case ErrorCode::Internal: return "internal error";
  }
  return "unknown error";
}

class Error {
 public:
  Error(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  [[nodiscard]] ErrorCode code() const { return code_; }
  [[nodiscard]] const std::string& message() const { return message_; }

  // Prefixes context, LLVM style: "reading ITOC: offset 0x40 past end".
  [[nodiscard]] Error with_context(std::string_view context) const& {
    return Error(code_, std::string(context) + ": " + message_);
  }
  [[nodiscard]] Error with_context(std::string_view context) && {
    message_ = std::string(context) + ": " + message_;
    return std::move(*this);
  }

 private:
  ErrorCode code_;
  std::string message_;
};

// strerror's text for an errno value; a negative one (as libibumad returns them) by its magnitude.
[[nodiscard]] inline std::string errno_text(int err) { return std::strerror(err < 0 ? -err : err); }

}  // namespace openflint
