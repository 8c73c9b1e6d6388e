#!/usr/bin/env python3
"""inband_bench: in-band burn cost of our flint vs mstflint, and ibfwmgr on 8 devices vs 1.

Usage: bench/inband_bench.py BUILD_DIR [--rounds=N]   (default 5 interleaved rounds; medians)
Needs ibsim, opensm, mstflint and the build's flint, hcasim, simfabric, ibsim-responder, ibfwmgr
and firmware samples (cmake --build BUILD_DIR --target firmware_samples). Prints the figures;
MADs are counted at the responder (answers sent), wall time around each client run.
"""
import json
import os
import re
import shutil
import signal
import statistics
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


def median(values):
    return statistics.median(values)


def bench_burn(bindir, samples, work, rounds):
    """Rounds alternate our flint and mstflint; each round brings up a fabric of two fresh devices."""
    old, new = os.path.join(samples, "connectx3-old.bin"), os.path.join(samples, "connectx3-new.bin")
    times = {"ours": [], "mstflint": []}
    mads = {"ours": [], "mstflint": []}
    for r in range(rounds):
        d = os.path.join(work, f"burn{r}")
        proc, lids = up(bindir, d, [("--hca", "connectx3:" + old)] * 2)
        try:
            t, _ = client(bindir, d, [os.path.join(bindir, "flint"), "-d", f"lid-{lids['Hca2']}", "-i", new, "burn", "-y"])
            times["ours"].append(t)
            t, _ = client(bindir, d, ["mstflint", "-d", f"lid-{lids['Hca3']}", "-i", new, "-y", "burn"])
            times["mstflint"].append(t)
        finally:
            answers = down(proc, d)
        mads["ours"].append(answers["Hca2"])
        mads["mstflint"].append(answers["Hca3"])
    m = {k: median(v) for k, v in mads.items()}
    t = {k: median(v) for k, v in times.items()}
    print(f"burn {os.path.basename(new)} ({os.path.getsize(new)} bytes, ConnectX-3 FS2) over old, in-band, "
          f"{rounds} interleaved rounds (medians):")
    for k, label in (("ours", "openflint flint"), ("mstflint", "mstflint 4.21  ")):
        runs = " ".join(f"{x:.2f}" for x in times[k])
        print(f"  {label}: {m[k]:8.0f} MADs  {t[k]:7.2f} s   (runs: {runs})")
    print(f"  ratio ours/mstflint: MADs {m['ours'] / m['mstflint']:.2f}x, "
          f"time {t['ours'] / t['mstflint']:.2f}x (target <= 0.5x)")


def bench_fabric(bindir, samples, work, count, tag):
    old, new = os.path.join(samples, "connectx3-old.bin"), os.path.join(samples, "connectx3-new.bin")
    images = os.path.join(work, "images")
    os.makedirs(images, exist_ok=True)
    shutil.copy(new, images)
    d = os.path.join(work, f"fabric{count}-{tag}")
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
    args = [a for a in sys.argv[1:] if not a.startswith("--rounds=")]
    rounds = int(next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--rounds=")), "5"))
    if len(args) != 1 or rounds < 1:
        raise SystemExit(__doc__)
    build = os.path.abspath(args[0])
    bindir, samples = os.path.join(build, "bin"), os.path.join(build, "firmware-samples")
    work = tempfile.mkdtemp(prefix="openflint-inband-bench-")
    try:
        bench_burn(bindir, samples, work, rounds)
        one, eight = [], []
        for r in range(rounds):  # interleaved: 1, 8, 1, 8, ...
            one.append(bench_fabric(bindir, samples, work, 1, r))
            eight.append(bench_fabric(bindir, samples, work, 8, r))
        one_t, eight_t = median([t for t, _ in one]), median([t for t, _ in eight])
        one_m, eight_m = median([m for _, m in one]), median([m for _, m in eight])
        print(f"ibfwmgr update (ConnectX-3 FS2 old -> new), one process, one umad port, a thread per device, "
              f"{rounds} interleaved rounds (medians):")
        print(f"  1 device : {one_t:7.2f} s  {one_m:8.0f} MADs   (runs: {' '.join(f'{t:.2f}' for t, _ in one)})")
        print(f"  8 devices: {eight_t:7.2f} s  {eight_m:8.0f} MADs   (runs: {' '.join(f'{t:.2f}' for t, _ in eight)})")
        print(f"  ratio 8/1: time {eight_t / one_t:.2f}x (target <= 1.5x), MADs {eight_m / one_m:.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
