#!/usr/bin/env python3
"""Benchmark: `flint -i IMG verify` vs `mstflint -i IMG verify` on real FS3 and FS4 images,
interleaved runs, medians and ratios; plus the peak RSS of extracting the last board of the
largest archive. Needs ../shared/firmware/real and mstflint. Usage:
    bench/bench_image.py [--flint build/release/bin/flint] [--runs 31]
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REAL = os.path.join(os.path.dirname(ROOT), "shared", "firmware", "real")


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def boards(flint, archive):
    import json
    out = run([flint, "-i", archive, "archive", "list", "--json"])
    if out.returncode != 0:
        sys.exit(f"archive list failed on {archive}: {out.stderr}")
    return json.loads(out.stdout)["boards"]


def extract(flint, archive, psid, dest):
    out = run([flint, "-i", archive, "archive", "extract", "--psid", psid, "-o", dest])
    if out.returncode != 0:
        sys.exit(f"extract failed: {out.stderr}")


def wall(cmd):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t1 = time.perf_counter()
    return t1 - t0, r.returncode


def bench_verify(flint, image, runs):
    ours, theirs = [], []
    for i in range(runs):
        # Interleave, alternating who goes first, so drift and caching hit both alike.
        order = [("ours", [flint, "-i", image, "verify"]), ("mstflint", ["mstflint", "-i", image, "verify"])]
        if i % 2:
            order.reverse()
        for who, cmd in order:
            t, rc = wall(cmd)
            if rc != 0:
                sys.exit(f"{who} verify failed on {image} (exit {rc})")
            (ours if who == "ours" else theirs).append(t)
    return statistics.median(ours), statistics.median(theirs)


def peak_rss_kib(cmd):
    """Peak RSS of a child process, via wait4's rusage (exact for that child alone)."""
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execvp(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd)} failed")
    return usage.ru_maxrss


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flint", default=os.path.join(ROOT, "build", "release", "bin", "flint"))
    ap.add_argument("--runs", type=int, default=31)
    args = ap.parse_args()
    if not os.path.isdir(REAL):
        sys.exit(f"skipped: {REAL} is absent (real firmware needed for this benchmark)")
    if shutil.which("mstflint") is None:
        sys.exit("skipped: mstflint is not installed (run scripts/setup.sh)")
    archives = sorted(f for f in os.listdir(REAL) if f.endswith(".mfa"))
    fs3 = [a for a in archives if "SPC-rel" in a][-1]
    fs4 = [a for a in archives if "SPC2-rel" in a][-1]
    largest = max(archives, key=lambda a: len(boards(args.flint, os.path.join(REAL, a))))
    with tempfile.TemporaryDirectory() as tmp:
        ratios = []
        for label, archive in (("FS3", fs3), ("FS4", fs4)):
            path = os.path.join(REAL, archive)
            psid = boards(args.flint, path)[0]["psid"]
            image = os.path.join(tmp, f"{label}.bin")
            extract(args.flint, path, psid, image)
            ours, theirs = bench_verify(args.flint, image, args.runs)
            ratio = ours / theirs
            ratios.append(ratio)
            print(f"verify {label} ({archive}, {psid}): flint median {ours*1000:.2f} ms, "
                  f"mstflint median {theirs*1000:.2f} ms, ratio {ratio:.3f} (target <= 0.5)")
        path = os.path.join(REAL, largest)
        last = boards(args.flint, path)[-1]["psid"]
        out = os.path.join(tmp, "last.bin")
        t0 = time.perf_counter()
        kib = peak_rss_kib([args.flint, "-i", path, "archive", "extract", "--psid", last, "-o", out])
        t1 = time.perf_counter()
        print(f"extract last board {last} of {largest} ({os.path.getsize(out)} bytes): "
              f"peak RSS {kib/1024:.1f} MiB (target <= 64), {t1-t0:.2f} s")
        ok = all(r <= 0.5 for r in ratios) and kib <= 64 * 1024
        print("targets met" if ok else "TARGETS NOT MET")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
