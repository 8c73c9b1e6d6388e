// ErrorReport: how every tool reports an error — one "-E-" line, the JSON error document, the exit code.
#pragma once

#include <nlohmann/json.hpp>

#include "core/Error.h"

namespace openflint::cli {

// {"ok": false, "error": {"code": "not found", "message": "..."}} (docs/json.md).
[[nodiscard]] nlohmann::json error_json(const Error& error);

// Prints error_json on stdout when `json`, always "-E- message" on stderr; returns the exit code
// of the error's code (cli/ExitCode.h).
int report_error(const Error& error, bool json);

}  // namespace openflint::cli
