// TodaysAdapters: the adapters of today's clusters (ConnectX-5 .. ConnectX-7, BlueField-2/3) and
// what their tests share: the models, a board made from a model's old sample with its own
// identity, our flint's query of an image or a device, an MCC-enabled variant of a sample.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/SampleImages.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

// The families of issue 38 (connectx5 first: the model the others follow).
inline const std::vector<std::string> kTodaysAdapters{"connectx5",   "connectx6",  "connectx6dx", "connectx6lx",
                                                      "connectx7",   "bluefield2", "bluefield3"};

// Test names end with the model: Models/Suite.Test/connectx6dx.
inline std::string model_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

// A board's own identity, different from every sample's.
struct BoardIds {
  std::uint64_t guid;
  std::uint64_t mac;
  std::string vsd;
};

inline std::string hex16(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

inline std::filesystem::path model_sample(const std::string& model, const std::string& version) {
  return sample_image(model + "-" + version);
}

// `flint [-d DEV | -i IMAGE] --json q`, parsed (discarded when it failed).
inline nlohmann::json flint_query(const std::vector<std::string>& target, const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv{bin("flint").string()};
  argv.insert(argv.end(), target.begin(), target.end());
  argv.insert(argv.end(), {"--json", "q"});
  const auto r = run_command(argv, env);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return nlohmann::json::parse(r.out, nullptr, false);
}

// A copy of `image` in `dir` carrying the board's identity (flint sg / sv on the file).
inline std::filesystem::path board_image(const std::filesystem::path& dir, const std::string& name,
                                         const std::filesystem::path& image, const BoardIds& ids) {
  const auto out = dir / (name + ".bin");
  std::filesystem::copy_file(image, out, std::filesystem::copy_options::overwrite_existing);
  const auto g = run_tool("flint", {"-i", out.string(), "sg", hex16(ids.guid), hex16(ids.mac).substr(6)});
  EXPECT_EQ(g.exit_code, 0) << g.out << g.err;
  const auto v = run_tool("flint", {"-i", out.string(), "sv", ids.vsd});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  return out;
}

}  // namespace openflint::test
