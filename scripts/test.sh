#!/usr/bin/env bash
# The test command: installs what is missing, builds from scratch, runs every test.
#   1. fuzz targets (clang, libFuzzer) for a bounded number of inputs each
#   2. the ASan+UBSan build (-O0 tools and tests, -O1 libraries; the test bodies ASan only;
#      compiled niced alongside step 1's fuzzers) running the fast labels
#   3. the release build (compiled alongside step 2's tests) running the slow labels (fabrics,
#      power cuts, real firmware, interop, whole images) and the hostile suite under an
#      address-space limit
#   4. the Debian package built from the release build and checked (scripts/check-deb.sh),
#      niced alongside step 3's tests
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
rm -rf build
export OPENFLINT_JOBS=${OPENFLINT_JOBS:-$(nproc)}

# The labels the release build runs: the slow ones (fabrics, power cuts, real firmware, interop,
# whole 16-32 MiB images burned through the tools) and `hostile`, which runs each tool under a
# 256 MiB address-space limit (impossible under ASan; the parsers meet hostile bytes under
# ASan+UBSan in the fuzz stage below), and `pciguard`, which starts every tool and subcommand on
# every foreign function and name form (about 800 tool starts: 390-740 s of ASan start-ups per run;
# the naming of foreign functions also runs under ASan in `mst`'s listing tests). ASan+UBSan runs every other
# label. Each build compiles only the test executables its stage runs (scripts/test-targets.sh),
# and every tool.
slow='realfw|powercut|interop|inband|large|hostile|pciguard|browser'
tools=(flint fwburn hcasim ibadm ibfwmgr mst simfabric ibsim-responder mtcr-tool firmware_samples)
asan_targets=("${tools[@]}" $(bash scripts/test-targets.sh -LE "$slow"))

# Background jobs (niced builds, the package check) are stopped if the script ends early.
background=()
trap 'for job in "${background[@]}"; do kill -- -"$job" 2>/dev/null || true; done' EXIT

alog=$(mktemp /tmp/openflint-asan-build.XXXXXX)
if [[ -d fuzz ]] && ls fuzz/*.cpp >/dev/null 2>&1; then
  echo "== fuzz build"
  fdir=$(bash scripts/build.sh fuzz)
  # The ASan+UBSan build compiles at low priority while the fuzzers run: they are sized by
  # inputs (a 300 s cap per target), and the compiler takes the cores they leave idle (the
  # last targets run alone). Stopped if the fuzz stage fails.
  echo "== ASan+UBSan build (in the background, niced) and the fuzzers"
  setsid nice -n 15 bash scripts/build.sh asan "${asan_targets[@]}" > "$alog" 2>&1 &
  asan_build=$!
  background+=("$asan_build")
  # >= 1,000,000 inputs in all (per-target counts in run-fuzzers.sh); 300 s caps one target.
  bash scripts/run-fuzzers.sh "$fdir" "${OPENFLINT_FUZZ_CAP_SECONDS:-300}"
  echo "== ASan+UBSan build (waiting for it)"
  wait "$asan_build" || { tail -50 "$alog"; echo "ASan+UBSan build failed" >&2; exit 1; }
else
  echo "== ASan+UBSan build"
  bash scripts/build.sh asan "${asan_targets[@]}" > "$alog" 2>&1 || { tail -50 "$alog"; exit 1; }
fi
adir=$(tail -1 "$alog")
rm -f "$alog"

# The release build compiles at low priority while the ASan tests run: tests wait on servers,
# mounts and child tools, and the compiler takes the idle time. Stopped if anything fails.
echo "== release build (in the background, niced) and the ASan+UBSan tests"
rlog=$(mktemp /tmp/openflint-release-build.XXXXXX)
setsid nice -n 15 bash scripts/build.sh release package_inputs "${tools[@]}" \
  $(bash scripts/test-targets.sh -L "$slow") > "$rlog" 2>&1 &
release_build=$!
background+=("$release_build")
# -LE also selects CMake's "<target>_NOT_BUILT" placeholders of the executables not built here.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$adir" --output-on-failure -j "$OPENFLINT_JOBS" -LE "$slow" -E '_NOT_BUILT$'
echo "== release build (waiting for it)"
wait $release_build || { tail -50 "$rlog"; echo "release build failed" >&2; exit 1; }
rdir=$(tail -1 "$rlog")
rm -f "$rlog"

# The package is built and checked (cpack, lintian, the unpacked tools) at low priority while the
# release tests run: it needs only the finished build, and takes the cores the tests leave idle
# (waits on servers and child tools, the last tests running alone). Its log follows the tests.
plog=$(mktemp /tmp/openflint-package.XXXXXX)
setsid nice -n 15 bash scripts/check-deb.sh "$rdir" > "$plog" 2>&1 &
package=$!
background+=("$package")

# Large allocations use transparent huge pages: the power-cut tests copy 16-32 MiB flash images
# per cut, and 4 KiB page faults were most of their system time (measured: 2.4 M faults -> 11 K).
GLIBC_TUNABLES=glibc.malloc.hugetlb=1 \
  ctest --test-dir "$rdir" --output-on-failure -j "$OPENFLINT_JOBS" -L "$slow"
echo "release: labels ${slow//|/, } passed; every other label passed under ASan+UBSan above"

echo "== package (built alongside the release tests)"
package_status=0
wait "$package" || package_status=$?
cat "$plog"
rm -f "$plog"
trap - EXIT
(( package_status == 0 )) || { echo "package check failed" >&2; exit 1; }
