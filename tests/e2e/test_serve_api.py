"""The companion's HTTP API (sleuth serve): every route with good and bad input, the token, the host check,
path traversal, body limits, undo/redo, background jobs and concurrent events on one game."""

from __future__ import annotations

import contextlib
import json
import threading
import warnings
from itertools import product
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the 'serve' extra is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

with warnings.catch_warnings():  # starlette asks for httpx2, which is not on PyPI's stable track yet
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

from sleuth.loading import load_puzzle  # noqa: E402
from sleuth.serve import is_loopback, resume  # noqa: E402
from sleuth.serve.app import MAX_BODY, create_app  # noqa: E402
from sleuth.serve.store import Store  # noqa: E402

from tests.conftest import PUZZLES, run_cli  # noqa: E402
from tests.serve_util import call, thread_server  # noqa: E402

CLUE = {"game": "clue", "title": "Test table", "deck": "classic", "players": ["Ann", "Bob", "Cat"],
        "viewer": "Ann", "hands": {"Ann": ["Plum", "Rope", "Hall", "Study", "Knife", "Lounge"]}}
SUGGESTION = {"by": "Bob", "cards": ["Scarlet", "Wrench", "Kitchen"], "shown_by": "Cat"}


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "games")


@pytest.fixture
def client(store: Store) -> TestClient:
    return TestClient(create_app(store, hosts={"testserver"}))


def new_game(client: TestClient, data: dict | None = None) -> str:
    r = client.post("/api/games", json={"data": data or CLUE})
    assert r.status_code == 201, r.text
    return r.json()["name"]


def append(client: TestClient, name: str, value: dict, **solve) -> dict:
    r = client.post(f"/api/games/{name}/edit", json={"ops": [{"op": "append", "key": "suggestion", "value": value}],
                                                     "solve": {"options": solve}})
    assert r.status_code == 200, r.text
    return r.json()


def cli_json(path: Path, *args: str) -> dict:
    result = run_cli(["solve", str(path), "--json", *args])
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_pages_and_assets_come_from_the_server(client, store):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # no CDN, no web font: every asset is local
    raw = client.get("/api/info")
    assert str(store.folder) not in raw.text and str(store.folder.parent) not in raw.text  # no server path
    info = raw.json()
    assets = ["/static/app.js", "/static/app.css", "/static/share.js", "/static/review.js",
              *{url for g in info["games"] for url in g["page"]}]
    assert {"/pages/clue/static/clue.js", "/pages/mascarade/static/mascarade.js"} <= set(assets)
    for asset in assets:
        r = client.get(asset)
        assert r.status_code == 200 and "https://" not in r.text and "@import" not in r.text, asset
    assert client.get("/g/anything").status_code == 200
    assert {g["name"] for g in info["games"]} >= {"clue", "wordle", "mascarade", "epistemic"}
    clue = next(g for g in info["games"] if g["name"] == "clue")
    assert clue["page_info"]["decks"]["classic"]["rooms"][0] == "Kitchen"


def test_game_is_the_puzzle_file_the_cli_reads(client, store):
    name = new_game(client)
    answer = append(client, name, SUGGESTION, probabilities=True)
    path = store.path(name)
    assert client.get(f"/api/games/{name}/file").text == path.read_text()
    expected = cli_json(path, "--probabilities")
    page = answer["solve"]
    for key in ("sheet", "envelope", "probabilities", "deals", "status"):
        assert page[key] == expected[key]
    listed = client.get("/api/games").json()["games"]
    assert [(g["name"], g["game"], g["title"]) for g in listed] == [(name, "clue", "Test table")]


def test_bad_event_names_the_field_and_leaves_the_game_unchanged(client, store):
    name = new_game(client)
    append(client, name, SUGGESTION)
    before = store.path(name).read_bytes()
    bad = [({"by": "Zed", "cards": ["Scarlet", "Rope", "Hall"]}, "suggestion[2].by", "Ann, Bob, Cat"),
           ({"by": "Bob", "cards": ["Scarlet", "Rope", "Halll"]}, "suggestion[2].cards", "Hall"),
           ({"by": "Bob", "cards": ["Scarlet", "Rope"]}, "suggestion[2].cards", None)]
    for value, place, allowed in bad:
        r = client.post(f"/api/games/{name}/edit", json={"ops": [{"op": "append", "key": "suggestion",
                                                                  "value": value}]})
        assert r.status_code == 400
        assert place in r.json()["error"]
        if allowed:
            assert allowed in r.json()["error"]
        assert store.path(name).read_bytes() == before
    for ops, place in [([{"op": "rename", "key": "suggestion"}], "ops[1].op"),
                       ([{"op": "set", "key": "secret", "value": 1}], "ops[1].key"),
                       ([{"op": "delete", "key": "suggestion", "index": 5}], "ops[1].index"),
                       ([{"op": "delete", "key": "suggestion", "index": True}], "ops[1].index"),
                       ([], "ops"), ("x", "ops")]:
        r = client.post(f"/api/games/{name}/edit", json={"ops": ops})
        assert r.status_code == 400 and r.json()["place"] == place, r.text
        assert store.path(name).read_bytes() == before
    assert client.get(f"/api/games/{name}").json()["undo"] == 1


def test_edit_delete_undo_redo(client, store):
    name = new_game(client)
    first = append(client, name, SUGGESTION)["data"]
    second = append(client, name, {"by": "Cat", "cards": ["Green", "Rope", "Hall"], "shown_by": "Ann"})["data"]
    r = client.post(f"/api/games/{name}/edit", json={"ops": [{"op": "replace", "key": "suggestion", "index": 0,
                                                              "value": {**SUGGESTION, "card": "Wrench"}}]})
    assert r.json()["data"]["suggestion"][0]["card"] == "Wrench"
    assert client.post(f"/api/games/{name}/undo", json={}).json()["data"] == second
    assert client.post(f"/api/games/{name}/undo", json={}).json()["data"] == first
    state = client.post(f"/api/games/{name}/redo", json={"solve": {"options": {}}}).json()
    assert state["data"] == second and state["redo"] == 1 and state["solve"]["status"] == "ok"
    assert load_puzzle(store.path(name)).state.suggestions[-1].by == 2
    r = client.post(f"/api/games/{name}/edit", json={"ops": [{"op": "delete", "key": "suggestion", "index": 1}]})
    assert r.json()["data"] == first and r.json()["redo"] == 0  # a new change drops the redo stack
    assert client.post(f"/api/games/{name}/redo", json={}).status_code == 409
    for _ in range(3):
        client.post(f"/api/games/{name}/undo", json={})
    assert client.post(f"/api/games/{name}/undo", json={}).status_code == 409
    assert client.get(f"/api/games/{name}").json()["data"] == {**CLUE}


def test_create_upload_example_and_delete(client, store):
    text = (PUZZLES / "wordle" / "example.toml").read_text()
    r = client.post("/api/games", json={"text": text, "filename": "mine.toml", "name": "today"})
    assert r.status_code == 201 and r.json()["name"] == "today"
    r = client.post("/api/games", json={"text": text, "name": "today"})
    assert r.json()["name"] != "today"  # never overwrites a saved game
    r = client.post("/api/games", json={"example": "epistemic/cheryl"})
    assert r.status_code == 201 and r.json()["game"] == "epistemic"
    for body, status, needle in [({"text": "game = "}, 400, "broken TOML"),
                                 ({"text": 'game = "chess"'}, 400, "unknown game"),
                                 ({"data": [1]}, 400, "data"), ({"example": "clue/nope"}, 400, "no bundled"),
                                 ({"data": CLUE, "name": "../evil"}, 400, "bad table name")]:
        r = client.post("/api/games", json=body)
        assert r.status_code == status and needle in r.json()["error"], r.text
    assert client.delete("/api/games/today").json() == {"deleted": "today"}
    assert client.get("/api/games/today").status_code == 404
    assert client.delete("/api/games/today").status_code == 404
    assert not store.path("today").exists() and not store.path("today", ".history.json").exists()


def test_verify_suggest_and_solve_routes(client):
    name = new_game(client)
    append(client, name, {"by": "Bob", "cards": ["Scarlet", "Wrench", "Kitchen"]})  # nobody showed
    r = client.post(f"/api/games/{name}/verify", json={"claims": ["Cat lacks Wrench", "Bob holds Scarlet"]})
    claims = r.json()["claims"]
    assert [c["verdict"] for c in claims] == ["entailed", "open"]
    assert claims[0]["because"]
    for body, place in [({"claims": ["Cat juggles Rope"]}, "claim[1]"), ({"claims": []}, "claims"),
                        ({"claims": "Cat lacks Rope"}, "claims")]:
        r = client.post(f"/api/games/{name}/verify", json=body)
        assert r.status_code == 400 and place in r.json()["error"]
    r = client.post(f"/api/games/{name}/solve", json={"options": {"probabilities": True}})
    assert r.json()["solve"]["probabilities"]["Rope"]["Ann"] == "1"
    r = client.post(f"/api/games/{name}/solve", json={"options": {"juggle": True}})
    assert r.status_code == 400 and "juggle" in r.json()["error"]
    r = client.post(f"/api/games/{name}/solve", json={"options": {"probabilities": [1]}})
    assert r.status_code == 400 and "options.probabilities" in r.json()["error"]
    r = client.post(f"/api/games/{name}/suggest", json={"options": {"show": "Bob: Plum, Rope, Hall"}})
    assert r.status_code == 200 and r.json()["status"] == "ok"
    r = client.post(f"/api/games/{name}/suggest", json={"options": {"samples": 5}})
    assert r.status_code == 400 and "samples" in r.json()["error"]


def test_jobs_run_in_the_background_and_cancel(client, store):
    name = new_game(client, {"game": "clue", "deck": {"suspects": ["A", "B", "C"], "weapons": ["X", "Y", "Z"],
                                                      "rooms": ["P", "Q", "R"]},
                             "players": ["Ann", "Bob"], "viewer": "Ann", "hands": {"Ann": ["A", "X", "P"]}})
    r = client.post(f"/api/games/{name}/jobs", json={"command": "solve", "options": {"others": True}})
    assert r.status_code == 202
    job = r.json()["id"]
    import time
    for _ in range(3000):  # a step limit, not a time assertion
        state = client.get(f"/api/jobs/{job}").json()
        if state["state"] != "running":
            break
        time.sleep(0.05)
    assert state["state"] == "done", state
    expected = cli_json(store.path(name), "--others")
    assert state["result"]["others"] == expected["others"]
    bad = client.post(f"/api/games/{name}/jobs", json={"command": "rm"})
    assert bad.status_code == 400 and "command" in bad.json()["error"]
    r = client.post(f"/api/games/{name}/jobs", json={"command": "solve", "options": {"juggle": 1}})
    failed = r.json()["id"]
    for _ in range(3000):
        state = client.get(f"/api/jobs/{failed}").json()
        if state["state"] != "running":
            break
        time.sleep(0.05)
    assert state["state"] == "failed" and "juggle" in state["error"]
    assert client.get("/api/jobs/nope").status_code == 404
    assert client.delete("/api/jobs/nope").status_code == 404


def test_cancelling_a_job_ends_its_process_and_no_answer_comes_later(store):
    """A long background answer (15 s of CPU: advice sampled from 100,000 deals of the master detective
    example), cancelled while it runs: its process has ended when the cancel answers, and the job stays
    cancelled without a result (today's state of the art accepted "done" as well)."""
    import os
    import time

    app = create_app(store, hosts={"testserver"})
    client = TestClient(app)
    r = client.post("/api/games", json={"example": "clue/master-detective", "name": "md"})
    assert r.status_code == 201, r.text
    r = client.post("/api/games/md/jobs", json={"command": "suggest", "method": "sampled",
                                                "options": {"samples": 100000}})
    assert r.status_code == 202, r.text
    job_id = r.json()["id"]
    job = app.app.state.jobs.get(job_id)
    for _ in range(3000):  # a step limit: until the child runs (it started from the warm fork server)
        if job.process.pid is not None:
            break
        time.sleep(0.01)
    pid = job.process.pid
    assert client.get(f"/api/jobs/{job_id}").json()["state"] == "running"
    cancelled = client.delete(f"/api/jobs/{job_id}").json()
    assert cancelled["state"] == "cancelled" and cancelled["result"] is None
    assert job.process.exitcode is not None and not job.process.is_alive()
    for _ in range(500):  # reaped by the fork server soon after: then no process has the pid
        status = Path(f"/proc/{pid}/status")
        if not status.exists() or "\nState:\tZ" in status.read_text():
            break
        time.sleep(0.01)
    else:
        pytest.fail(f"process {pid} of the cancelled job still runs")
    with pytest.raises((ProcessLookupError, PermissionError)) if not Path(f"/proc/{pid}").exists() \
            else contextlib.nullcontext():
        os.kill(pid, 0)
    time.sleep(1.0)
    later = client.get(f"/api/jobs/{job_id}").json()
    assert later["state"] == "cancelled" and later["result"] is None and later["error"] is None
    if job.conn.poll():  # the pipe: closed by the ended process (EOF), nothing was sent on it
        with pytest.raises(EOFError):
            job.conn.recv()
    app.app.state.jobs.stop_all()


def test_malformed_requests_get_4xx(client):
    name = new_game(client)
    assert client.post(f"/api/games/{name}/edit", content=b"{", headers={"Content-Type": "application/json"}
                       ).status_code == 400
    assert client.post(f"/api/games/{name}/edit", content=b"[1]", headers={"Content-Type": "application/json"}
                       ).status_code == 400
    assert client.post(f"/api/games/{name}/edit", content=b"{}", headers={"Content-Type": "text/plain"}
                       ).status_code == 415  # a cross-site form cannot send JSON without a preflight
    big = b'{"text": "' + b"x" * (MAX_BODY + 10) + b'"}'
    r = client.post("/api/games", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/games", content=iter([b'{"text": "', b"x" * (MAX_BODY + 10), b'"}']),
                    headers={"Content-Type": "application/json"})  # chunked, no Content-Length
    assert r.status_code == 413
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/games/nope").status_code == 404
    assert client.put(f"/api/games/{name}").status_code in (404, 405)
    assert client.get("/").status_code == 200  # and the server keeps serving


def test_no_path_outside_the_games_folder(client, store, tmp_path):
    secret = tmp_path / "secret.toml"
    secret.write_text('game = "wordle"\n')
    (store.folder / "link.toml").symlink_to(secret)
    for path in ("/api/games/..%2Fsecret", "/api/games/%2E%2E/file", "/api/games/link/file", "/api/games/link",
                 "/static/..%2F..%2Fstore.py", "/static/../store.py", "/api/games/.history/file",
                 "/api/games/a%00b/file"):
        r = client.get(path)
        assert r.status_code in (400, 403, 404), path
        assert "wordle" not in r.text
    r = client.post("/api/games/link/edit", json={"ops": [{"op": "set", "key": "title", "value": "x"}]})
    assert r.status_code in (400, 404) and secret.read_text() == 'game = "wordle"\n'
    assert "link" not in [g["name"] for g in client.get("/api/games").json()["games"]]


def test_token_on_non_loopback_hosts(store):
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    client = TestClient(create_app(store, token="s3cret"))
    assert client.get("/").status_code == 403
    assert client.get("/api/games").status_code == 403
    assert client.get("/static/app.js").status_code == 403
    assert client.get("/api/games?token=wrong").status_code == 403
    assert client.get("/api/games", headers={"X-Sleuth-Token": "s3cret"}).status_code == 200
    page = client.get("/?token=s3cret")
    assert page.status_code == 200 and "sleuth_token=s3cret" in page.headers["set-cookie"]
    assert client.get("/api/games").status_code == 200  # the page's later requests carry the cookie


def test_host_header_checked_on_loopback(store):
    client = TestClient(create_app(store, hosts={"127.0.0.1", "localhost"}), base_url="http://127.0.0.1:8765")
    assert client.get("/api/games").status_code == 200
    assert client.get("/api/games", headers={"Host": "evil.example:8765"}).status_code == 403


def test_concurrent_events_on_one_game_keep_the_log(tmp_path):
    """Twelve clients append at once on a real server: every event is saved exactly once, undo counts them."""
    cards = [("Scarlet", "Wrench", "Kitchen"), ("Green", "Candlestick", "Ballroom"), ("White", "Revolver", "Library")]
    events = [{"by": by, "cards": list(c)} for by, c in product(["Bob", "Cat"], cards)] * 2
    with thread_server(tmp_path / "games") as base:
        status, game = call(base, "POST", "/api/games", {"data": CLUE, "name": "busy"})
        assert status == 201
        results: list[int] = []

        def post(event: dict) -> None:
            results.append(call(base, "POST", "/api/games/busy/edit",
                                {"ops": [{"op": "append", "key": "suggestion", "value": event}]})[0])
        threads = [threading.Thread(target=post, args=(e,)) for e in events]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        status, state = call(base, "GET", "/api/games/busy")
    assert results == [200] * len(events)
    saved = sorted(json.dumps(s, sort_keys=True) for s in state["data"]["suggestion"])
    assert saved == sorted(json.dumps(e, sort_keys=True) for e in events)
    assert state["undo"] == len(events)
    assert len(load_puzzle(tmp_path / "games" / "busy.toml").state.suggestions) == len(events)


def test_serve_resumes_a_file_without_writing_it(store, tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text((PUZZLES / "clue" / "six-players.toml").read_text())
    before = mine.read_bytes()
    name = resume(store, str(mine))
    assert store.exists(name) and mine.read_bytes() == before
    assert resume(store, name) == name and resume(store, str(store.path(name))) == name
    assert resume(store, "example:clue/small-deck").startswith("small-deck")


def test_serve_command_bad_input_and_missing_extra(monkeypatch, tmp_path):
    monkeypatch.setenv("SLEUTH_GAMES_DIR", str(tmp_path / "games"))
    r = run_cli(["serve", str(tmp_path / "missing.toml")])
    assert r.code == 2 and "no such file" in r.err and r.err.count("\n") == 1
    r = run_cli(["serve", "--port", "70000"])
    assert r.code == 2 and "--port" in r.err
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a: None if n == "uvicorn" else real(n, *a))
    r = run_cli(["serve"])
    assert r.code == 2 and "pip install 'sleuth[serve]'" in r.err and r.err.count("\n") == 1


def test_saved_toml_reads_back_as_written():
    """Every bundled puzzle, written by the companion, reads back as the same table (TOML, as the CLI reads)."""
    import tomllib

    from sleuth.files import parse_text
    from sleuth.resources import examples
    from sleuth.serve.store import to_toml

    for example in examples():
        data = parse_text(example.text(), example.ref)
        assert tomllib.loads(to_toml(data)) == {k: v for k, v in data.items() if v != []}, example.ref


def test_saved_toml_round_trip_of_any_plain_table():
    import tomllib

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from sleuth.serve.store import to_toml

    scalar = st.one_of(st.text(max_size=8), st.integers(-10**6, 10**6), st.booleans())
    value = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.text(min_size=1, max_size=5), inner,
                                                                         max_size=3)), max_leaves=12)
    table = st.dictionaries(st.from_regex(r"[a-z_]{1,8}", fullmatch=True), value, max_size=5)

    @settings(deadline=None)  # a shared machine: no per-example time limit
    @given(table)
    def check(data):
        assert tomllib.loads(to_toml(data)) == {k: v for k, v in data.items() if v != []}
    check()


WARM_CHILD = """
import sys
import sleuth.serve.warm
from sleuth.models.clue.game import SPLIT_KERNEL
loaded = set(sys.modules)
from sleuth.resources import find_example
from sleuth.serve.jobs import run_command
example = find_example(sys.argv[1])
run_command(example.text(), example.ref, "solve", {"others": True})
run_command(example.text(), example.ref, "suggest", {"method": "information"})
print(SPLIT_KERNEL.available() == SPLIT_KERNEL.loaded(), sorted(m for m in set(sys.modules) - loaded
                                                                      if m.split(".")[0] in ("sleuth", "numpy")))
"""


@pytest.mark.parametrize("example", ["clue/six-players", "clue/master-detective"])
def test_background_answers_start_from_a_warm_fork_server(example):
    """The fork server the jobs are forked from (where the platform has one) has loaded, before any job,
    sleuth's and numpy's modules a Clue answer imports and, with numba, the compiled kernels: a child imports
    none of them again (0.3 s) and loads no kernel (0.6-0.9 s)."""
    import subprocess
    import sys

    from sleuth.serve import jobs

    if sys.platform == "linux":
        assert jobs.Jobs()._ctx.get_start_method() == "forkserver"
    out = subprocess.run([sys.executable, "-c", WARM_CHILD, example], capture_output=True, text=True, check=True)
    assert out.stdout.split(maxsplit=1) == ["True", "[]\n"], out.stdout
