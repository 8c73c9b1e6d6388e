#!/usr/bin/env python3
"""remote_bench: the same burn to the same simulated device locally, over TCP loopback and over SSH loopback.

Usage: bench/remote_bench.py BUILD_DIR [--rounds=N] [--no-ssh]
       (default 3 interleaved rounds; medians)
Burns the ConnectX-4 sample built with component_update (fwburn), so a live device takes it
through its running firmware (MCC/MCDA) by default, and with --ocr through the CR-space flash
gateway, each over the old sample on a fresh simulated device:
  local  flint -d sim:DIR
  tcp    flint -d 127.0.0.1:PORT,sim:DIR        (mst server --port PORT sim:DIR, loopback)
  ssh    flint -d ssh:root@127.0.0.1:PORT/sim:DIR (a private sshd on a loopback port, generated keys)
Prints wall times, the ratio remote/local (target <= 1.5) and the server's requests (round trips
unless pipelined) per KiB of image data written, from the server's audit totals.
Needs the build's flint, mst, hcasim, fwburn and the source's firmware-samples/; the ssh part
needs /usr/sbin/sshd and ssh-keygen (openssh-server) and root.
"""
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from inband_bench import mcc_sample  # the ConnectX-4 sample built with component_update


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc, what):
    for _ in range(200):
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"{what} did not listen on {port}")


class Sshd:
    """A private sshd on 127.0.0.1 with generated host and client keys; stopped on exit."""

    def __init__(self, work):
        self.dir = os.path.join(work, "sshd")
        os.makedirs(self.dir)
        for name in ("host", "client"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(self.dir, name)],
                           check=True)
        shutil.copy(os.path.join(self.dir, "client.pub"), os.path.join(self.dir, "authorized_keys"))
        self.port = free_port()
        config = os.path.join(self.dir, "sshd_config")
        with open(config, "w") as f:
            f.write(f"ListenAddress 127.0.0.1\nPort {self.port}\nHostKey {self.dir}/host\n"
                    f"AuthorizedKeysFile {self.dir}/authorized_keys\nPidFile {self.dir}/sshd.pid\n"
                    "StrictModes no\nUsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                    "PermitRootLogin prohibit-password\n")
        os.makedirs("/run/sshd", exist_ok=True)
        self.proc = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", config],
                                     stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.dir, "log"), "w"))
        wait_port(self.port, self.proc, "sshd")
        self.env = {"OPENFLINT_SSH_COMMAND":
                    f"ssh -F /dev/null -i {self.dir}/client -o IdentitiesOnly=yes "
                    f"-o UserKnownHostsFile={self.dir}/known_hosts -o StrictHostKeyChecking=accept-new"}

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def run(argv, env=None):
    start = time.monotonic()
    r = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, **(env or {})})
    took = time.monotonic() - start
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({r.returncode}):\n{r.stdout[-1500:]}\n{r.stderr[-1500:]}")
    return took


def requests_from_audit(text):
    """The server's per-session totals: requests, when the audit line has them."""
    found = re.findall(r"(\d+) requests in (\d+) round trips", text)
    return (int(found[-1][0]), int(found[-1][1])) if found else None


def burn_once(bins, samples, work, transport, ocr, sshd, tag):
    device = os.path.join(work, f"dev-{tag}")
    shutil.rmtree(device, ignore_errors=True)
    run([bins["hcasim"], "create", "--model", "connectx4", device, "--image", samples["old"]])
    burn = ["-i", samples["new"], "-y"] + (["--ocr"] if ocr else []) + ["burn"]
    if transport == "local":
        return run([bins["flint"], "-d", f"sim:{device}"] + burn), None
    mst = bins["mst"]
    if transport == "ssh":
        env = {**sshd.env, "OPENFLINT_REMOTE_MST": mst}
        took = run([bins["flint"], "-d", f"ssh:root@127.0.0.1:{sshd.port}/sim:{device}"] + burn, env)
        return took, None  # the ssh session's server audits to its stderr, which sshd keeps
    port = free_port()
    audit = os.path.join(work, f"audit-{tag}.log")
    server = subprocess.Popen([mst, "server", "--port", str(port), "--audit-log", audit, f"sim:{device}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port, server, "mst server")
        took = run([bins["flint"], "-d", f"127.0.0.1:{port},sim:{device.replace('/', '@')}"] + burn)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    with open(audit) as f:
        return took, requests_from_audit(f.read())


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        raise SystemExit(__doc__)
    build = os.path.abspath(args[0])
    rounds = next((int(a.split("=")[1]) for a in sys.argv if a.startswith("--rounds=")), 3)
    use_ssh = "--no-ssh" not in sys.argv
    bins = {t: os.path.join(build, "bin", t) for t in ("flint", "mst", "hcasim")}
    srcdir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    transports = ["local", "tcp"] + (["ssh"] if use_ssh else [])
    with tempfile.TemporaryDirectory() as work:
        samples = {k: mcc_sample(srcdir, os.path.join(build, "bin"), work, k) for k in ("old", "new")}
        sshd = Sshd(work) if use_ssh else None
        try:
            for ocr in (False, True):
                times = {t: [] for t in transports}
                requests = None
                for r in range(rounds):
                    for t in transports:
                        took, req = burn_once(bins, samples, work, t, ocr, sshd, f"{t}{r}")
                        times[t].append(took)
                        requests = req if req is not None else requests
                path = "--ocr (CR-space flash gateway)" if ocr else "default (through the running firmware)"
                print(f"burn of {os.path.basename(samples['new'])} over {os.path.basename(samples['old'])}, "
                      f"path {path}, {rounds} rounds, medians:")
                local = statistics.median(times["local"])
                for t in transports:
                    m = statistics.median(times[t])
                    ratio = "" if t == "local" else f"   ratio {t}/local {m / local:.2f}x (target <= 1.5x)"
                    print(f"  {t:5}: {m:6.2f} s{ratio}")
                if requests is not None:
                    kib = os.path.getsize(samples["new"]) / 1024
                    print(f"  tcp: {requests[0]} requests in {requests[1]} round trips; "
                          f"{requests[1] / kib:.3f} round trips per KiB of image ({kib:.0f} KiB)")
        finally:
            if sshd:
                sshd.stop()


if __name__ == "__main__":
    main()
