// ErrorReport: the one error output of the tools.
#include "cli/ErrorReport.h"
#include "cli/JsonOutput.h"

#include <iostream>
#include <string>

#include "cli/ExitCode.h"

namespace openflint::cli {

namespace {

// A stop signal's report adds what the tool did about it: the work stopped where stopping was
// safe, and everything it held goes with the objects that hold it (the caller's Device ends
// before the process does).
std::string message_of(const Error& error) {
  if (error.code() != ErrorCode::Interrupted) return error.message();
  return error.message() + " (stopped at a safe point; the device was left usable)";
}

}  // namespace

nlohmann::json error_json(const Error& error) {
  return {{"ok", false}, {"error", {{"code", std::string(to_string(error.code()))}, {"message", message_of(error)}}}};
}

int report_error(const Error& error, bool json) {
  if (json) cli::print_json(error_json(error));
  std::cerr << "-E- " << message_of(error) << '\n';
  return exit_code_for(error.code());
}

}  // namespace openflint::cli
