#!/usr/bin/env python3
"""inband_bench: in-band burn cost of our flint vs mstflint, and ibfwmgr on 8 devices vs 1.

Usage: bench/inband_bench.py BUILD_DIR [--rounds=N] [--only=gateway|firmware|fabric]
       (default 5 interleaved rounds; medians; every part unless --only)
The firmware part burns live devices whose firmware takes images (MCC): a ConnectX-4 sample
generated with component_update, and a real Spectrum release when ../shared has it; ours on its
default path (through the firmware) and with --ocr, mstflint on its default path and with --ocr.
Needs ibsim, opensm, mstflint and the build's flint, hcasim, simfabric, ibsim-responder, ibfwmgr
and firmware samples (cmake --build BUILD_DIR --target firmware_samples). Prints the figures;
MADs are counted at the responder (answers sent), wall time around each client run.
"""
import json
import resource
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


def client_may_fail(bindir, fabric_dir, argv):
    start = time.monotonic()
    try:
        r = subprocess.run([os.path.join(bindir, "simfabric"), "run", "--dir", fabric_dir, "--"] + argv,
                           capture_output=True, text=True, cwd=fabric_dir, timeout=900)
    except subprocess.TimeoutExpired:
        return time.monotonic() - start, -1, "no answer within 900 s"
    took = time.monotonic() - start
    if r.returncode == 0:
        return took, 0, ""
    lines = [l for l in (r.stderr + "\n" + r.stdout).splitlines() if "-E-" in l or "rror" in l]
    why = f"exit {r.returncode}" + (" (SIGSEGV)" if r.returncode in (139, -11) else "")
    return took, r.returncode, why + (": " + lines[-1].strip() if lines else "")


def mcc_sample(srcdir, bindir, work, version):
    """The ConnectX-4 sample with IMAGE_INFO mcc_en (fwburn component_update = yes)."""
    d = os.path.join(srcdir, "firmware-samples", "connectx4")
    with open(os.path.join(d, version + ".fwdesc")) as f:
        desc = f.read().replace("[firmware]\n", "[firmware]\ncomponent_update = yes\n", 1)
    path = os.path.join(work, f"cx4-mcc-{version}.fwdesc")
    with open(path, "w") as f:
        f.write(desc)
    out = os.path.join(work, f"connectx4-mcc-{version}.bin")
    subprocess.run([os.path.join(bindir, "fwburn"), "-fw", path, "-conf", os.path.join(d, version + ".ini"),
                    "-wrimage", out], check=True, capture_output=True)
    return out


def real_spectrum(bindir, work):
    real = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "firmware", "real")
    pair = ("fw-SPC-rel-13_1910_0016-EVB.mfa", "fw-SPC-rel-13_2000_2162-EVB.mfa")
    out = []
    for name, tag in zip(pair, ("old", "new")):
        mfa = os.path.join(real, name)
        if not os.path.exists(mfa):
            return None
        img = os.path.join(work, f"spectrum-real-{tag}.bin")
        subprocess.run([os.path.join(bindir, "flint"), "-i", mfa, "archive", "extract", "--psid", "IBM0000000028",
                        "-o", img], check=True, capture_output=True)
        out.append(img)
    return out


def bench_firmware_path(bindir, what, kind, model, old, new, work, rounds):
    """Four live devices running `old`, each burned with `new` by one client configuration."""
    clients = [("ours (firmware)", lambda lid: [os.path.join(bindir, "flint"), "-d", f"lid-{lid}", "-i", new, "burn", "-y"]),
               ("ours --ocr", lambda lid: [os.path.join(bindir, "flint"), "-d", f"lid-{lid}", "-i", new, "burn", "-y",
                                           "--ocr"]),
               ("mstflint", lambda lid: ["mstflint", "-d", f"lid-{lid}", "-i", new, "-y", "burn"]),
               ("mstflint --ocr", lambda lid: ["mstflint", "-d", f"lid-{lid}", "--ocr", "-i", new, "-y", "burn"])]
    times = {c: [] for c, _ in clients}
    mads = {c: [] for c, _ in clients}
    failed = {}
    for r in range(rounds):
        d = os.path.join(work, f"fw-{what}-{r}")
        if kind == "--switch":  # one switch per fabric: a fabric per client
            for c, argv in clients:
                fd = d + "-" + c.replace(" ", "_")
                proc, lids = up(bindir, fd, [("--switch", f"{model}:{old}")])
                try:
                    t, rc, msg = client_may_fail(bindir, fd, argv(lids["Switch1"]))
                finally:
                    answers = down(proc, fd)
                if rc == 0:
                    times[c].append(t)
                    mads[c].append(answers.get("Switch1", 0))
                else:
                    failed.setdefault(c, msg)
            continue
        proc, lids = up(bindir, d, [("--hca", f"{model}:{old}")] * len(clients))
        results = []
        try:
            for i, (c, argv) in enumerate(clients):
                results.append((c, f"Hca{i + 2}", client_may_fail(bindir, d, argv(lids[f"Hca{i + 2}"]))))
        finally:
            answers = down(proc, d)
        for c, node, (t, rc, msg) in results:
            if rc == 0:
                times[c].append(t)
                mads[c].append(answers[node])
            else:
                failed.setdefault(c, msg)
    print(f"in-band burn of {os.path.basename(new)} ({os.path.getsize(new)} bytes) over {os.path.basename(old)} "
          f"on a live {model} (firmware runs, MCC offered), {rounds} round(s), medians:")
    for c, _ in clients:
        if times[c]:
            print(f"  {c:16}: {median(mads[c]):8.0f} MADs  {median(times[c]):7.2f} s")
        else:
            print(f"  {c:16}: failed: {failed.get(c, '?')[:150]}")
    base = "mstflint" if times["mstflint"] else "mstflint --ocr"
    if times["ours (firmware)"] and times[base]:
        print(f"  ratio ours (firmware) / {base}: MADs {median(mads['ours (firmware)']) / median(mads[base]):.3f}x, "
              f"time {median(times['ours (firmware)']) / median(times[base]):.3f}x (target <= 0.1x of mstflint's "
              f"default path)")
    if times["ours (firmware)"] and times["ours --ocr"]:
        print(f"  ratio ours (firmware) / ours --ocr: MADs "
              f"{median(mads['ours (firmware)']) / median(mads['ours --ocr']):.3f}x, "
              f"time {median(times['ours (firmware)']) / median(times['ours --ocr']):.3f}x")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def bench_fabric(bindir, samples, work, count, tag, extra=()):
    old, new = os.path.join(samples, "connectx3-old.bin"), os.path.join(samples, "connectx3-new.bin")
    images = os.path.join(work, "images")
    os.makedirs(images, exist_ok=True)
    shutil.copy(new, images)
    d = os.path.join(work, f"fabric{count}-{tag}")
    proc, lids = up(bindir, d, [("--hca", "connectx3:" + old)] * count)
    try:
        # The tool's CPU: what the client (simfabric run, which waits for ibfwmgr) used, read as
        # the children's rusage around it (the fabric's processes are not waited for yet).
        cpu = children_cpu()
        took, out = client(bindir, d, [os.path.join(bindir, "ibfwmgr"), "update", "--images", images, "-y", "--json",
                                       *extra])
        cpu = children_cpu() - cpu
    finally:
        answers = down(proc, d)
    doc = json.loads(out)
    updated = sum(1 for n in doc["nodes"] if n["status"] == "updated")
    if updated != count:
        raise SystemExit(f"ibfwmgr updated {updated} of {count}: {out}")
    return took, sum(answers.values()), cpu


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    rounds = int(next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--rounds=")), "5"))
    only = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--only=")), None)
    if len(args) != 1 or rounds < 1 or only not in (None, "gateway", "firmware", "fabric"):
        raise SystemExit(__doc__)
    build = os.path.abspath(args[0])
    bindir, samples = os.path.join(build, "bin"), os.path.join(build, "firmware-samples")
    srcdir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    work = tempfile.mkdtemp(prefix="openflint-inband-bench-")
    try:
        if only in (None, "gateway"):
            bench_burn(bindir, samples, work, rounds)
        if only in (None, "firmware"):
            old, new = mcc_sample(srcdir, bindir, work, "old"), mcc_sample(srcdir, bindir, work, "new")
            bench_firmware_path(bindir, "cx4", "--hca", "connectx4", old, new, work, rounds)
            spc = real_spectrum(bindir, work)
            if spc:
                bench_firmware_path(bindir, "spc", "--switch", "spectrum", spc[0], spc[1], work, rounds)
            else:
                print("real Spectrum firmware not found under ../shared/firmware/real: that part skipped")
        if only not in (None, "fabric"):
            return
        one, eight = [], []
        for r in range(rounds):  # interleaved: 1, 8, 1, 8, ...
            one.append(bench_fabric(bindir, samples, work, 1, r))
            eight.append(bench_fabric(bindir, samples, work, 8, r))
        one_t, eight_t = median([t for t, _, _ in one]), median([t for t, _, _ in eight])
        one_m, eight_m = median([m for _, m, _ in one]), median([m for _, m, _ in eight])
        one_c = median([c / m * 1e6 for _, m, c in one])
        eight_c = median([c / m * 1e6 for _, m, c in eight])
        print(f"ibfwmgr update (ConnectX-3 FS2 old -> new), one process, one umad port, up to --parallel devices "
              f"at once, {rounds} interleaved rounds (medians; tool CPU = the client's user+system time / MADs):")
        print(f"  1 device : {one_t:7.2f} s  {one_m:8.0f} MADs  {one_c:6.1f} us CPU/MAD   "
              f"(runs: {' '.join(f'{t:.2f}' for t, _, _ in one)})")
        print(f"  8 devices: {eight_t:7.2f} s  {eight_m:8.0f} MADs  {eight_c:6.1f} us CPU/MAD   "
              f"(runs: {' '.join(f'{t:.2f}' for t, _, _ in eight)})")
        print(f"  ratio 8/1: time {eight_t / one_t:.2f}x (target <= 1.5x), MADs {eight_m / one_m:.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
