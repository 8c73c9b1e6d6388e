// IniFile and IniSectionReader: syntax, positions, raw text, typed values.
#include <gtest/gtest.h>

#include "burn/IniFile.h"
#include "burn/IniSectionReader.h"

namespace openflint::burn {
namespace {

TEST(IniFile, KeepsRawTextSectionsKeysAndLines) {
  const std::string text = "; comment\n[image]\r\npsid = MT_1 \n\n# x\n[board]\nbase_guid=0x10\nempty =\n";
  auto ini = IniFile::parse(text, "a.ini");
  ASSERT_TRUE(ini.has_value()) << ini.error().message();
  EXPECT_EQ(ini->text(), text);
  const IniSection* image = ini->find("image");
  ASSERT_NE(image, nullptr);
  EXPECT_EQ(image->line, 2);
  ASSERT_NE(image->find("psid"), nullptr);
  EXPECT_EQ(image->find("psid")->value, "MT_1");
  EXPECT_EQ(image->find("psid")->line, 3);
  const IniSection* board = ini->find("board");
  ASSERT_NE(board, nullptr);
  EXPECT_EQ(board->find("base_guid")->value, "0x10");
  EXPECT_EQ(board->find("empty")->value, "");
  EXPECT_EQ(ini->last_line(), 8);
}

TEST(IniFile, SyntaxErrorsNameFileAndLine) {
  const std::pair<std::string, std::string> cases[] = {
      {"[a]\nx = 1\nx = 2\n", "f.ini:3: key 'x' repeated (first at line 2)"},
      {"[a]\n[a]\n", "f.ini:2: section [a] repeated"},
      {"[a\n", "f.ini:1: section header without a closing ']'"},
      {"[a]\nno equals\n", "f.ini:2: expected 'key = value'"},
      {"[a]\n = 3\n", "f.ini:2: empty key"},
      {"[ ]\n", "f.ini:1: empty section name"},
  };
  for (const auto& [text, want] : cases) {
    auto ini = IniFile::parse(text, "f.ini");
    ASSERT_FALSE(ini.has_value()) << text;
    EXPECT_EQ(ini.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(ini.error().message().find(want), std::string::npos) << ini.error().message();
  }
}

TEST(IniSectionReader, TypedValuesAndErrors) {
  auto ini = IniFile::parse("[s]\nn = 0x20\nv = 1.2.3\nd = 2020-02-29\nl = 1, 0x2 ,3\nb = yes\nbad = 12x\nextra = 1\n", "f.ini");
  ASSERT_TRUE(ini.has_value());
  IniSectionReader r(*ini, ini->find("s"), "s");
  EXPECT_EQ(*r.integer("n", 0x100), 0x20u);
  EXPECT_EQ(*r.version("v"), (FwVersion{1, 2, 3}));
  EXPECT_EQ((*r.optional_date("d"))->day, 29);
  EXPECT_EQ(*r.optional_integer_list("l", 10), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(**r.optional_bool("b"), true);
  auto bad = r.integer("bad", 100);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message(), "f.ini:7: [s] bad: expected an integer (decimal or 0x hex), got '12x'");
  auto big = r.integer("n", 0x1f);
  ASSERT_FALSE(big.has_value());
  EXPECT_NE(big.error().message().find("f.ini:2: [s] n: 0x20 is out of range"), std::string::npos);
  auto missing = r.text("psid", 16);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message(), "f.ini:1: [s]: missing key 'psid'");
  auto unknown = r.finish();
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().message(), "f.ini:8: [s] extra: unknown key");
}

TEST(IniSectionReader, RejectsMalformedVersionsAndDates) {
  auto ini = IniFile::parse("[s]\na = 1.2\nb = 1.2.3.4\nc = 1..3\nd = 2020-2-1\ne = 2020-00-10\n", "f.ini");
  ASSERT_TRUE(ini.has_value());
  IniSectionReader r(*ini, ini->find("s"), "s");
  EXPECT_FALSE(r.version("a").has_value());
  EXPECT_FALSE(r.version("b").has_value());
  EXPECT_FALSE(r.version("c").has_value());
  EXPECT_FALSE(r.optional_date("d").has_value());
  EXPECT_FALSE(r.optional_date("e").has_value());
}

}  // namespace
}  // namespace openflint::burn
