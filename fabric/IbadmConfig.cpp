// IbadmConfig: the keys of ibadm.conf and their checks.
#include "fabric/IbadmConfig.h"

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>

#include "core/KeyValueText.h"
#include "fabric/ConfigText.h"
#include "mtcr/remote/NameClient.h"

namespace openflint {
namespace {

using Setter = std::function<Result<void>(IbadmConfig&, const std::string&)>;

Result<bool> yes_no(const std::string& v) {
  if (v == "yes") return true;
  if (v == "no") return false;
  return make_error(ErrorCode::InvalidArgument, "expected yes or no, not '" + v.substr(0, 32) + "'");
}

Result<unsigned long> number(const std::string& v, unsigned long max) {
  if (v.empty() || v.size() > 10 || v.find_first_not_of("0123456789") != std::string::npos)
    return make_error(ErrorCode::InvalidArgument, "'" + v.substr(0, 32) + "' is not a number");
  const unsigned long n = std::strtoul(v.c_str(), nullptr, 10);
  if (n > max) return make_error(ErrorCode::InvalidArgument, v + " is more than " + std::to_string(max));
  return n;
}

Setter flag(bool IbadmConfig::*member) {
  return [member](IbadmConfig& c, const std::string& v) -> Result<void> {
    OF_ASSIGN(c.*member, yes_no(v));
    return {};
  };
}
Setter text(std::string IbadmConfig::*member) {
  return [member](IbadmConfig& c, const std::string& v) -> Result<void> {
    c.*member = v;
    return {};
  };
}
Setter tcp_port(std::uint16_t IbadmConfig::*member) {
  return [member](IbadmConfig& c, const std::string& v) -> Result<void> {
    OF_ASSIGN(const unsigned long n, number(v, 65535));
    c.*member = static_cast<std::uint16_t>(n);
    return {};
  };
}
// Blank-separated words appended (the key may be repeated).
Setter words(std::vector<std::string> IbadmConfig::*member) {
  return [member](IbadmConfig& c, const std::string& v) -> Result<void> {
    std::size_t i = 0;
    while (i < v.size()) {
      const auto start = v.find_first_not_of(" \t", i);
      if (start == std::string::npos) break;
      const auto end = v.find_first_of(" \t", start);
      (c.*member).push_back(v.substr(start, end == std::string::npos ? std::string::npos : end - start));
      i = end == std::string::npos ? v.size() : end;
    }
    return {};
  };
}

const std::map<std::string, Setter, std::less<>>& setters() {
  static const std::map<std::string, Setter, std::less<>> table = {
      {"bus_server", flag(&IbadmConfig::bus_server)},
      {"bus_server_listen", text(&IbadmConfig::bus_server_listen)},
      {"bus_server_port", tcp_port(&IbadmConfig::bus_server_port)},
      {"bus_server_allow", words(&IbadmConfig::bus_server_allow)},
      {"bus_server_devices", words(&IbadmConfig::bus_server_devices)},
      {"bus_server_read_only", flag(&IbadmConfig::bus_server_read_only)},
      {"sysfs", text(&IbadmConfig::sysfs)},
      {"inband_server", flag(&IbadmConfig::inband_server)},
      {"inband_server_listen", text(&IbadmConfig::inband_server_listen)},
      {"inband_server_port", tcp_port(&IbadmConfig::inband_server_port)},
      {"inband_server_allow", words(&IbadmConfig::inband_server_allow)},
      {"name_server", flag(&IbadmConfig::name_server)},
      {"name_server_listen", text(&IbadmConfig::name_server_listen)},
      {"name_server_port", tcp_port(&IbadmConfig::name_server_port)},
      {"name_server_address", [](IbadmConfig&, const std::string&) -> Result<void> { return {}; }},  // below
      {"name_server_refresh", [](IbadmConfig& c, const std::string& v) -> Result<void> {
         OF_ASSIGN(const unsigned long n, number(v, 7 * 24 * 3600));
         c.name_server_refresh_s = static_cast<unsigned>(n);
         return {};
       }},
      {"sweep", flag(&IbadmConfig::sweep)},
      {"hosts", [](IbadmConfig& c, const std::string& v) -> Result<void> {
         c.hosts = v;
         c.hosts_given = true;
         return {};
       }},
      {"names", text(&IbadmConfig::names)},
      {"topology", text(&IbadmConfig::topology)},
      {"ca", text(&IbadmConfig::ca)},
      {"port", [](IbadmConfig& c, const std::string& v) -> Result<void> {
         OF_ASSIGN(const unsigned long n, number(v, 255));
         c.port = static_cast<int>(n);
         return {};
       }},
      {"run_dir", text(&IbadmConfig::run_dir)},
  };
  return table;
}

bool repeatable(std::string_view key) {
  return key == "bus_server_allow" || key == "bus_server_devices" || key == "inband_server_allow";
}

void resolve_relative(std::string& path, const std::filesystem::path& base) {
  if (!path.empty() && std::filesystem::path(path).is_relative()) path = (base / path).lexically_normal().string();
}

}  // namespace

Result<IbadmConfig> parse_ibadm_config(std::string_view text_in, std::string_view source) {
  OF_ASSIGN(const auto settings, parse_key_value_text(text_in, source));
  IbadmConfig config;
  config.source = std::string(source);
  std::map<std::string, std::size_t, std::less<>> seen;
  for (const auto& s : settings) {
    const auto setter = setters().find(s.key);
    if (setter == setters().end()) return make_error(line_error(source, s.line, "unknown key '" + s.key + "'"));
    if (const auto first = seen.find(s.key); first != seen.end() && !repeatable(s.key))
      return make_error(line_error(source, s.line, s.key + " given twice (first on line " + std::to_string(first->second) + ")"));
    seen.emplace(s.key, s.line);
    if (auto set = setter->second(config, s.value); !set)
      return make_error(line_error(source, s.line, s.key + ": " + set.error().message()));
  }
  OF_ASSIGN(config.name_server_address, name_server_address_of(settings, source));
  std::error_code ec;
  const std::filesystem::path base = std::filesystem::absolute(std::filesystem::path(source), ec).parent_path();
  for (std::string* path : {&config.hosts, &config.names, &config.topology, &config.run_dir, &config.sysfs})
    resolve_relative(*path, base);
  return config;
}

Result<IbadmConfig> read_ibadm_config(const std::string& path) {
  OF_ASSIGN(const std::string text, read_config_text(path, "ibadm configuration"));
  return parse_ibadm_config(text, path);
}

std::string ibadm_config_path(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* env = std::getenv("OPENFLINT_IBADM_CONF"); env != nullptr && *env != '\0') return env;
  return std::string(kDefaultIbadmConfig);
}

}  // namespace openflint
