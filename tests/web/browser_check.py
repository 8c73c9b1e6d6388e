#!/usr/bin/python3
"""mst web in a real browser: Debian's headless chromium driven through chromedriver (selenium).

Run by tests/web/test_web_browser.cpp against a running `mst web`; exits 0 when every check holds,
else prints the failed check and exits 1. Saves a screenshot of each page it checks.
"""
import argparse
import json
import os
import subprocess
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import browser_support
from browser_support import fail, wait_for


def mst(args, binary):
    run = subprocess.run([binary] + args, capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        fail("mst " + " ".join(args) + ": " + run.stderr.strip())
    return run.stdout


def flint_query(args):
    run = subprocess.run([args.flint, "-d", args.device, "q", "--json"], capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        fail("flint q: " + run.stderr.strip())
    return json.loads(run.stdout)


def check_firmware(args, driver):
    """The flash page's firmware part: a bad image refused (nothing changes), a good one checked,
    burned with progress, and the device then has the new version and its own GUIDs."""
    shots = args.screenshots
    before = flint_query(args)
    driver.get(args.url.split("/?")[0] + "/flash?i=0")
    wait_for(driver, "the firmware part ready", lambda d: d.execute_script(
        "return document.getElementById('firmware').dataset.ready === 'true'"))
    chooser = driver.find_element(By.ID, "image-file")
    state = lambda d: d.find_element(By.ID, "image-status").get_attribute("data-state")
    chooser.send_keys(args.bad_image)
    wait_for(driver, "the bad image refused", lambda d: state(d) == "refused", seconds=30)
    if driver.find_element(By.ID, "burn-button").is_enabled():
        fail("the burn button is offered for an image that does not verify")
    print("bad image: " + driver.find_element(By.ID, "image-status").text)
    if flint_query(args) != before:
        fail("checking a bad image changed the device")
    driver.save_screenshot(os.path.join(shots, "firmware-refused.png"))
    chooser.clear()
    chooser.send_keys(args.new_image)
    wait_for(driver, "the new image checked", lambda d: state(d) == "ok", seconds=30)
    driver.save_screenshot(os.path.join(shots, "firmware-checked.png"))
    driver.find_element(By.ID, "burn-button").click()
    wait_for(driver, "the burn's confirmation dialog", lambda d: d.switch_to.alert).accept()
    burn_state = lambda d: d.find_element(By.ID, "burn-status").get_attribute("data-state")
    wait_for(driver, "the burn to start", lambda d: burn_state(d) in ("running", "done", "failed"), seconds=10)
    driver.save_screenshot(os.path.join(shots, "firmware-burning.png"))
    wait_for(driver, "the burn to end", lambda d: burn_state(d) in ("done", "failed"), seconds=120)
    status = driver.find_element(By.ID, "burn-status")
    if burn_state(driver) != "done":
        fail("the burn failed: " + status.text)
    stages = (status.get_attribute("data-stages") or "").split(",")
    progress = driver.find_element(By.ID, "burn-progress").get_attribute("value")
    print("burn: %s (stages %s, progress %s%%)" % (status.text, stages, progress))
    if progress != "100" or not stages or stages == [""]:
        fail("the burn showed no progress: stages %s, bar %s" % (stages, progress))
    driver.save_screenshot(os.path.join(shots, "firmware-burned.png"))
    after = flint_query(args)
    if after.get("fw_version") != args.new_version:
        fail("after the burn the device has FW %s, not %s" % (after.get("fw_version"), args.new_version))
    if after.get("base_guid") != before.get("base_guid") or after.get("base_mac") != before.get("base_mac"):
        fail("the burn changed the board's GUIDs: %s -> %s" % (before.get("base_guid"), after.get("base_guid")))


def check_config(args, driver):
    """The configuration page: mst config's parameters; a new value set for the next boot."""
    driver.get(args.url.split("/?")[0] + "/config?i=0")
    wait_for(driver, "the SRIOV_EN row", lambda d: d.find_elements(By.CSS_SELECTOR, 'tr.parameter[data-name="SRIOV_EN"]'))
    box = driver.find_element(By.CSS_SELECTOR, 'input.new-value[data-name="SRIOV_EN"]')
    box.send_keys("True")
    driver.find_element(By.ID, "apply").click()
    wait_for(driver, "the configuration's confirmation dialog", lambda d: d.switch_to.alert).accept()
    wait_for(driver, "the configuration written",
             lambda d: d.find_element(By.ID, "apply-status").get_attribute("data-state") in ("done", "failed"))
    if driver.find_element(By.ID, "apply-status").get_attribute("data-state") != "done":
        fail("the configuration change failed: " + driver.find_element(By.ID, "apply-status").text)
    wait_for(driver, "SRIOV_EN next boot True", lambda d: d.execute_script(
        "const c = document.querySelector('tr.parameter[data-name=\"SRIOV_EN\"] td.next');"
        "return c !== null && c.textContent.startsWith('True');"))
    driver.save_screenshot(os.path.join(args.screenshots, "config.png"))
    out = mst(["config", args.device, "query", "SRIOV_EN"], args.mst)
    if "True" not in out:
        fail("mst config does not show the page's change: " + out)


def register_row(driver, address):
    rows = driver.find_elements(By.CSS_SELECTOR, 'tr.register[data-address="%s"]' % address)
    return rows[0] if rows else None


def check(args, driver):
    shots = args.screenshots
    # The devices page: one row per served device, each with its part and firmware.
    driver.get(args.url)
    rows = wait_for(driver, "%d device rows" % args.devices,
                    lambda d: len(d.find_elements(By.CSS_SELECTOR, "tr.device")) == args.devices and
                    d.find_elements(By.CSS_SELECTOR, "tr.device"))
    texts = [r.text for r in rows]
    for part in args.expect_part:
        if not any(part in t for t in texts):
            fail("no device row shows %s: %s" % (part, texts))
    mode = driver.find_element(By.ID, "mode").text
    if mode != ("read-only" if args.read_only else "read-write"):
        fail("the mode badge says " + mode)
    driver.save_screenshot(os.path.join(shots, "devices.png"))

    # Its register page: the hw_id register decoded field by field.
    rows[0].find_element(By.CSS_SELECTOR, "a.open").click()
    # Read inside the page: the table is rebuilt at every refresh (an element found may go stale).
    hw = wait_for(driver, "the hw_id field on the register page",
                  lambda d: d.execute_script(
                      "const f = document.querySelector('tr.register[data-name=\"hw_id\"] span.field[data-field=\"hw_id\"]');"
                      "return f === null ? null : f.textContent;"))
    if hw != "hw_id=" + args.hw_id:
        fail("hw_id field shows " + hw)
    driver.save_screenshot(os.path.join(shots, "registers.png"))
    # Its firmware trace section: a simulated device file is no PCI function here, and says so.
    trace = wait_for(driver, "the firmware trace section's reason", lambda d: d.execute_script(
        "const s = document.getElementById('trace-status'); return s && s.textContent.startsWith('no trace') ? s.textContent : null;"))
    if "not a PCI function" not in trace:
        fail("the trace section says " + trace)

    # A value changed from outside (mst mwrite) appears highlighted within one refresh.
    interval_ms = 500
    Select(driver.find_element(By.ID, "interval")).select_by_value(str(interval_ms))
    address, value = "0x000f0000", "0x00002300"
    driver.find_element(By.ID, "snapshot").click()
    mst(["mwrite", args.device, address, value], args.mst)
    written = time.monotonic()
    # Checked inside the page in one step: the table is rebuilt at every refresh.
    wait_for(driver, "the outside write highlighted",
             lambda d: d.execute_script(
                 "const r = document.querySelector('tr.register[data-address=\"' + arguments[0] + '\"]');"
                 "return r !== null && r.classList.contains('changed') && r.textContent.includes(arguments[1]);",
                 address, value),
             seconds=(interval_ms + 2500) / 1000.0)  # one refresh, and time for a loaded CI machine
    seen_ms = (time.monotonic() - written) * 1000
    print("outside write highlighted after %.0f ms (refresh every %d ms)" % (seen_ms, interval_ms))
    driver.execute_script("document.querySelector('tr.register[data-address=\"' + arguments[0] + '\"]')"
                          ".scrollIntoView({block: 'center'})", address)
    driver.save_screenshot(os.path.join(shots, "registers-changed.png"))

    # Snapshots: the diff of the two names the dword written between them.
    driver.find_element(By.ID, "snapshot").click()
    driver.find_element(By.ID, "diff").click()
    diff = wait_for(driver, "the snapshot diff row", lambda d: d.find_elements(By.CSS_SELECTOR, 'tr.diff[data-address="%s"]' % address))
    if value not in diff[0].text:
        fail("the diff row shows " + diff[0].text)

    # The flash page: the sections of the boot copy beside the bytes (the FS3 magic at 0), then an
    # InfiniScale III's EEPROMs (FS1: the invariant BOOT2 first).
    for index, section, first_bytes, shot in ((0, "ITOC_HEADER", "4d 54 46 57", "flash.png"),
                                              (args.devices - 1, "Invariant BOOT2", None, "flash-eeprom.png")):
        driver.get(args.url.split("/?")[0] + "/flash?i=%d" % index)
        row = wait_for(driver, "the %s section on flash page %d" % (section, index),
                       lambda d: d.find_elements(By.CSS_SELECTOR, 'tr.section[data-name="%s"]' % section))
        first = wait_for(driver, "the bytes at 0 on flash page %d" % index,
                         lambda d: d.find_elements(By.CSS_SELECTOR, 'tr.hexrow[data-offset="0x0"] td.bytes'))
        if first_bytes and not first[0].text.startswith(first_bytes):
            fail("flash page %d starts with %s" % (index, first[0].text))
        row[0].find_element(By.CSS_SELECTOR, "a.jump").click()
        start = row[0].find_elements(By.TAG_NAME, "td")[1].text
        wait_for(driver, "the jump to %s at %s" % (section, start),
                 lambda d: d.execute_script(
                     "return [...document.querySelectorAll('tr.hexrow td:nth-child(4)')].some(c => c.textContent === arguments[0])",
                     section))
        driver.save_screenshot(os.path.join(shots, shot))
    driver.get(args.url.split("/?")[0] + "/device?i=0")
    wait_for(driver, "the register page again", lambda d: d.find_elements(By.CSS_SELECTOR, 'tr.register[data-name="hw_id"]'))

    # A field write from the page: asks first, then the device has it.
    button = driver.find_element(By.ID, "write-button")
    if args.read_only:
        if button.is_enabled():
            fail("the write button is enabled on a read-only console")
        status = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch('/api/devices/0/field', {method: 'POST', headers: {'X-Openflint-Token': sessionStorage.getItem('openflint_token'),
              'Content-Type': 'application/json'}, body: JSON.stringify({address: '0xf0000', field: 'boot_address', value: '0x44'})})
              .then(r => done(r.status));""")
        if status != 403:
            fail("a write on a read-only console answered %s" % status)
        if mst(["mread", args.device, address], args.mst).split()[1] != value:
            fail("the read-only console changed the device")
        driver.get(args.url.split("/?")[0] + "/flash?i=0")
        wait_for(driver, "the read-only note on the flash page",
                 lambda d: "read-only" in d.find_element(By.ID, "image-status").text)
        for control in ("image-file", "check-image", "burn-button", "identity-button", "reset-button"):
            if driver.find_element(By.ID, control).is_enabled():
                fail("%s is enabled on a read-only console" % control)
        return
    driver.find_element(By.ID, "write-address").clear()
    driver.find_element(By.ID, "write-address").send_keys(address)
    driver.find_element(By.ID, "write-field").clear()
    driver.find_element(By.ID, "write-field").send_keys("boot_address")
    driver.find_element(By.ID, "write-value").clear()
    driver.find_element(By.ID, "write-value").send_keys("0x45")
    button.click()
    alert = wait_for(driver, "the confirmation dialog", lambda d: d.switch_to.alert)
    alert.accept()
    wait_for(driver, "the write's report", lambda d: "wrote" in d.find_element(By.ID, "write-status").text)
    got = mst(["mread", args.device, address], args.mst).split()[1]
    if got != "0x00004500":
        fail("after the page's write the device holds " + got)
    check_firmware(args, driver)
    check_config(args, driver)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--mst", required=True)
    parser.add_argument("--device", required=True, help="the first served device (for mst mwrite/mread)")
    parser.add_argument("--devices", type=int, required=True, help="how many rows the devices page must show")
    parser.add_argument("--expect-part", action="append", default=[])
    parser.add_argument("--hw-id", required=True)
    parser.add_argument("--read-only", action="store_true")
    parser.add_argument("--flint", required=True)
    parser.add_argument("--new-image", required=True, help="an image the first device takes (burned from the page)")
    parser.add_argument("--new-version", required=True, help="its FW version")
    parser.add_argument("--bad-image", required=True, help="an image that does not verify (refused by the page)")
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--profile", help="chromium's profile directory (default: a new temporary one, removed)")
    args = parser.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)
    browser_support.run_in_chromium(check, args, "1280,900", args.profile)
    print("browser checks passed")


if __name__ == "__main__":
    main()
