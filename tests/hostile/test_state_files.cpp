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
  // One device per concurrent job (2 MiB each: each of the few hundred runs loads and saves
  // one); the cases go through them in batches.
  const std::size_t jobs = hostile_jobs();
  for (std::size_t d = 0; d < jobs; ++d) create_device("dev" + std::to_string(d), "M25P16");
  const std::vector<std::uint8_t> original = read_file(dir_ / "dev0" / "state.json");
  const json valid = json::parse(original.begin(), original.end());
  std::vector<json::json_pointer> pointers;
  collect_pointers(valid, json::json_pointer(), pointers);
  ASSERT_GT(pointers.size(), 20u) << "the generator found too few fields in " << valid.dump();
  struct Case {
    json::json_pointer pointer;
    json value;
  };
  std::vector<Case> cases;
  for (std::size_t field = 0; field < pointers.size(); ++field)
    for (const json& value : wrong_values(field)) cases.push_back({pointers[field], value});
  int refused = 0;
  for (std::size_t first = 0; first < cases.size(); first += jobs) {
    const std::size_t count = std::min(jobs, cases.size() - first);
    std::vector<HostileCommand> shows;
    std::vector<HostileCommand> queries;
    std::vector<std::size_t> queried;  // case index of each query
    for (std::size_t k = 0; k < count; ++k) {
      json edited = valid;
      edited[cases[first + k].pointer] = cases[first + k].value;
      const std::string text = edited.dump();
      const std::string dev = "dev" + std::to_string(k);
      write_file(dir_ / dev / "state.json", {text.begin(), text.end()});
      shows.push_back({"hcasim", "show", path(dev)});
      // flint opens the device through the same loader; every fourth case keeps the run short.
      if ((first + k) % 4 == 0) {
        queries.push_back({"flint", "-d", "sim:" + path(dev), "q"});
        queried.push_back(first + k);
      }
    }
    // The shows, then the queries: never two tools on one device at once.
    const std::vector<HostileRun> show_runs = run_hostile_many(shows);
    const std::vector<HostileRun> query_runs = run_hostile_many(queries);
    for (std::size_t k = 0; k < count; ++k) {
      const Case& c = cases[first + k];
      SCOPED_TRACE(c.pointer.to_string() + " = " + c.value.dump());
      const HostileRun& show = show_runs[k];
      expect_orderly(show);
      if (show.result.exit_code != 0) {
        ++refused;
        EXPECT_NE(show.result.err.find("state"), std::string::npos) << show.result.err;
      }
    }
    for (std::size_t q = 0; q < queries.size(); ++q) {
      const Case& c = cases[queried[q]];
      SCOPED_TRACE(c.pointer.to_string() + " = " + c.value.dump());
      expect_orderly(query_runs[q]);
    }
  }
  EXPECT_GT(refused, 0) << "no mistyped value was refused: the generator does not reach the loader";
  RecordProperty("cases", static_cast<int>(cases.size()));
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
