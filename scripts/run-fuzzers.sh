#!/usr/bin/env bash
# Runs every libFuzzer target in BUILD_DIR/fuzz for SECONDS each, from its seed corpus.
set -euo pipefail
dir=$1; seconds=${2:-20}
src=$(cd "$(dirname "$0")/.." && pwd)
shopt -s nullglob
for f in "$dir"/fuzz/fuzz_*; do
  [[ -x "$f" && -f "$f" ]] || continue
  name=$(basename "$f")
  corpus=$(mktemp -d)
  seeds="$dir/fuzz/seeds/${name#fuzz_}"
  [[ -d "$seeds" ]] && cp -r "$seeds"/. "$corpus"/
  echo "fuzz: $name for ${seconds}s ($(ls "$corpus" | wc -l) seeds)"
  "$f" -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=0 "$corpus" 2> "$corpus.log" || {
    echo "fuzz: $name FAILED"; tail -50 "$corpus.log"; exit 1; }
  grep -E '^(Done|#[0-9]+ *DONE)' "$corpus.log" | tail -1 || true
  rm -rf "$corpus" "$corpus.log"
done
