// ToolBoundary: the last catch of every CLI, so no exception (std, CLI11, JSON) ends a tool as an abort.
#pragma once

#include <exception>
#include <iostream>
#include <new>
#include <string_view>

#include "cli/ExitCode.h"

namespace openflint::cli {

// Runs a tool's body; an exception that escapes it becomes one "-E-" line on stderr and a
// documented exit code (kIoError when memory ran out, kInternal otherwise: it is a bug to
// report). Library code returns Result; this is the net for what slips past that.
template <class Body>
int run_at_tool_boundary(std::string_view tool, Body&& body) noexcept {
  try {
    try {
      return body();
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
