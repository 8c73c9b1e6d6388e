#!/usr/bin/env python3
"""The device page's live firmware trace in Debian's headless chromium: the driver's messages for
a served ConnectX-4 appear as rows, and a configuration change made from outside (mst config set)
appears within a few seconds without a reload. Run by tests/web_browser/test_web_trace_browser.cpp."""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_support  # noqa: E402
from browser_support import fail, wait_for  # noqa: E402

browser_support.CHECK_NAME = "trace browser check"


def rows(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#trace tbody tr')).map(r => r.cells[3].textContent);")


def check(args, driver):
    driver.get(args.url.replace("/?token=", "/device?i=0&token="))
    first = wait_for(driver, "the first trace rows", lambda d: rows(d) or None, seconds=10)
    if not any("NV config: item type 0x80 stored" in r for r in first):
        fail("the trace rows are " + repr(first))
    before = len(first)
    done = subprocess.run([args.mst, "config", args.device, "set", "SRIOV_EN=0", "-y"], capture_output=True, text=True)
    if done.returncode != 0:
        fail("mst config set: " + done.stdout + done.stderr)
    wait_for(driver, "the new message appended live", lambda d: len(rows(d)) > before, seconds=10)
    status = driver.find_element("id", "trace-status").text
    if "%d message(s)" % len(rows(driver)) not in status:
        fail("the trace status says " + status)
    driver.execute_script("document.getElementById('trace-section').scrollIntoView();")
    driver.save_screenshot(os.path.join(args.screenshots, "trace.png"))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--mst", required=True)
    p.add_argument("--device", required=True)
    p.add_argument("--screenshots", required=True)
    p.add_argument("--profile")
    args = p.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)
    browser_support.run_in_chromium(check, args, "1280,1024", args.profile)


if __name__ == "__main__":
    main()
