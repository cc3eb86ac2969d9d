"""A refused request changes nothing: the companion's API under malformed requests (the issue's cases, then a
property-based fuzz of every route), and the files a puzzle names read from the games folder only."""

from __future__ import annotations

import json
import warnings
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

pytest.importorskip("starlette", reason="the 'serve' extra is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

with warnings.catch_warnings():  # starlette asks for httpx2, which is not on PyPI's stable track yet
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sleuth.serve.app import create_app  # noqa: E402
from sleuth.serve.store import Store  # noqa: E402

SMALL = {"game": "clue", "title": "Small", "deck": {"suspects": ["A", "B", "C"], "weapons": ["X", "Y", "Z"],
                                                    "rooms": ["P", "Q", "R"]},
         "players": ["Ann", "Bob"], "viewer": "Ann", "hands": {"Ann": ["A", "X", "P"]}}
EVENT = {"by": "Bob", "cards": ["A", "Y", "Q"], "shown_by": "Ann", "card": "A"}
WORDS = "crane\nslate\nplumb\ntrice\n"


@pytest.fixture
def api(tmp_path: Path) -> tuple[Store, TestClient]:
    """A games folder, and a client of the companion over it."""
    store = Store(tmp_path / "games")
    return store, TestClient(create_app(store, hosts={"testserver"}))


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of the games folder, byte for byte (the games and their undo histories)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def restore(folder: Path, saved: dict[str, bytes]) -> None:
    for p in folder.iterdir():
        if p.name not in saved:
            p.unlink()
    for name, raw in saved.items():
        if (folder / name).read_bytes() != raw if (folder / name).exists() else True:
            (folder / name).write_bytes(raw)


def game_with_history(client: TestClient) -> str:
    r = client.post("/api/games", json={"data": SMALL, "name": "g"})
    assert r.status_code == 201, r.text
    edit = {"ops": [{"op": "append", "key": "suggestion", "value": EVENT}]}
    assert client.post("/api/games/g/edit", json=edit).status_code == 200
    assert client.post("/api/games/g/edit", json=edit).status_code == 200
    assert client.post("/api/games/g/undo", json={}).status_code == 200  # an undo and a redo step kept
    return "g"


def post_raw(client: TestClient, path: str, body: Any) -> Any:
    """``body`` sent as JSON text (``json.dumps`` escapes a lone surrogate as ``\\udc80``, as a page may)."""
    return client.post(path, content=json.dumps(body).encode(), headers={"Content-Type": "application/json"})


def nested(depth: int, leaf: Any = "A") -> Any:
    for _ in range(depth):
        leaf = [leaf]
    return leaf


APPEND = {"op": "append", "key": "suggestion", "value": EVENT}
ISSUE_CASES = [
    ("edit", {"ops": [APPEND], "solve": "probabilities"}, "solve"),
    ("edit", {"ops": [APPEND], "solve": {"options": ["probabilities"]}}, "solve.options"),
    ("edit", {"ops": [APPEND], "solve": {"options": {"juggle": True}}}, "juggle"),
    ("edit", {"ops": [APPEND], "solve": {"options": {"probabilities": "yes please"}}}, "probabilities"),
    ("edit", {"ops": [APPEND], "solve": {"options": {}}, "extra": 1}, "extra"),
    ("edit", {"ops": [{"op": "set", "key": "title", "value": "bad \udc80 title"}]}, "ops[1].value"),
    ("edit", {"ops": [{**APPEND, "value": {**EVENT, "cards": nested(300)}}]}, "ops[1].value.cards"),
    ("edit", {"ops": [{**APPEND, "value": {**EVENT, "by": "Bob\ud800"}}]}, "ops[1].value.by"),
    ("edit", {"ops": [{"op": "set", "key": "title", "value": 10 ** 30}]}, "ops[1].value"),
    ("edit", {"ops": [{"op": "set", "key": "title", "value": float("nan")}]}, "ops[1].value"),
    ("edit", {"ops": [APPEND, {"op": "delete", "key": "suggestion"}]}, "ops[2].index"),
    ("edit", {"ops": [APPEND, {"op": "unset", "key": "title", "value": 1}]}, "ops[2].value"),
    ("edit", {"ops": [{"op": "append", "key": "suggestion"}]}, "ops[1].value"),
    ("edit", {"ops": [{"op": "append", "key": "suggestion\udc80", "value": EVENT}]}, "ops[1].key"),
    ("edit", {"ops": [APPEND] * 501}, "ops"),
    ("undo", {"solve": {"options": {"juggle": 1}}}, "juggle"),
    ("redo", {"solve": {"options": {"samples": 5}}}, "samples"),
    ("undo", {"solve": 3}, "solve"),
    ("redo", {"sol": {}}, "sol"),
]


@pytest.mark.parametrize(("route", "body", "field"), ISSUE_CASES)
def test_a_refused_change_changes_nothing(api, route, body, field):
    """Each is refused with 400 naming the field; the game's file and its undo history stay byte-identical
    (the issue: a `solve` that is not an object answered 500 after saving the event)."""
    store, client = api
    name = game_with_history(client)
    before = snapshot(store.folder)
    r = post_raw(client, f"/api/games/{name}/{route}", body)
    assert r.status_code == 400, r.text
    message = r.json()["error"]
    assert field in message and "\n" not in message, message
    assert snapshot(store.folder) == before
    state = client.get(f"/api/games/{name}").json()
    assert (state["undo"], state["redo"]) == (1, 1)


def test_lone_surrogates_and_depth_refused_on_create(api):
    store, client = api
    for body, field in [({"data": {**SMALL, "players": ["Ann", "B\udc80b"]}}, "data.players[2]"),
                        ({"data": {**SMALL, "title": "\udfff"}}, "data.title"),
                        ({"data": SMALL, "name": "x\ud800"}, "name"),
                        ({"text": 'game = "clue"\udc80'}, "text"),
                        ({"data": {**SMALL, "hands": {"Ann\udc80": ["A"]}}}, "data.hands"),
                        ({"data": {**SMALL, "deck": nested(400)}}, "data.deck"),
                        ({"data": SMALL, "text": "x"}, "text"),
                        ({}, "data"),
                        ({"data": SMALL, "owner": "me"}, "owner")]:
        r = post_raw(client, "/api/games", body)
        assert r.status_code == 400, (body, r.text)
        assert field in r.json()["error"], r.text
    assert snapshot(store.folder) == {}
    deep = b'{"data": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    r = client.post("/api/games", content=deep, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and snapshot(store.folder) == {}


def test_an_answer_asked_with_a_change_is_computed_before_it_is_saved(api):
    """Good options with the change: saved, and the answer is the one of the saved game."""
    store, client = api
    name = game_with_history(client)
    r = client.post(f"/api/games/{name}/edit", json={"ops": [APPEND], "solve": {"options": {"probabilities": True}}})
    assert r.status_code == 200 and r.json()["solve"]["status"] == "ok" and "probabilities" in r.json()["solve"]
    assert r.json()["undo"] == 2 and r.json()["redo"] == 0
    r = client.post(f"/api/games/{name}/undo", json={"solve": {"options": {}}})
    assert r.status_code == 200 and r.json()["solve"]["status"] == "ok" and r.json()["redo"] == 1


MASCARADE = {"game": "mascarade", "viewer": "Ann", "players": ["Ann", "Bob", "Cat", "Dan"],
             "cards": ["King", "Queen", "Spy", "Fool"]}


@pytest.mark.parametrize("solve", [None, {"options": {}}])
def test_a_change_solve_would_refuse_is_refused(api, solve):
    """The viewer as the Spy without the two cards they saw: the reader accepted it and `solve` refused it
    afterwards; now the change is refused whole, with or without an answer asked, as `solve` words it."""
    store, client = api
    assert client.post("/api/games", json={"data": MASCARADE, "name": "m"}).status_code == 201
    good = {"spy": "Bob", "with": "Cat"}
    assert client.post("/api/games/m/edit", json={"ops": [{"op": "append", "key": "event", "value": good}]}
                       ).status_code == 200
    before = snapshot(store.folder)
    spy = {"op": "append", "key": "event", "value": {"spy": "Ann", "with": "Bob"}}
    r = client.post("/api/games/m/edit", json={"ops": [spy], "solve": solve})
    assert r.status_code == 400 and "event[2].cards[1]" in r.json()["error"], r.text
    assert "Ann looked here" in r.json()["error"] and snapshot(store.folder) == before
    r = client.post("/api/games/m/edit", json={"ops": [{**spy, "value": {**spy["value"], "cards": ["King", "Queen"],
                                                                                  "swapped": False}}],
                                               "solve": solve})
    assert r.status_code == 200, r.text
    r = client.post("/api/games/m/solve", json={"options": {}})
    assert r.status_code == 200 and r.json()["solve"]["certain"]["Ann"] == "King", r.text


def test_an_undo_to_a_game_the_reader_refuses_is_refused(api):
    """A step kept by an older sleuth (here the viewer as the Spy without the cards, which the reader used to
    accept) is not brought back: 400 naming the field, the file and its history as they were."""
    store, client = api
    assert client.post("/api/games", json={"data": MASCARADE, "name": "m"}).status_code == 201
    history = store.folder / "m.history.json"
    history.write_text(json.dumps({"undo": [{**MASCARADE, "event": [{"spy": "Ann", "with": "Bob"}]}], "redo": []}))
    before = snapshot(store.folder)
    for solve in (None, {"options": {}}):
        r = client.post("/api/games/m/undo", json={} if solve is None else {"solve": solve})
        assert r.status_code == 400 and "event[1].cards[1]" in r.json()["error"], r.text
        assert snapshot(store.folder) == before


# -- the fuzz -------------------------------------------------------------------------------------------------

SURROGATES = st.sampled_from(["\udc80", "a\ud800", "\udfffz", "\ud83d"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=2 ** 63 - 2),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12), SURROGATES,
                    st.sampled_from(["", "Bob", "A", "suggestion", "title", "append", "probabilities", "solve"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(st.text(max_size=8), SURROGATES), inner, max_size=4)),
    max_leaves=16)
DEEP = st.integers(20, 400).map(nested)

TEMPLATES: dict[str, tuple[str, str, Any]] = {
    "create": ("POST", "/api/games", {"data": SMALL, "name": "new"}),
    "create-text": ("POST", "/api/games", {"text": 'game = "clue"', "filename": "x.toml"}),
    "edit": ("POST", "/api/games/g/edit", {"ops": [APPEND], "solve": {"options": {"probabilities": True}}}),
    "edit-set": ("POST", "/api/games/g/edit", {"ops": [{"op": "replace", "key": "suggestion", "index": 0,
                                                        "value": EVENT}, {"op": "unset", "key": "title"}]}),
    "undo": ("POST", "/api/games/g/undo", {"solve": {"options": {}}}),
    "redo": ("POST", "/api/games/g/redo", {"solve": {"options": {}}}),
    "solve": ("POST", "/api/games/g/solve", {"options": {"probabilities": True}}),
    "verify": ("POST", "/api/games/g/verify", {"claims": ["Bob lacks A"]}),
    "suggest": ("POST", "/api/games/g/suggest", {"method": "information", "options": {"top": 2}}),
    "job": ("POST", "/api/games/g/jobs", {"command": "solve", "options": {"others": True}}),
    "file": ("POST", "/api/files", {"name": "words.txt", "text": WORDS}),
}


def paths(value: Any, at: tuple = ()) -> list[tuple]:
    out = [at]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, (*at, i))
    return out


def mutate(body: Any, draw: Any) -> Any:
    """One malformed variant of a valid body: a value replaced (any type, surrogates, deep nesting, huge
    numbers), a field removed or added; applied once or twice."""
    body = json.loads(json.dumps(body))
    for _ in range(draw(st.integers(1, 2))):
        where = draw(st.sampled_from(paths(body)))
        kind = draw(st.sampled_from(["replace", "replace", "deep", "drop", "add"]))
        if not where:
            if kind in ("replace", "deep"):
                body = draw(VALUES) if kind == "replace" else draw(DEEP)
            continue
        parent = body
        for step in where[:-1]:
            parent = parent[step]
        last = where[-1]
        if kind == "replace":
            parent[last] = draw(VALUES)
        elif kind == "deep":
            parent[last] = draw(DEEP)
        elif kind == "drop":
            parent.pop(last)
        elif isinstance(parent, dict):
            parent[draw(st.one_of(st.text(max_size=6), SURROGATES))] = draw(VALUES)
        else:
            parent.append(draw(VALUES))
    return body


def test_fuzz_of_malformed_requests_never_500_and_a_refusal_changes_nothing(tmp_path):
    """Hypothesis mutates a valid request of every route (and sends broken JSON, wrong content types and odd
    names on the GET/DELETE routes): never a 5xx; a 4xx leaves every file of the games folder byte-identical
    (the game, its undo history); an accepted one is undone before the next example."""
    store = Store(tmp_path / "games")
    app = create_app(store, hosts={"testserver"})
    client = TestClient(app)
    game_with_history(client)
    clean = snapshot(store.folder)
    jobs = app.app.state.jobs  # type: ignore[attr-defined]
    seen: Counter[tuple[str, int]] = Counter()

    @settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data: Any) -> None:
        restore(store.folder, clean)
        before = snapshot(store.folder)
        which = data.draw(st.sampled_from([*TEMPLATES, "raw", "get"]))
        if which == "raw":
            path = data.draw(st.sampled_from([t[1] for t in TEMPLATES.values()]))
            raw = data.draw(st.one_of(st.binary(max_size=40), st.sampled_from(
                [b"{", b"[1]", b'"x"', b"null", b'{"ops": [}', b"\xff\xfe{}", b'{"a": "\\udc80"}',
                 b"[" * 3000, b'{"ops": ' + b"[" * 999 + b"]" * 999 + b"}", b'{"x": 1e999999}'])))
            ctype = data.draw(st.sampled_from(["application/json", "text/plain", "application/json; charset=x"]))
            r = client.post(path, content=raw, headers={"Content-Type": ctype})
        elif which == "get":
            name = data.draw(st.one_of(st.text(max_size=12), st.sampled_from(
                ["..", "%2e%2e", "g%00", "%ff%fe", "g.history", "nope", "%ED%B2%80", "a" * 80])))
            route = data.draw(st.sampled_from(["/api/games/{}", "/api/games/{}/file", "/api/games/{}/edit",
                                               "/api/jobs/{}", "/api/share?path={}", "/api/files/{}",
                                               "/static/{}", "/g/{}?token={}"]))
            method = data.draw(st.sampled_from(["GET", "DELETE", "PUT"]))
            if name in ("g", "new"):
                return
            r = client.request(method, route.format(*[quote(name.encode("utf-8", "surrogatepass"), safe="%")] * 2))
        else:
            method, path, template = TEMPLATES[which]
            r = post_raw(client, path, mutate(template, data.draw))
        seen[(which, r.status_code // 100)] += 1
        assert r.status_code < 500, (which, r.status_code, r.text)
        if 400 <= r.status_code < 500:
            message = r.json()["error"]
            assert message and "\n" not in message and str(tmp_path) not in message, message
            assert snapshot(store.folder) == before, (which, r.text)
        elif r.status_code == 202:
            jobs.cancel(r.json()["id"])

    check()
    jobs.stop_all()
    print(sorted(seen.items()))
    assert all(seen[(which, 4)] for which in [*TEMPLATES, "raw", "get"]), seen  # every route refused something


# -- files a puzzle names ------------------------------------------------------------------------------------

def wordle(dictionary: str) -> dict[str, Any]:
    return {"game": "wordle", "dictionary": dictionary}


def test_a_dictionary_outside_the_games_folder_is_refused(api, tmp_path, monkeypatch):
    """Any path (absolute, relative, `..`, `~`, a symbolic link planted in the folder) is refused with one line
    that names no server path and says the same whether the file exists or not."""
    store, client = api
    secret = tmp_path / "secret.txt"
    secret.write_text("abort\nmoney\n")
    (store.folder / "link.txt").symlink_to(secret)
    (store.folder / "sub").mkdir()
    monkeypatch.chdir(tmp_path)  # a path relative to the server's working directory: refused too
    messages = {}
    for spec in (str(secret), str(tmp_path / "missing.txt"), "secret.txt", "../secret.txt", "~/secret.txt",
                 "link.txt", "sub", "/dev/zero", "/proc/self/environ", "nothing.txt", ".hidden"):
        for body in ({"data": wordle(spec)}, {"text": f'game = "wordle"\ndictionary = {json.dumps(spec)}\n'}):
            before = snapshot(store.folder)
            r = client.post("/api/games", json=body)
            assert r.status_code == 400, (spec, r.text)
            message = r.json()["error"].replace(repr(spec), "SPEC")  # the value sent is said back, nothing else
            assert "SPEC is not a file of the games folder" in message and "\n" not in message, message
            assert str(tmp_path) not in message and str(Path.home()) not in message, message
            assert "abort" not in r.text and "money" not in r.text
            assert snapshot(store.folder) == before
            messages[spec] = message.split(":", 1)[1]  # less the game's name, made of the time
    assert messages[str(secret)] == messages[str(tmp_path / "missing.txt")]  # no existence oracle
    assert messages["secret.txt"] == messages["nothing.txt"]


def test_an_uploaded_word_list_is_read_from_the_folder(api, tmp_path):
    store, client = api
    r = client.post("/api/files", json={"name": "mots.txt", "text": WORDS})
    assert r.status_code == 201 and r.json() == {"file": "mots.txt"}
    assert client.get("/api/files").json() == {"files": ["mots.txt"]}
    r = client.post("/api/games", json={"data": wordle("mots.txt"), "name": "w"})
    assert r.status_code == 201, r.text
    answer = client.post("/api/games/w/solve", json={}).json()["solve"]
    assert str(store.folder) not in json.dumps(answer)
    r = client.post("/api/games/w/edit", json={"ops": [{"op": "append", "key": "guess",
                                                        "value": {"word": "crane", "feedback": "BBBBB"}}],
                                               "solve": {"options": {}}})
    assert r.status_code == 200, r.text
    assert r.json()["solve"]["possible"] == ["PLUMB"]
    before = snapshot(store.folder)
    secret = tmp_path / "secret.txt"
    secret.write_text("abort\n")
    r = client.post("/api/games/w/edit", json={"ops": [{"op": "set", "key": "dictionary", "value": str(secret)}]})
    assert r.status_code == 400 and snapshot(store.folder) == before
    for name, text, field in [("../up.txt", "a", "name"), ("x.toml", "a", "name"), ("mots.txt", "b", "name"),
                              (".h.txt", "a", "name"), ("a/b.txt", "a", "name"), ("ok.txt", "\udc80", "text")]:
        r = post_raw(client, "/api/files", {"name": name, "text": text})
        assert r.status_code == 400 and field in r.json()["error"], (name, r.text)
        assert snapshot(store.folder) == before
    assert (store.folder / "mots.txt").read_text() == WORDS


def test_a_background_answer_reads_files_from_the_folder_only(api, tmp_path):
    """The child process of a background answer is confined too (a game file dropped into the folder that
    names a path outside is refused there, not read)."""
    store, client = api
    import time

    from sleuth.serve.jobs import Jobs

    secret = tmp_path / "secret.txt"
    secret.write_text("abort\nmoney\n")
    (store.folder / "mots.txt").write_text(WORDS)
    jobs = Jobs()
    try:
        outside = jobs.start("evil", f'game = "wordle"\ndictionary = "{secret}"\n', "solve", {}, 60,
                             folder=store.folder)
        inside = jobs.start("fine", 'game = "wordle"\ndictionary = "mots.txt"\n', "solve", {}, 60,
                            folder=store.folder)
        assert outside is not None and inside is not None
        for _ in range(3000):  # a step limit, not a time assertion
            if outside.to_json()["state"] != "running" and inside.to_json()["state"] != "running":
                break
            time.sleep(0.02)
        assert outside.state == "failed" and "not a file of the games folder" in (outside.error or "")
        assert str(tmp_path) not in (outside.error or "").replace(repr(str(secret)), "SPEC")
        assert inside.state == "done", inside.error
        assert inside.result is not None and "ABORT" not in json.dumps(inside.result)
    finally:
        jobs.stop_all()


def test_serve_refuses_to_resume_a_game_whose_word_list_is_outside(tmp_path, monkeypatch):
    """`sleuth serve FILE`: a word list FILE names must be in the games folder (where the server reads it),
    said in one line at the start (exit 2); once copied there, the same file opens."""
    from sleuth.serve import resume

    from tests.conftest import run_cli

    monkeypatch.setenv("SLEUTH_GAMES_DIR", str(tmp_path / "games"))
    (tmp_path / "mots.txt").write_text(WORDS)
    mine = tmp_path / "mine.toml"
    mine.write_text('game = "wordle"\ndictionary = "mots.txt"\n')
    r = run_cli(["serve", str(mine)])
    assert r.code == 2 and "dictionary" in r.err and "games folder" in r.err and r.err.count("\n") == 1, r.err
    store = Store(tmp_path / "games")
    assert [p.name for p in store.folder.iterdir()] == []
    (store.folder / "mots.txt").write_text(WORDS)
    assert store.exists(resume(store, str(mine)))
