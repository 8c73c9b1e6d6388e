#!/usr/bin/env bash
# pci-flash-read: reading a whole flash over PCI, our flint vs mstflint, through config space
# (ConnectX-3: the 0x58 window; ConnectX-4: the VSEC gateway) and through BAR0.
#
# Usage: bench/pci-flash-read.sh BUILD_DIR [PATH...]   PATH: cx3-config cx4-config cx3-bar cx4-bar (default all)
# Needs the build's flint and hcasim, mstflint, unshare, and FUSE mounting (root: /dev/fuse and
# CAP_SYS_ADMIN); skips (exit 0) otherwise. Devices are simulated with a 2 MiB flash chip and
# served by `hcasim pci-serve` (one server per run, so the simulator's flash read counter
# belongs to that run); mstflint sees the served tree as /sys/bus/pci in a private mount
# namespace. Prints the wall time of each read, the ratio ours/mstflint and the flash gateway
# read commands per 4 KiB (hcasim's "reads" counter), and checks both tools read the same bytes.
set -u
BUILD=${1:?usage: $0 BUILD_DIR}
BIN=$BUILD/bin
skip() { echo "pci-flash-read: skipped: $*"; exit 0; }
[ -x "$BIN/flint" ] && [ -x "$BIN/hcasim" ] || { echo "pci-flash-read: build flint and hcasim in $BUILD first" >&2; exit 2; }
command -v mstflint >/dev/null || skip "mstflint is not installed"
command -v unshare >/dev/null || skip "unshare is not installed"
[ -e /dev/fuse ] || skip "no /dev/fuse"
unshare -m --fork true 2>/dev/null || skip "unshare -m is not permitted"

WORK=$(mktemp -d /tmp/pci-flash-read.XXXXXX)
SERVER=
cleanup() {
  if [ -n "$SERVER" ]; then kill -TERM "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A small part: reading the whole flash through config space takes tens of seconds.
CHIP=
for c in M25P16 W25Q16 MX25L1606E; do
  if "$BIN/hcasim" create --model connectx4 "$WORK/cx4" --flash "$c" >/dev/null 2>&1 &&
     "$BIN/hcasim" create --model connectx3 "$WORK/cx3" --flash "$c" >/dev/null 2>&1; then CHIP=$c; break; fi
  rm -rf "$WORK/cx4" "$WORK/cx3"
done
[ -n "$CHIP" ] || { echo "pci-flash-read: no 2 MiB flash chip accepted by the models" >&2; exit 1; }
SIZE=$("$BIN/hcasim" show --json "$WORK/cx4" | sed -n 's/.*"flash_size": *\([0-9]*\).*/\1/p')
SIZE3=$("$BIN/hcasim" show --json "$WORK/cx3" | sed -n 's/.*"flash_size": *\([0-9]*\).*/\1/p')
[ "$SIZE" = "$SIZE3" ] || { echo "pci-flash-read: flash sizes differ ($SIZE, $SIZE3)" >&2; exit 1; }
flash_reads() { "$BIN/hcasim" show --json "$1" | tr -d '\n ' | sed -n 's/.*"reads":\([0-9]*\).*/\1/p'; }

# serve DIR [--no-bar]: starts pci-serve of DIR at $WORK/mnt (0000:03:00.0), waits for "ready".
serve() {
  mkdir -p "$WORK/mnt" "$WORK/run"
  "$BIN/hcasim" pci-serve "$1" --sysfs "$WORK/mnt" --shm-dir "$WORK" ${2:-} >"$WORK/serve.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 100); do
    grep -q ready "$WORK/serve.log" 2>/dev/null && return 0
    kill -0 "$SERVER" 2>/dev/null || break
    sleep 0.1
  done
  cat "$WORK/serve.log" >&2
  if grep -qiE "permission|not permitted|fuse" "$WORK/serve.log"; then SERVER=; skip "FUSE mounting is not permitted here"; fi
  echo "pci-flash-read: pci-serve did not get ready" >&2
  exit 1
}
unserve() { kill -TERM "$SERVER"; wait "$SERVER"; SERVER=; }

# run LABEL DIR SERVE_FLAG TOOL DEVICE OUT: one read of the whole flash; sets SECONDS_TAKEN, READS.
run() {
  local label=$1 dir=$2 flag=$3 tool=$4 dev=$5 out=$6
  local before; before=$(flash_reads "$dir")  # hcasim show needs the device unlocked: before serving
  serve "$dir" "$flag"
  local t0 t1 rc
  t0=$(date +%s.%N)
  if [ "$tool" = ours ]; then
    OPENFLINT_SYSFS_ROOT="$WORK/mnt" OPENFLINT_RUN_DIR="$WORK/run" "$BIN/flint" -d "$dev" rb 0 "$SIZE" "$out" >"$WORK/$label.log" 2>&1
  else
    unshare -m --fork sh -c 'mount --bind "$1" /sys/bus/pci && exec mstflint -d "$2" rb 0 "$3" "$4"' \
      sh "$WORK/mnt" "$dev" "$SIZE" "$out" >"$WORK/$label.log" 2>&1
  fi
  rc=$?
  t1=$(date +%s.%N)
  unserve
  SECONDS_TAKEN=$(echo "$t1 - $t0" | bc -l)
  READS=$(( $(flash_reads "$dir") - before ))
  FAILED=
  if [ $rc -ne 0 ]; then
    FAILED="exit $rc after $(printf %.1f "$SECONDS_TAKEN") s: $(grep -m1 -E 'E-|fail|rror' "$WORK/$label.log" || head -1 "$WORK/$label.log")"
    echo "pci-flash-read: $label failed ($FAILED); its output:" >&2
    sed 's/^/    /' "$WORK/$label.log" >&2
  fi
}

echo "pci-flash-read: whole flash ($CHIP, $SIZE bytes), $(nproc) cores, $(date -u +%FT%TZ)"
printf '%-34s %10s %10s %8s %16s\n' path "ours s" "mstflint s" ratio "gw reads/4KiB o/m"
FAILURES=0
compare() {  # compare NAME DIR SERVE_FLAG OUR_DEVICE
  local name=$1 dir=$2 flag=$3 ours_dev=$4
  rm -f "$WORK/ours.bin" "$WORK/mst.bin"
  run "$name-ours" "$dir" "$flag" ours "$ours_dev" "$WORK/ours.bin"; local so=$SECONDS_TAKEN ro=$READS fo=$FAILED
  run "$name-mst" "$dir" "$flag" mstflint 03:00.0 "$WORK/mst.bin"; local sm=$SECONDS_TAKEN rm_=$READS fm=$FAILED
  if [ -n "$fo" ] || [ -n "$fm" ]; then
    printf '%-34s %10s %10s %8s  ours: %s; mstflint: %s\n' "$name" "$([ -n "$fo" ] && echo failed || printf %.2f "$so")" \
      "$([ -n "$fm" ] && echo failed || printf %.2f "$sm")" - "${fo:-ok}" "${fm:-ok}"
    FAILURES=$((FAILURES + 1))
    return
  fi
  local same=same; cmp -s "$WORK/ours.bin" "$WORK/mst.bin" || same="DIFFERENT BYTES"
  printf '%-34s %10.2f %10.2f %8.3f %8.1f/%-7.1f %s\n' "$name" "$so" "$sm" "$(echo "$so / $sm" | bc -l)" \
    "$(echo "$ro * 4096 / $SIZE" | bc -l)" "$(echo "$rm_ * 4096 / $SIZE" | bc -l)" "$same"
}
shift
PATHS=${*:-cx3-config cx4-config cx3-bar cx4-bar}
for p in $PATHS; do
  case $p in
    cx3-config) compare "ConnectX-3 config space (window)" "$WORK/cx3" --no-bar pciconf-03:00.0 ;;
    cx4-config) compare "ConnectX-4 config space (VSEC)" "$WORK/cx4" --no-bar pciconf-03:00.0 ;;
    cx3-bar) compare "ConnectX-3 BAR0" "$WORK/cx3" "" pcicr-03:00.0 ;;
    cx4-bar) compare "ConnectX-4 BAR0" "$WORK/cx4" "" pcicr-03:00.0 ;;
    *) echo "pci-flash-read: unknown path $p" >&2; exit 2 ;;
  esac
done
[ "$FAILURES" -eq 0 ] || { echo "pci-flash-read: $FAILURES path(s) failed"; exit 1; }
