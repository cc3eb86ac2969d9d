"""End to end in a real headless Chromium (Debian's chromium + chromium-driver, driven by Selenium): a bundled
Clue game played event by event through the page, a Wordle game by clicking tiles, a claim on an epistemic
puzzle.  After every Clue event the sheet shown equals ``sleuth solve --json`` on the saved file; undo, a reload
and a killed server lose nothing."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the 'serve' extra is not installed")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the 'test' extra)")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from tests.conftest import PUZZLES, run_cli  # noqa: E402
from tests.helpers.browser import CHROMEDRIVER, CHROMIUM, make_driver, no_page_error, type_into, wait  # noqa: E402,F401
from tests.serve_util import process_server  # noqa: E402

pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="Debian's chromium and chromium-driver are not installed (apt-get install -y chromium chromium-driver)")

@pytest.fixture
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    driver = make_driver(tmp_path / "profile")
    try:
        yield driver
    finally:
        driver.quit()


def sheet_shown(driver) -> dict[str, dict[str, str]]:
    cells = driver.execute_script(
        "return Array.from(document.querySelectorAll('#sheet td[data-card]')).map("
        "td => [td.dataset.card, td.dataset.place, td.dataset.mark]);")
    sheet: dict[str, dict[str, str]] = {}
    for card, place, mark in cells:
        sheet.setdefault(card, {})[place] = mark
    return sheet


def log_length(driver) -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, "#log li[data-kind=suggestion]"))


def cli_sheet(path: Path) -> dict:
    result = run_cli(["solve", str(path), "--json"])
    assert result.code == 0, result.err
    return json.loads(result.out)


def assert_sheet_matches_file(driver, path: Path, events: int) -> None:
    wait(driver, lambda d: log_length(d) == events, f"{events} events in the log")
    expected = cli_sheet(path)
    assert len(tomllib.loads(path.read_text()).get("suggestion", [])) == events
    wait(driver, lambda d: sheet_shown(d) == expected["sheet"], f"the sheet of the saved file after {events} events")
    envelope = driver.find_element(By.ID, "summary").text
    for part in ("suspect", "weapon", "room"):
        assert (expected["envelope"][part] or "?") in envelope


def choose(driver, group: str, value: str) -> None:
    """Tap the chip ``value`` of a chip group unless it is already pressed."""
    chip = driver.find_element(By.CSS_SELECTOR, f'#{group} button[data-value="{value}"]')
    if chip.get_attribute("aria-pressed") != "true":
        chip.click()


def test_clue_game_through_the_page(tmp_path, browser):
    source = tomllib.loads((PUZZLES / "clue" / "six-players.toml").read_text())
    folder = tmp_path / "games"
    d = browser
    with process_server(folder) as (url, proc):
        d.get(url)
        wait(d, lambda d: d.find_elements(By.ID, "clue-players"), "the start page")
        type_into(d.find_element(By.ID, "clue-title"), "Friday")
        type_into(d.find_element(By.ID, "clue-players"), ", ".join(source["players"]))
        Select(d.find_element(By.ID, "clue-me")).select_by_value("Ann")
        for card in source["hands"]["Ann"]:
            d.find_element(By.CSS_SELECTOR, f'#clue-hand button[data-card="{card}"]').click()
        d.find_element(By.ID, "clue-create").click()
        wait(d, lambda d: "/g/" in d.current_url, "the game page")
        name = d.current_url.rsplit("/g/", 1)[1]
        path = folder / f"{name}.toml"
        assert_sheet_matches_file(d, path, 0)
        for k, s in enumerate(source["suggestion"]):  # typed cards here; tests/e2e/test_serve_clue_taps.py taps
            choose(d, "s-by", s["by"])
            type_into(d.find_element(By.ID, "s-typed"), ", ".join(s["cards"]))
            choose(d, "s-shown", s.get("shown_by", "-"))
            if "shown_by" in s:
                choose(d, "s-seen", s.get("card", ""))
            d.find_element(By.ID, "s-submit").click()
            assert_sheet_matches_file(d, path, k + 1)
            no_page_error(d)
        saved = tomllib.loads(path.read_text())
        assert saved["suggestion"] == source["suggestion"] and saved["hands"] == source["hands"]
        total = len(source["suggestion"])

        # a typo is refused in the page, naming the field; the game is unchanged
        before = path.read_bytes()
        type_into(d.find_element(By.ID, "s-typed"), "Scarlot, Rope, Hall")
        choose(d, "s-shown", "-")
        d.find_element(By.ID, "s-submit").click()
        error = wait(d, lambda d: d.find_element(By.ID, "error").is_displayed() and d.find_element(By.ID, "error").text,
                     "the error line")
        assert f"suggestion[{total + 1}].cards" in error and "Scarlet" in error
        assert path.read_bytes() == before

        # why? on a cell: the engine's verdict and the observations behind it
        cell = d.find_element(By.CSS_SELECTOR, '#sheet td[data-card="Scarlet"][data-place="Cat"] button')
        cell.click()
        why = wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#why [data-verdict]"), "the explanation")
        assert why[0].get_attribute("data-verdict") == "entailed" and "because" in why[0].text

        # undo, redo, reload
        d.find_element(By.ID, "undo").click()
        assert_sheet_matches_file(d, path, total - 1)
        d.find_element(By.ID, "redo").click()
        assert_sheet_matches_file(d, path, total)
        d.find_element(By.ID, "undo").click()
        assert_sheet_matches_file(d, path, total - 1)
        d.refresh()
        assert_sheet_matches_file(d, path, total - 1)

        # edit an earlier event in the log: suggestion 1 without the card seen
        d.find_element(By.CSS_SELECTOR, '#log li[data-kind="suggestion"][data-index="0"] button').click()
        choose(d, "s-seen", "")
        d.find_element(By.ID, "s-submit").click()
        wait(d, lambda d: "card" not in tomllib.loads(path.read_text())["suggestion"][0], "the edit saved")
        assert_sheet_matches_file(d, path, total - 1)
        proc.kill()
        proc.wait(10)
    expected = cli_sheet(path)
    with process_server(folder) as (url2, _):  # a killed server lost nothing: a new one resumes the game
        d.get(url2.rstrip("/") + f"/g/{name}")
        assert_sheet_matches_file(d, path, total - 1)
        assert sheet_shown(d) == expected["sheet"]
        d.find_element(By.ID, "redo").click()  # the redo stack survived too
        wait(d, lambda d: log_length(d) == total - 1 and not d.find_element(By.ID, "redo").is_enabled(),
             "redo after an edit: nothing to redo")


def feedback(guess: str, secret: str) -> str:
    """Wordle's rule, written independently of sleuth: greens first, then yellows left to right by count."""
    marks = ["G" if g == s else "B" for g, s in zip(guess, secret, strict=True)]
    left = Counter(s for g, s in zip(guess, secret, strict=True) if g != s)
    for i, g in enumerate(guess):
        if marks[i] == "B" and left[g] > 0:
            marks[i] = "Y"
            left[g] -= 1
    return "".join(marks)


def test_wordle_by_clicking_tiles(tmp_path, browser):
    d = browser
    secret = "SHALE"
    answers = (PUZZLES / "wordle" / "answers.txt").read_text().split()
    with process_server(tmp_path / "games") as (url, _):
        d.get(url)
        wait(d, lambda d: d.find_elements(By.ID, "w-create"), "the start page")
        d.find_element(By.ID, "w-create").click()
        wait(d, lambda d: d.find_elements(By.ID, "guess-word"), "the word page")
        left = answers
        for guess in ("CRANE", "SLOTH"):
            box = d.find_element(By.ID, "guess-word")
            type_into(box, guess)
            marks = feedback(guess, secret)
            for i, mark in enumerate(marks):
                for _ in range("BYG".index(mark)):
                    d.find_element(By.CSS_SELECTOR, f'#pending button[data-index="{i}"]').click()
            wait(d, lambda d, m=marks: "".join(t.get_attribute("data-mark") for t in d.find_elements(
                By.CSS_SELECTOR, "#pending .tile")) == m, "the tiles as clicked")
            d.find_element(By.ID, "guess-add").click()
            left = [w for w in left if feedback(guess, w) == marks]
            count = f"{len(left):,}"  # written as the CLI writes counts
            wait(d, lambda d, n=count: d.find_element(By.ID, "count").text == n,
                 f"{len(left)} answers left after {guess}")
            no_page_error(d)
        words = {e.text for e in d.find_elements(By.CSS_SELECTOR, "#possible div")}
        assert words == set(left) and secret in words

        # a third guess added with its tiles untouched (all grey), then corrected by pasting Wordle's share text
        type_into(d.find_element(By.ID, "guess-word"), "WHALE")
        d.find_element(By.ID, "guess-add").click()
        wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#guesses [data-guess]")) == 3, "the third guess")
        emoji = {"G": "\U0001F7E9", "Y": "\U0001F7E8", "B": "\u2B1B"}
        share = "Wordle 1,234 4/6\n\n" + "\n".join("".join(emoji[m] for m in feedback(g, secret))
                                                    for g in ("CRANE", "SLOTH", "WHALE"))
        d.execute_script("arguments[0].value = arguments[1]", d.find_element(By.ID, "emoji"), share)
        d.find_element(By.XPATH, "//button[text()='Apply grid']").click()
        left = [w for w in left if feedback("WHALE", w) == feedback("WHALE", secret)]
        count = f"{len(left):,}"
        wait(d, lambda d: d.find_elements(By.ID, "count") and d.find_element(By.ID, "count").text == count,
             "the answers left after the pasted grid")
        wait(d, lambda d: "".join(t.get_attribute("data-mark") for t in d.find_elements(
            By.CSS_SELECTOR, '#guesses [data-guess="2"] .tile')) == feedback("WHALE", secret), "the pasted marks")


def test_claim_on_an_epistemic_puzzle(tmp_path, browser):
    d = browser
    claim = "month == 'July' and day == 16"
    result = run_cli(["verify", "example:epistemic/cheryl", "--claim", claim, "--json"])
    expected = json.loads(result.out)["claims"][-1]["verdict"]
    with process_server(tmp_path / "games") as (url, _):
        d.get(url)
        wait(d, lambda d: d.find_elements(By.ID, "example"), "the start page")
        Select(d.find_element(By.ID, "example")).select_by_value("epistemic/cheryl")
        d.find_element(By.XPATH, "//button[text()='Open example']").click()
        wait(d, lambda d: d.find_elements(By.ID, "claim"), "the puzzle page")
        wait(d, lambda d: d.find_elements(By.ID, "report-text"), "the solve answer")
        type_into(d.find_element(By.ID, "claim"), claim)
        d.find_element(By.XPATH, "//button[text()='Check']").click()
        verdict = wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#claim-result [data-verdict]"), "the verdict")
        assert verdict[0].get_attribute("data-verdict") == expected == "entailed"
        type_into(d.find_element(By.ID, "claim"), "month == 'Smarch'")
        d.find_element(By.XPATH, "//button[text()='Check']").click()
        error = wait(d, lambda d: d.find_element(By.ID, "error").is_displayed() and d.find_element(By.ID, "error").text,
                     "the error line")
        assert "claim[1]" in error
