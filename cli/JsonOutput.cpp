// JsonOutput: stamps and prints the tools' JSON documents.
#include "cli/JsonOutput.h"

#include <iostream>

namespace openflint::cli {

nlohmann::json versioned(nlohmann::json document) {
  if (document.is_object()) document["json_version"] = kJsonVersion;
  return document;
}

void print_json(const nlohmann::json& document, int indent) {
  std::cout << versioned(document).dump(indent) << '\n';
}

}  // namespace openflint::cli
