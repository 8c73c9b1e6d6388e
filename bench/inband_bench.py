#!/usr/bin/env python3
"""inband_bench: in-band burn cost of our flint vs mstflint, and ibfwmgr on 8 devices vs 1.

Usage: bench/inband_bench.py BUILD_DIR
Needs ibsim, opensm, mstflint and the build's flint, hcasim, simfabric, ibsim-responder, ibfwmgr
and firmware samples (cmake --build BUILD_DIR --target firmware_samples). Prints the figures;
MADs are counted at the responder (answers sent), wall time around each client run.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def up(bindir, fabric_dir, devices):
    argv = [os.path.join(bindir, "simfabric"), "up", "--dir", fabric_dir]
    for node_kind, spec in devices:
        argv += [node_kind, spec]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lids, lines = {}, []
    for line in proc.stdout:
        lines.append(line)
        m = re.match(r"\s+(\S+)\s+\S+\s+lid-(\d+)", line)
        if m:
            lids[m.group(1)] = int(m.group(2))
        if "stops it" in line:
            return proc, lids
    raise SystemExit("simfabric up failed:\n" + "".join(lines))


def down(proc, fabric_dir):
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    answers = {}
    for name in os.listdir(fabric_dir):
        m = re.match(r"responder-(\S+)\.log$", name)
        if m:
            with open(os.path.join(fabric_dir, name)) as f:
                found = re.findall(r"stopped after (\d+) answers", f.read())
            answers[m.group(1)] = int(found[-1]) if found else 0
    return answers


def client(bindir, fabric_dir, argv):
    start = time.monotonic()
    r = subprocess.run([os.path.join(bindir, "simfabric"), "run", "--dir", fabric_dir, "--"] + argv,
                       capture_output=True, text=True, cwd=fabric_dir)
    took = time.monotonic() - start
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({r.returncode}):\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return took, r.stdout


def bench_burn(bindir, samples, work):
    old, new = os.path.join(samples, "connectx3-old.bin"), os.path.join(samples, "connectx3-new.bin")
    d = os.path.join(work, "burn")
    proc, lids = up(bindir, d, [("--hca", "connectx3:" + old), ("--hca", "connectx3:" + old)])
    try:
        ours_t, _ = client(bindir, d, [os.path.join(bindir, "flint"), "-d", f"lid-{lids['Hca2']}", "-i", new, "burn", "-y"])
        mst_t, _ = client(bindir, d, ["mstflint", "-d", f"lid-{lids['Hca3']}", "-i", new, "-y", "burn"])
    finally:
        answers = down(proc, d)
    ours_m, mst_m = answers["Hca2"], answers["Hca3"]
    print(f"burn {os.path.basename(new)} ({os.path.getsize(new)} bytes, ConnectX-3 FS2) over old, in-band:")
    print(f"  openflint flint : {ours_m:8d} MADs  {ours_t:7.2f} s")
    print(f"  mstflint 4.21   : {mst_m:8d} MADs  {mst_t:7.2f} s")
    print(f"  ratio ours/mstflint: MADs {ours_m / mst_m:.2f}x, time {ours_t / mst_t:.2f}x (target <= 0.5x)")


def bench_fabric(bindir, samples, work, count):
    old, new = os.path.join(samples, "connectx3-old.bin"), os.path.join(samples, "connectx3-new.bin")
    images = os.path.join(work, "images")
    os.makedirs(images, exist_ok=True)
    shutil.copy(new, images)
    d = os.path.join(work, f"fabric{count}")
    proc, lids = up(bindir, d, [("--hca", "connectx3:" + old)] * count)
    try:
        took, out = client(bindir, d, [os.path.join(bindir, "ibfwmgr"), "update", "--images", images, "-y", "--json"])
    finally:
        answers = down(proc, d)
    doc = json.loads(out)
    updated = sum(1 for n in doc["nodes"] if n["status"] == "updated")
    if updated != count:
        raise SystemExit(f"ibfwmgr updated {updated} of {count}: {out}")
    return took, sum(answers.values())


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    build = os.path.abspath(sys.argv[1])
    bindir, samples = os.path.join(build, "bin"), os.path.join(build, "firmware-samples")
    work = tempfile.mkdtemp(prefix="openflint-inband-bench-")
    try:
        bench_burn(bindir, samples, work)
        one_t, one_m = bench_fabric(bindir, samples, work, 1)
        eight_t, eight_m = bench_fabric(bindir, samples, work, 8)
        print("ibfwmgr update (ConnectX-3 FS2 old -> new), one process, one umad port, a thread per device:")
        print(f"  1 device : {one_t:7.2f} s  {one_m:8d} MADs")
        print(f"  8 devices: {eight_t:7.2f} s  {eight_m:8d} MADs")
        print(f"  ratio 8/1: time {eight_t / one_t:.2f}x (target <= 1.5x), MADs {eight_m / one_m:.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
