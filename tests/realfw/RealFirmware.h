// RealFirmware: helpers for tests over the real vendor MFA archives in ../shared/firmware/real.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/Result.h"

namespace openflint::test {

// One row of tests/realfw/expected.tsv (computed independently of our code; see its header).
struct ExpectedArchive {
  std::string archive;  // file name, e.g. fw-SPC-rel-13_2000_1658-EVB.mfa
  std::size_t boards = 0;
  std::uint64_t data_unpacked_bytes = 0;
  std::string first_psid;
  std::string first_sha256;
  std::string last_psid;
  std::string last_sha256;
};

// Rows of tests/realfw/expected.tsv keyed by archive name (empty map if it cannot be read).
std::map<std::string, ExpectedArchive> load_expected_archives();

// Sorted names of the *.mfa files in the real-firmware directory; empty when it is absent.
std::vector<std::string> real_archive_names();

// The first and last boards (MAP order) of an archive, extracted in one pass.
struct ExtractedBoards {
  std::filesystem::path first_path;  // <dir>/first-<PSID>.bin
  std::string first_psid;
  std::filesystem::path last_path;   // <dir>/last-<PSID>.bin
  std::string last_psid;
};

// Opens `archive` and writes the firmware images of its first and last boards into `dir`
// (one streaming pass over DATA). The files stay for further checks (e.g. mstflint parity).
Result<ExtractedBoards> extract_first_and_last(const std::filesystem::path& archive,
                                               const std::filesystem::path& dir);

// Hex sha256 of a file, computed by the external `sha256sum` (empty on failure).
std::string sha256sum(const std::filesystem::path& file);

}  // namespace openflint::test
