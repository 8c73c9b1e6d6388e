// ArchiveCommands: `archive list` and `archive extract` on an MFA archive given with -i (MFA2 and PLDM packages go to Mfa2Commands, PldmCommands).
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "devices/FlashChip.h"
#include "fwops/ImageFile.h"
#include "flint/Commands.h"
#include "reports/ImageReport.h"
#include "image/MfaArchive.h"

namespace openflint::flint {
using namespace openflint::reports;  // the documents the tools print (reports/)
namespace {

Result<MfaArchive> open_archive(const Options& options) {
  if (options.image.empty())
    return make_error(ErrorCode::InvalidArgument, "no archive given: use -i FILE.mfa, FILE.mfa2 or FILE.fwpkg");
  return MfaArchive::open(options.image);  // its errors name the file
}

// A one-line progress bar on stderr, only when stderr is a terminal.
MfaArchive::Progress progress_bar(const Options& options) {
  if (options.json || ::isatty(STDERR_FILENO) == 0) return {};
  return [last = -1](std::uint64_t done, std::uint64_t total) mutable {
    const int pct = total == 0 ? 100 : static_cast<int>(done * 100 / total);
    if (pct == last) return;
    last = pct;
    std::fprintf(stderr, "\rExtracting: %3d%%", pct);
    if (pct >= 100) std::fputc('\n', stderr);
  };
}

}  // namespace

int run_archive_list(const Options& options) {
  if (!options.image.empty() && is_mfa2_package(options.image)) return run_mfa2_list(options);
  if (!options.image.empty() && is_pldm_package(options.image)) return run_pldm_list(options);
  auto archive = open_archive(options);
  if (!archive) return report_error(options, archive.error());
  if (options.json) {
    nlohmann::json doc = boards_json(*archive);
    doc["ok"] = true;
    cli::print_json(doc);
  } else {
    print_boards(std::cout, *archive);
  }
  return cli::kOk;
}

int run_archive_extract(const Options& options, const std::string& out_path) {
  if (options.psid.empty())
    return report_error(options, Error(ErrorCode::InvalidArgument, "archive extract needs --psid PSID"));
  if (!options.image.empty() && is_mfa2_package(options.image)) return run_mfa2_extract(options, out_path);
  if (!options.image.empty() && is_pldm_package(options.image)) return run_pldm_extract(options, out_path);
  auto archive = open_archive(options);
  if (!archive) return report_error(options, archive.error());
  // The same per-board bound as reading a board for q/burn (fwops/ImageFile): checked before
  // the output is created, so a refused board leaves no file behind.
  auto board = archive->find_board(options.psid, largest_flash_size());
  if (!board) return report_error(options, board.error().with_context(options.image));
  auto done = archive->extract_to_file(**board, out_path, progress_bar(options));
  if (!done) return report_error(options, done.error().with_context("extracting " + options.psid));
  if (options.json) {
    const MfaImageRef* fw = (*board)->firmware();
    cli::print_json(nlohmann::json{{"ok", true},
                                {"psid", options.psid},
                                {"output", out_path},
                                {"size", fw != nullptr ? fw->data_size : 0}});
  } else {
    std::cout << "Extracted " << options.psid << " to " << out_path << '\n';
  }
  return cli::kOk;
}

}  // namespace openflint::flint
