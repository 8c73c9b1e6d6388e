// JsonNumber: one reading of request numbers for every endpoint.
#include "web/JsonNumber.h"

#include <string>

#include "cli/TextArgs.h"

namespace openflint {

Result<std::uint64_t> json_number(const nlohmann::json& value, const char* what) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_string()) return cli::parse_number(value.get<std::string>(), what);
  return make_error(ErrorCode::InvalidArgument, std::string(what) + ": a number or a \"0x..\" string is needed");
}

Result<std::optional<std::uint64_t>> json_optional_number(const nlohmann::json& request, const char* key, int bits) {
  if (!request.is_object() || !request.contains(key) || request[key].is_null() ||
      (request[key].is_string() && request[key].get<std::string>().empty()))
    return std::optional<std::uint64_t>{};
  OF_ASSIGN(const std::uint64_t value, json_number(request[key], key));
  if (bits < 64 && value >> bits != 0)
    return make_error(ErrorCode::InvalidArgument, std::string(key) + ": at most " + std::to_string(bits) + " bits");
  return std::optional<std::uint64_t>{value};
}

}  // namespace openflint
