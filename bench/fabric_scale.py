#!/usr/bin/env python3
"""fabric_scale: firmware on fabrics of 1 to >= 1,000 simulated nodes (ibtopogen fat trees).

Usage: bench/fabric_scale.py BUILD_DIR [--sizes=1,8,64,256,1024] [--query=ibfwmgr|flint|none]
                             [--flint-sample=N] [--update=CMD] [--json=FILE]

For each size: ibtopogen writes a fat tree (switchx switches, connectx3 hosts; size 1 is a lone
host), 'simfabric up --topology --firmware' brings it up with a simulated device on every node
(one process, flash copy-on-write over the firmware-samples' old images), then each step runs as
a client of the fabric ('simfabric run'):
  query   'ibfwmgr list --json' (every node's firmware, in-band; the default), or
          'flint -d lid-N q' for every node (or for --flint-sample=N of them, spread evenly)
  update  --update=CMD: a shell command run as a client, e.g.
          --update='ibfwmgr update --images {images} -y --json'
          ({images}: a folder with the new samples; {dir}: the fabric dir; {bin}: BUILD_DIR/bin)
Reported per size and step: wall time, MADs the simulator answered, MADs/s, simulator CPU per MAD
(the fabric process's user+system time, less what its stats cost, / MADs), tool CPU per MAD (the clients' CPU / MADs), the
fabric's start time and peak RSS (VmHWM), the tools' peak RSS (per step: the largest client process), and wall(N)/wall(1).
Needs the build's simfabric, ibtopogen, ibfwmgr, flint and firmware samples, and umad2sim (ibsim-utils).
"""
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# size → (spines, leaves, hosts per leaf, extra ibtopogen args); nodes = s + l * (1 + h)
SHAPES = {
    8: (2, 2, 2, []),
    64: (4, 12, 4, []),
    256: (16, 16, 14, []),
    1024: (16, 48, 20, ["--spine-ports", "48"]),
}


def topology(bindir, size, path):
    if size == 1:
        with open(path, "w") as f:
            f.write('vendid=0x02c9\ndevid=0x1003\nHca 1 "host-1"\n')
        return 1
    if size not in SHAPES:
        raise SystemExit(f"no fat-tree shape for {size} nodes (have 1, {', '.join(map(str, SHAPES))})")
    s, l, h, extra = SHAPES[size]
    argv = [os.path.join(bindir, "ibtopogen"), "--spines", str(s), "--leaves", str(l), "--hosts-per-leaf", str(h),
            "--switch-type", "switchx", "--host-type", "connectx3", "-o", path + ".topo", "--ibsim", path] + extra
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return s + l * (1 + h)


def stats(fabric_dir, proc=None):
    path = os.path.join(fabric_dir, "stats.json")
    if proc is not None:  # SIGUSR1: the fabric rewrites stats.json
        version = lambda: (os.stat(path).st_ino, os.stat(path).st_mtime_ns)
        before = version()
        proc.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 30
        while version() == before and time.monotonic() < deadline:
            time.sleep(0.02)
    with open(path) as f:
        return json.load(f)


def cpu_us(s):
    return s["cpu_user_us"] + s["cpu_system_us"] - s.get("stats_cpu_us", 0)


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime, r.ru_maxrss


def run_step(bindir, fabric_dir, argv_list, shell=False):
    """Runs each argv as a fabric client; returns (wall s, client CPU s, failures, last output, peak RSS KiB)."""
    cpu0, _ = children_cpu()
    t0 = time.monotonic()
    failures, out, peak_kib = 0, "", 0
    for argv in argv_list:
        cmd = [os.path.join(bindir, "simfabric"), "run", "--dir", fabric_dir, "--"]
        cmd += ["sh", "-c", argv] if shell else argv
        with tempfile.TemporaryFile(mode="w+") as log:
            p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, text=True, cwd=fabric_dir)
            # wait4: this client's own peak RSS (the largest of it and the processes it waited
            # for), not RUSAGE_CHILDREN's, which also holds earlier sizes' fabrics
            _, status, usage = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            peak_kib = max(peak_kib, usage.ru_maxrss)
            log.seek(0)
            text = log.read()
        if p.returncode != 0:
            failures += 1
            out = text[-2000:]
        elif not out:
            out = text[-2000:]
    wall = time.monotonic() - t0
    cpu1, _ = children_cpu()
    return wall, cpu1 - cpu0, failures, out, peak_kib


def bench_size(build, size, args, workdir):
    bindir = os.path.join(build, "bin")
    d = os.path.join(workdir, f"n{size}")
    os.makedirs(d)
    topo = os.path.join(d, "fabric.ibsim")
    nodes = topology(bindir, size, topo)
    fabric_dir = os.path.join(d, "fabric")
    t0 = time.monotonic()
    proc = subprocess.Popen([os.path.join(bindir, "simfabric"), "up", "--dir", fabric_dir, "--topology", topo,
                             "--firmware"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    row = {"size": size, "nodes": nodes, "steps": {}}
    try:
        for line in proc.stdout:
            lines.append(line)
            if "stops it" in line:
                break
        else:
            raise SystemExit("simfabric up failed:\n" + "".join(lines))
        row["up_s"] = round(time.monotonic() - t0, 2)
        base = stats(fabric_dir)
        row["start_ms"] = base["start_ms"]
        row["devices"] = base["devices"]
        lids = []
        with open(os.path.join(fabric_dir, "nodes.txt")) as f:
            for entry in f:
                name, model, lid, guid = entry.split("\t")
                lids.append(lid)
        steps = []
        if args["query"] == "ibfwmgr":
            steps.append(("query", [[os.path.join(bindir, "ibfwmgr"), "list", "--json"]], False))
        elif args["query"] == "flint":
            pick = lids
            if args["flint_sample"] and args["flint_sample"] < len(lids):
                k = args["flint_sample"]
                pick = [lids[i * len(lids) // k] for i in range(k)]
            steps.append(("query", [[os.path.join(bindir, "flint"), "-d", lid, "q"] for lid in pick], False))
        if args["update"]:
            images = os.path.join(d, "images")
            os.makedirs(images)
            for model in ("switchx", "connectx3"):
                shutil.copy(os.path.join(build, "firmware-samples", f"{model}-new.bin"), images)
            cmd = args["update"].format(images=images, dir=fabric_dir, bin=bindir)
            steps.append(("update", [cmd], True))
        for name, argv_list, shell in steps:
            before = stats(fabric_dir, proc)
            wall, tool_cpu, failures, out, peak_kib = run_step(bindir, fabric_dir, argv_list, shell)
            after = stats(fabric_dir, proc)
            mads = after["mads"] - before["mads"]
            sim_cpu = cpu_us(after) - cpu_us(before)
            row["steps"][name] = {
                "wall_s": round(wall, 2), "clients": len(argv_list), "failures": failures, "mads": mads,
                "mads_per_s": round(mads / wall) if wall > 0 else 0,
                "sim_cpu_us_per_mad": round(sim_cpu / mads, 1) if mads else None,
                "tool_cpu_us_per_mad": round(tool_cpu * 1e6 / mads, 1) if mads else None,
                "tool_peak_rss_mib": round(peak_kib / 1024, 1),
                "last_output": out if failures else "",
            }
        final = stats(fabric_dir, proc)
        row["sim_peak_rss_mib"] = round(final["peak_rss_kib"] / 1024, 1)
        row["sim_rss_mib"] = round(final["rss_kib"] / 1024, 1)
        row["sim_anon_mib"] = round(final.get("rss_anon_kib", 0) / 1024, 1)
        row["sim_pss_mib"] = round(final.get("pss_kib", 0) / 1024, 1)
        row["start_anon_mib"] = round(base.get("rss_anon_kib", 0) / 1024, 1)
        row["tool_peak_rss_mib"] = max([s["tool_peak_rss_mib"] for s in row["steps"].values()], default=0)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return row


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    build = os.path.abspath(sys.argv[1])
    args = {"sizes": [1, 8, 64, 256, 1024], "query": "ibfwmgr", "flint_sample": 0, "update": "", "json": ""}
    for a in sys.argv[2:]:
        m = re.match(r"--(sizes|query|flint-sample|update|json)=(.*)", a, re.S)
        if not m:
            print(__doc__, file=sys.stderr)
            return 2
        key, value = m.group(1).replace("-", "_"), m.group(2)
        args[key] = [int(x) for x in value.split(",")] if key == "sizes" else int(value) if key == "flint_sample" else value
    workdir = tempfile.mkdtemp(prefix="fabric-scale-")
    rows = []
    try:
        for size in args["sizes"]:
            row = bench_size(build, size, args, workdir)
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    first = {name: s["wall_s"] for name, s in rows[0]["steps"].items()} if rows else {}
    print("\n| nodes | devices | up s | step | wall s | wall/wall(1) | MADs | MADs/s | sim CPU µs/MAD | tool CPU µs/MAD | sim peak RSS MiB | sim anon MiB (after up / end) | sim PSS MiB | tool peak RSS MiB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        for name, s in r["steps"].items():
            ratio = round(s["wall_s"] / first[name], 2) if first.get(name) else ""
            print(f"| {r['nodes']} | {r['devices']} | {r['up_s']} | {name}{' (' + str(s['failures']) + ' failed)' if s['failures'] else ''} "
                  f"| {s['wall_s']} | {ratio} | {s['mads']} | {s['mads_per_s']} | {s['sim_cpu_us_per_mad']} "
                  f"| {s['tool_cpu_us_per_mad']} | {r['sim_peak_rss_mib']} | {r['start_anon_mib']} / {r['sim_anon_mib']} "
                  f"| {r['sim_pss_mib']} | {s['tool_peak_rss_mib']} |")
        if not r["steps"]:
            print(f"| {r['nodes']} | {r['devices']} | {r['up_s']} | - | | | | | | | {r['sim_peak_rss_mib']} "
                  f"| {r['start_anon_mib']} / {r['sim_anon_mib']} | {r['sim_pss_mib']} | |")
    if args["json"]:
        with open(args["json"], "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
