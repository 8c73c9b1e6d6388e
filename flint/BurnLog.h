// BurnLog: `--log FILE` — timestamped lines of what a burn did, appended to a file for the record.
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "core/Result.h"

namespace openflint::flint {

class BurnLog {
 public:
  // No file: every line is dropped. IoError when `path` cannot be opened for appending.
  [[nodiscard]] static Result<BurnLog> open(const std::string& path);
  void line(const std::string& text);

 private:
  struct Close {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Close> file_;
};

}  // namespace openflint::flint
