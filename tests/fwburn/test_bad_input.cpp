// fwburn on broken descriptions and INIs: error names file, line and key; exit non-zero; no OUT.
#include <gtest/gtest.h>

#include "tests/fwburn/Samples.h"

namespace openflint {
namespace {

struct BadCase {
  const char* name;
  bool in_ini;             // mutate the INI (else the description)
  const char* find;        // text to replace (a whole line's content)
  const char* replace;     // replacement ("" removes it)
  const char* line_of;     // the error names the line holding this text (after the change)
  const char* key;         // and this key
  int exit_code;
};

const BadCase kCases[] = {
    {"missing_psid", true, "psid = MT_2190110032\n", "", "[image]", "psid", 2},
    {"wrong_type_guid_count", true, "guid_count = 4", "guid_count = four", "guid_count = four", "guid_count", 2},
    {"oversize_vsd", true, "vsd = openflint sample connectx4 new", "vsd = @209", "vsd = x", "vsd", 2},
    {"bad_version", true, "fw_version = 12.28.2006", "fw_version = 12.28", "fw_version = 12.28", "fw_version", 2},
    {"version_part_too_big", true, "fw_version = 12.28.2006", "fw_version = 12.70000.1", "fw_version =", "fw_version", 2},
    {"bad_date", true, "release_date = 2020-08-15", "release_date = 2020-13-01", "release_date", "release_date", 2},
    {"unknown_key", true, "[board]\n", "[board]\ncolour = blue\n", "colour", "colour", 2},
    {"unknown_section", true, "[flash]", "[flashy]", "[flashy]", "flashy", 2},
    {"psid_too_long", true, "psid = MT_2190110032", "psid = MT_21901100320000", "psid =", "psid", 2},
    {"hw_id_excludes_device", true, "supported_hw_ids = 0x209", "supported_hw_ids = 0x1f5", "supported_hw_ids", "supported_hw_ids", 2},
    {"missing_base_guid", true, "base_guid = 0x0002c90300a04000\n", "", "[board]", "base_guid", 2},
    {"key_not_for_format", true, "[image]\n", "[image]\nproduct_version = x\n", "product_version", "product_version", 2},
    {"chunk_out_of_range", true, "log2_chunk_size = 22", "log2_chunk_size = 30", "log2_chunk_size", "log2_chunk_size", 2},
    {"not_key_value", true, "[board]\n", "[board]\njust words\n", "just words", "just words", 2},
    {"unknown_device", false, "device = connectx4", "device = connectx99", "device = connectx99", "device", 2},
    {"unknown_hw_id", false, "device = connectx4", "device = 0x7777", "device = 0x7777", "device", 2},
    {"format_mismatch", false, "format = FS3", "format = FS2", "format = FS2", "format", 2},
    {"missing_device", false, "device = connectx4\n", "", "[firmware]", "device", 2},
    {"bad_section_type", false, "type = MAIN_CODE", "type = MAIN_CODEX", "MAIN_CODEX", "type", 2},
    {"generated_section_type", false, "type = MAIN_CODE", "type = IMAGE_INFO", "type = IMAGE_INFO", "type", 2},
    {"filler_not_dwords", false, "filler_size = 0x140\n", "filler_size = 0x143\n", "0x143", "filler_size", 2},
    {"filler_not_integer", false, "filler_size = 0x140\n", "filler_size = lots\n", "lots", "filler_size", 2},
    {"unknown_section_key", false, "[section pci_code]\n", "[section pci_code]\ncolour = red\n", "colour", "colour", 2},
    {"missing_blob_file", false, "filler_size = 0x140\nseed = 2003\n", "file = no-such-blob.bin\n", "no-such-blob", "file", 4},
};

std::string replace_once(std::string text, const std::string& find, std::string replace) {
  if (replace == "vsd = @209") replace = "vsd = " + std::string(209, 'x');
  const auto at = text.find(find);
  EXPECT_NE(at, std::string::npos) << find;
  if (at != std::string::npos) text.replace(at, find.size(), replace);
  return text;
}

int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return -1;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, ErrorNamesFileLineAndKeyAndWritesNothing) {
  const BadCase& c = GetParam();
  test::TempDir dir;
  const auto src = test::samples_dir() / "connectx4";
  std::string desc = test::read_text(src / "new.fwdesc");
  std::string ini = test::read_text(src / "new.ini");
  std::string& target = c.in_ini ? ini : desc;
  target = replace_once(target, c.find, c.replace);
  const auto desc_path = dir / "new.fwdesc", ini_path = dir / "new.ini", out = dir / "out.bin";
  test::write_file(desc_path, std::vector<std::uint8_t>(desc.begin(), desc.end()));
  test::write_file(ini_path, std::vector<std::uint8_t>(ini.begin(), ini.end()));
  const auto r = test::run_command({test::bin("fwburn").string(), "-fw", desc_path.string(), "-conf",
                                    ini_path.string(), "-wrimage", out.string()});
  EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
  const std::string where = (c.in_ini ? ini_path : desc_path).string() + ":" + std::to_string(line_of(target, c.line_of)) + ":";
  EXPECT_NE(r.err.find(where), std::string::npos) << "want '" << where << "' in: " << r.err;
  EXPECT_NE(r.err.find(c.key), std::string::npos) << "want key '" << c.key << "' in: " << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  for (const auto& f : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(f.path().string().find(".tmp."), std::string::npos) << "temporary file left: " << f.path();
}

INSTANTIATE_TEST_SUITE_P(Fwburn, BadInput, ::testing::ValuesIn(kCases),
                         [](const auto& case_info) { return std::string(case_info.param.name); });

TEST(FwburnBadInput, MissingSectionNamesTheFileEnd) {
  test::TempDir dir;
  const auto src = test::samples_dir() / "connectx4";
  std::string ini = test::read_text(src / "new.ini");
  ini = ini.substr(0, ini.find("[board]"));  // no [board], no [flash]
  test::write_file(dir / "b.ini", std::vector<std::uint8_t>(ini.begin(), ini.end()));
  const auto r = test::run_command({test::bin("fwburn").string(), "-fw", (src / "new.fwdesc").string(),
                                    "-conf", (dir / "b.ini").string(), "-wrimage", (dir / "o.bin").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("b.ini:" + std::to_string(std::count(ini.begin(), ini.end(), '\n')) + ": missing section [board]"),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find("base_guid"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "o.bin"));
}

// Every line is valid, but 64 more sections than an ITOC holds: the generator's own parser
// rejects the result, so fwburn must refuse it (exit 3) instead of writing it with exit 0.
TEST(FwburnBadInput, ImageItsOwnParserRejectsIsNotWritten) {
  test::TempDir dir;
  const auto src = test::samples_dir() / "connectx4";
  std::string desc = test::read_text(src / "new.fwdesc");
  for (int i = 0; i < 64; ++i)
    desc += "\n[section extra" + std::to_string(i) + "]\ntype = HW_BOOT_CFG\nfiller_size = 0x40\n";
  test::write_file(dir / "many.fwdesc", std::vector<std::uint8_t>(desc.begin(), desc.end()));
  const auto r = test::run_command({test::bin("fwburn").string(), "-fw", (dir / "many.fwdesc").string(), "-conf",
                                    (src / "new.ini").string(), "-wrimage", (dir / "o.bin").string()});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("ITOC"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "o.bin"));
}

}  // namespace
}  // namespace openflint
