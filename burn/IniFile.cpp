// IniFile: line-by-line INI parsing with positions kept for error messages.
#include "burn/IniFile.h"

#include "core/BlankTrim.h"
#include "core/InputFile.h"

namespace openflint::burn {
namespace {

Unexpected syntax_error(const IniFile& file, int line, const std::string& message) {
  return make_error(ErrorCode::InvalidArgument, ini_where(file, line) + message);
}

}  // namespace

const IniEntry* IniSection::find(std::string_view key) const {
  for (const auto& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

std::string ini_where(const IniFile& file, int line) {
  return file.file_name() + ":" + std::to_string(line) + ": ";
}

const IniSection* IniFile::find(std::string_view name) const {
  for (const auto& s : sections_)
    if (s.name == name) return &s;
  return nullptr;
}

Result<IniFile> IniFile::parse(std::string text, std::string file_name) {
  IniFile ini;
  ini.text_ = std::move(text);
  ini.file_name_ = std::move(file_name);
  ini.sections_.push_back({});  // unnamed leading section
  std::string_view rest = ini.text_;
  int line_no = 0;
  while (!rest.empty()) {
    ++line_no;
    const auto eol = rest.find('\n');
    const std::string_view raw = rest.substr(0, eol);
    rest = eol == std::string_view::npos ? std::string_view{} : rest.substr(eol + 1);
    const std::string_view line = trim_blanks(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      if (line.back() != ']') return syntax_error(ini, line_no, "section header without a closing ']'");
      const std::string name(trim_blanks(line.substr(1, line.size() - 2)));
      if (name.empty()) return syntax_error(ini, line_no, "empty section name");
      if (const IniSection* seen = ini.find(name))
        return syntax_error(ini, line_no, "section [" + name + "] repeated (first at line " +
                                              std::to_string(seen->line) + ")");
      ini.sections_.push_back({name, line_no, {}});
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string_view::npos)
      return syntax_error(ini, line_no, "expected 'key = value' or '[section]', got '" + std::string(line) + "'");
    const std::string key(trim_blanks(line.substr(0, eq)));
    if (key.empty()) return syntax_error(ini, line_no, "empty key before '='");
    IniSection& section = ini.sections_.back();
    if (const IniEntry* seen = section.find(key))
      return syntax_error(ini, line_no, "key '" + key + "' repeated (first at line " +
                                            std::to_string(seen->line) + ")");
    section.entries.push_back({key, std::string(trim_blanks(line.substr(eq + 1))), line_no});
  }
  ini.last_line_ = line_no;
  return ini;
}

Result<IniFile> IniFile::load(const std::filesystem::path& path) {
  OF_ASSIGN(const std::vector<std::uint8_t> bytes, read_input_file(path.string(), kMaxFileBytes, "INI file"));
  return parse(std::string(bytes.begin(), bytes.end()), path.string());
}

}  // namespace openflint::burn
