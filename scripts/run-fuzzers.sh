#!/usr/bin/env bash
# Runs every libFuzzer target in BUILD_DIR/fuzz from its seed corpus for a fixed number of inputs,
# prints per-target and total executed inputs, and fails on any crash or a total below the minimum.
#   scripts/run-fuzzers.sh BUILD_DIR [SECONDS]
# The stage is sized by input counts, not time. SECONDS caps each target's wall time so a stalled
# host cannot hang CI; it is at least 120 (callers' older per-target budgets such as test.sh's 20
# are raised to it). A target stopped by the cap counts the inputs it ran. Environment:
#   OPENFLINT_FUZZ_MIN_INPUTS  total the stage must reach (default 1000000)
#   OPENFLINT_FUZZ_SCALE       multiplies every target's input count (default 1)
#   OPENFLINT_FUZZ_JOBS        targets run at once (default: the number of cores, at most 2)
set -euo pipefail
dir=$1; seconds=${2:-120}
(( seconds < 120 )) && seconds=120
min_total=${OPENFLINT_FUZZ_MIN_INPUTS:-1000000}
scale=${OPENFLINT_FUZZ_SCALE:-1}
jobs=${OPENFLINT_FUZZ_JOBS:-$(nproc)}
(( jobs > 2 )) && jobs=2

# Inputs per target (1,415,000 in all), sized by each target's speed — the FS3/FS4 parsers run a
# few hundred inputs a second, the MAD parsers tens of thousands. Measured: ~130 s of CPU for
# the whole stage, so about a minute on two free cores. A new target not listed gets the default.
# The fabric text files (topology, name map, thresholds, hosts) are small line parsers, 75,000
# inputs together (measured on a loaded machine: 800-5,700 inputs/s, ~45 s of CPU; less when idle).
declare -A runs=(
  [fuzz_any]=60000 [fuzz_fs1]=150000 [fuzz_fs2]=150000 [fuzz_fs3]=40000 [fuzz_fs4]=30000
  [fuzz_mfa]=150000 [fuzz_burn_ini]=60000 [fuzz_sim_state]=60000 [fuzz_mad_reply]=220000
  [fuzz_mad_request]=220000 [fuzz_bus_request]=200000
  [fuzz_topology]=15000 [fuzz_system_names]=30000 [fuzz_thresholds]=10000 [fuzz_hosts_file]=20000
)
default_runs=50000

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
artifacts="$dir/fuzz/artifacts"  # crashing inputs are kept here
mkdir -p "$artifacts"

# Runs one target; leaves NAME.count (executed inputs) and NAME.status (ok|FAILED) in $work.
run_one() {
  local f=$1 name corpus seeds n rc=0
  name=$(basename "$f")
  corpus="$work/$name.corpus"
  mkdir -p "$corpus"
  seeds="$dir/fuzz/seeds/${name#fuzz_}"
  [[ -d "$seeds" ]] && cp -r "$seeds"/. "$corpus"/
  n=$(( ${runs[$name]:-$default_runs} * scale ))
  local began=$SECONDS
  "$f" -runs="$n" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$name-" "$corpus" > "$work/$name.log" 2>&1 || rc=$?
  # libFuzzer names the count number_of_executed_units (older releases: _runs).
  grep -Eo 'stat::number_of_executed_(units|runs): *[0-9]+' "$work/$name.log" | grep -Eo '[0-9]+$' | tail -1 \
    > "$work/$name.count" || echo 0 > "$work/$name.count"
  echo $(( SECONDS - began )) > "$work/$name.seconds"
  if (( rc == 0 )); then echo ok > "$work/$name.status"; else echo FAILED > "$work/$name.status"; fi
}

shopt -s nullglob
targets=()
for f in "$dir"/fuzz/fuzz_*; do
  [[ -x "$f" && -f "$f" ]] && targets+=("$f")
done
(( ${#targets[@]} > 0 )) || { echo "fuzz: no targets in $dir/fuzz"; exit 1; }
echo "fuzz: ${#targets[@]} targets, $jobs at a time, at most ${seconds}s each, at least $min_total inputs in total"

start=$SECONDS
running=0
for f in "${targets[@]}"; do
  run_one "$f" &
  (( ++running >= jobs )) && { wait -n || true; (( running-- )); }
done
wait

total=0
failed=0
for f in "${targets[@]}"; do
  name=$(basename "$f")
  count=$(cat "$work/$name.count")
  status=$(cat "$work/$name.status")
  total=$(( total + count ))
  printf 'fuzz: %-18s %9d inputs in %4ds  %s\n' "$name" "$count" "$(cat "$work/$name.seconds")" "$status"
  if [[ "$status" != ok ]]; then
    failed=1
    grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written|Base64)' "$work/$name.log" || true
    tail -40 "$work/$name.log"
  fi
done
printf 'fuzz: total %d inputs in %ds\n' "$total" $(( SECONDS - start ))
(( failed == 0 )) || { echo "fuzz: FAILED (a target crashed; inputs in $artifacts)"; exit 1; }
(( total >= min_total )) || { echo "fuzz: FAILED (total $total inputs is below $min_total)"; exit 1; }
echo "fuzz: ok"
