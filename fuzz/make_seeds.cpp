// make_seeds: writes a small seed corpus per fuzz target (valid images of each format, an MFA).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "image/Fs1Writer.h"
#include "image/Fs2Writer.h"
#include "image/MfaWriter.h"
#include "tests/images/SyntheticImage.h"

namespace {

namespace fs = std::filesystem;
using openflint::gph::GphSection;

bool save(const fs::path& dir, const std::string& name, const std::vector<std::uint8_t>& bytes) {
  fs::create_directories(dir);
  std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

std::vector<GphSection> sections() {
  return {{openflint::gph::kDdr, std::vector<std::uint8_t>(256, 0x5a), 0},
          {openflint::gph::kJmp, std::vector<std::uint8_t>(32, 0x33), 0}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seeds OUTDIR\n");
    return 2;
  }
  const fs::path out = argv[1];
  openflint::Fs1ImageSpec s1;
  s1.fw_version = {5, 3, 0};
  s1.psid = "MT_0370110001";
  s1.ini = "[PS_INFO]\nName = seed\n";
  s1.sections = sections();
  s1.log2_sector_size = 12;
  openflint::Fs2ImageSpec s2;
  s2.fw_version = {2, 42, 5000};
  s2.psid = "MT_1090120019";
  s2.ini = "[PS_INFO]\nName = seed\n";
  s2.sections = sections();
  auto fs1 = openflint::write_fs1_image(s1);
  auto fs2 = openflint::write_fs2_image(s2);
  if (!fs1 || !fs2) {
    std::fprintf(stderr, "make_seeds: writer failed\n");
    return 1;
  }
  const auto fs3 = openflint::test::build_fs3().bytes;
  const auto fs4 = openflint::test::build_fs4().bytes;
  openflint::MfaWriter mfa;
  if (!mfa.add_board({"MT_0000000001", "PN-1", "seed board", {1, 2, 3}, *fs2}).has_value()) return 1;
  auto archive = mfa.build();
  if (!archive) return 1;
  bool ok = save(out / "fs1", "fs1.bin", *fs1) && save(out / "fs2", "fs2.bin", *fs2) &&
            save(out / "fs3", "fs3.bin", fs3) && save(out / "fs4", "fs4.bin", fs4) &&
            save(out / "mfa", "one-board.mfa", *archive);
  const std::vector<std::uint8_t>* images[] = {&*fs1, &*fs2, &fs3, &fs4};
  for (const auto* img : images)
    ok = ok && save(out / "any", "seed" + std::to_string(img->size()) + ".bin", *img);
  return ok ? 0 : 1;
}
