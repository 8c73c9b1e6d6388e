#!/usr/bin/env bash
# The main job on the simulated default: installs what is missing, builds what it runs, then takes a
# simulated ConnectX-4 through a real firmware update over PCI (a FUSE-served sysfs tree) — mst
# status, query, failsafe burn of a newer image, mst reset, mst status again — and a simulated
# InfiniBand fabric (ibsim: a switch and three adapters, plus the adapter the tools attach through,
# which no vendor MAD reaches but its host's `mst server` does) through an update of every device —
# out-of-band where a host serves it, in-band otherwise — list, update, list — printing what a user would
# see. Real vendor firmware in ../shared/firmware/real, when present, is listed and checked too.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh demo
# Only the tools the demo runs and the sample images (no test suite: build/demo, not build/release).
build=$(bash scripts/build.sh demo flint fwburn hcasim mst simfabric ibsim-responder ibfwmgr firmware_samples)
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

# The adapter as PCI function 0000:03:00.0: hcasim pci-serve shows it as a sysfs PCI tree (FUSE)
# that mst and flint use through OPENFLINT_SYSFS_ROOT. Without FUSE (a container without
# CAP_SYS_ADMIN) the same update runs on sim:PATH.
mkdir -p "$work/pci"
"$bin/hcasim" pci-serve "$work/hca" --sysfs "$work/pci" --shm-dir "$work" > "$work/serve.log" 2>&1 &
serve_pid=$!
trap 'kill -TERM $serve_pid 2>/dev/null; wait $serve_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  grep -q "ready" "$work/serve.log" && break
  kill -0 $serve_pid 2>/dev/null || break
  sleep 0.1
done
if grep -q "ready" "$work/serve.log"; then
  export OPENFLINT_SYSFS_ROOT=$work/pci OPENFLINT_RUN_DIR=$work/run
  echo
  echo "== mst status: the PCI devices (the simulated ConnectX-4 at 0000:03:00.0)"
  step "$bin/mst" status
  step "$bin/flint" -d pciconf-03:00.0 query
  echo
  echo "== Failsafe burn of the new firmware over PCI, then a safe reset runs it"
  step "$bin/flint" -d 03:00.0 -i "$samples/connectx4-new.bin" burn --yes
  step "$bin/mst" reset 03:00.0 --yes
  step "$bin/mst" status
  kill -TERM $serve_pid
  wait $serve_pid
  unset OPENFLINT_SYSFS_ROOT OPENFLINT_RUN_DIR
else
  echo "(hcasim pci-serve cannot mount FUSE here: $(tail -1 "$work/serve.log"); the update runs on sim:PATH)"
  step "$bin/flint" -d "sim:$work/hca" query
  echo
  echo "== Failsafe burn of the new firmware, then a safe reset runs it"
  step "$bin/flint" -d "sim:$work/hca" -i "$samples/connectx4-new.bin" burn --yes
  step "$bin/mst" reset "sim:$work/hca" --yes
fi
trap 'rm -rf "$work"' EXIT
step "$bin/hcasim" show "$work/hca"

echo
echo "== A simulated InfiniBand fabric: a Spectrum switch and three adapters on old firmware, and the"
echo "   local adapter (Hca1, no vendor MAD access) whose host serves it with mst server"
fabric=$work/fabric
images=$work/images
mkdir -p "$images"
cp "$samples/spectrum-new.bin" "$samples/connectx4-new.bin" "$samples/connectx3-new.bin" "$images/"
# ibsim + opensm + one device responder per node; stops (devices saved) on SIGTERM.
"$bin/simfabric" up --dir "$fabric" --switch "spectrum:$samples/spectrum-old.bin" \
  --hca "connectx4:$samples/connectx4-old.bin" --hca "connectx3:$samples/connectx3-old.bin" \
  --hca "connectx3:$samples/connectx3-old.bin" --local "connectx4:$samples/connectx4-old.bin" > "$work/fabric.log" 2>&1 &
fabric_pid=$!
server_pid=
trap 'kill -TERM $fabric_pid $server_pid 2>/dev/null; wait $fabric_pid $server_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 300); do
  grep -q "stops it" "$work/fabric.log" && break
  kill -0 $fabric_pid 2>/dev/null || { cat "$work/fabric.log"; exit 1; }
  sleep 0.1
done
cat "$work/fabric.log"
# Hca1's host serves its adapter on loopback (any free port); ibfwmgr finds it by node GUID.
"$bin/mst" server --port 0 "sim:$fabric/devices/Hca1" 2> "$work/server.log" &
server_pid=$!
for _ in $(seq 100); do
  grep -q "serving" "$work/server.log" && break
  kill -0 $server_pid 2>/dev/null || { cat "$work/server.log"; exit 1; }
  sleep 0.1
done
port=$(sed -n 's/.*serving .* on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/server.log" | head -1)
printf '# hosts whose mst server reaches fabric devices out-of-band\n127.0.0.1:%s\n' "$port" > "$work/hosts"
step cat "$work/hosts"
inband() { step "$bin/simfabric" run --dir "$fabric" -- "$@"; }
inband "$bin/ibfwmgr" list --hosts "$work/hosts"
echo
echo "== Update every device from a folder of images (picked by PSID, failsafe, in parallel): Hca1"
echo "   out-of-band through its host's mst server, the others in-band"
inband "$bin/ibfwmgr" update --hosts "$work/hosts" --images "$images" --yes --reset
echo
echo "== The fabric again: the switch was reset and runs its new firmware; the adapters' new"
echo "   firmware is on flash and runs after their next (PCI) reset; Hca1 shows its new flash out-of-band"
inband "$bin/ibfwmgr" list --hosts "$work/hosts"
kill -TERM $server_pid
wait $server_pid
kill -TERM $fabric_pid
wait $fabric_pid
trap 'rm -rf "$work"' EXIT

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
