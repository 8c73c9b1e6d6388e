// IniFile: a small INI reader that keeps the raw text and the line of every section and key.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "image/ImageInfo.h"

namespace openflint::burn {

struct IniEntry {
  std::string key;
  std::string value;  // trimmed; may be empty
  int line = 0;       // 1-based
};

struct IniSection {
  std::string name;  // text between the brackets, trimmed ("image", "section main")
  int line = 0;      // line of the header; 0 for the unnamed leading section
  std::vector<IniEntry> entries;
  [[nodiscard]] const IniEntry* find(std::string_view key) const;
};

// Syntax: "[name]" headers, "key = value" lines, full-line comments starting with '#' or ';',
// blank lines. Keys are case-sensitive. No inline comments (values may contain ';' and '#').
// Keys before the first header belong to an unnamed section. A repeated key in one section, a
// repeated section name, a line that is neither, or an empty key is an InvalidArgument error
// naming "FILE:LINE".
class IniFile {
 public:
  [[nodiscard]] static Result<IniFile> parse(std::string text, std::string file_name);
  // Sized before it is read: no larger than an image may carry inflated (image/ImageInfo.h).
  static constexpr std::uint64_t kMaxFileBytes = kMaxInflatedConfigBytes;
  [[nodiscard]] static Result<IniFile> load(const std::filesystem::path& path);

  [[nodiscard]] const std::string& text() const { return text_; }  // byte-exact file contents
  [[nodiscard]] const std::string& file_name() const { return file_name_; }
  [[nodiscard]] const std::vector<IniSection>& sections() const { return sections_; }
  [[nodiscard]] const IniSection* find(std::string_view name) const;
  // Line count (for errors about something absent: "FILE:LAST").
  [[nodiscard]] int last_line() const { return last_line_; }

 private:
  std::string text_;
  std::string file_name_;
  std::vector<IniSection> sections_;
  int last_line_ = 0;
};

// "FILE:LINE: " prefix for messages.
[[nodiscard]] std::string ini_where(const IniFile& file, int line);

}  // namespace openflint::burn
