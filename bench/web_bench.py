#!/usr/bin/env python3
"""web_bench: how fast mst web's pages come, against the command line that gives the same data.

Usage: bench/web_bench.py BUILD_DIR [--devices=N] [--rounds=N] [--no-browser] [--no-bar]
  1. The device list of N (default 100) simulated ConnectX-4 adapters (sim:DIR each):
     - reference: `flint -d sim:DIR q --json` for each device, one after the other (what a script
       without the console would run);
     - cold: GET /api/devices?refresh=1 (every device queried again, 8 at a time);
     - warm: GET /api/devices (the kept queries: the page's normal load);
     - page: Chromium (headless) from navigation to N rows shown (target <= 1 s).
  2. The register page of one ConnectX-4 served as a PCI function (`hcasim pci-serve`, FUSE) and
     read over its BAR (pcicr-0000:03:00.0):
     - reference: `mst dump -v pcicr-0000:03:00.0 --json`;
     - refresh: GET /api/devices/0/registers, what the page asks at each refresh (target <= 200 ms).
Prints medians and the ratios to the reference. Needs the build's mst, flint, hcasim and
firmware_samples; the page part needs chromium, chromedriver and python3-selenium (Debian's
/usr/bin/python3); the BAR part needs /dev/fuse and root.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request


def arg(name, default):
    for a in sys.argv[2:]:
        if a.startswith("--" + name + "="):
            return int(a.split("=", 1)[1])
    return default


class WebServer:
    """mst web on a free loopback port, stopped (SIGTERM) on exit."""

    def __init__(self, mst, devices, work, env=None):
        self.log = open(os.path.join(work, "web.err"), "w+")
        self.proc = subprocess.Popen([mst, "web", "--listen", "127.0.0.1:0", "--audit-log", os.devnull] + devices,
                                     stdout=subprocess.DEVNULL, stderr=self.log, env=env)
        for _ in range(600):
            self.log.seek(0)
            m = re.search(r"on (http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+))", self.log.read())
            if m:
                self.url, self.base, self.token = m.group(1), "http://127.0.0.1:" + m.group(2), m.group(3)
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.log.seek(0)
        raise SystemExit("mst web did not start: " + self.log.read())

    def get(self, path):
        request = urllib.request.Request(self.base + path, headers={"X-Openflint-Token": self.token})
        with urllib.request.urlopen(request, timeout=300) as response:
            return json.loads(response.read())

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=30)


def timed(fn):
    start = time.monotonic()
    fn()
    return time.monotonic() - start


def median_ms(samples):
    return statistics.median(samples) * 1000


def page_render(url, rows):
    """Seconds from navigation to `rows` device rows, in headless Chromium; None without it."""
    if not (os.path.exists("/usr/bin/chromium") and os.path.exists("/usr/bin/chromedriver")):
        return None
    code = r'''
import sys, time, tempfile, shutil
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
url, rows = sys.argv[1], int(sys.argv[2])
profile = tempfile.mkdtemp()
o = webdriver.ChromeOptions()
o.binary_location = "/usr/bin/chromium"
for f in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--user-data-dir=" + profile):
    o.add_argument(f)
d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
try:
    times = []
    for _ in range(5):
        start = time.monotonic()
        d.get(url)
        WebDriverWait(d, 120, poll_frequency=0.01).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "tr.device")) == rows)
        times.append(time.monotonic() - start)
    times.sort()
    print(times[len(times) // 2])
finally:
    d.quit()
    shutil.rmtree(profile, ignore_errors=True)
'''
    run = subprocess.run(["/usr/bin/python3", "-c", code, url, str(rows)], capture_output=True, text=True)
    if run.returncode != 0:
        print("  page: not measured: " + run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "failed")
        return None
    return float(run.stdout.strip())


def device_list(build, work, n, rounds, browser):
    bin_dir = os.path.join(build, "bin")
    sample = os.path.join(build, "firmware-samples", "connectx4-old.bin")
    devices = []
    for i in range(n):
        path = os.path.join(work, "cx4-%03d" % i)
        subprocess.run([os.path.join(bin_dir, "hcasim"), "create", "--model", "connectx4", path, "--image", sample],
                       check=True, stdout=subprocess.DEVNULL)
        devices.append("sim:" + path)
    flint = os.path.join(bin_dir, "flint")
    reference = [timed(lambda: [subprocess.run([flint, "-d", d, "q", "--json"], check=True, stdout=subprocess.DEVNULL)
                                for d in devices]) for _ in range(rounds)]
    server = WebServer(os.path.join(bin_dir, "mst"), devices, work)
    try:
        cold = [timed(lambda: server.get("/api/devices?refresh=1")) for _ in range(rounds)]
        doc = server.get("/api/devices")
        ok = sum(1 for d in doc["devices"] if d["query"].get("ok"))
        warm = [timed(lambda: server.get("/api/devices")) for _ in range(max(rounds, 5))]
        page = page_render(server.url, n) if browser else None
    finally:
        server.stop()
    ref = median_ms(reference)
    print("device list of %d simulated ConnectX-4 (%d queried ok):" % (n, ok))
    print("  reference  flint q --json x %d: %8.0f ms" % (n, ref))
    print("  cold       GET /api/devices?refresh=1: %8.0f ms  (ratio to reference %.2f)" % (median_ms(cold), median_ms(cold) / ref))
    print("  warm       GET /api/devices:           %8.0f ms  (ratio to reference %.3f)" % (median_ms(warm), median_ms(warm) / ref))
    if page is not None:
        print("  page       Chromium, navigation to %d rows: %6.0f ms  (target <= 1000 ms: %s)"
              % (n, page * 1000, "met" if page <= 1.0 else "NOT met"))


def bar_registers(build, work, rounds):
    if not os.path.exists("/dev/fuse") or os.geteuid() != 0:
        print("register page over the BAR: not measured (needs /dev/fuse and root)")
        return
    bin_dir = os.path.join(build, "bin")
    dev = os.path.join(work, "bar-cx4")
    subprocess.run([os.path.join(bin_dir, "hcasim"), "create", "--model", "connectx4", dev, "--image",
                    os.path.join(build, "firmware-samples", "connectx4-old.bin")], check=True, stdout=subprocess.DEVNULL)
    mnt, shm = os.path.join(work, "mnt"), os.path.join(work, "shm")
    os.makedirs(mnt)
    os.makedirs(shm)
    log = open(os.path.join(work, "serve.log"), "w+")
    serve = subprocess.Popen([os.path.join(bin_dir, "hcasim"), "pci-serve", dev, "--sysfs", mnt, "--shm-dir", shm],
                             stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            log.seek(0)
            if "ready" in log.read():
                break
            if serve.poll() is not None:
                break
            time.sleep(0.1)
        else:
            raise SystemExit("pci-serve did not get ready")
        env = dict(os.environ, OPENFLINT_SYSFS_ROOT=mnt)
        name = "pcicr-0000:03:00.0"
        mst = os.path.join(bin_dir, "mst")
        reference = [timed(lambda: subprocess.run([mst, "dump", "-v", name, "--json"], check=True, env=env,
                                                  stdout=subprocess.DEVNULL)) for _ in range(max(rounds, 5))]
        server = WebServer(mst, [name], work, env)
        try:
            doc = server.get("/api/devices/0/registers")
            refresh = [timed(lambda: server.get("/api/devices/0/registers")) for _ in range(20)]
        finally:
            server.stop()
    finally:
        serve.terminate()
        serve.wait(timeout=30)
    ref, ms = median_ms(reference), median_ms(refresh)
    print("register page of a ConnectX-4 over its BAR (%s, %d dwords):" % (name, len(doc["words"])))
    print("  reference  mst dump -v --json: %6.0f ms" % ref)
    print("  refresh    GET /api/devices/0/registers: %6.0f ms  (ratio to reference %.2f; target <= 200 ms: %s)"
          % (ms, ms / ref, "met" if ms <= 200 else "NOT met"))


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    build = os.path.abspath(sys.argv[1])
    rounds = arg("rounds", 3)
    work = tempfile.mkdtemp(prefix="web-bench-")
    try:
        device_list(build, work, arg("devices", 100), rounds, "--no-browser" not in sys.argv)
        if "--no-bar" not in sys.argv:
            bar_registers(build, work, rounds)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
