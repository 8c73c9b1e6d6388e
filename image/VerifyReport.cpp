// VerifyReport: a verify report's first failure as an error.
#include "image/VerifyReport.h"

#include "core/HexString.h"

namespace openflint {

Result<void> first_failure(const VerifyReport& report, const std::string& label) {
  if (!report.problems.empty()) return make_error(ErrorCode::InvalidImage, label + ": " + report.problems.front());
  for (const auto& c : report.sections)
    if (c.status == SectionStatus::WrongCrc || c.status == SectionStatus::Invalid)
      return make_error(c.status == SectionStatus::WrongCrc ? ErrorCode::Mismatch : ErrorCode::InvalidImage,
                        label + ": " + c.name + " at " + hex_string(c.start) + ": " + to_string(c.status) +
                            (c.detail.empty() ? "" : " (" + c.detail + ")"));
  return {};
}

}  // namespace openflint
