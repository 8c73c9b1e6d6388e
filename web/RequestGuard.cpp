// RequestGuard: the checks in the order the header states them.
#include "web/RequestGuard.h"

#include <algorithm>

#include "web/AccessToken.h"

namespace openflint {
namespace {

bool bad_path(const std::string& path) {
  return path.empty() || path.front() != '/' || path.find("..") != std::string::npos ||
         path.find('\\') != std::string::npos || path.find("//") != std::string::npos ||
         path.find('\0') != std::string::npos || path.find("%2e") != std::string::npos ||
         path.find("%2E") != std::string::npos || path.find("%2f") != std::string::npos ||
         path.find("%2F") != std::string::npos || path.find("%5c") != std::string::npos ||
         path.find("%5C") != std::string::npos || path.find("%00") != std::string::npos;
}

}  // namespace

GuardVerdict check_request(const GuardedRequest& r, const std::string& token, const std::vector<std::string>& hosts) {
  if (bad_path(r.path)) return {400, "a path with '..', '//', a backslash or an encoded separator"};
  if (!hosts.empty() && std::find(hosts.begin(), hosts.end(), r.host) == hosts.end())
    return {421, "request addressed to host '" + r.host + "', not this server"};
  const bool safe_method = r.method == "GET" || r.method == "HEAD";
  if (!safe_method) {
    if (!token_matches(r.header_token, token)) return {403, "a change needs the X-Openflint-Token header"};
    if (!r.origin.empty() && r.origin != "http://" + r.host) return {403, "cross-site request from " + r.origin};
    if (!r.fetch_site.empty() && r.fetch_site != "same-origin")
      return {403, "cross-site request (Sec-Fetch-Site: " + r.fetch_site + ")"};
    return {};
  }
  if (token_matches(r.query_token, token) || token_matches(r.header_token, token) ||
      token_matches(r.cookie_token, token))
    return {};
  return {403, "missing or wrong access token (use the URL mst web printed)"};
}

}  // namespace openflint
