// HealthThresholds: the threshold file and command-line assignments, checked name by name.
#include "fabric/HealthThresholds.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>

#include "core/BlankTrim.h"
#include "fabric/ConfigText.h"
#include "fabric/PortCounters.h"

namespace openflint {
namespace {

Result<std::optional<std::uint64_t>> parse_limit(std::string_view name, std::string_view value) {
  if (value == "off") return std::optional<std::uint64_t>{};
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || ec != std::errc{} || ptr != value.data() + value.size())
    return make_error(ErrorCode::InvalidArgument,
                      "bad value '" + std::string(value) + "' for " + std::string(name) + " (a number or off)");
  return std::optional<std::uint64_t>{v};
}

std::string known_names() {
  std::string s = "temperature, utilisation, port-state";
  for (auto n : port_error_counter_names()) s += ", " + std::string(n);
  return s;
}

}  // namespace

HealthThresholds HealthThresholds::defaults() {
  HealthThresholds t;
  for (auto n : port_error_counter_names()) t.counter_max[std::string(n)] = 0;
  t.temperature_max_c = kDefaultTemperatureC;
  return t;
}

Result<void> HealthThresholds::set(std::string_view name, std::string_view value) {
  if (name == "port-state") {
    if (value != "on" && value != "off")
      return make_error(ErrorCode::InvalidArgument, "bad value '" + std::string(value) + "' for port-state (on or off)");
    port_state = value == "on";
    return {};
  }
  if (name == "temperature") {
    OF_ASSIGN(const auto limit, parse_limit(name, value));
    if (limit && *limit > 1000)
      return make_error(ErrorCode::InvalidArgument, "temperature " + std::string(value) + " C is not a temperature");
    temperature_max_c = limit ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*limit)) : std::nullopt;
    return {};
  }
  if (name == "utilisation") {
    OF_ASSIGN(const auto limit, parse_limit(name, value));
    if (limit && *limit > 100)
      return make_error(ErrorCode::InvalidArgument, "utilisation " + std::string(value) + " is not a percentage (0-100)");
    utilisation_max_pct = limit ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*limit)) : std::nullopt;
    return {};
  }
  const auto& names = port_error_counter_names();
  if (std::find(names.begin(), names.end(), name) == names.end())
    return make_error(ErrorCode::InvalidArgument, "unknown threshold " + std::string(name) + " (known: " + known_names() + ")");
  OF_ASSIGN(counter_max[std::string(name)], parse_limit(name, value));
  return {};
}

Result<void> HealthThresholds::set(std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos)
    return make_error(ErrorCode::InvalidArgument, "threshold '" + std::string(assignment) + "' is not NAME=VALUE");
  return set(trim_blanks(assignment.substr(0, eq)), trim_blanks(assignment.substr(eq + 1)));
}

Result<HealthThresholds> HealthThresholds::parse(std::string_view text, HealthThresholds base) {
  std::map<std::string, int> seen;  // name → line
  int number = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    const std::string at = "line " + std::to_string(number) + ": ";
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim_blanks(line);
    if (line.empty()) {
      if (end == text.size()) break;
      continue;
    }
    std::istringstream words{std::string(line)};
    std::string name, value, extra;
    words >> name >> value >> extra;
    if (value.empty() || !extra.empty())
      return make_error(ErrorCode::InvalidArgument, at + "expected 'NAME VALUE', got '" + std::string(line) + "'");
    if (const auto it = seen.find(name); it != seen.end())
      return make_error(ErrorCode::InvalidArgument,
                        at + name + " given twice (first on line " + std::to_string(it->second) + ")");
    seen[name] = number;
    if (auto done = base.set(name, value); !done) return make_error(ErrorCode::InvalidArgument, at + done.error().message());
    if (end == text.size()) break;
  }
  return base;
}

Result<HealthThresholds> HealthThresholds::load(const std::string& file, const std::vector<std::string>& assignments) {
  HealthThresholds t = defaults();
  if (!file.empty()) {
    OF_ASSIGN(auto text, read_config_text(file, "threshold file"));
    auto parsed = parse(text, t);
    if (!parsed) return make_error(ErrorCode::InvalidArgument, "threshold file " + file + ": " + parsed.error().message());
    t = std::move(*parsed);
  }
  for (const auto& s : assignments) OF_TRY(t.set(s));
  return t;
}

}  // namespace openflint
