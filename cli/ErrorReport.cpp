// ErrorReport: the one error output of the tools.
#include "cli/ErrorReport.h"
#include "cli/JsonOutput.h"

#include <iostream>
#include <string>

#include "cli/ExitCode.h"

namespace openflint::cli {

nlohmann::json error_json(const Error& error) {
  return {{"ok", false}, {"error", {{"code", std::string(to_string(error.code()))}, {"message", error.message()}}}};
}

int report_error(const Error& error, bool json) {
  if (json) cli::print_json(error_json(error));
  std::cerr << "-E- " << error.message() << '\n';
  return exit_code_for(error.code());
}

}  // namespace openflint::cli
