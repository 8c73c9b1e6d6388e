// AccessToken: getrandom and a constant-time compare.
#include "web/AccessToken.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include "core/Error.h"
#include "core/HexString.h"

namespace openflint {

Result<std::string> random_access_token() {
  std::array<std::uint8_t, 16> bytes{};
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::getrandom(bytes.data() + got, bytes.size() - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error(ErrorCode::Io, "getrandom: " + errno_text(errno));
    }
    got += static_cast<std::size_t>(n);
  }
  return hex_digits(bytes);
}

Result<std::string> load_or_create_token(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd >= 0) {
    struct stat st{};
    std::string text(128, '\0');
    const bool stat_ok = ::fstat(fd, &st) == 0;
    const ssize_t n = ::read(fd, text.data(), text.size());
    ::close(fd);
    if (!stat_ok || n < 0) return make_error(ErrorCode::Io, "reading the token file " + path.string());
    if ((st.st_mode & 077) != 0)
      return make_error(ErrorCode::PermissionDenied,
                        "the token file " + path.string() + " may be read by others (chmod 600 it)");
    text.resize(static_cast<std::size_t>(n));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    if (text.size() != 32 || text.find_first_not_of("0123456789abcdef") != std::string::npos)
      return make_error(ErrorCode::InvalidArgument, "the token file " + path.string() + " does not hold 32 hex digits");
    return text;
  }
  if (errno != ENOENT) return make_error(ErrorCode::Io, "opening the token file " + path.string() + ": " + errno_text(errno));
  OF_ASSIGN(const std::string token, random_access_token());
  const int out = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (out < 0) return make_error(ErrorCode::Io, "creating the token file " + path.string() + ": " + errno_text(errno));
  const std::string line = token + "\n";
  const bool written = ::write(out, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  const bool closed = ::close(out) == 0;
  if (!written || !closed) return make_error(ErrorCode::Io, "writing the token file " + path.string());
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
