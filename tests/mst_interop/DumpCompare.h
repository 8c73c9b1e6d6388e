// DumpCompare: parses "0xADDR 0xVALUE" dumps (ours, mstregdump's) and mstmread's "Read 0xADDR:0xVALUE"
// lines, and compares two dumps at every address both contain.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>
#include <string>

namespace openflint::test {

// address -> value of every "0x%08x 0x%08x" line (other lines are ignored).
inline std::map<std::string, std::string> parse_dump(const std::string& text) {
  std::map<std::string, std::string> words;
  static const std::regex line("^(0x[0-9a-f]{8}) (0x[0-9a-f]{8})$");
  std::istringstream in(text);
  std::string l;
  std::smatch m;
  while (std::getline(in, l))
    if (std::regex_match(l, m, line)) words[m[1].str()] = m[2].str();
  return words;
}

// The value mstmread printed ("Read 0x00000020:0xdeadbeef"), empty when there is none.
inline std::string mstmread_value(const std::string& out) {
  static const std::regex line("Read 0x[0-9a-fA-F]+:(0x[0-9a-fA-F]+)");
  std::smatch m;
  return std::regex_search(out, m, line) ? m[1].str() : std::string();
}

struct Overlap {
  std::size_t common = 0;
  std::size_t differing = 0;
  std::size_t nonzero = 0;  // common addresses whose value is not 0 (the comparison has teeth)
  std::string first_difference;
};

inline Overlap compare_dumps(const std::map<std::string, std::string>& ours,
                             const std::map<std::string, std::string>& theirs) {
  Overlap o;
  for (const auto& [address, value] : ours) {
    const auto it = theirs.find(address);
    if (it == theirs.end()) continue;
    ++o.common;
    if (value != "0x00000000") ++o.nonzero;
    if (it->second != value) {
      if (o.differing++ == 0) o.first_difference = address + ": ours " + value + ", theirs " + it->second;
    }
  }
  return o;
}

}  // namespace openflint::test
