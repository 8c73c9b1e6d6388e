// ToolBoundary: the last catch of every CLI, so no exception (std, CLI11, JSON) ends a tool as an abort.
#pragma once

#include <exception>
#include <iostream>
#include <new>
#include <string_view>

#include "cli/ExitCode.h"
#include "core/Interrupt.h"

namespace openflint::cli {

// The exit code of a body that returned `rc` after a stop signal arrived (core/Interrupt.h):
// reported already (rc is the signal's code), kept when the command had completed after its
// last safe point (with a note that it did), the signal's code when the command failed or was
// declined on the way (its own "-E-" line is then the one line). SIGPIPE: the reader of the
// output went away, so the output did not arrive: 141 without a word, as the default would.
inline int settle_interrupted(std::string_view tool, int rc) {
  if (!interrupted()) return rc;
  const int code = interrupted_exit_code();
  if (rc == code) return rc;
  if (rc != kOk || interrupt_signal() == SIGPIPE) return code;
  std::cerr << "-W- " << tool << ": " << signal_name(interrupt_signal())
            << " arrived after the last safe point; the command had completed\n";
  return rc;
}

// Runs a tool's body; an exception that escapes it becomes one "-E-" line on stderr and a
// documented exit code (kIoError when memory ran out, kInternal otherwise: it is a bug to
// report). Library code returns Result; this is the net for what slips past that.
// The body runs under an InterruptScope: a stop signal while the tool holds a device ends the
// work at its next safe point, the device released, exit 128 + the signal (cli/ExitCode.h).
template <class Body>
int run_at_tool_boundary(std::string_view tool, Body&& body) noexcept {
  try {
    try {
      const InterruptScope stop_signals;
      return settle_interrupted(tool, body());
    } catch (const std::bad_alloc&) {
      std::cerr << "-E- " << tool << ": out of memory\n";
      return kIoError;
    } catch (const std::exception& e) {
      std::cerr << "-E- " << tool << ": internal error: " << e.what() << '\n';
      return kInternal;
    } catch (...) {
      std::cerr << "-E- " << tool << ": internal error: unknown exception\n";
      return kInternal;
    }
  } catch (...) {
    return kInternal;  // writing the message itself failed
  }
}

}  // namespace openflint::cli
