// IniSectionReader: typed, position-aware access to one INI section, reporting unknown keys.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "burn/IniFile.h"
#include "core/Result.h"
#include "image/ImageQuery.h"

namespace openflint::burn {

// Every error is InvalidArgument "FILE:LINE: [section] key: problem". A missing required key
// names the section header's line (or the file's last line when the section itself is absent).
class IniSectionReader {
 public:
  // `section` may be null (section absent): required keys then fail, optional ones are empty.
  IniSectionReader(const IniFile& file, const IniSection* section, std::string name);

  [[nodiscard]] bool has(std::string_view key) const;
  [[nodiscard]] Result<std::string> text(std::string_view key, std::size_t max_len);
  [[nodiscard]] Result<std::optional<std::string>> optional_text(std::string_view key, std::size_t max_len);
  [[nodiscard]] Result<std::uint64_t> integer(std::string_view key, std::uint64_t max);
  [[nodiscard]] Result<std::optional<std::uint64_t>> optional_integer(std::string_view key, std::uint64_t max);
  [[nodiscard]] Result<std::optional<bool>> optional_bool(std::string_view key);
  // "MAJOR.MINOR.SUBMINOR", each 0..65535.
  [[nodiscard]] Result<FwVersion> version(std::string_view key);
  // "YYYY-MM-DD".
  [[nodiscard]] Result<std::optional<ReleaseDate>> optional_date(std::string_view key);
  // Comma-separated integers, each at most `max`.
  [[nodiscard]] Result<std::vector<std::uint64_t>> optional_integer_list(std::string_view key, std::uint64_t max);
  // Fails on the first key of the section that no accessor asked for.
  [[nodiscard]] Result<void> finish() const;

  [[nodiscard]] Unexpected error(std::string_view key, const std::string& problem) const;

 private:
  const IniEntry* lookup(std::string_view key);
  [[nodiscard]] Unexpected missing(std::string_view key) const;

  const IniFile* file_;
  const IniSection* section_;
  std::string name_;
  std::set<std::string, std::less<>> used_;
};

// Parses a C-style integer (decimal or 0x hex); nullopt when ill-formed.
[[nodiscard]] std::optional<std::uint64_t> parse_integer(std::string_view text);

}  // namespace openflint::burn
