"""The review in the companion (``sleuth review`` as a background job, drawn by solver/serve/static/review.js):
the API route refuses what the CLI refuses and changes no file; in Chromium at phone size (390x844) a Wordle game
played in the page is reviewed by itself once solved, a Clue game on its Review button, and every number on screen
(the moves' fields and the totals) is the one ``sleuth review --json`` gives on the saved file."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the 'serve' extra is not installed")

from starlette.testclient import TestClient  # noqa: E402

from sleuth.serve.app import create_app  # noqa: E402
from sleuth.serve.store import Store  # noqa: E402
from tests.conftest import run_cli  # noqa: E402

WORDS = ["ABCD", "ABDC", "BACD", "CDAB", "DCBA", "ACBD", "BDCA", "CABD", "DBAC"]
RUN = ("cpu_seconds",)  # fields that differ from one run to the next (the CPU a search took)


def review_json(path: Path) -> dict[str, Any]:
    result = run_cli(["review", str(path), "--json"])
    assert result.code == 0, result.err
    out: dict[str, Any] = json.loads(result.out)
    return out


def _wait_job(client: TestClient, job: str) -> dict[str, Any]:
    for _ in range(600):
        state: dict[str, Any] = client.get(f"/api/jobs/{job}").json()
        if state["state"] != "running":
            return state
        time.sleep(0.1)
    raise AssertionError("the review did not finish")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_review_route(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    client = TestClient(create_app(Store(folder), hosts={"testserver"}))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "w.txt").write_text("\n".join(WORDS) + "\n")
        data = {"game": "wordle", "length": 4, "dictionary": "w.txt",
                "guess": [{"word": "ABCD", "feedback": "YYYY"}, {"word": "DCBA", "feedback": "GGGG"}]}
        assert client.post("/api/games", json={"data": data, "name": "w"}).status_code == 201
        r = client.post("/api/games/w/jobs", json={"command": "review"})
        assert r.status_code == 202, r.text
        state = _wait_job(client, r.json()["id"])
        assert state["state"] == "done", state
        want = review_json(folder / "w.toml")
        got = state["result"]
        assert {k: v for k, v in got.items() if k not in RUN + ("text", "notes")} == \
            {k: v for k, v in want.items() if k not in RUN + ("notes",)}
        assert got["moves"][1]["regret"] is not None and "regret" in got["text"]
        assert got["time_limit"] == want["time_limit"]  # the review's own default, not the job's limit
        # budget and time-limit are its options (sleuth review --budget --time-limit); anything else is refused
        r = client.post("/api/games/w/jobs", json={"command": "review", "options": {"budget": 5}})
        assert r.status_code == 202 and _wait_job(client, r.json()["id"])["state"] == "done"
        r = client.post("/api/games/w/jobs", json={"command": "review", "options": {"time-limit": 2.5}})
        assert r.status_code == 202, r.text
        state = _wait_job(client, r.json()["id"])
        assert state["state"] == "done" and state["result"]["time_limit"] == 2.5, state
        before = _snapshot(folder)
        for body, place in [({"command": "review", "options": {"budget": 0}}, "options.budget"),
                            ({"command": "review", "options": {"budget": "x"}}, "options.budget"),
                            ({"command": "review", "options": {"top": 3}}, "options"),
                            ({"command": "review", "options": {"time-limit": 0}}, "options.time-limit"),
                            ({"command": "review", "options": {"time-limit": 1e9}}, "options.time-limit"),
                            ({"command": "review", "options": {"time-limit": True}}, "options.time-limit"),
                            ({"command": "reviews"}, "command")]:
            r = client.post("/api/games/w/jobs", json=body)
            assert r.status_code == 400 and r.json()["place"] == place, (body, r.text)
        assert _snapshot(folder) == before  # a refused request changes nothing
        # a game that offers no review is refused before any job starts
        assert client.post("/api/games", json={"example": "epistemic/cheryl", "name": "e"}).status_code == 201
        before = _snapshot(folder)
        r = client.post("/api/games/e/jobs", json={"command": "review"})
        assert r.status_code == 400 and r.json()["place"] == "command" and "wordle" in r.json()["allowed"]
        assert _snapshot(folder) == before
        games = {g["name"]: g for g in client.get("/api/info").json()["games"]}
        assert games["wordle"]["review"] and games["clue"]["review"] and not games["epistemic"]["review"]
    finally:
        client.app.app.state.jobs.stop_all()  # type: ignore[attr-defined]


# -- in the browser -----------------------------------------------------------------------------------------------

def shown_review(driver: Any) -> dict[str, Any]:
    """The review on screen: each move's fields and the totals, as their cells hold them (data-value)."""
    return driver.execute_script(  # type: ignore[no-any-return]
        "const rows = Array.from(document.querySelectorAll('#review-moves tr[data-move]'));"
        "return {moves: rows.map(r => Object.fromEntries(Array.from(r.querySelectorAll('td[data-field]')).map("
        "  td => [td.dataset.field, [JSON.parse(td.dataset.value), td.textContent]]))),"
        " totals: Object.fromEntries(Array.from(document.querySelectorAll('#review-totals [data-field]')).map("
        "  dd => [dd.dataset.field, [JSON.parse(dd.dataset.value), dd.textContent]]))};")


def assert_same_numbers(shown: dict[str, Any], want: dict[str, Any]) -> int:
    """Every field of every move and every total shown equals the CLI's; the text shows each number (a fraction
    as "p/q", a float to 4 places). Returns how many values were compared."""
    compared = 0
    assert len(shown["moves"]) == len(want["moves"])
    for got, exp in zip(shown["moves"], want["moves"], strict=True):
        assert set(got) == set(exp) - {"note"}
        for key, (value, text) in got.items():
            assert value == exp[key], (key, value, exp[key])  # Clue's bits too: the same floats in every process
            if isinstance(value, str) and "/" in value:
                assert text.startswith(value), (key, text)
            elif isinstance(value, float):
                assert abs(float(text) - value) < 5e-5, (key, text)
            elif isinstance(value, (int, str)) and not isinstance(value, bool):
                assert text == str(value), (key, text)
            compared += 1
    for key, (value, _) in shown["totals"].items():
        assert value == want[key], key
        compared += 1
    assert {k for k, v in want.items() if not isinstance(v, (list, dict)) and k not in ("game", "status")} \
        == set(shown["totals"])
    return compared


@contextmanager
def game_page(tmp_path: Path, body: dict[str, Any], words: bool = False) -> Iterator[tuple[Any, Path]]:
    """Chromium at phone size (390x844) on the page of a game created from ``body`` (named ``g``) by a real
    ``sleuth serve``; yields the driver and the game's file (``words``: the small word list in the folder)."""
    from tests.helpers.browser import CHROMEDRIVER, CHROMIUM, make_driver
    from tests.serve_util import call, process_server

    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    folder = tmp_path / "games"
    folder.mkdir()
    if words:
        (folder / "w.txt").write_text("\n".join(WORDS) + "\n")
    driver = make_driver(tmp_path / "profile", 390, 844)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        with process_server(folder) as (url, _):
            base = url.rstrip("/")
            status, answer = call(base, "POST", "/api/games", {**body, "name": "g"})
            assert status == 201, answer
            driver.get(base + "/g/g")
            yield driver, folder / "g.toml"
    finally:
        driver.quit()


def test_a_wordle_game_reviewed_in_the_page(tmp_path: Path) -> None:
    """Played by typing and tapping tiles on a small word list; the review appears by itself once solved."""
    from selenium.webdriver.common.by import By

    from tests.helpers.browser import no_page_error, type_into, wait
    from tests.helpers.motus_brute import word_feedback as feedback

    data = {"game": "wordle", "length": 4, "dictionary": "w.txt", "hard": True}  # the page says so; review too
    with game_page(tmp_path, {"data": data}, words=True) as (driver, path):
        secret = "DCBA"
        wait(driver, lambda d: d.find_elements(By.ID, "hard-note"), "the word page")
        assert driver.find_element(By.ID, "hard-note").is_displayed()
        for k, guess in enumerate(("ABCD", "CDAB", "DCBA")):
            wait(driver, lambda d: d.find_elements(By.ID, "guess-word"), "the word page")
            type_into(driver.find_element(By.ID, "guess-word"), guess)
            for i, mark in enumerate(feedback(guess, secret)):
                for _ in range("BYG".index(mark)):
                    driver.find_element(By.CSS_SELECTOR, f'#pending button[data-index="{i}"]').click()
            driver.find_element(By.ID, "guess-add").click()
            wait(driver, lambda d, n=k + 1: len(d.find_elements(By.CSS_SELECTOR, "#guesses [data-guess]")) == n,
                 f"guess {k + 1}")
            no_page_error(driver)
            if k < 2:  # not over yet: no review runs by itself
                assert not driver.find_elements(By.ID, "review")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-moves tr[data-move]"), "the review")
        want = review_json(path)
        assert [m["guess"] for m in want["moves"]] == ["ABCD", "CDAB", "DCBA"] and want["solved"] and want["hard"]
        assert assert_same_numbers(shown_review(driver), want) >= 30
        bars = driver.find_elements(By.CSS_SELECTOR, "#review-chart rect[data-series]")
        assert {b.get_attribute("data-series") for b in bars} == {"regret", "luck"} and len(bars) == 6
        assert driver.find_element(By.ID, "review-text").get_attribute("textContent").startswith("Review of")
        fits(driver, "wordle-review.png", tmp_path)


def test_a_clue_game_reviewed_on_its_button(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    from tests.helpers.browser import no_page_error, wait

    with game_page(tmp_path, {"example": "clue/classic-3-players"}) as (driver, path):
        wait(driver, lambda d: d.find_elements(By.ID, "review-run"), "the Review button")
        assert not driver.find_elements(By.ID, "review")  # on demand only
        button = driver.find_element(By.ID, "review-run")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-moves tr[data-move]"), "the review")
        no_page_error(driver)
        want = review_json(path)
        assert {m["kind"] for m in want["moves"]} == {"suggestion", "show"}
        assert assert_same_numbers(shown_review(driver), want) >= 40
        bars = driver.find_elements(By.CSS_SELECTOR, "#review-chart rect[data-series]")
        assert {b.get_attribute("data-series") for b in bars} == {"regret"} and len(bars) == len(want["moves"])
        fits(driver, "clue-review.png", tmp_path)


def fits(driver: Any, name: str, folder: Path) -> None:
    """The chart and the page within the phone's 390 px; a screenshot of the chart to look at."""
    from selenium.webdriver.common.by import By

    chart = driver.find_element(By.ID, "review-chart")
    assert driver.execute_script("return arguments[0].getBoundingClientRect().right", chart) <= 390
    assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
    driver.execute_script("window.scrollTo(0, arguments[0].getBoundingClientRect().top + window.scrollY - 130)",
                          chart)
    driver.save_screenshot(str(folder / name))


# -- a plug-in that declares a review gets it on the generic page --------------------------------------------------

def toy_review(puzzle: Any, options: dict[str, Any]) -> Any:
    """A toy review: one move per fact, its regret and luck exact fractions made from the fact."""
    from sleuth.results import Report, Status

    moves = [{"move": k + 1, "position": pos + 1, "regret": f"{pos}/3", "luck": f"-{card}/2" if card else "0"}
             for k, (pos, card) in enumerate(puzzle.facts)]
    return Report(puzzle.game, Status.OK, {"moves": moves, "regret": str(sum(m for m, _ in puzzle.facts)) + "/3"},
                  f"{len(moves)} facts reviewed")


def test_a_plugin_s_review_on_the_generic_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from selenium.webdriver.common.by import By

    from tests.helpers.browser import no_page_error, wait

    info = tmp_path / "site" / "reviewed_cards-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "entry_points.txt").write_text("[sleuth.games]\nreviewed-cards = tests.e2e.test_serve_review:REVIEWED\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "site"))  # the server's process finds the plug-in too
    text = 'game = "reviewed-cards"\n[[fact]]\nposition = 1\nnot = "A"\n[[fact]]\nposition = 3\nnot = "B"\n'
    with game_page(tmp_path, {"text": text}) as (driver, path):
        button = wait(driver, lambda d: d.find_elements(By.ID, "review-run"), "the Review button")[0]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-moves tr[data-move]"), "the review")
        no_page_error(driver)
        want = review_json(path)
        assert want["moves"][1] == {"move": 2, "position": 3, "regret": "2/3", "luck": "-1/2"}
        assert assert_same_numbers(shown_review(driver), want) == 9
        bars = driver.find_elements(By.CSS_SELECTOR, "#review-chart rect[data-series]")
        assert len(bars) == 4


def _reviewed() -> Any:
    from dataclasses import replace

    from tests.toygame.game import BARE

    return replace(BARE, name="reviewed-cards", summary="Three cards, with a toy review",
                   review="tests.e2e.test_serve_review:toy_review")


REVIEWED = _reviewed()
