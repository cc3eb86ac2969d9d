"""Screenshots of the review in the companion for docs/companion.md, at phone size (390x844).

    python tests/serve_review_screenshots.py [docs/figures]

Starts ``sleuth serve`` over a temporary games folder, opens a finished Wordle game on the official lists (its
review starts by itself) and the bundled three-player Clue game (its Review button), and takes the review panel
of each in Debian's headless chromium (the browser tests' driver).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from selenium.webdriver.common.by import By  # noqa: E402

from tests.helpers.browser import make_driver, wait  # noqa: E402
from tests.serve_util import call, process_server  # noqa: E402

WORDLE = {"game": "wordle", "title": "Wordle 1,234",
          "guess": [{"word": w, "secret": "ABBEY"} for w in ("SALET", "ADIEU", "ABBEY")]}


def shoot(driver, url: str, out: Path, click: str | None = None) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    driver.get(url)
    if click:
        button = wait(driver, lambda d: d.find_elements(By.ID, click), "the Review button")[0]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-moves tr[data-move]"), "the review", 3000)
    panel = driver.find_element(By.ID, "review-run")
    driver.execute_script("window.scrollTo(0, arguments[0].getBoundingClientRect().top + window.scrollY - 150)",
                          panel)
    time.sleep(0.5)
    driver.save_screenshot(str(out))
    print(out)


GAMES = {"wordle": ({"data": WORDLE}, None), "clue": ({"example": "clue/classic-3-players"}, "review-run")}


def main(argv: list[str]) -> int:
    target = Path(argv[0] if argv else "docs/figures")
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        driver = make_driver(Path(tmp) / "profile", 390, 844)
        try:
            with process_server(Path(tmp) / "games") as (url, _):
                for name, (body, click) in GAMES.items():  # the Wordle game is over: its review starts by itself
                    status, answer = call(url.rstrip("/"), "POST", "/api/games", {**body, "name": name})
                    assert status == 201, answer
                    shoot(driver, f"{url.rstrip('/')}/g/{name}", target / f"companion-review-{name}-phone.png", click)
        finally:
            driver.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
