// AccessToken: getrandom and a constant-time compare.
#include "web/AccessToken.h"

#include <sys/random.h>

#include <array>
#include <cerrno>

#include "core/Error.h"

namespace openflint {

Result<std::string> random_access_token() {
  std::array<unsigned char, 16> bytes{};
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::getrandom(bytes.data() + got, bytes.size() - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error(ErrorCode::Io, "getrandom: " + errno_text(errno));
    }
    got += static_cast<std::size_t>(n);
  }
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string token;
  for (const unsigned char b : bytes) {
    token.push_back(kDigits[b >> 4]);
    token.push_back(kDigits[b & 0xf]);
  }
  return token;
}

bool token_matches(std::string_view given, std::string_view expected) {
  if (expected.empty() || given.size() != expected.size()) return false;
  unsigned char differ = 0;
  for (std::size_t i = 0; i < expected.size(); ++i)
    differ |= static_cast<unsigned char>(given[i] ^ expected[i]);
  return differ == 0;
}

}  // namespace openflint
