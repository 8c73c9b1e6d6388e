// Report: renders query/verify/archive results as mstflint-style text or as JSON.
#pragma once

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/ErrorReport.h"

#include "core/Error.h"
#include "image/ImageQuery.h"
#include "image/MfaArchive.h"
#include "image/VerifyReport.h"

namespace openflint::reports {

void print_query(std::ostream& out, const ImageQuery& query);
[[nodiscard]] nlohmann::json query_json(const ImageQuery& query);

void print_verify(std::ostream& out, const VerifyReport& report);
[[nodiscard]] nlohmann::json verify_json(const VerifyReport& report);
// The `flint verify --json` document: verify_json with "ok" (`ok`: a bootable copy verified).
[[nodiscard]] nlohmann::json verify_document(const VerifyReport& report, bool ok);

void print_boards(std::ostream& out, const MfaArchive& archive);
[[nodiscard]] nlohmann::json boards_json(const MfaArchive& archive);

[[nodiscard]] std::string hex(std::uint64_t value, int width = 0);

// One mstflint-style "Name:                  value" line (the label padded to 23 columns).
void field(std::ostream& out, const char* name, const std::string& value);

}  // namespace openflint::reports
