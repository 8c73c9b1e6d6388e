// RealImages: MfaArchive extraction of the first PSID both archives carry.
#include "tests/powercut/RealImages.h"

#include <filesystem>

#include "image/MfaArchive.h"

namespace openflint::test {

std::optional<ImagePair> extract_pair(const TempDir& dir, const std::string& archive_a,
                                      const std::string& archive_b, std::string& why) {
  const auto real = real_firmware_dir();
  if (!real) {
    why = "no shared firmware dir (../shared/firmware/real)";
    return std::nullopt;
  }
  const auto path_a = *real / archive_a, path_b = *real / archive_b;
  if (!std::filesystem::exists(path_a) || !std::filesystem::exists(path_b)) {
    why = "missing " + archive_a + " or " + archive_b;
    return std::nullopt;
  }
  auto mfa_a = MfaArchive::open(path_a.string());
  auto mfa_b = MfaArchive::open(path_b.string());
  if (!mfa_a || !mfa_b) {
    why = "cannot open the archives";
    return std::nullopt;
  }
  for (const auto& board : mfa_b->boards()) {
    auto other = mfa_a->find_board(board.psid);
    if (!other || board.firmware() == nullptr || (*other)->firmware() == nullptr) continue;
    const auto file_a = dir / "a.bin", file_b = dir / "b.bin";
    if (!mfa_a->extract_to_file(**other, file_a.string()) || !mfa_b->extract_to_file(board, file_b.string())) {
      why = "extraction failed";
      return std::nullopt;
    }
    return ImagePair{read_file(file_a), read_file(file_b), board.psid};
  }
  why = "no PSID in both archives";
  return std::nullopt;
}

}  // namespace openflint::test
