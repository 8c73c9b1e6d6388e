// BurnLog: the --log file, one "YYYY-MM-DD HH:MM:SS text" line per event, flushed as written.
#include "flint/BurnLog.h"

#include <cerrno>
#include <cstring>
#include <ctime>

namespace openflint::flint {

Result<BurnLog> BurnLog::open(const std::string& path) {
  BurnLog log;
  if (path.empty()) return log;
  log.file_.reset(std::fopen(path.c_str(), "a"));
  if (!log.file_) return make_error(ErrorCode::Io, "cannot open the log file " + path + ": " + std::strerror(errno));
  return log;
}

void BurnLog::line(const std::string& text) {
  if (!file_) return;
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
  std::fprintf(file_.get(), "%s %s\n", stamp, text.c_str());
  std::fflush(file_.get());
}

}  // namespace openflint::flint
