#!/usr/bin/env bash
# The test command: installs what is missing, builds from scratch, runs every test.
#   1. fuzz targets (clang, libFuzzer) for a bounded time each
#   2. the ASan+UBSan build (-O0) running the fast labels
#   3. the release build running the slow labels (fabrics, power cuts, real firmware, interop)
#      and the hostile suite under an address-space limit
#   4. the Debian package built from the release build and checked (scripts/check-deb.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
rm -rf build
export OPENFLINT_JOBS=${OPENFLINT_JOBS:-$(nproc)}

if [[ -d fuzz ]] && ls fuzz/*.cpp >/dev/null 2>&1; then
  echo "== fuzz build"
  fdir=$(bash scripts/build.sh fuzz)
  # >= 1,000,000 inputs in all (per-target counts in run-fuzzers.sh); 300 s caps one target.
  bash scripts/run-fuzzers.sh "$fdir" "${OPENFLINT_FUZZ_CAP_SECONDS:-300}"
fi

# The labels the release build runs (the slow ones: fabrics, power cuts, real firmware, interop,
# whole 16-32 MiB images burned through the tools); ASan runs all the others. Each build compiles
# only the test executables its stage runs (scripts/test-targets.sh), and the tools they need.
slow='realfw|powercut|interop|inband|large'
# Every tool and the sample images, whatever a test folder's DEPENDS lists.
tools=(flint fwburn hcasim ibfwmgr mst simfabric ibsim-responder mtcr-tool firmware_samples)
echo "== ASan+UBSan build"
adir=$(bash scripts/build.sh asan "${tools[@]}" $(bash scripts/test-targets.sh -LE "$slow"))
# -LE also selects CMake's "<target>_NOT_BUILT" placeholders of the executables not built here.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$adir" --output-on-failure -j "$OPENFLINT_JOBS" -LE "$slow" -E '_NOT_BUILT$'

echo "== release build"
rdir=$(bash scripts/build.sh release package_inputs "${tools[@]}" $(bash scripts/test-targets.sh -L "$slow|hostile"))
# The fast labels ran under ASan+UBSan above; the release build runs the labels ASan skips, and
# `hostile` again, because only outside ASan is each tool run under a 256 MiB address-space limit.
# Large allocations use transparent huge pages: the power-cut tests copy 16-32 MiB flash images
# per cut, and 4 KiB page faults were most of their system time (measured: 2.4 M faults -> 11 K).
GLIBC_TUNABLES=glibc.malloc.hugetlb=1 \
  ctest --test-dir "$rdir" --output-on-failure -j "$OPENFLINT_JOBS" -L "$slow|hostile"
echo "release: labels ${slow//|/, } and hostile passed; the other labels passed under ASan above"

echo "== package"
bash scripts/check-deb.sh "$rdir"
