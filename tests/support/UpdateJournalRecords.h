// UpdateJournalRecords: what an `ibfwmgr update --journal FILE` wrote, as the tests read it back
// (complete tab-separated lines only: a run killed mid-write leaves a torn last line).
#pragma once

#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/TestSupport.h"

namespace openflint::test {

// The journal's records in order, as (node GUID, state).
inline std::vector<std::pair<std::string, std::string>> journal_records(const std::filesystem::path& journal) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(read_text(journal));
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string field; std::getline(fields, field, '\t');) f.push_back(field);
    if (f.size() >= 5) out.emplace_back(f[2], f[4]);
  }
  return out;
}

// How many of the journal's records carry `state` (over every run that wrote it).
inline std::size_t journal_states(const std::filesystem::path& journal, const std::string& state) {
  std::size_t n = 0;
  for (const auto& record : journal_records(journal)) n += record.second == state ? 1 : 0;
  return n;
}

}  // namespace openflint::test
