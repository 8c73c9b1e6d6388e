// IniSectionReader: conversions of INI values with file/line/key in every error.
#include "burn/IniSectionReader.h"

#include <charconv>

namespace openflint::burn {

std::optional<std::uint64_t> parse_integer(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

IniSectionReader::IniSectionReader(const IniFile& file, const IniSection* section, std::string name)
    : file_(&file), section_(section), name_(std::move(name)) {}

bool IniSectionReader::has(std::string_view key) const {
  return section_ != nullptr && section_->find(key) != nullptr;
}

const IniEntry* IniSectionReader::lookup(std::string_view key) {
  used_.insert(std::string(key));
  return section_ == nullptr ? nullptr : section_->find(key);
}

Unexpected IniSectionReader::error(std::string_view key, const std::string& problem) const {
  const IniEntry* e = section_ == nullptr ? nullptr : section_->find(key);
  const int line = e != nullptr ? e->line : section_ != nullptr ? section_->line : file_->last_line();
  return make_error(ErrorCode::InvalidArgument,
                    ini_where(*file_, line) + "[" + name_ + "] " + std::string(key) + ": " + problem);
}

Unexpected IniSectionReader::missing(std::string_view key) const {
  if (section_ == nullptr)
    return make_error(ErrorCode::InvalidArgument,
                      ini_where(*file_, file_->last_line()) + "missing section [" + name_ +
                          "] (needed for key '" + std::string(key) + "')");
  return make_error(ErrorCode::InvalidArgument, ini_where(*file_, section_->line) + "[" + name_ +
                                                    "]: missing key '" + std::string(key) + "'");
}

Result<std::optional<std::string>> IniSectionReader::optional_text(std::string_view key, std::size_t max_len) {
  const IniEntry* e = lookup(key);
  if (e == nullptr) return std::optional<std::string>{};
  if (e->value.size() > max_len)
    return error(key, "value is " + std::to_string(e->value.size()) + " bytes, at most " +
                          std::to_string(max_len) + " allowed");
  return std::optional<std::string>{e->value};
}

Result<std::string> IniSectionReader::text(std::string_view key, std::size_t max_len) {
  OF_ASSIGN(auto value, optional_text(key, max_len));
  if (!value) return missing(key);
  if (value->empty()) return error(key, "empty value");
  return *value;
}

Result<std::optional<std::uint64_t>> IniSectionReader::optional_integer(std::string_view key, std::uint64_t max) {
  const IniEntry* e = lookup(key);
  if (e == nullptr) return std::optional<std::uint64_t>{};
  const auto value = parse_integer(e->value);
  if (!value) return error(key, "expected an integer (decimal or 0x hex), got '" + e->value + "'");
  if (*value > max) return error(key, e->value + " is out of range (at most " + std::to_string(max) + ")");
  return std::optional<std::uint64_t>{*value};
}

Result<std::uint64_t> IniSectionReader::integer(std::string_view key, std::uint64_t max) {
  OF_ASSIGN(auto value, optional_integer(key, max));
  if (!value) return missing(key);
  return *value;
}

Result<std::optional<bool>> IniSectionReader::optional_bool(std::string_view key) {
  const IniEntry* e = lookup(key);
  if (e == nullptr) return std::optional<bool>{};
  if (e->value == "yes" || e->value == "true" || e->value == "1") return std::optional<bool>{true};
  if (e->value == "no" || e->value == "false" || e->value == "0") return std::optional<bool>{false};
  return error(key, "expected yes or no, got '" + e->value + "'");
}

Result<FwVersion> IniSectionReader::version(std::string_view key) {
  const IniEntry* e = lookup(key);
  if (e == nullptr) return missing(key);
  std::uint16_t parts[3] = {};
  std::string_view rest = e->value;
  for (int i = 0; i < 3; ++i) {
    const auto dot = rest.find('.');
    const std::string_view part = rest.substr(0, dot);
    const auto v = part.find_first_not_of("0123456789") == std::string_view::npos ? parse_integer(part)
                                                                                   : std::nullopt;
    if (!v || *v > 0xffff || (i < 2) == (dot == std::string_view::npos))
      return error(key, "expected MAJOR.MINOR.SUBMINOR (each 0..65535), got '" + e->value + "'");
    parts[i] = static_cast<std::uint16_t>(*v);
    rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
  }
  return FwVersion{parts[0], parts[1], parts[2]};
}

Result<std::optional<ReleaseDate>> IniSectionReader::optional_date(std::string_view key) {
  const IniEntry* e = lookup(key);
  if (e == nullptr) return std::optional<ReleaseDate>{};
  const std::string& v = e->value;
  const auto digits = [&](std::size_t at, std::size_t n) {
    const std::string_view s = std::string_view(v).substr(at, n);
    return s.find_first_not_of("0123456789") == std::string_view::npos ? parse_integer(s) : std::nullopt;
  };
  if (v.size() == 10 && v[4] == '-' && v[7] == '-') {
    const auto y = digits(0, 4), m = digits(5, 2), d = digits(8, 2);
    if (y && m && d && *m >= 1 && *m <= 12 && *d >= 1 && *d <= 31)
      return std::optional<ReleaseDate>{ReleaseDate{static_cast<std::uint16_t>(*y),
                                                    static_cast<std::uint8_t>(*m),
                                                    static_cast<std::uint8_t>(*d)}};
  }
  return error(key, "expected a date YYYY-MM-DD, got '" + v + "'");
}

Result<std::vector<std::uint64_t>> IniSectionReader::optional_integer_list(std::string_view key,
                                                                           std::uint64_t max) {
  const IniEntry* e = lookup(key);
  std::vector<std::uint64_t> out;
  if (e == nullptr) return out;
  std::string_view rest = e->value;
  while (true) {
    const auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    const auto v = parse_integer(item);
    if (!v || *v > max)
      return error(key, "expected a comma-separated list of integers (each at most " +
                            std::to_string(max) + "), got '" + e->value + "'");
    out.push_back(*v);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return out;
}

Result<void> IniSectionReader::finish() const {
  if (section_ == nullptr) return {};
  for (const auto& e : section_->entries)
    if (!used_.contains(e.key))
      return make_error(ErrorCode::InvalidArgument,
                        ini_where(*file_, e.line) + "[" + name_ + "] " + e.key + ": unknown key");
  return {};
}

}  // namespace openflint::burn
