// MstflintParity: mstflint-vs-flint comparisons on real images (query fields, verify listings,
// a corrupted MAIN_CODE).
#include "tests/realfw/MstflintParity.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string json_string(const nlohmann::json& doc, const char* key) {
  const auto it = doc.find(key);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string("N/A");
}

}  // namespace

std::map<std::string, std::string> parse_query_fields(const std::string& text) {
  std::map<std::string, std::string> fields;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    fields.emplace(trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
  }
  return fields;
}

std::vector<VerifyLine> parse_verify_lines(const std::string& text) {
  std::vector<VerifyLine> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    unsigned long long start = 0, end = 0, size = 0;
    int used = 0;
    if (std::sscanf(line.c_str(), " /0x%llx-0x%llx (0x%llx)/ (%n", &start, &end, &size, &used) != 3 ||
        used == 0)
      continue;
    const auto close = line.find(')', static_cast<std::size_t>(used));
    const auto dash = line.find(" - ", close);
    if (close == std::string::npos || dash == std::string::npos) continue;
    VerifyLine v;
    v.start = start;
    v.size = size;
    v.name = line.substr(static_cast<std::size_t>(used), close - static_cast<std::size_t>(used));
    std::string status = trim(line.substr(dash + 3));
    // Drop details: "wrong CRC (exp:0x834c, act:0x709b)" / "wrong CRC (expected ..., found ...)".
    if (const auto paren = status.find(" ("); paren != std::string::npos) status.resize(paren);
    v.status = status;
    lines.push_back(v);
  }
  return lines;
}

void expect_mstflint_parity(const fs::path& image, const fs::path& work) {
  const std::string img = image.string();
  const fs::path flint = bin("flint");

  // Query: the fields both tools print.
  const auto their_q = run_command({"mstflint", "-i", img, "query"});
  ASSERT_EQ(their_q.exit_code, 0) << "mstflint query failed on " << img << ":\n" << their_q.err;
  const auto our_q = run_command({flint.string(), "-i", img, "query", "--json"});
  ASSERT_EQ(our_q.exit_code, 0) << our_q.err;
  const auto theirs = parse_query_fields(their_q.out);
  const auto ours = nlohmann::json::parse(our_q.out);
  EXPECT_EQ(json_string(ours, "image_type"), theirs.at("Image type")) << img;
  EXPECT_EQ(json_string(ours, "fw_version"), theirs.at("FW Version")) << img;
  EXPECT_EQ(json_string(ours, "release_date"), theirs.at("FW Release Date")) << img;
  EXPECT_EQ(json_string(ours, "psid"), theirs.at("PSID")) << img;

  // Verify: the same sections, in the same order, with the same statuses.
  const auto their_v = run_command({"mstflint", "-i", img, "verify"});
  const auto our_v = run_command({flint.string(), "-i", img, "verify"});
  EXPECT_EQ(our_v.exit_code, 0) << our_v.out << our_v.err;
  EXPECT_NE(their_v.out.find("Image is bootable"), std::string::npos) << their_v.out;
  const auto their_lines = parse_verify_lines(their_v.out);
  const auto our_lines = parse_verify_lines(our_v.out);
  EXPECT_GT(their_lines.size(), 10u) << their_v.out;
  EXPECT_EQ(our_lines, their_lines) << "ours:\n" << our_v.out << "\nmstflint:\n" << their_v.out;

  // One flipped byte in the middle of MAIN_CODE.
  const auto main_code = std::find_if(our_lines.begin(), our_lines.end(),
                                      [](const VerifyLine& l) { return l.name == "MAIN_CODE"; });
  ASSERT_NE(main_code, our_lines.end()) << "no MAIN_CODE in " << img;
  auto bytes = read_file(image);
  const std::uint64_t at = main_code->start + main_code->size / 2;
  ASSERT_LT(at, bytes.size());
  bytes[at] ^= 0x5a;
  const fs::path bad = work / (image.filename().string() + ".flipped");
  write_file(bad, bytes);
  const auto our_bad = run_command({flint.string(), "-i", bad.string(), "verify"});
  EXPECT_NE(our_bad.exit_code, 0) << "verify accepted an image with a corrupted MAIN_CODE";
  const auto bad_lines = parse_verify_lines(our_bad.out);
  const auto flagged = std::find_if(bad_lines.begin(), bad_lines.end(), [](const VerifyLine& l) {
    return l.name == "MAIN_CODE" && l.status == "wrong CRC";
  });
  EXPECT_NE(flagged, bad_lines.end()) << our_bad.out;
  const auto their_bad = run_command({"mstflint", "-i", bad.string(), "verify"});
  EXPECT_NE(their_bad.out.find("(MAIN_CODE) /0x"), std::string::npos) << their_bad.out;
  EXPECT_NE(their_bad.out.find("wrong CRC"), std::string::npos) << their_bad.out;
  fs::remove(bad);
}

}  // namespace openflint::test
