// RealFirmware: expected.tsv loading, archive listing and first/last board extraction.
#include "tests/realfw/RealFirmware.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "image/MfaArchive.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

namespace fs = std::filesystem;

std::map<std::string, ExpectedArchive> load_expected_archives() {
  std::map<std::string, ExpectedArchive> out;
  std::ifstream in(fs::path(OPENFLINT_SOURCE_DIR) / "tests/realfw/expected.tsv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    ExpectedArchive row;
    if (fields >> row.archive >> row.boards >> row.data_unpacked_bytes >> row.first_psid >>
        row.first_sha256 >> row.last_psid >> row.last_sha256)
      out[row.archive] = row;
  }
  return out;
}

std::vector<std::string> real_archive_names() {
  std::vector<std::string> names;
  const auto dir = real_firmware_dir();
  if (!dir) return names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(*dir, ec))
    if (entry.path().extension() == ".mfa") names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

MfaArchive::Sink file_sink(std::ofstream& out, const fs::path& path) {
  return [&out, path](Bytes chunk) -> Result<void> {
    out.write(reinterpret_cast<const char*>(chunk.data()), static_cast<std::streamsize>(chunk.size()));
    if (!out) return make_error(ErrorCode::Io, "cannot write " + path.string());
    return {};
  };
}

}  // namespace

Result<ExtractedBoards> extract_first_and_last(const fs::path& archive_path, const fs::path& dir) {
  OF_ASSIGN(const MfaArchive archive, MfaArchive::open(archive_path.string()));
  if (archive.boards().empty())
    return make_error(ErrorCode::NotFound, archive_path.string() + " has no boards");
  const MfaBoard& first = archive.boards().front();
  const MfaBoard& last = archive.boards().back();
  ExtractedBoards out{dir / ("first-" + first.psid + ".bin"), first.psid,
                      dir / ("last-" + last.psid + ".bin"), last.psid};
  {
    std::ofstream first_file(out.first_path, std::ios::binary | std::ios::trunc);
    std::ofstream last_file(out.last_path, std::ios::binary | std::ios::trunc);
    OF_TRY(archive.extract_many({&first, &last}, {file_sink(first_file, out.first_path),
                                                  file_sink(last_file, out.last_path)}));
    first_file.close();
    last_file.close();
    if (!first_file || !last_file)
      return make_error(ErrorCode::Io, "cannot write the extracted images in " + dir.string());
  }
  return out;
}

std::string sha256sum(const fs::path& file) {
  const CommandResult result = run_command({"sha256sum", "-b", file.string()});
  if (result.exit_code != 0) return {};
  return result.out.substr(0, result.out.find(' '));
}

}  // namespace openflint::test
