// Hostile inputs, class "device state": a hand-edited state.json of any shape gives an error line, never an abort.
#include <algorithm>
#include <cstring>

#include <nlohmann/json.hpp>

#include "tests/hostile/HostileFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

// JSON pointers to every value of `j` (objects and arrays included); of a large object such
// as "registers" only the first few members, which stand for the rest.
void collect_pointers(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  if (!at.empty()) out.push_back(at);
  if (j.is_object()) {
    int n = 0;
    for (const auto& [key, value] : j.items()) {
      if (++n > 4 && at.to_string() == "/registers") break;
      collect_pointers(value, at / key, out);
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) collect_pointers(j[i], at / i, out);
  }
}

// Values of the other JSON types and numbers no field can hold, three per field (every value
// for every field would take minutes of process starts on a shared machine; a seeded pick per
// field keeps each kind of value covered across the fields).
std::vector<json> wrong_values(std::size_t field) {
  const std::vector<json> all{json("text"), json(-1), json(1e300), json(18446744073709551615ull),
                              json::array({1, "x"}), json::object({{"k", 1}}), json(nullptr), json(true)};
  std::vector<json> picked;
  for (std::size_t i = 0; i < 3; ++i) picked.push_back(all[(field * 3 + i) % all.size()]);
  return picked;
}

TEST_F(HostileTest, MistypedStateValuesNeverAbort) {
  create_device("dev", "M25P16");  // 2 MiB: each of the few hundred runs loads and saves it
  const std::filesystem::path state = dir_ / "dev" / "state.json";
  const std::vector<std::uint8_t> original = read_file(state);
  const json valid = json::parse(original.begin(), original.end());
  std::vector<json::json_pointer> pointers;
  collect_pointers(valid, json::json_pointer(), pointers);
  ASSERT_GT(pointers.size(), 20u) << "the generator found too few fields in " << valid.dump();
  int cases = 0, refused = 0;
  for (std::size_t field = 0; field < pointers.size(); ++field) {
    const auto& pointer = pointers[field];
    for (const json& value : wrong_values(field)) {
      json edited = valid;
      edited[pointer] = value;
      const std::string text = edited.dump();
      write_file(state, {text.begin(), text.end()});
      SCOPED_TRACE(pointer.to_string() + " = " + value.dump());
      const HostileRun show = run_hostile("hcasim", {"show", path("dev")});
      expect_orderly(show);
      if (show.result.exit_code != 0) {
        ++refused;
        EXPECT_NE(show.result.err.find("state"), std::string::npos) << show.result.err;
      }
      // flint opens the device through the same loader; every fourth case keeps the run short.
      if (cases % 4 == 0) expect_orderly(run_hostile("flint", {"-d", "sim:" + path("dev"), "q"}));
      ++cases;
    }
  }
  EXPECT_GT(refused, 0) << "no mistyped value was refused: the generator does not reach the loader";
  RecordProperty("cases", cases);
}

TEST_F(HostileTest, TruncatedOrNonObjectStateFilesAreRefused) {
  create_device();
  const std::filesystem::path state = dir_ / "dev" / "state.json";
  const std::vector<std::uint8_t> original = read_file(state);
  std::vector<std::vector<std::uint8_t>> variants;
  for (std::size_t cut : {std::size_t{0}, std::size_t{1}, original.size() / 3, original.size() / 2,
                          original.size() - 2})
    variants.emplace_back(original.begin(), original.begin() + static_cast<std::ptrdiff_t>(cut));
  for (const char* text : {"[]", "42", "\"state\"", "null", "{\"format\": 1}"})
    variants.emplace_back(text, text + std::strlen(text));
  variants.push_back(random_bytes(4096, 17));
  for (const auto& bytes : variants) {
    write_file(state, bytes);
    SCOPED_TRACE(std::string(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(bytes.size(), 40))));
    // Bad data in a device's state file: exit 3 (bad input), as a corrupt image.
    expect_refused(run_hostile("hcasim", {"show", path("dev")}), 3, "state.json");
    expect_refused(run_hostile("flint", {"-d", "sim:" + path("dev"), "q"}), 3, "state.json");
  }
}

}  // namespace
}  // namespace openflint::test
