#!/usr/bin/env bash
# Configures and builds one flavour: scripts/build.sh [release|asan|fuzz|demo] [TARGET...].
# Prints the build dir. With TARGETs only those are built (and what they need), else everything.
# demo: an optimised build without the test suite, for scripts/demo.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
flavour=${1:-release}
shift || true
dir=build/$flavour
jobs=${OPENFLINT_JOBS:-$(nproc)}
common=(-G Ninja -DOPENFLINT_SHARED_DIR="$(cd .. && pwd)/shared")
[[ "${CI:-}" == "true" ]] && common+=(-DOPENFLINT_WERROR=ON)
# Debug information is line tables only (-g1): backtraces, ASan and UBSan reports and gdb still
# name file:line, and GCC compiles an -O2 translation unit about 30% faster than with full -g
# (measured on fwops/burn/BoardIdentity.cpp: 11.2 s -> 7.4 s).
g1=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
    -DCMAKE_CXX_FLAGS_DEBUG="-g1" -DCMAKE_C_FLAGS_DEBUG="-g1")
case "$flavour" in
  # The test executables' own sources at -Og (the tools and libraries they drive stay at -O2).
  release) args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "${g1[@]}" -DOPENFLINT_TEST_OPT=-Og) ;;
  # Tools and tests at -O0, the layer libraries at -O1: GCC compiles an instrumented tree 3-4x
  # faster than at -O2 (measured: flint/main.cpp 40 s -O2, 27 s -O1, 11 s -O0), and the
  # libraries' hot loops (32 MiB images through CRCs and the simulated flash) stay fast
  # (all at -O0, one burn-refusal test took 119 s).
  # The test bodies are built with ASan only: UBSan instruments every library and tool they drive.
  asan)    args=(-DCMAKE_BUILD_TYPE=Debug -DOPENFLINT_SANITIZE=ON -DOPENFLINT_LIBRARY_OPT=-O1
                 -DOPENFLINT_TEST_OPT=-fno-sanitize=undefined "${g1[@]}") ;;
  # demo at -O2 as the release build: GCC 12 at -O3 prints false -Wrestrict/-Wstringop-overflow
  # warnings from libstdc++'s string code inlined into the unity batches.
  demo)    args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG"
                 -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DOPENFLINT_TESTS=OFF) ;;
  fuzz)    args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "${g1[@]}" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
                 -DOPENFLINT_FUZZ=ON -DOPENFLINT_TESTS=OFF) ;;
  *) echo "usage: $0 [release|asan|fuzz|demo] [TARGET...]" >&2; exit 2 ;;
esac
cmake -S . -B "$dir" "${common[@]}" "${args[@]}" >/dev/null
cmake --build "$dir" -j "$jobs" ${1:+--target "$@"} >&2
echo "$dir"
