#!/usr/bin/env python3
"""The kitchen board in a real browser (issue 37): headless Chromium driven by Selenium against a
live `hearth serve --http`. Run by BoardBrowserTests, which starts the service, makes the tokens
and checks the database afterwards.

    board_browser.py --base URL --display TOKEN --hearth BINARY --db FILE --now ISO --chore ID
                     --screenshots DIR

Prints one JSON object: what the browser saw at each step. Exits 1 (with the reason) when a step
fails, so the Swift test shows it.
"""
import argparse
import json
import os
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait


def fail(reason, seen):
    seen["failed"] = reason
    print(json.dumps(seen, indent=1))
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    for name in ["base", "display", "hearth", "db", "now", "chore", "screenshots"]:
        parser.add_argument("--" + name, required=True)
    args = parser.parse_args()
    seen = {}

    options = Options()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800", "--lang=en-US"]:
        options.add_argument(flag)
    options.binary_location = os.environ.get("HEARTH_CHROMIUM", "/usr/bin/chromium")
    driver = webdriver.Chrome(service=Service(os.environ.get("HEARTH_CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.set_script_timeout(30)
    wait = WebDriverWait(driver, 10)
    try:
        # The display token comes in the fragment: it never reaches the server's or a proxy's log.
        driver.get(args.base + "/board#token=" + args.display)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        seen["url_after_token"] = driver.current_url
        if "token" in driver.current_url:
            fail("the token stayed in the address bar", seen)
        # Read and act in one script each: a live board may redraw between two WebDriver calls.
        def columns_now():
            pairs = driver.execute_script(
                "return [...document.querySelectorAll('#calendar .member')].map((c) => [c.dataset.member, c.innerText])")
            return {"order": [name for name, _ in pairs], **{name: text for name, text in pairs}}
        columns = columns_now()
        seen["columns"] = columns["order"]
        if columns["order"][:4] != ["Lisa", "Tom", "Emma", "Jake"]:
            fail("the board does not show a column per member", seen)
        if "Soccer practice" not in columns.get("Emma", ""):
            fail("Emma's soccer is not on her column today", seen)

        # Hostile titles render as text: the title imported with markup in it is shown as typed.
        hostile = '<img src=x onerror="window.pwned=1">'
        seen["hostile_shown"] = hostile in columns.get("Emma", "")
        if not seen["hostile_shown"]:
            fail("the hostile title is not shown as text", seen)
        if driver.execute_script("return window.pwned === 1 || document.querySelectorAll('#calendar img').length > 0"):
            fail("a title ran as markup", seen)

        # A booking by voice in another process appears within 2 seconds, without a reload.
        driver.execute_script("window.__sameDocument = true")
        spoken = subprocess.run([args.hearth, "say", "--db", args.db, "--as", "Lisa", "--now", args.now,
                                 "Schedule Jake for the dentist today at 5pm"], capture_output=True, text=True)
        seen["booking_reply"] = spoken.stdout.strip()
        started = time.monotonic()
        try:
            WebDriverWait(driver, 2, poll_frequency=0.1).until(lambda d: "dentist" in columns_now().get("Jake", "").lower())
        except Exception:
            fail("the booking did not reach the board within 2 seconds", seen)
        seen["booking_seconds"] = round(time.monotonic() - started, 2)
        if not driver.execute_script("return window.__sameDocument === true"):
            fail("the page reloaded", seen)

        # The shopping list: "we're out of milk" said to any speaker shows on the wall, with who said it.
        spoken = subprocess.run([args.hearth, "say", "--db", args.db, "--as", "Emma", "--now", args.now,
                                 "we're out of milk"], capture_output=True, text=True)
        seen["shopping_reply"] = spoken.stdout.strip()
        try:
            WebDriverWait(driver, 2, poll_frequency=0.1).until(
                lambda d: "milk (Emma)" in d.execute_script("return document.getElementById('shopping').innerText"))
        except Exception:
            seen["shopping_shown"] = driver.execute_script("return document.getElementById('shopping').innerText")
            fail("the shopping list did not reach the board within 2 seconds", seen)

        # The display token cannot change anything: the calls are refused.
        refused = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const headers = { "Authorization": "Bearer " + localStorage.getItem("hearthToken"), "Content-Type": "application/json" };
            Promise.all([
              fetch("/v1/chores/" + arguments[0] + "/complete", { method: "POST", headers }).then((r) => r.status),
              fetch("/v1/turns", { method: "POST", headers, body: JSON.stringify({ text: "Schedule Emma for swimming today at 6pm" }) }).then((r) => r.status),
            ]).then(done);
        """, args.chore)
        seen["display_refused"] = refused
        if refused != [403, 403]:
            fail("a display token changed something", seen)

        # A child signs in with her PIN and taps her chore: her points change on the board.
        def emma_points():
            return driver.execute_script("const li = document.querySelector('#points li[data-points=\"Emma\"]'); return li ? li.textContent : ''")
        seen["points_before"] = emma_points()
        driver.find_element(By.ID, "signin").click()
        Select(driver.find_element(By.ID, "pin-member")).select_by_visible_text("Emma")
        driver.find_element(By.ID, "pin").send_keys("0000")
        driver.find_element(By.ID, "pin-ok").click()
        wait.until(lambda d: d.find_element(By.ID, "pin-error").text != "")
        seen["wrong_pin"] = driver.find_element(By.ID, "pin-error").text
        driver.find_element(By.ID, "pin").send_keys("4321")
        driver.find_element(By.ID, "pin-ok").click()
        wait.until(lambda d: "Emma" in d.find_element(By.ID, "who").text)
        tapped = driver.execute_script("const b = document.querySelector('#chores button[data-chore=\"' + arguments[0] + '\"]'); if (!b) return false; b.click(); return true", args.chore)
        if not tapped:
            fail("Emma's chore is not on the board", seen)
        try:
            WebDriverWait(driver, 10).until(lambda d: emma_points() not in ("", seen["points_before"]))
        except Exception:
            fail("the points did not change after the tap", seen)
        seen["points_after"] = emma_points()

        # Signed in, Emma answers the family question with a tap; the board shows she has.
        try:
            WebDriverWait(driver, 10).until(lambda d: d.execute_script(
                "const b = [...document.querySelectorAll('#question button')].find((x) => x.textContent === 'Yes'); if (!b) return false; b.click(); return true"))
            WebDriverWait(driver, 10).until(lambda d: "✓ Emma" in d.execute_script("return document.getElementById('question').innerText"))
        except Exception:
            seen["question_panel"] = driver.execute_script("return document.getElementById('question').innerText")
            fail("Emma could not answer the family question from the board", seen)
        seen["question_panel"] = driver.execute_script("return document.getElementById('question').innerText")
        seen["status_after_tap"] = driver.find_element(By.ID, "status").text

        # Screenshots at tablet and phone sizes (CI artefacts, not committed).
        os.makedirs(args.screenshots, exist_ok=True)
        driver.save_screenshot(os.path.join(args.screenshots, "board-tablet-1280x800.png"))
        driver.set_window_size(390, 844)
        time.sleep(0.3)
        driver.save_screenshot(os.path.join(args.screenshots, "board-phone-390x844.png"))
        seen["phone_width_fits"] = driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
        if not seen["phone_width_fits"]:
            fail("the board scrolls sideways on a phone", seen)
        driver.set_window_size(1280, 800)

        # Accessibility: axe-core (vendored by the axe-core-python wheel) in the same browser.
        import axe_core_python
        with open(os.path.join(os.path.dirname(axe_core_python.__file__), "axe.min.js")) as source:
            driver.execute_script(source.read())
        result = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } }).then((r) => done(r.violations.map((v) => ({ id: v.id, nodes: v.nodes.length, impact: v.impact, help: v.help }))));
        """)
        seen["axe_violations"] = result
        if result:
            fail("axe-core found accessibility violations", seen)
        print(json.dumps(seen, indent=1))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
