#!/usr/bin/python3
"""mst web's Fabric page in a real browser: Debian's headless chromium driven through chromedriver (selenium).

Run by tests/web_inband/test_web_fabric_browser.cpp against `mst web --fabric` on a small ibsim fabric;
exits 0 when every check holds, else prints the failed check and exits 1. Saves fabric.png.
"""
import argparse
import os

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import browser_support
from browser_support import fail

browser_support.CHECK_NAME = "fabric check"


def wait_for(driver, what, condition, seconds=20.0):
    return browser_support.wait_for(driver, what, condition, seconds, poll=0.1)


# Everything the checks read, in one step inside the page (the picture is redrawn at every poll).
PICTURE = """
const q = (s) => [...document.querySelectorAll(s)];
return {
  nodes: q('#fabric .node').map((n) => ({name: n.dataset.name, cls: n.getAttribute('class'),
                                         href: n.getAttribute('href'), tabindex: n.getAttribute('tabindex')})),
  cables: q('#fabric line.cable:not(.missing)').map((c) => ({a: c.dataset.a, b: c.dataset.b, cls: c.getAttribute('class')})),
  missing: q('#fabric line.cable.missing').map((c) => [c.dataset.a, c.dataset.b]),
  findings: q('#findings li').map((li) => li.textContent),
  firmware: q('#firmware tr.fw-node').map((r) => ({name: r.dataset.name, cls: r.className})),
  health: document.getElementById('health-status').textContent,
  temps: q('#temp-node option').map((o) => o.value),
  limit: q('#temp-plot line.limit').length,
  tempNode: document.getElementById('temp-node').value,
  tempOver: q('#temp-plot .series-point.over').length,
  port: document.getElementById('port').value,
  counterLines: q('#counter-plot path.series').map((l) => l.dataset.name),
  status: document.getElementById('status').textContent,
};
"""


def picture(driver):
    return driver.execute_script(PICTURE)


def check(args, driver):
    driver.get(args.url.replace("/?token=", "/fabric?token="))
    p = wait_for(driver, "%d systems and %d cables drawn" % (args.nodes, args.cables),
                 lambda d: (lambda x: x if len(x["nodes"]) == args.nodes and len(x["cables"]) == args.cables else None)(picture(d)))
    missing = sorted(tuple(sorted(m)) for m in p["missing"])
    expected = sorted(tuple(sorted(m.split("|"))) for m in args.missing)
    if missing != expected:
        fail("missing cables drawn: %s, expected %s" % (missing, expected))
    if len(p["findings"]) != len(args.missing) or not all(f.startswith("missing cable") for f in p["findings"]):
        fail("the cabling check lists %s" % p["findings"])
    if args.missing and "problem" not in p["status"]:
        fail("the status line does not say the cabling differs: " + p["status"])
    names = sorted(n["name"] for n in p["nodes"])
    for n in p["nodes"]:  # every system is reachable with Tab: a link, or focusable itself
        if n["href"] is None and n["tabindex"] != "0":
            fail("system %s cannot be reached with the keyboard" % n["name"])
    if args.device_node:
        linked = [n for n in p["nodes"] if n["name"] == args.device_node]
        if not linked or linked[0]["href"] != "/device?i=0":
            fail("%s does not link to its device page: %s" % (args.device_node, linked))
    # Health: a counter over its limit colours its cable; the hot node's temperature is plotted with its limit.
    p = wait_for(driver, "the health pass read", lambda d: (lambda x: x if x["health"].startswith("pass") and x["temps"] else None)(picture(d)))
    for end in args.warn:
        cable = [c for c in p["cables"] if end in (c["a"], c["b"])]
        if not cable or "warn" not in cable[0]["cls"]:
            fail("the cable at %s is not marked: %s" % (end, cable))
    ok = [c for c in p["cables"] if " ok" in c["cls"]]
    if len(ok) != args.cables - len(args.warn):
        fail("%d cables drawn ok, expected %d: %s" % (len(ok), args.cables - len(args.warn), p["cables"]))
    if args.hot and args.hot not in p["temps"]:
        fail("no temperature of %s offered: %s" % (args.hot, p["temps"]))
    if p["limit"] != 1:
        fail("the temperature plot has no limit line")
    if args.hot and (p["tempNode"] != args.hot or p["tempOver"] != 1):
        fail("the plot does not show %s over its limit: %s, %d points over" % (args.hot, p["tempNode"], p["tempOver"]))
    if args.warn and (p["port"] != args.warn[0] or "SymbolErrorCounter" not in p["counterLines"]):
        fail("the counter plot does not show %s's symbol errors: %s %s" % (args.warn[0], p["port"], p["counterLines"]))

    p = wait_for(driver, "the firmware table", lambda d: (lambda x: x if len(x["firmware"]) == args.nodes else None)(picture(d)))
    rows = {r["name"]: r["cls"] for r in p["firmware"]}
    for name in args.old:
        if "old" not in rows.get(name, "").split():
            fail("the firmware of %s is not marked old: %s" % (name, rows))
    for name in args.new:
        if name not in rows or "old" in rows[name].split():
            fail("the firmware of %s is marked old (or missing): %s" % (name, rows))
    if sum("old" in c.split() for c in rows.values()) != len(args.old):
        fail("other rows are marked old: %s" % rows)
    driver.save_screenshot(os.path.join(args.screenshots, "fabric.png"))
    # The plots follow the polls: a second pass draws a line through two points.
    Select(driver.find_element(By.ID, "interval")).select_by_value("2000")
    wait_for(driver, "a second health pass plotted",
             lambda d: d.execute_script("const p = document.querySelector('#temp-plot path.series');"
                                        "return document.getElementById('health-status').textContent.startsWith('pass 2') &&"
                                        " p !== null && p.getAttribute('d').includes('L');"))
    # Keyboard: a system of the picture takes the focus.
    focused = driver.execute_script("const n = document.querySelector('#fabric .node'); n.focus();"
                                    "return document.activeElement === n;")
    if not focused:
        fail("a system of the picture cannot take the focus")
    print("systems: %s" % names)
    if args.update:
        check_update(args, driver)


def check_update(args, driver):
    """An update of the chosen node from the firmware table: asked, each node's progress shown,
    and the table then lists the image's version on that node's flash."""
    box = wait_for(driver, "the chooser of " + args.update, lambda d: d.find_elements(
        By.CSS_SELECTOR, 'tr.fw-node[data-name="%s"] input.choose' % args.update))
    if len(driver.find_elements(By.CSS_SELECTOR, "input.choose")) != len(args.old) + len(args.new):
        fail("choosers offered on nodes without vendor access")
    Select(driver.find_element(By.ID, "interval")).select_by_value("0")  # no health polls beside the burn
    box[0].click()
    driver.find_element(By.ID, "update-button").click()
    wait_for(driver, "the update's confirmation dialog", lambda d: d.switch_to.alert).accept()
    state = lambda d: d.find_element(By.ID, "update-status").get_attribute("data-state")
    wait_for(driver, "the update's progress rows", lambda d: state(d) in ("done", "failed") or
             d.find_elements(By.CSS_SELECTOR, "#update-progress tr.update-node"), seconds=30)
    wait_for(driver, "the update to end", lambda d: state(d) in ("done", "failed"), seconds=180)
    text = driver.find_element(By.ID, "update-status").text
    rows = driver.execute_script("return [...document.querySelectorAll('#update-progress tr.update-node')]"
                                 ".map(r => [r.cells[0].textContent, r.dataset.stage])")
    print("update: %s; %s" % (text, rows))
    if state(driver) != "done" or rows != [[args.update, "updated"]]:
        fail("the update of %s did not end updated: %s %s" % (args.update, text, rows))
    flash = wait_for(driver, "the new version on %s's flash" % args.update, lambda d: d.execute_script(
        "const r = document.querySelector('tr.fw-node[data-name=\"' + arguments[0] + '\"]');"
        "return r !== null && r.cells[5].textContent.trim() === arguments[1] ? r.cells[5].textContent : null;",
        args.update, args.update_version), seconds=60)
    driver.save_screenshot(os.path.join(args.screenshots, "fabric-updated.png"))
    print("%s's flash now has %s" % (args.update, flash))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--nodes", type=int, required=True)
    parser.add_argument("--cables", type=int, required=True, help="cables on the fabric (drawn solid)")
    parser.add_argument("--missing", action="append", default=[], help="'SYS Pn|SYS Pn' of a cable the fabric lacks")
    parser.add_argument("--warn", action="append", default=[], help="'SYS Pn': a port whose counters are over the limit")
    parser.add_argument("--hot", help="a system whose temperature is read")
    parser.add_argument("--device-node", help="a system served as device 0")
    parser.add_argument("--old", action="append", default=[], help="a system whose firmware is older than another's")
    parser.add_argument("--new", action="append", default=[], help="a system with the newest firmware")
    parser.add_argument("--update", help="a system to update from the page (mst web --images)")
    parser.add_argument("--update-version", help="the version its flash then has")
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--profile", help="chromium's profile directory (default: a new temporary one, removed)")
    args = parser.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)
    browser_support.run_in_chromium(check, args, "1280,1900", args.profile)
    print("fabric checks passed")


if __name__ == "__main__":
    main()
