// SampleImages: variants of the generated firmware samples (firmware-samples/<model>/) that tests
// build at run time with fwburn, e.g. the firmware that takes its updates through MCC.
// Header-only: the test folders that use it build fwburn first (DEPENDS).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/TestSupport.h"

namespace openflint::test {

// Whether the model has generated samples (firmware-samples/<model>/<version>.fwdesc).
inline bool has_sample_description(const std::string& model, const std::string& version = "old") {
  return std::filesystem::exists(std::filesystem::path(OPENFLINT_SOURCE_DIR) / "firmware-samples" / model /
                                 (version + ".fwdesc"));
}

// The model's `version` sample built by fwburn into `dir` from its description with
// `component_update = yes` (IMAGE_INFO mcc_en): firmware that takes its updates through MCC
// (docs/fwaccess.md). `src`: the folder of the description and INI (default
// firmware-samples/<model>). A failure to build it is a test failure.
inline std::filesystem::path mcc_sample(const std::filesystem::path& dir, const std::string& model,
                                        const std::string& version, std::filesystem::path src = {}) {
  if (src.empty()) src = std::filesystem::path(OPENFLINT_SOURCE_DIR) / "firmware-samples" / model;
  std::ifstream in(src / (version + ".fwdesc"));
  std::stringstream desc;
  std::string line;
  bool in_firmware = false;
  while (std::getline(in, line)) {
    if (in_firmware && line.rfind("component_update", 0) == 0) continue;  // the switches' samples say it
    desc << line << '\n';
    if (line.rfind('[', 0) == 0) in_firmware = line == "[firmware]";
    if (line == "[firmware]") desc << "component_update = yes\n";
  }
  const auto fwdesc = dir / (model + "-" + version + "-mcc.fwdesc");
  std::ofstream(fwdesc) << desc.str();
  const auto out = dir / (model + "-" + version + "-mcc.bin");
  const auto r = run_tool("fwburn", {"-fw", fwdesc.string(), "-conf", (src / (version + ".ini")).string(), "-wrimage",
                                     out.string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return out;
}

}  // namespace openflint::test
