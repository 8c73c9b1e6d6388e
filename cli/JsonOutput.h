// JsonOutput: the one way a tool prints its --json document, stamped with the contract's version (docs/json.md).
#pragma once

#include <nlohmann/json.hpp>

namespace openflint::cli {

// The version of the JSON contract (docs/json.md). Raised when a key is removed or changes its
// meaning or type; adding a key keeps it. Consumers (the Ansible collection) refuse documents of
// another major version.
inline constexpr int kJsonVersion = 1;

// `document` with "json_version" set (objects only; other values are returned as they are).
[[nodiscard]] nlohmann::json versioned(nlohmann::json document);

// Prints versioned(document) on stdout, indented by `indent` (-1: one line), and a newline.
void print_json(const nlohmann::json& document, int indent = 2);

}  // namespace openflint::cli
