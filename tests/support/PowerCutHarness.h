// PowerCutHarness: burn A, then cut the power at many points of a burn of B and check the boot ROM.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/ByteReader.h"
#include "fwops/burn/FailsafeBurner.h"
#include "mtcr/RegisterAccess.h"
#include "sim/SimDevice.h"

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
// `burn_b`: the options of the burn of B (default: keep the board's identity). When they give an
// identity (FS3/FS4 --uid/--mac/--vsd), the copy that boots after a cut must have the board's
// old identity or the given one, nothing else.
// `through`: the transport the burns use, made once for the simulated device (e.g. its PCI
// config space served over FUSE); empty: the simulator itself. Power cuts, power cycles and
// boot checks act on the simulator.
// `tail_points`: also cut at every one of the last `tail_points` ops (the commit of the new
// copy: its magic, then the old copy's invalidation), which an even spread may step over.
using BurnTransport = std::function<RegisterAccess&(sim::SimDevice&)>;
PowerCutOutcome run_power_cuts(const std::string& model, Bytes a, Bytes b, int min_points, int reburn_every,
                               const BurnOptions& burn_b = {}, const BurnTransport& through = {},
                               int tail_points = 0);

}  // namespace openflint::test
