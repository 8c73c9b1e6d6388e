// mfa_extract: extracts one board of an MFA archive to a file, for time/peak-RSS measurements.
#include <chrono>
#include <cstdio>
#include <string>

#include "image/MfaArchive.h"

using openflint::MfaArchive;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s ARCHIVE PSID|--first|--last OUT\n", argv[0]);
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  auto archive = MfaArchive::open(argv[1]);
  if (!archive) {
    std::fprintf(stderr, "error: %s\n", archive.error().message().c_str());
    return 1;
  }
  const std::string which = argv[2];
  const auto& boards = archive->boards();
  const openflint::MfaBoard* board = nullptr;
  if (which == "--first" || which == "--last") {
    if (!boards.empty()) board = which == "--first" ? &boards.front() : &boards.back();
  } else if (auto found = archive->find_board(which)) {
    board = *found;
  }
  if (board == nullptr) {
    std::fprintf(stderr, "error: no board %s\n", which.c_str());
    return 1;
  }
  auto done = archive->extract_to_file(*board, argv[3]);
  if (!done) {
    std::fprintf(stderr, "error: %s\n", done.error().message().c_str());
    return 1;
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  std::printf("%s: %zu boards, DATA %llu bytes unpacked; extracted %s in %.2f s\n", argv[1],
              boards.size(), static_cast<unsigned long long>(archive->data_unpacked_size()),
              board->psid.c_str(), elapsed.count());
  return 0;
}
