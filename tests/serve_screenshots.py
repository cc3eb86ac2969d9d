"""Screenshots of the companion's pages for docs/companion.md, at phone (390x844) and desktop (1280x800) width.

    python tests/serve_screenshots.py [docs/figures]

Starts ``sleuth serve`` on a free loopback port over a temporary games folder, opens bundled examples and
takes each page in Debian's headless chromium (the browser tests' driver).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from selenium.webdriver.common.by import By  # noqa: E402

from tests.serve_util import call, process_server  # noqa: E402
from tests.helpers.browser import make_driver, wait  # noqa: E402

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
MAX_HEIGHT = {"phone": 2600, "desktop": 1500}


def shoot(driver, url: str, out: Path, size: str, prepare=None) -> None:
    width, height = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})
    driver.get(url)
    wait(driver, lambda d: d.execute_script("return document.querySelector('main p') === null || "
                                            "!document.querySelector('main').textContent.startsWith('Loading')"),
         "the page")
    if prepare:
        prepare(driver)
    time.sleep(0.5)
    total = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": min(total, MAX_HEIGHT[size]), "deviceScaleFactor": 1,
                            "mobile": size == "phone"})
    driver.save_screenshot(str(out))
    print(out)


def shoot_part(driver, url: str, out: Path, prepare, anchor: str) -> None:
    """One phone screen (390x844) of a page, scrolled so that ``anchor`` (a CSS selector) is at its top."""
    width, height = SIZES["phone"]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    driver.get(url)
    prepare(driver)
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'})",
                          driver.find_element(By.CSS_SELECTOR, anchor))
    time.sleep(0.5)
    driver.save_screenshot(str(out))
    print(out)


def main(argv: list[str]) -> int:
    target = Path(argv[0] if argv else "docs/figures")
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, process_server(Path(tmp) / "games") as (url, _):
        base = url.rstrip("/")
        for example, name in [("clue/six-players", "clue"), ("mascarade/five-players-middle", "mascarade"),
                              ("epistemic/cheryl", "cheryl")]:
            status, answer = call(base, "POST", "/api/games", {"example": example, "name": name})
            assert status == 201, answer
        status, answer = call(base, "POST", "/api/games/clue/edit", {"ops": [
            {"op": "set", "key": "notes", "value": "Dan paused before showing; Eve asks about the Study a lot"}]})
        assert status == 200, answer
        wordle = {"game": "wordle", "title": "Today's Wordle", "guess": [{"word": "CRANE", "feedback": "BBYBG"}]}
        status, answer = call(base, "POST", "/api/games", {"data": wordle, "name": "wordle"})
        assert status == 201, answer

        def clue(d):
            wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#sheet td[data-card]"), "the sheet")
            if d.execute_script("return App.state.table.data.suggestion.length") == 18:  # one event by taps
                for css in ('#s-by button[data-value="Ann"][aria-pressed="false"]', '#s-suspect [data-value="Peacock"]',
                            '#s-weapon [data-value="Rope"]', '#s-room [data-value="Library"]',
                            '#s-shown [data-value="Bob"]', '#s-seen [data-value="Rope"]', "#s-submit"):
                    for chip in d.find_elements(By.CSS_SELECTOR, css):
                        chip.click()
                wait(d, lambda d: d.find_elements(By.ID, "learned-text"), "what the event taught")
            else:  # that event taken back and made again: the same line of what it taught
                d.find_element(By.ID, "undo").click()
                wait(d, lambda d: d.find_element(By.ID, "redo").is_enabled(), "the undo")
                d.find_element(By.ID, "redo").click()
                wait(d, lambda d: "Bob holds the Rope" in d.find_element(By.ID, "learned-text").text, "the redo")
            d.find_element(By.CSS_SELECTOR, '#sheet td[data-card="Rope"][data-place="Dan"] button').click()
            wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#why [data-verdict]"), "why?")
            d.find_element(By.ID, "others-run").click()
            wait(d, lambda d: d.find_elements(By.ID, "others"), "what the others know")
            d.execute_script("window.scrollTo(0, 0)")

        def words(d):
            wait(d, lambda d: d.find_elements(By.ID, "count"), "the remaining answers")
            d.find_element(By.ID, "guess-word").send_keys("PIOUS")
            for i, clicks in enumerate((0, 0, 2, 0, 1)):
                for _ in range(clicks):
                    d.find_element(By.CSS_SELECTOR, f'#pending button[data-index="{i}"]').click()

        def beliefs(d):
            from selenium.webdriver.support.ui import Select

            wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#beliefs table"), "the beliefs")
            wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#second table"), "the second-order beliefs")
            Select(d.find_element(By.ID, "e-kind")).select_by_value("spy")  # the form as the Spy's event needs it
            d.execute_script("window.scrollTo(0, 0)")

        def cheryl(d):
            wait(d, lambda d: d.find_elements(By.ID, "report-text"), "the solve answer")
            d.find_element(By.ID, "claim").send_keys("month == 'July' and day == 16")
            d.find_element(By.XPATH, "//button[text()='Check']").click()
            wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#claim-result [data-verdict]"), "the verdict")

        pages = [("start", "/", None), ("clue", "/g/clue", clue), ("wordle", "/g/wordle", words),
                 ("mascarade", "/g/mascarade", beliefs), ("file", "/g/cheryl", cheryl)]
        driver = make_driver(Path(tmp) / "profile")
        try:
            for size in SIZES:
                for page, path, prepare in pages:
                    shoot(driver, base + path, target / f"companion-{page}-{size}.png", size, prepare)
            # the rest of the Clue page on a phone: notes, what each opponent may know
            shoot_part(driver, base + "/g/clue", target / "companion-clue-phone-more.png", clue,
                       "section.card:has(#notes)")
        finally:
            driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
