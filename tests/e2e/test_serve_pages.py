"""Each game owns its page: the declarations name the files (``sleuth.game.Companion``), the server serves those
and no other and names no game; a plug-in gets its own page when it ships one and the generic page when not;
Mascarade's page played in the browser agrees with ``sleuth solve --json``; the claim box shows that it works."""

from __future__ import annotations

import json
import math
import re
import tomllib
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the 'serve' extra is not installed")

from starlette.testclient import TestClient  # noqa: E402

from sleuth import registry  # noqa: E402
from sleuth.game import Companion, Game  # noqa: E402
from sleuth.serve import pages  # noqa: E402
from sleuth.serve.app import create_app  # noqa: E402
from sleuth.serve.store import Store  # noqa: E402
from tests.conftest import ROOT, run_cli  # noqa: E402
from tests.toygame import CARDS, all_worlds  # noqa: E402

SERVE = ROOT / "solver" / "serve"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(Store(tmp_path / "games"), hosts={"testserver"}))


def test_every_page_a_game_declares_is_there_and_registers() -> None:
    with_pages = [g for g in registry.builtin_games() if g.companion.page]
    assert {g.name for g in with_pages} == {"clue", "motus", "wordle", "mastermind", "mascarade"}
    for g in registry.builtin_games():
        assert g.page_problem() is None, g.page_problem()
        scripts = [g.page_file(f).decode() for f in g.companion.page if f.endswith(".js")]
        assert all("Sleuth.register(" in s for s in scripts) and (scripts or not g.companion.page), g.name
        assert "https://" not in "".join(scripts)  # nothing from another host
    assert "Kitchen" in registry.find_game("clue").page_info()["decks"]["classic"]["rooms"]


@pytest.mark.parametrize("bad", [{"page": ("../game.py",)}, {"page": ("/etc/x.js",)}, {"page": ("static/x.py",)},
                                 {"page": ("static/../../x.js",)}, {"page": ("static\\x.js",)},
                                 {"info": "no-colon"}, {"warm": "a.b:c d"}])
def test_a_malformed_companion_declaration_fails_when_declared(bad: dict) -> None:
    with pytest.raises(ValueError, match="companion"):
        Companion(**bad)


def test_a_page_file_missing_from_its_package_is_reported_and_the_game_keeps_the_generic_page(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = replace(registry.find_game("egghead"), name="broken-page",
                     companion=Companion(page=("static/nowhere.js",)))
    real = registry.all_games
    monkeypatch.setattr(pages, "all_games", lambda: (*real(), broken))
    assert "nowhere.js" in (broken.page_problem() or "")
    info = client.get("/api/info").json()
    entry = next(g for g in info["games"] if g["name"] == "broken-page")
    assert entry["page"] == [] and "static/nowhere.js" in entry["page_problem"]
    assert client.get("/pages/broken-page/static/nowhere.js").status_code == 404


def test_the_server_serves_the_files_a_page_declares_and_no_other(client: TestClient) -> None:
    r = client.get("/pages/clue/static/clue.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert 'Sleuth.register("clue"' in r.text
    assert client.get("/pages/wordle/static/words.css").headers["content-type"].startswith("text/css")
    for path in ("/pages/clue/game.py", "/pages/clue/static/words.js", "/pages/clue/static/../game.py",
                 "/pages/clue/static/..%2Fgame.py", "/pages/nogame/static/clue.js",
                 "/pages/cluedo/static/clue.js", "/pages/clue/", "/pages/clue/STATIC/CLUE.JS",
                 "/pages/egghead/static/clue.js", "/pages/clue/%2Fetc%2Fpasswd"):
        r = client.get(path)
        assert r.status_code in (404, 405), path
        assert "Sleuth.register" not in r.text
    # one URL per file, however many games share it (motus, wordle and mastermind: one package, one page)
    info = client.get("/api/info").json()
    pages = {g["name"]: g["page"] for g in info["games"]}
    assert pages["motus"] == pages["wordle"] == pages["mastermind"] and len(pages["motus"]) == 2
    assert pages["egghead"] == [] and "clue_decks" not in info


GAME_WORD = r"(?<![A-Za-z0-9_]){}(?![A-Za-z0-9_])"


def test_the_companion_names_no_game() -> None:
    """solver/serve (Python, JavaScript, HTML, CSS) names no registered game and no game's module: what it knows
    of a game comes from the game's declaration."""
    games = registry.builtin_games()
    words = {g.name for g in games}
    modules = {g.package for g in games} | {g.package.removeprefix("sleuth.") for g in games}
    modules |= {m.replace(".", "/") for m in modules}
    found = []
    files = [p for p in sorted(SERVE.rglob("*")) if p.suffix in (".py", ".js", ".html", ".css")]
    assert {p.name for p in files} >= {"app.py", "warm.py", "app.js", "app.html", "app.css"}
    for path in files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            hits = [w for w in words if re.search(GAME_WORD.format(re.escape(w)), line, re.I)]
            hits += [m for m in modules if m in line]
            found += [f"{path.relative_to(ROOT)}:{n}: {h}" for h in hits]
    assert not found, found


WARMED: list[str] = []


def _warm_one() -> None:
    WARMED.append("one")


def _warm_broken() -> None:
    raise RuntimeError("a broken warm-up")


def _warm_two() -> None:
    WARMED.append("two")


def test_the_warm_up_runs_each_game_s_declared_routine(monkeypatch: pytest.MonkeyPatch) -> None:
    """warm() calls every game's declared routine; one that fails does not stop the others."""
    here = __name__
    games = [Game(f"w{i}", "warm", "tests.toygame", companion=Companion(warm=f"{here}:{fn}"))
             for i, fn in enumerate(["_warm_one", "_warm_broken", "_warm_two"])]
    monkeypatch.setattr(registry, "all_games", lambda: tuple(games))
    from sleuth.serve import warm  # its import warms up too: with the games above

    WARMED.clear()
    warm.warm()
    assert WARMED == ["one", "two"]


def test_the_plugin_s_page_is_listed_from_its_declaration(registered, client: TestClient) -> None:
    info = client.get("/api/info").json()
    toy = next(g for g in info["games"] if g["name"] == "three-cards")
    bare = next(g for g in info["games"] if g["name"] == "bare-cards")
    assert toy["page"] == ["/pages/three-cards/static/toy.js"] and toy["page_info"] == {"cards": list(CARDS)}
    assert bare["page"] == [] and "page_problem" not in bare
    assert "Sleuth.register" in client.get(toy["page"][0]).text
    assert client.get("/pages/bare-cards/static/toy.js").status_code == 404


# -- in the browser ------------------------------------------------------------------------------------------------

def _browser_ready() -> bool:
    try:
        from tests.e2e import test_serve_browser
    except pytest.skip.Exception:
        return False
    return bool(test_serve_browser.CHROMIUM and test_serve_browser.CHROMEDRIVER)


browser_only = pytest.mark.skipif(not _browser_ready(), reason="selenium, chromium or chromium-driver is missing")


@pytest.fixture
def phone(tmp_path: Path):
    from tests.helpers.browser import make_driver

    driver = make_driver(tmp_path / "profile", 390, 844)
    try:
        yield driver
    finally:
        driver.quit()


def _by():
    from selenium.webdriver.common.by import By

    return By


def cell_text(p: Fraction) -> str:
    """A probability as the pages print it (app.js pct, mascarade.js cells): ✓, ✗, <1%, >99% or n%."""
    if p >= 1:
        return "✓"
    if p <= 0:
        return "✗"
    if p >= Fraction(995, 1000):
        return ">99%"
    if p < Fraction(5, 1000):
        return "<1%"
    return f"{math.floor(p * 100 + Fraction(1, 2))}%"


def open_toy_game(driver, url: str, wait) -> None:
    """A new toy game, started from the toy page's own form on the start page."""
    By = _by()
    driver.get(url)
    wait(driver, lambda d: d.find_elements(By.ID, "toy-create"), "the toy's new-game form on the start page")
    driver.find_element(By.ID, "toy-create").click()
    wait(driver, lambda d: "/g/" in d.current_url and d.find_elements(By.ID, "toy-table"), "the toy's page")


def toy_grid(driver) -> dict[tuple[int, str], str]:
    By = _by()
    return {(int(td.get_attribute("data-p")), td.get_attribute("data-card")): td.text
            for td in driver.find_elements(By.CSS_SELECTOR, "#toy-table td")}


@browser_only
def test_a_plugin_s_own_page_in_the_browser(registered, tmp_path: Path, phone) -> None:
    """The toy plug-in's page (its package's static/toy.js, named by its declaration) is shown for its games:
    facts added through it give the grid a brute force over the arrangements gives; its claim box works."""
    from selenium.webdriver.support.ui import Select

    from tests.helpers.browser import no_page_error, wait
    from tests.serve_util import call, thread_server

    By = _by()
    folder = tmp_path / "games"
    with thread_server(folder) as url:
        open_toy_game(phone, url, wait)
        name = phone.current_url.rsplit("/g/", 1)[1]
        facts: list[tuple[int, str]] = []
        for position, card in [(1, "A"), (2, "B"), (3, "A")]:
            Select(phone.find_element(By.ID, "toy-position")).select_by_value(str(position))
            Select(phone.find_element(By.ID, "toy-card")).select_by_value(card)
            phone.find_element(By.ID, "toy-add").click()
            facts.append((position, card))
            worlds = [w for w in all_worlds() if all(w[p - 1] != CARDS.index(c) for p, c in facts)]
            expected = {(p, c): "✓" if all(w[p - 1] == CARDS.index(c) for w in worlds)
                        else "·" if any(w[p - 1] == CARDS.index(c) for w in worlds) else "✗"
                        for p in (1, 2, 3) for c in CARDS}
            count = f"{len(worlds)} arrangement{'s' if len(worlds) != 1 else ''} left"
            wait(phone, lambda d, e=expected, n=count: toy_grid(d) == e
                 and d.find_element(By.ID, "toy-count").text == n, f"the grid after {len(facts)} facts")
            saved = tomllib.loads((folder / f"{name}.toml").read_text())
            assert [(f["position"], f["not"]) for f in saved["fact"]] == facts
            no_page_error(phone)
        claim_box_works(phone, "position 2 holds A", "entailed", wait)
        # a file naming the game by an alias, in another case, gets the same page
        status, game = call(url, "POST", "/api/games", {"text": 'game = "TOY"\n'})
        assert status == 201, game
        phone.get(f"{url}/g/{game['name']}")
        wait(phone, lambda d: d.find_elements(By.ID, "toy-table"), "the toy's page for a file naming its alias")


def claim_box_works(driver, claim: str, verdict: str, wait) -> None:
    """A claim checked while its answer is held back: the button is disabled and the busy sign shows, the last
    verdict is gone; the verdict then comes; a malformed claim leaves no verdict, only its error line."""
    By = _by()
    box = driver.find_element(By.ID, "claim")
    box.clear()
    box.send_keys(claim)
    driver.find_element(By.ID, "claim-check").click()
    first = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#claim-result [data-verdict]"), "the verdict")
    assert first[0].get_attribute("data-verdict") == verdict and verdict in first[0].text
    # hold the next answer back: the page is seen working, with nothing stale on it
    driver.execute_script("""
      const real = window.fetch; window.releaseClaim = null;
      window.fetch = (url, init) => {
        if (!String(url).endsWith('/verify')) return real(url, init);
        window.fetch = real;  // this one claim only
        return new Promise((resolve) => { window.releaseClaim = () => resolve(real(url, init)); });
      };""")
    driver.find_element(By.ID, "claim-check").click()
    wait(driver, lambda d: d.execute_script("return window.releaseClaim !== null"), "the claim sent")
    assert not driver.find_element(By.ID, "claim-check").is_enabled()
    busy = driver.find_element(By.ID, "claim-busy")
    assert busy.is_displayed() and busy.text.startswith("checking…")
    assert driver.find_element(By.ID, "claim-result").text == ""
    driver.execute_script("window.releaseClaim()")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#claim-result [data-verdict]"), "the held-back verdict")
    assert driver.find_element(By.ID, "claim-check").is_enabled() and not busy.is_displayed()
    box.clear()
    box.send_keys(claim + " and (")
    driver.find_element(By.ID, "claim-check").click()
    wait(driver, lambda d: d.find_element(By.ID, "error").is_displayed(), "the error line of a malformed claim")
    assert "claim[1]" in driver.find_element(By.ID, "error").text
    assert driver.find_element(By.ID, "claim-result").text == ""  # the earlier verdict does not stay under it


@browser_only
def test_a_plugin_without_a_page_gets_the_generic_page(registered, tmp_path: Path, phone) -> None:
    """A game that declares no page: its solve answer, every field readable, and the claim box."""
    from tests.helpers.browser import no_page_error, wait
    from tests.serve_util import call, thread_server

    By = _by()
    text = 'game = "bare-cards"\ntitle = "Bare"\n[[fact]]\nposition = 1\nnot = "A"\n'
    with thread_server(tmp_path / "games") as url:
        status, game = call(url, "POST", "/api/games", {"text": text})
        assert status == 201, game
        phone.get(f"{url}/g/{game['name']}")
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#fields table"), "the answer's fields")
        path = tmp_path / "games" / f"{game['name']}.toml"
        expected = json.loads(run_cli(["solve", str(path), "--json"]).out)
        rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
                for tr in phone.find_elements(By.CSS_SELECTOR, "#fields dd table tr")]
        assert rows == expected["valids"] and len(rows) == 4
        assert phone.find_element(By.ID, "count").text == "4"
        assert phone.find_element(By.ID, "report-text").text.splitlines() == [" ".join(r) for r in expected["valids"]]
        assert not phone.find_elements(By.ID, "toy-table") and not phone.find_elements(By.ID, "page-problem")
        no_page_error(phone)
        claim_box_works(phone, "position 1 holds A or position 1 holds B or position 1 holds C", "entailed", wait)


def beliefs_shown(driver) -> dict[str, dict[str, str]]:
    By = _by()
    table = driver.find_element(By.CSS_SELECTOR, "#beliefs table")
    rows = table.find_elements(By.TAG_NAME, "tr")
    cards = [th.text for th in rows[0].find_elements(By.TAG_NAME, "th")][1:]
    shown = {}
    for tr in rows[1:]:
        cells = [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
        shown[cells[0]] = dict(zip(cards, cells[1:], strict=True))
    return shown


def beliefs_of_file(path: Path) -> dict[str, dict[str, str]]:
    result = run_cli(["solve", str(path), "--json"])
    assert result.code == 0, result.err
    marginals = json.loads(result.out)["marginals"]
    cards = list(dict.fromkeys(c for row in marginals.values() for c in row))
    return {p: {c: cell_text(Fraction(row.get(c, "0"))) for c in cards} for p, row in marginals.items()}


MASCARADE_EVENTS = [  # what is chosen in the form, and the event the file must then hold
    ({"kind": "swap", "who": "Ann", "other": "Bob", "swapped": "true"}, {"swap": ["Ann", "Bob"], "swapped": True}),
    ({"kind": "swap", "who": "Cat", "other": "Middle1"}, {"swap": ["Cat", "Middle1"]}),
    ({"kind": "spy", "who": "Dan", "other": "Ann", "own": "Thief", "seen": "Queen", "swapped": "false"},
     {"spy": "Dan", "with": "Ann", "cards": ["Thief", "Queen"], "swapped": False}),
    ({"kind": "fool", "who": "Bob", "other": "Cat", "third": "Dan", "swapped": "true", "public": True},
     {"fool": "Bob", "between": ["Cat", "Dan"], "swapped": True, "public": True}),
    ({"kind": "look", "who": "Cat"}, {"look": "Cat"}),
    ({"kind": "reveal", "who": "Middle1", "card": "Witch"}, {"reveal": "Middle1", "card": "Witch"}),
    ({"kind": "spy", "who": "Bob", "other": "Cat"}, {"spy": "Bob", "with": "Cat"}),
    ({"kind": "spy", "who": "Ann", "other": "Dan", "own": "Queen", "seen": "Judge", "swapped": "true"},
     {"spy": "Ann", "with": "Dan", "cards": ["Queen", "Judge"], "swapped": True}),
]


@browser_only
def test_mascarade_played_in_the_browser_agrees_with_solve(tmp_path: Path, phone) -> None:
    """A Mascarade game set up with its form (title, middle card, viewer) and played through the page with every
    kind of event, the Spy and the Fool included: after each, the probabilities on screen are those of
    ``sleuth solve --json`` on the saved file, and the file holds the events chosen."""
    from selenium.webdriver.support.ui import Select

    from tests.helpers.browser import no_page_error, type_into, wait
    from tests.serve_util import process_server

    By = _by()
    folder = tmp_path / "games"
    with process_server(folder) as (url, _):
        phone.get(url)
        wait(phone, lambda d: d.find_elements(By.ID, "m-create"), "the Mascarade form")
        for box, text in [("m-title", "Saturday"), ("m-players", "Ann, Bob, Cat, Dan"),
                          ("m-cards", "King, Queen, Judge, Thief"), ("m-middle", "Witch"), ("m-viewer", "Ann")]:
            type_into(phone.find_element(By.ID, box), text)
        phone.find_element(By.ID, "m-create").click()
        wait(phone, lambda d: "/g/" in d.current_url and d.find_elements(By.ID, "e-kind"), "the Mascarade page")
        name = phone.current_url.rsplit("/g/", 1)[1]
        path = folder / f"{name}.toml"
        assert tomllib.loads(path.read_text())["title"] == "Saturday"
        assert phone.find_element(By.TAG_NAME, "h1").text == "Saturday"
        start = beliefs_of_file(path)
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#beliefs table") and beliefs_shown(d) == start,
             "the beliefs before any event")
        percentages = 0  # open cells compared (an exact probability strictly between 0 and 1)
        for k, (form, event) in enumerate(MASCARADE_EVENTS):
            # the second-order panel above the form redraws when its job ends: tap on a still page
            wait(phone, lambda d: not any(b.is_displayed() for b in d.find_elements(By.TAG_NAME, "progress")),
                 f"the second-order beliefs before event {k + 1}")
            Select(phone.find_element(By.ID, "e-kind")).select_by_value(form["kind"])
            for key, field in [("who", "e-who"), ("other", "e-other"), ("third", "e-third"), ("swapped", "e-swapped"),
                               ("card", "e-card"), ("own", "e-spy-own"), ("seen", "e-spy-other")]:
                element = phone.find_element(By.ID, field)
                if key in form:
                    assert element.is_displayed(), (form, field)
                    Select(element).select_by_value(form[key])
                elif element.is_displayed() and key in ("swapped", "card", "own", "seen"):
                    Select(element).select_by_value("")  # unknown
            public = phone.find_element(By.ID, "e-public")
            if public.is_displayed() and public.is_selected() != bool(form.get("public")):
                public.click()
            phone.find_element(By.ID, "e-submit").click()
            wait(phone, lambda d, n=k + 1: len(tomllib.loads(path.read_text()).get("event", [])) == n,
                 f"event {k + 1} saved")
            assert tomllib.loads(path.read_text())["event"][k] == event
            expected = beliefs_of_file(path)
            wait(phone, lambda d, e=expected: beliefs_shown(d) == e, f"the beliefs after event {k + 1}")
            percentages += sum(v.endswith("%") for row in expected.values() for v in row.values())
            no_page_error(phone)
        log = [li.text for li in phone.find_elements(By.CSS_SELECTOR, "#log li")]
        assert len(log) == len(MASCARADE_EVENTS) and "(Spy)" in log[2] and "(Fool)" in log[3]
        assert percentages >= 20
        # I am the Spy but leave the two cards I saw unknown: refused whole (solve could not use it), nothing saved
        saved = path.read_bytes()
        Select(phone.find_element(By.ID, "e-kind")).select_by_value("spy")
        for field, value in [("e-who", "Ann"), ("e-other", "Bob"), ("e-spy-own", ""), ("e-spy-other", ""),
                             ("e-swapped", "true")]:
            Select(phone.find_element(By.ID, field)).select_by_value(value)
        labels = [phone.find_element(By.CSS_SELECTOR, f'label[for="{f}"]').text for f in ("e-spy-own", "e-spy-other")]
        assert labels == ["My own card (required)", "The other card (required)"]
        phone.find_element(By.ID, "e-submit").click()
        error = wait(phone, lambda d: [e for e in d.find_elements(By.ID, "error") if e.is_displayed()], "the refusal")
        assert "cards[1]" in error[0].text and "Ann looked here" in error[0].text, error[0].text
        assert path.read_bytes() == saved and len(phone.find_elements(By.CSS_SELECTOR, "#log li")) == len(log)


def test_a_page_s_files_need_the_token_like_every_other_request(tmp_path: Path) -> None:
    client = TestClient(create_app(Store(tmp_path / "games"), token="s3cret"))
    assert client.get("/pages/clue/static/clue.js").status_code == 403
    assert client.get("/pages/clue/static/clue.js", headers={"X-Sleuth-Token": "s3cret"}).status_code == 200


@browser_only
def test_a_page_whose_script_does_not_register_leaves_the_generic_page_saying_why(
        registered, tmp_path: Path, phone, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game listing a script that registers no page for it (here the toy's, which registers only three-cards)
    is shown on the generic page, with one line saying why."""
    from tests.helpers.browser import no_page_error, wait
    from tests.serve_util import call, thread_server

    By = _by()
    silent = replace(registry.find_game("three-cards"), name="silent-cards", aliases=(),
                     companion=Companion(page=("static/toy.js",)))
    real = registry.all_games()
    monkeypatch.setattr(registry, "all_games", lambda: (*real, silent))
    monkeypatch.setattr(pages, "all_games", lambda: (*real, silent))
    with thread_server(tmp_path / "games") as url:
        status, game = call(url, "POST", "/api/games", {"text": 'game = "silent-cards"\n'})
        assert status == 201, game
        phone.get(f"{url}/g/{game['name']}")
        note = wait(phone, lambda d: d.find_elements(By.ID, "page-problem"), "the note on the generic page")
        assert 'did not register it (Sleuth.register("silent-cards"' in note[0].text
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#fields table"), "the answer's fields")
        assert not phone.find_elements(By.ID, "toy-table")
        no_page_error(phone)


def top_bar_is_one_line(driver) -> bool:
    """Whether the top bar's visible items (brand, title, undo, redo, file, share) share one line: every item's
    top is above every other's bottom."""
    return driver.execute_script(
        "const items = Array.from(document.querySelectorAll('header.top > *, header.top .tools > *'))"
        "  .filter((e) => e.offsetParent !== null && !e.classList.contains('tools'))"
        "  .map((e) => e.getBoundingClientRect());"
        "return items.length >= 5 && Math.max(...items.map((r) => r.top)) < Math.min(...items.map((r) => r.bottom));")


@browser_only
def test_the_generic_page_writes_counts_as_the_cli_does_and_the_top_bar_is_one_line(tmp_path: Path, phone) -> None:
    """At 390 px: the count of an answer with thousands (epistemic/gossip-4: 1,296 worlds) and a count among its
    fields written as the CLI writes them; the top bar (title, undo, redo, file, share) stays one line and
    inside the screen."""
    from tests.helpers.browser import no_page_error, wait
    from tests.serve_util import call, thread_server

    By = _by()
    with thread_server(tmp_path / "games") as url:
        for example, field in [("epistemic/gossip-4", None), ("cardguess/fresh_deck", "orders")]:
            status, game = call(url, "POST", "/api/games", {"example": example})
            assert status == 201, game
            path = tmp_path / "games" / f"{game['name']}.toml"
            expected = json.loads(run_cli(["solve", str(path), "--json"]).out)
            phone.get(f"{url}/g/{game['name']}")
            wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#fields dd"), "the answer's fields")
            if "count" in expected:
                assert expected["count"] >= 1000
                assert phone.find_element(By.ID, "count").text == f"{expected['count']:,}"
            if field:
                dd = phone.find_element(By.XPATH, f"//dt[@data-field='{field}']/following-sibling::dd[1]")
                assert dd.text == f"{expected[field]:,}"
            assert all(phone.find_element(By.ID, b).is_displayed() for b in ("undo", "redo", "download", "share"))
            assert top_bar_is_one_line(phone)
            width = phone.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
            assert width == [390, 390]
            no_page_error(phone)


@browser_only
def test_a_word_list_uploaded_from_the_new_game_form(tmp_path: Path, phone) -> None:
    """The Words page's form uploads a word list into the games folder (POST /api/files) and starts a Wordle on
    it: the file is in the folder, the game names it, and its answers are the list's words; a second upload of
    the same name is refused in one line and the list stays as it was."""
    from selenium.webdriver.support.ui import Select

    from tests.helpers.browser import no_page_error, wait
    from tests.serve_util import thread_server

    By = _by()
    folder = tmp_path / "games"
    upload = tmp_path / "My words!.txt"
    upload.write_text("crane\nslate\nplumb\ntrice\nbrick\n")
    with thread_server(folder) as url:
        phone.get(url)
        wait(phone, lambda d: d.find_elements(By.ID, "w-dict-file"), "the word list field")
        assert phone.find_element(By.ID, "w-dict").is_displayed()
        phone.find_element(By.ID, "w-dict-file").send_keys(str(upload))  # a file chosen, not typed in the page
        wait(phone, lambda d: d.find_element(By.ID, "w-dict").get_attribute("value") == "My-words.txt", "the upload")
        assert (folder / "My-words.txt").read_text() == upload.read_text()
        phone.find_element(By.ID, "w-dict-file").send_keys(str(upload))
        wait(phone, lambda d: d.find_element(By.ID, "error").is_displayed(), "the refusal of a second upload")
        assert "already in the games folder" in phone.find_element(By.ID, "error").text
        Select(phone.find_element(By.ID, "w-game")).select_by_value("mastermind")
        assert not phone.find_element(By.ID, "w-dict").is_displayed()  # Mastermind has no word list
        Select(phone.find_element(By.ID, "w-game")).select_by_value("wordle")
        phone.find_element(By.ID, "w-create").click()
        wait(phone, lambda d: "/g/" in d.current_url and d.find_elements(By.ID, "count"), "the word page")
        name = phone.current_url.rsplit("/g/", 1)[1]
        assert tomllib.loads((folder / f"{name}.toml").read_text())["dictionary"] == "My-words.txt"
        wait(phone, lambda d: d.find_element(By.ID, "count").text == "5", "five answers left")
        assert {e.text for e in phone.find_elements(By.CSS_SELECTOR, "#possible div")} == {
            "CRANE", "SLATE", "PLUMB", "TRICE", "BRICK"}
        no_page_error(phone)
