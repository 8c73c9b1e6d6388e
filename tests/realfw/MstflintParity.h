// MstflintParity: runs the real mstflint and our flint on one image and compares what they say.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace openflint::test {

// One "/0xSTART-0xEND (0xSIZE)/ (NAME) - STATUS" line of a verify listing.
struct VerifyLine {
  std::uint64_t start = 0;
  std::uint64_t size = 0;
  std::string name;
  std::string status;  // "OK", "CRC IGNORED", "wrong CRC" (details after the status dropped)
  friend bool operator==(const VerifyLine&, const VerifyLine&) = default;
};

// "Key:   value" lines of `mstflint -i IMG query`.
std::map<std::string, std::string> parse_query_fields(const std::string& text);
// Section lines of `mstflint -i IMG verify` (mstflint's and our text have the same shape).
std::vector<VerifyLine> parse_verify_lines(const std::string& text);

// GoogleTest checks: mstflint and our flint agree on query (type, FW version, release date,
// PSID) and on the verify listing of `image`; then one flipped byte inside MAIN_CODE makes our
// verify exit non-zero naming MAIN_CODE (and mstflint agrees on the section).
void expect_mstflint_parity(const std::filesystem::path& image, const std::filesystem::path& work);

}  // namespace openflint::test
