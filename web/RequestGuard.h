// RequestGuard: what the web console checks before any handler runs — the path, the host it was
// addressed to, the access token, and for anything that changes state the signs of a same-origin
// request. Pure: WebServer gives it the request's parts and answers with its verdict.
#pragma once

#include <string>
#include <vector>

namespace openflint {

struct GuardedRequest {
  std::string method;  // "GET", "POST", ...
  std::string path;    // as received, before any decoding by us
  std::string host;    // the Host header
  std::string query_token;   // ?token=
  std::string header_token;  // X-Openflint-Token
  std::string cookie_token;  // the openflint_token cookie
  std::string origin;        // Origin header ("" when absent)
  std::string fetch_site;    // Sec-Fetch-Site header ("" when absent)
};

struct GuardVerdict {
  int status = 200;    // 200: go on; else the HTTP status to answer with
  std::string reason;  // for the answer's body and the audit line
};

// `hosts`: the Host values the server answers to ("127.0.0.1:PORT", "localhost:PORT", ...), so
// a page of another site that resolves its own name to this address (DNS rebinding) is refused;
// empty: any.
// Checks, in order: a path with "..", a backslash, "//" or a NUL (400); an unknown Host (421);
// no matching token in the query, the header or the cookie (403); for a method other than GET
// and HEAD: the token in the X-Openflint-Token header (which a cross-site form cannot send), an
// Origin other than http://HOST, or a Sec-Fetch-Site other than same-origin (403).
[[nodiscard]] GuardVerdict check_request(const GuardedRequest& request, const std::string& token,
                                         const std::vector<std::string>& hosts);

}  // namespace openflint
