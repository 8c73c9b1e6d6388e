#!/usr/bin/env bash
# Records one run of a tool on a device as a replay test (docs/recording.md):
#   scripts/record-session.sh NAME DEVICE TOOL ARG...
# runs TOOL ARG... with {dev} in the ARGs standing for DEVICE and --record, and writes
# tests/house/sessions/NAME/{session.gz,command,stdout,exit}. `ctest -L house` then replays it.
# The tools are taken from $OPENFLINT_BIN_DIR, else build/release/bin.
set -euo pipefail
cd "$(dirname "$0")/.."
if (( $# < 3 )); then
  echo "usage: $0 NAME DEVICE TOOL ARG...  ({dev} in the ARGs stands for DEVICE)" >&2
  exit 2
fi
name=$1 device=$2 tool=$3
shift 3
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || { echo "NAME may hold letters, digits, '.', '_' and '-' only" >&2; exit 2; }
bin_dir=${OPENFLINT_BIN_DIR:-build/release/bin}
[[ -x $bin_dir/$tool ]] || { echo "$bin_dir/$tool is not built (scripts/build.sh release $tool)" >&2; exit 4; }
out=tests/house/sessions/$name
[[ -e $out ]] && { echo "$out exists already" >&2; exit 2; }
mkdir -p "$out"
args=()
for arg in "$@"; do args+=("${arg//\{dev\}/$device}"); done
rc=0
OPENFLINT_RECORD="$out/session.gz" "$bin_dir/$tool" "${args[@]}" > "$out/stdout" || rc=$?
printf '%s\n' "$tool" "$@" > "$out/command"
echo "$rc" > "$out/exit"
echo "recorded $tool (exit $rc) into $out: $(zcat "$out/session.gz" | wc -l) records"
