// Samples: the firmware-samples/ descriptions and INIs, and helpers to run fwburn on them.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/TestSupport.h"

namespace openflint::test {

struct Sample {
  std::string model;    // folder name, e.g. "connectx4"
  std::string version;  // "old" / "new"
  std::filesystem::path desc;
  std::filesystem::path ini;
  [[nodiscard]] std::string label() const { return model + "-" + version; }
};

// gtest prints parameters with this (instead of a byte dump).
inline void PrintTo(const Sample& s, std::ostream* os) { *os << s.label(); }

inline std::filesystem::path samples_dir() {
  return std::filesystem::path(OPENFLINT_SOURCE_DIR) / "firmware-samples";
}

// Every <model>/<version>.fwdesc with its <version>.ini, sorted.
inline std::vector<Sample> all_samples() {
  std::vector<Sample> out;
  for (const auto& dir : std::filesystem::directory_iterator(samples_dir())) {
    if (!dir.is_directory()) continue;
    for (const auto& f : std::filesystem::directory_iterator(dir.path())) {
      if (f.path().extension() != ".fwdesc") continue;
      const std::string version = f.path().stem().string();
      out.push_back({dir.path().filename().string(), version, f.path(), dir.path() / (version + ".ini")});
    }
  }
  std::sort(out.begin(), out.end(), [](const Sample& a, const Sample& b) { return a.label() < b.label(); });
  return out;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The value of "key = value" in the INI text (first match), "" when absent.
inline std::string ini_value(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos || line.substr(0, eq).find_first_not_of(' ', key.size()) != std::string::npos) continue;
    const auto v = line.find_first_not_of(' ', eq + 1);
    return v == std::string::npos ? "" : line.substr(v);
  }
  return "";
}

inline CommandResult run_fwburn(const Sample& s, const std::filesystem::path& out) {
  return run_command({bin("fwburn").string(), "-fw", s.desc.string(), "-conf", s.ini.string(),
                      "-wrimage", out.string()});
}

}  // namespace openflint::test
