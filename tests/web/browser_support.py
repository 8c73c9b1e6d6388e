"""What the web console's browser checks share: Debian's headless chromium through chromedriver
(selenium), a failed check's exit, and a wait that fails with what it waited for."""
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

CHECK_NAME = "browser check"


def fail(what):
    print(CHECK_NAME + " failed: " + what, file=sys.stderr)
    sys.exit(1)


def wait_for(driver, what, condition, seconds=10.0, poll=0.05):
    try:
        return WebDriverWait(driver, seconds, poll_frequency=poll).until(lambda d: condition(d))
    except TimeoutException:
        fail(what + " (within %.1f s)" % seconds)


def run_in_chromium(check, args, window, profile=None):
    """Runs check(args, driver) in a headless chromium of `window` ("W,H") with its profile in
    `profile` (default: a new temporary directory); the browser and the profile are gone after."""
    profile = profile or tempfile.mkdtemp(prefix="openflint-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=" + window,
                 "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        check(args, driver)
    finally:
        driver.quit()
        subprocess.run(["rm", "-rf", profile])
