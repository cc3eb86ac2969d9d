"""A whole 6-player Clue game entered by taps only, at phone size (390x844) in Debian's headless Chromium.

The events follow a real deal (seeded): suggestions with a card shown to me, shown to someone else, nobody
answering; cards shown to me outside a suggestion; a wrong accusation; an edit; a delete and its undo; a reload.
Clicks are counted per event kind and key presses in the page (none). After every event the sheet AS SHOWN
(the marks and percentages on screen) equals ``sleuth solve --json --probabilities`` on the saved file, the
"what changed" line equals the one derived here from the CLI's sheets before and after, and the marked cells
are the cells that changed. Then: the warning before an uncertain accusation (its exact probability), the
notes saved in the file and shown after a reload, the "others" table inside 390 px, a custom deck set up.
"""

from __future__ import annotations

import json
import random
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.browser import CHROMEDRIVER, CHROMIUM, make_driver, no_page_error, wait
from tests.serve_util import process_server

from selenium.webdriver.common.by import By  # noqa: E402  (test_serve_browser skips without selenium)

pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="Debian's chromium and chromium-driver are not installed (apt-get install -y chromium chromium-driver)")

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
CATS = ("suspects", "weapons", "rooms")
ONE = {"suspects": "suspect", "weapons": "weapon", "rooms": "room"}
TARGET = {"suggestion, shown to me": 6, "suggestion, nobody": 5, "suggestion, shown to another": 6,
          "shown to me": 3}


def classic() -> dict[str, list[str]]:
    from sleuth.models.clue.state import CATEGORIES, NAMED_DECKS

    return {cat + "s": list(cards) for cat, cards in zip(CATEGORIES, NAMED_DECKS["classic"], strict=True)}


# -- what the page should show, derived from the CLI's answers -------------------------------------------------

def cli_solve(path: Path) -> dict[str, Any]:
    result = run_cli(["solve", str(path), "--json", "--probabilities"])
    assert result.code == 0, result.err
    return json.loads(result.out)


def pct(p: str) -> str:
    """The page's rounding of an exact probability: half up, ">99%" and "<1%" at the ends."""
    x = Fraction(p)
    if 0 < x < 1 and x >= Fraction(995, 1000):
        return ">99%"
    if 0 < x < Fraction(5, 1000):
        return "<1%"
    return f"{int(x * 100 + Fraction(1, 2))}%"


def expected_cells(answer: dict[str, Any]) -> dict[tuple[str, str], str]:
    out = {}
    for card, row in answer["sheet"].items():
        for place, mark in row.items():
            out[card, place] = {"yes": "✓", "no": "✗"}.get(mark) or pct(answer["probabilities"][card][place])
    return out


def listing(xs: list[str], last: str = "and") -> str:
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + f" {last} " + xs[-1]


def expected_line(before: dict[str, Any], after: dict[str, Any], deck: dict[str, list[str]],
                  players: list[str]) -> str:
    """The plain line of what an event taught, from the two sheets: who newly holds, what the envelope may still
    hold in each category that changed, who newly lacks (cards not newly placed elsewhere), and after an edit, a
    deletion or an undo what is no longer certain."""
    b, a = before["sheet"], after["sheet"]
    cards = [c for cat in CATS for c in deck[cat]]
    the = {c: c if c in deck["suspects"] else f"the {c}" for c in cards}
    placed = {c for c in cards for p in a[c] if a[c][p] == "yes" and b[c][p] != "yes"}
    parts = []
    for p in players:
        held = [the[c] for c in cards if a[c][p] == "yes" and b[c][p] != "yes"]
        if held:
            parts.append(f"{p} holds {listing(held)}")
    for cat in CATS:
        was = [c for c in deck[cat] if b[c]["envelope"] != "no"]
        now = [c for c in deck[cat] if a[c]["envelope"] != "no"]
        if len(was) != len(now):
            gone = [the[c] for c in was if c not in now]
            back = [the[c] for c in now if c not in was]
            parts.append(f"the {ONE[cat]} is {listing([the[c] for c in now], 'or')}" if len(now) <= 3
                         else f"the {ONE[cat]} is not {listing(gone, 'or')}" if gone
                         else f"the {ONE[cat]} may again be {listing(back, 'or')}")
    for p in players:
        lacks = [the[c] for c in cards if a[c][p] == "no" and b[c][p] != "no" and c not in placed]
        if lacks:
            parts.append(f"{p} lacks {listing(lacks)}")
    lost = [f"{p} holds {the[c]}" for p in players for c in cards if b[c][p] == "yes" and a[c][p] != "yes"]
    if lost:
        parts.append(f"no longer certain: {listing(lost)}")
    elif any(a[c][p] == "maybe" and b[c][p] != "maybe" for c in cards for p in players):
        parts.append("some ✗ are open again")
    text = "; ".join(parts) or "nothing new for certain"
    if before["deals"] != after["deals"]:
        n = after["deals"]
        text += f" ({n:,} consistent deal{'' if n == 1 else 's'}, were {before['deals']:,})"
    return text[0].upper() + text[1:] + "."


# -- the page as shown ------------------------------------------------------------------------------------------

def shown_cells(d) -> dict[tuple[str, str], tuple[str, bool]]:
    rows = d.execute_script(
        "return Array.from(document.querySelectorAll('#sheet td[data-card]')).map(td => "
        "[td.dataset.card, td.dataset.place, td.innerText.trim(), td.classList.contains('changed')]);")
    return {(c, p): (text, changed) for c, p, text, changed in rows}


class Table:
    """The browser at the table: every tap counted by the kind of event it belongs to; key presses counted
    in the page."""

    def __init__(self, driver) -> None:
        self.d = driver
        self.taps: dict[str, list[int]] = {}
        self.current = 0
        self.keys = 0

    def listen(self) -> None:
        self.d.execute_script("window.__keys = 0; for (const t of ['keydown', 'keypress']) "
                              "document.addEventListener(t, () => { window.__keys += 1; }, true);")

    def read_keys(self) -> None:
        self.keys += self.d.execute_script("return window.__keys || 0;")

    def tap(self, css: str) -> None:
        element = wait(self.d, lambda d: [e for e in d.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()
                                          and e.is_enabled()], css)[0]
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        self.current += 1

    def done(self, kind: str) -> None:
        self.taps.setdefault(kind, []).append(self.current)
        self.current = 0
        focused = self.d.execute_script("return document.activeElement.tagName")
        assert focused not in ("INPUT", "TEXTAREA", "SELECT"), f"focus went to a text box ({focused})"


def pressed(d, group: str) -> str | None:
    chips = d.find_elements(By.CSS_SELECTOR, f'#{group} button[aria-pressed="true"]')
    return chips[0].get_attribute("data-value") if chips else None


# -- the game -----------------------------------------------------------------------------------------------------

def deal(rng: random.Random, deck: dict[str, list[str]]) -> tuple[dict[str, str], dict[str, list[str]]]:
    envelope = {cat: rng.choice(deck[cat]) for cat in CATS}
    rest = [c for cat in CATS for c in deck[cat] if c not in envelope.values()]
    rng.shuffle(rest)
    return envelope, {p: sorted(rest[3 * i: 3 * i + 3]) for i, p in enumerate(PLAYERS)}


def answer_of(by: str, cards: list[str], hands: dict[str, list[str]]) -> tuple[str | None, str | None]:
    """Who shows (the first player after ``by`` holding one of the cards) and which card (the first they hold)."""
    i = PLAYERS.index(by)
    for k in range(1, len(PLAYERS)):
        p = PLAYERS[(i + k) % len(PLAYERS)]
        held = [c for c in cards if c in hands[p]]
        if held:
            return p, held[0]
    return None, None


def plan(seed: int, deck: dict[str, list[str]]) -> tuple[dict[str, str], dict[str, list[str]], list[dict]]:
    """A game of real events: suggestions in seat order (a wrong accusation puts Cat out), some nobody can
    answer, two cards shown to me outside a suggestion."""
    rng = random.Random(seed)
    envelope, hands = deal(rng, deck)
    events: list[dict] = []
    out: set[str] = set()
    seat = 0
    seen_outside: set[str] = set()
    for turn in range(27):
        by = PLAYERS[seat]
        if turn % 5 == 3:   # nobody can show: the envelope's cards and the suggester's own
            pool = set(hands[by]) | set(envelope.values())
            cards = [rng.choice([c for c in deck[cat] if c in pool]) for cat in CATS]
        else:
            cards = [rng.choice(deck[cat]) for cat in CATS]
        shown_by, card = answer_of(by, cards, hands)
        events.append({"kind": "suggestion", "by": by, "cards": cards, "shown_by": shown_by,
                       "card": card if "Ann" in (by, shown_by) else None})
        if turn == 8:       # Cat accuses, wrongly, right after her suggestion
            assert by == "Cat"
            room = next(r for r in deck["rooms"] if r != envelope["rooms"])
            wrong = [envelope["suspects"], envelope["weapons"], room]
            events.append({"kind": "accusation", "by": "Cat", "cards": wrong})
            out.add("Cat")
        if turn in (4, 15):  # a card shown to me outside a suggestion
            p = PLAYERS[1 + turn % 5]
            card = next(c for c in hands[p] if c not in seen_outside)
            seen_outside.add(card)
            events.append({"kind": "shown", "by": p, "card": card})
        seat = (seat + 1) % len(PLAYERS)
        while PLAYERS[seat] in out:
            seat = (seat + 1) % len(PLAYERS)
    return envelope, hands, events


def events_in(path: Path) -> int:
    data = tomllib.loads(path.read_text())
    shown = sum(len(v) for p, v in data.get("hands", {}).items() if p != data.get("viewer"))
    return len(data.get("suggestion", [])) + len(data.get("accusation", [])) + shown


class Game:
    def __init__(self, table: Table, path: Path, deck: dict[str, list[str]], players: list[str]) -> None:
        self.t, self.d, self.path, self.deck, self.players = table, table.d, path, deck, players
        self.previous: dict[str, Any] | None = None
        self.checked = 0

    def check(self, events: int, line: bool = True) -> dict[str, Any]:
        """The log holds ``events``; the sheet on screen is the CLI's on the saved file; the line and the
        marked cells are the difference from the previous sheet."""
        d = self.d
        wait(d, lambda d: events_in(self.path) == events
             and len(d.find_elements(By.CSS_SELECTOR, "#log li[data-kind]")) == events, f"{events} events saved")
        answer = cli_solve(self.path)
        want = expected_cells(answer)
        wait(d, lambda d: {k: v[0] for k, v in shown_cells(d).items()} == want, f"the sheet after {events} events")
        no_page_error(d)
        summary = d.find_element(By.ID, "summary").text
        n = answer["deals"]
        assert f"{n:,} consistent deal{'' if n == 1 else 's'}" in summary, summary
        if line and self.previous is not None:
            text = wait(d, lambda d: d.find_elements(By.ID, "learned-text")
                        and d.find_element(By.ID, "learned-text").text, "the line of what changed")
            assert text == expected_line(self.previous, answer, self.deck, self.players)
            cells = shown_cells(d)
            changed = {(c, p) for c, row in answer["sheet"].items() for p, m in row.items()
                       if self.previous["sheet"][c][p] != m}
            assert {k for k, v in cells.items() if v[1]} == changed
        self.previous = answer
        self.checked += 1
        return answer


def play(game: Game, event: dict, count: int) -> None:
    t, d = game.t, game.d
    if event["kind"] == "suggestion":
        assert pressed(d, "s-by") == event["by"], "the suggester preselected is the next seat (out players skipped)"
        for cat, card in zip(CATS, event["cards"], strict=True):
            t.tap(f'#s-{ONE[cat]} button[data-value="{card}"]')
        t.tap(f'#s-shown button[data-value="{event["shown_by"] or "-"}"]')
        if event["card"]:
            t.tap(f'#s-seen button[data-value="{event["card"]}"]')
        t.tap("#s-submit")
        kind = ("suggestion, nobody" if not event["shown_by"] else
                "suggestion, shown to me" if event["card"] else "suggestion, shown to another")
    elif event["kind"] == "shown":
        t.tap(f'#sheet td[data-card="{event["card"]}"][data-place="{event["by"]}"] button')
        t.tap("#record-shown")
        kind = "shown to me"
    else:
        assert pressed(d, "a-by") == event["by"]
        for cat, card in zip(CATS, event["cards"], strict=True):
            t.tap(f'#a-{ONE[cat]} button[data-value="{card}"]')
        t.tap('#a-result button[data-value="wrong"]')
        t.tap("#a-submit")
        kind = "accusation"
    t.done(kind)
    game.check(count)


def uncertain_accusation(game: Game) -> None:
    """An accusation of mine that is not certain: its exact probability, and a question before anything is
    saved; "not yet" saves nothing."""
    t, d, path = game.t, game.d, game.path
    answer = game.previous
    assert answer is not None
    best = answer["envelope_probabilities"][0]
    assert Fraction(best["p"]) < 1
    t.tap('#a-by button[data-value="Ann"]')
    for cat, part in zip(CATS, ("suspect", "weapon", "room"), strict=True):
        t.tap(f'#a-{ONE[cat]} button[data-value="{best[part]}"]')
    t.tap('#a-result button[data-value="correct"]')
    assert f"probability {best['p']} ({pct(best['p'])})" in d.find_element(By.ID, "a-chance").text
    before = path.read_bytes()
    t.tap("#a-submit")
    warning = wait(d, lambda d: d.find_element(By.ID, "a-confirm").is_displayed()
                   and d.find_element(By.ID, "a-confirm").text, "the warning")
    assert f"{best['p']} ({pct(best['p'])})" in warning and "anyway" in warning
    t.tap("#a-confirm button.secondary")
    assert path.read_bytes() == before and not d.find_element(By.ID, "a-confirm").is_displayed()
    t.done("uncertain accusation, not recorded")


def phone(driver) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})


@pytest.fixture(scope="module")
def phone_browser(tmp_path_factory):
    driver = make_driver(tmp_path_factory.mktemp("profile"), 390, 844)
    phone(driver)
    try:
        yield driver
    finally:
        driver.quit()


def test_a_whole_clue_game_by_taps(tmp_path, phone_browser):
    d = phone_browser
    deck = classic()
    envelope, hands, events = plan(46, deck)
    folder = tmp_path / "games"
    with process_server(folder) as (url, _):
        d.get(url)
        wait(d, lambda d: d.find_elements(By.ID, "clue-players"), "the start page")
        d.find_element(By.ID, "clue-title").send_keys("Friday")      # names are typed once, at set-up
        d.find_element(By.ID, "clue-players").send_keys(", ".join(PLAYERS))
        d.find_element(By.CSS_SELECTOR, '#clue-me option[value="Ann"]').click()
        for card in hands["Ann"]:
            d.find_element(By.CSS_SELECTOR, f'#clue-hand button[data-card="{card}"]').click()
        assert d.find_element(By.CSS_SELECTOR, "#new-clue .muted").text == "3 cards chosen"
        d.find_element(By.ID, "clue-create").click()
        wait(d, lambda d: "/g/" in d.current_url, "the game page")
        path = folder / f"{d.current_url.rsplit('/g/', 1)[1]}.toml"
        t = Table(d)
        game = Game(t, path, deck, PLAYERS)
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#sheet td[data-card]"), "the sheet")
        t.listen()
        game.check(0)
        done = 0
        for k, event in enumerate(events):
            play(game, event, done + 1)
            done += 1
            if k == 12:    # an edit: an early suggestion where I saw the card, now without it
                first = next(i for i, e in enumerate(events) if e["kind"] == "suggestion" and e["card"])
                index = sum(1 for e in events[:first] if e["kind"] == "suggestion")
                position = next(int(li.get_attribute("data-position")) for li in d.find_elements(
                    By.CSS_SELECTOR, "#log li[data-kind=suggestion]") if li.get_attribute("data-index") == str(index))
                t.tap(f'#log li[data-position="{position}"] button[aria-label^="edit"]')
                t.tap('#s-seen button[data-value=""]')
                t.tap("#s-submit")
                t.done("edit")
                wait(d, lambda d, i=index: "card" not in tomllib.loads(path.read_text())["suggestion"][i],
                     "the edit saved")
                game.check(done)
            if k == 20:    # a delete in the middle of the log, undone in one tap: the file comes back byte for byte
                before = path.read_bytes()
                log_before = [li.text.split(" ", 1)[1] for li in d.find_elements(By.CSS_SELECTOR, "#log li .what")]
                t.tap(f'#log li[data-position="{done - 4}"] button[aria-label^="delete"]')
                t.done("delete")
                game.check(done - 1)
                assert [li.text.split(" ", 1)[1] for li in d.find_elements(By.CSS_SELECTOR, "#log li .what")] == \
                    log_before[:done - 4] + log_before[done - 3:]
                t.tap("#undo-delete")
                t.done("undo")
                game.check(done)
                assert path.read_bytes() == before
            if k == 1:
                uncertain_accusation(game)
            if k == 25:    # a reload loses nothing; the log stays in play order
                t.read_keys()
                log_before = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#log li .what")]
                d.refresh()
                wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#sheet td[data-card]"), "the sheet again")
                t.listen()
                game.check(done, line=False)
                assert [li.text for li in d.find_elements(By.CSS_SELECTOR, "#log li .what")] == log_before
        t.read_keys()
        assert t.keys == 0, f"{t.keys} key presses"
        for kind, taps in t.taps.items():
            if kind in TARGET:
                assert max(taps) <= TARGET[kind], (kind, taps)
        assert {"suggestion, shown to me", "suggestion, nobody", "shown to me", "accusation"} <= set(t.taps)
        assert done >= 30 and game.checked >= 33
        saved = tomllib.loads(path.read_text())
        assert saved["log"][:3] == ["suggestion 1", "suggestion 2", "suggestion 3"]
        assert any(e.startswith("accusation") for e in saved["log"])
        assert any(e.startswith("shown") for e in saved["log"])
        print("taps per event kind:", {k: max(v) for k, v in t.taps.items()}, "events", done)

        # the envelope is certain now: "Accuse now", and my accusation is recorded without a question
        assert d.find_element(By.ID, "accuse").is_displayed()
        for cat in CATS:
            assert game.previous["envelope"][ONE[cat]] == envelope[cat]
        t.tap('#a-by button[data-value="Ann"]')
        for cat in CATS:
            t.tap(f'#a-{ONE[cat]} button[data-value="{envelope[cat]}"]')
        t.tap('#a-result button[data-value="correct"]')
        t.tap("#a-submit")
        t.done("my accusation")
        answer = game.check(done + 1)

        # notes: saved under `notes` in the file, shown after a reload; solve ignores them
        line = d.find_element(By.ID, "learned-text").text
        d.find_element(By.ID, "notes").send_keys("Bob bluffs with the Rope")
        d.find_element(By.ID, "notes-save").click()
        wait(d, lambda d: tomllib.loads(path.read_text()).get("notes") == "Bob bluffs with the Rope", "the notes saved")
        wait(d, lambda d: d.find_element(By.ID, "notes-state").text == "saved in the game's file", "the notes' state")
        assert d.find_element(By.ID, "learned-text").text == line    # notes are not an event
        assert cli_solve(path)["sheet"] == answer["sheet"]
        d.refresh()
        wait(d, lambda d: d.find_element(By.ID, "notes").get_attribute("value") == "Bob bluffs with the Rope",
             "the notes after a reload")

        # what each opponent may know: the table stays inside the phone's width
        d.find_element(By.ID, "others-run").click()
        wait(d, lambda d: d.find_elements(By.ID, "others"), "what the others know", steps=1200)
        assert d.execute_script("return document.documentElement.scrollWidth") <= 390
        box = d.find_element(By.CSS_SELECTOR, "#others").find_element(By.XPATH, "..")
        assert box.rect["x"] >= 0 and box.rect["x"] + box.rect["width"] <= 390


def test_custom_deck_set_up_and_a_turn(tmp_path, phone_browser):
    d = phone_browser
    deck = {"suspects": ["Ada", "Bo", "Cy"], "weapons": ["Axe", "Bow"],
            "rooms": ["Attic", "Basement Workshop", "Cellar"]}
    with process_server(tmp_path / "games") as (url, _):
        d.get(url)
        wait(d, lambda d: d.find_elements(By.ID, "clue-deck"), "the start page")
        d.find_element(By.CSS_SELECTOR, '#clue-deck option[value="custom"]').click()
        boxes = d.find_elements(By.CSS_SELECTOR, "#clue-custom textarea")
        assert len(boxes) == 3 and all(b.is_displayed() for b in boxes)
        assert "[object" not in d.find_element(By.ID, "new-clue").text
        for box, cat in zip(boxes, CATS, strict=True):
            box.send_keys(", ".join(deck[cat]))
        d.find_element(By.ID, "clue-players").send_keys("Ann, Bob, Cat")
        d.find_element(By.CSS_SELECTOR, '#clue-me option[value="Ann"]').click()
        d.find_element(By.CSS_SELECTOR, '#clue-hand button[data-card="Basement Workshop"]').click()
        assert d.find_element(By.CSS_SELECTOR, "#new-clue .muted").text == "1 card chosen"
        d.find_element(By.ID, "clue-create").click()
        wait(d, lambda d: "/g/" in d.current_url, "the game page")
        path = tmp_path / "games" / f"{d.current_url.rsplit('/g/', 1)[1]}.toml"
        assert tomllib.loads(path.read_text())["deck"] == deck
        game = Game(Table(d), path, deck, ["Ann", "Bob", "Cat"])
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#sheet td[data-card]"), "the sheet")
        game.check(0)
        chip = d.find_element(By.CSS_SELECTOR, '#s-room button[data-value="Basement Workshop"]')
        assert chip.rect["x"] + chip.rect["width"] <= 390    # a long name fits
        play(game, {"kind": "suggestion", "by": "Ann", "cards": ["Bo", "Axe", "Basement Workshop"],
                    "shown_by": None, "card": None}, 1)
        assert cli_solve(path)["envelope"]["suspect"] is None
        # deleting it: the line says what is open again; its undo, what is known again
        game.t.tap('#log li[data-position="0"] button[aria-label^="delete"]')
        game.check(0)
        assert "open again" in d.find_element(By.ID, "learned-text").text
        game.t.tap("#undo-delete")
        game.check(1)
        assert "Bob lacks Bo and the Axe" in d.find_element(By.ID, "learned-text").text
