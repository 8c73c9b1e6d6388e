// PowerCutHarness: burn A, then cut the power at many points of a burn of B and check the boot ROM.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ByteReader.h"

namespace openflint::test {

struct PowerCutOutcome {
  std::uint64_t total_ops = 0;  // flash erase/program operations of an unfaulted A -> B burn
  int cut_points = 0;
  int booted_a = 0;
  int booted_b = 0;
  int recovery = 0;             // must stay 0
  int reburn_failures = 0;      // burning B again after the cut did not boot B
  int identity_lost = 0;        // the copy that booted had other GUIDs/MACs/VSD than the board
  std::vector<std::string> failures;  // first few problems, for the test log
};

// `model`: simulator model; `a`, `b`: image files (same PSID, different FW versions).
// Tries at least `min_points` cut points spread over 1..total_ops (the last op included);
// after each cut, every `reburn_every`-th point also burns B again without faults.
PowerCutOutcome run_power_cuts(const std::string& model, Bytes a, Bytes b, int min_points, int reburn_every);

}  // namespace openflint::test
