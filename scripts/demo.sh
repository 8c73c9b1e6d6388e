#!/usr/bin/env bash
# The main job on the simulated default: installs what is missing, builds, then takes a
# simulated ConnectX-4 through a real firmware update — query, failsafe burn of a newer image,
# reset, query again — printing what a user would see. Real vendor firmware in
# ../shared/firmware/real, when present, is listed and checked too.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build=$(bash scripts/build.sh release)
bin=$build/bin
samples=$build/firmware-samples
work=$(mktemp -d /tmp/openflint-demo.XXXXXX)
trap 'rm -rf "$work"' EXIT

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }

echo "== A firmware image: query and verify"
step "$bin/flint" -i "$samples/connectx4-new.bin" query
step "$bin/flint" -i "$samples/connectx4-new.bin" verify

echo
echo "== A simulated ConnectX-4 (sim:$work/hca) running the old firmware"
step "$bin/hcasim" create --model connectx4 "$work/hca" --image "$samples/connectx4-old.bin"
step "$bin/flint" -d "sim:$work/hca" query

echo
echo "== Failsafe burn of the new firmware, reset, query again"
step "$bin/flint" -d "sim:$work/hca" -i "$samples/connectx4-new.bin" burn --yes
step "$bin/flint" -d "sim:$work/hca" reset
step "$bin/flint" -d "sim:$work/hca" query
step "$bin/hcasim" show "$work/hca"

real=../shared/firmware/real
if [[ -d "$real" ]]; then
  archive=$(ls "$real"/fw-SPC2-rel-*.mfa | tail -1)
  echo
  echo "== Real vendor firmware: $(basename "$archive")"
  step "$bin/flint" -i "$archive" archive list
  psid=$("$bin/flint" -i "$archive" archive list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["boards"][0]["psid"])')
  step "$bin/flint" -i "$archive" archive extract --psid "$psid" -o "$work/board.bin"
  step "$bin/flint" -i "$work/board.bin" query
fi
echo
echo "demo: done"
