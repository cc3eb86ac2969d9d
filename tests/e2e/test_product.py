"""The installable product: bundled examples, schemas and docs from one source, the CLI tree, the cache,
output on any terminal, and every command the README and docs/ show."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import sleuth
from sleuth import cache
from sleuth.docgen import render
from sleuth.errors import PuzzleError
from sleuth.registry import all_experiments, all_games
from sleuth.resources import examples, find_example
from sleuth.spec import check_keys
from tests.conftest import PUZZLES, ROOT, run_cli

GAMES = all_games()
EXPERIMENTS = all_experiments()

DOCS = ROOT / "docs"
EXAMPLES = [e.ref for e in examples()]


# -- bundled examples ----------------------------------------------------------------------------------------

def test_every_bundled_puzzle_is_an_example_and_nothing_else_is():
    on_disk = {f"{p.parent.name}/{p.stem}" for p in PUZZLES.glob("*/*.toml") if p.name != "questions.toml"}
    assert set(EXAMPLES) == on_disk
    assert run_cli(["examples"]).out.split() == EXAMPLES


@pytest.mark.parametrize("ref", EXAMPLES)
def test_example_reference_loads_the_same_puzzle_as_the_path(ref):
    by_ref = sleuth.load_puzzle(f"example:{ref}")
    by_path = sleuth.load_puzzle(PUZZLES / f"{ref}.toml")
    assert by_ref.game == by_path.game and [c.text for c in by_ref.claims] == [c.text for c in by_path.claims]


def test_an_example_reference_finds_the_example_the_listing_holds():
    """``example:GAME/NAME`` reads the one file named (not every bundled puzzle, 40-50 ms of each command): the
    same example as the listing, the name in any case, with the prefix or the suffix; a data file beside the
    puzzles, a folder that is not a game's and a game's folder alone are refused, naming the examples."""
    for e in examples():
        for ref in (e.ref, f"example:{e.folder}/{e.name.upper()}", f"{e.ref}{Path(e.resource.name).suffix}"):
            got = find_example(ref)
            assert (got.folder, got.name, got.resource.name) == (e.folder, e.name, e.resource.name)
    for bad in ("egghead/questions", "_private/x", "../clue/small-deck", "clue", "CLUE/small-deck", "chess/x"):
        with pytest.raises(PuzzleError, match="no bundled example") as refused:
            find_example(bad)
        # the game's examples where the folder is a game's, else every example
        named = "egghead/seed_example," if bad.startswith("egghead") else "clue/master-detective,"
        assert named in str(refused.value.allowed)


def test_examples_of_one_game_and_bad_references():
    assert all(r.startswith("clue/") for r in run_cli(["examples", "cluedo"]).out.split())
    res = run_cli(["solve", "example:clue/no-such-game"])
    assert res.code == 2 and "classic-3-players" in res.err and "Traceback" not in res.err
    assert run_cli(["examples", "chess"]).code == 2


def test_standard_input_as_file(monkeypatch, capsys):
    import io

    text = (PUZZLES / "epistemic" / "cheryl.toml").read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    res = run_cli(["solve", "-", "--json"])
    assert res.code == 0 and json.loads(res.out)["count"] == 1


# -- one source of truth for keys: docs, JSON Schema, errors ---------------------------------------------------

@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_docs_generated_parts_are_up_to_date(page):
    text = page.read_text(encoding="utf-8")
    assert render(text) == text, f"run: python -m sleuth.docgen docs  ({page.name} is out of date)"


@pytest.mark.parametrize("game", [g.name for g in GAMES])
def test_every_game_has_its_key_table_and_example_in_docs(game):
    pages = "".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md"))
    for kind in ("keys", "example"):
        assert f"<!-- {kind}:{game} -->" in pages


def test_readme_links_the_docs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in DOCS.glob("*.md"):
        if page.name != "README.md":
            assert f"docs/{page.name}" in readme, page.name
    assert "DESIGN.md" not in readme


@pytest.mark.parametrize("ref", EXAMPLES)
def test_bundled_puzzles_validate_against_their_json_schema(ref):
    jsonschema = pytest.importorskip("jsonschema")
    import tomllib

    data = tomllib.loads(find_example(ref).text())
    res = run_cli(["schema", data["game"]])
    schema = json.loads(res.out)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema)


def test_unknown_key_lists_every_key_allowed_there(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text('game = "clue"\nplayers = ["A", "B", "C"]\n[[suggestion]]\nby = "A"\n'
                 'cards = ["Plum", "Rope", "Hall"]\nshowed = "B"\n', encoding="utf-8")
    res = run_cli(["solve", f])
    assert res.code == 2
    assert "suggestion[1].showed: unknown key 'showed' (allowed: by, card, cards, shown_by)" in res.err


def test_check_keys_reaches_nested_tables():
    spec = next(g for g in GAMES if g.name == "mastermind")
    with pytest.raises(sleuth.PuzzleError, match=r"guess\[1\]\.feedback\.grey.*allowed: black, white"):
        check_keys({"game": "mastermind", "guess": [{"code": "1122", "feedback": {"grey": 1}}]}, spec.all_keys())


@pytest.mark.parametrize("game", [g.name for g in GAMES])
def test_new_prints_a_template_that_solves_as_it_is(game, tmp_path):
    res = run_cli(["new", game])
    assert res.code == 0 and res.out.startswith("#")
    f = tmp_path / "t.toml"
    f.write_text(res.out, encoding="utf-8")
    solved = run_cli(["solve", f, "--json"])
    assert solved.code == 0, solved.err
    assert json.loads(solved.out)["game"] == game


# -- the CLI tree ---------------------------------------------------------------------------------------------

def test_version():
    res = run_cli(["--version"])
    assert res.code == 0 and res.out.strip() == f"sleuth {sleuth.__version__}"
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", sleuth.__version__)
    from importlib.metadata import version
    assert sleuth.__version__ == version("sleuth")  # written in pyproject.toml and sleuth/__init__.py


def test_lazy_package_exports_every_name():
    import importlib
    fresh = importlib.reload(sleuth)
    for name in fresh.__all__:
        assert getattr(fresh, name) is not None
    assert "load_puzzle" in dir(fresh)
    with pytest.raises(AttributeError):
        fresh.no_such_name  # noqa: B018


def test_help_documents_the_exit_statuses():
    for args in (["--help"], ["solve", "--help"], ["verify", "--help"]):
        out = run_cli(args).out
        for code in ("0 ", "1 ", "2 ", "3 ", "4 "):
            assert f"\n  {code}" in out, (args, code)


def test_experiment_help_lists_every_experiment():
    res = run_cli(["experiment", "--help"])
    assert res.code == 0 and all(name in res.out for name in EXPERIMENTS)


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_experiment_name_help(name):
    res = run_cli(["experiment", name, "--help"])
    assert res.code == 0 and "usage:" in res.out and "Traceback" not in res.err


@pytest.mark.parametrize("game", [g.name for g in GAMES])
def test_games_game_lists_options_and_claims(game):
    res = run_cli(["games", game])
    spec = next(g for g in GAMES if g.name == game)
    assert res.code == 0
    for option in spec.options:
        assert option.usage in res.out
    for claim in spec.claims:
        assert claim in res.out


def test_set_keys_are_named_as_set_keys(tmp_path):
    res = run_cli(["solve", "example:clue/classic-3-players", "--set", "room=Hall"])
    assert res.code == 2 and "--set room=VALUE does not apply" in res.err and "--room " not in res.err


@pytest.mark.parametrize("value", ["0", "-1", "nan", "soon", "inf"])
def test_time_limit_must_be_positive(value):
    res = run_cli(["solve", "example:clue/classic-3-players", "--time-limit", value])
    assert res.code == 2 and "--time-limit" in res.err and "Traceback" not in res.err


@pytest.mark.parametrize("command", ["solve", "verify", "suggest"])
def test_every_command_takes_a_time_limit(command):
    res = run_cli([command, "example:cardguess/seed_example", "--time-limit", "30"])
    assert res.code == 0, res.err


def test_contradiction_has_its_own_exit_status(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text('game = "cardguess"\ndeck = { J = 1, Q = 1 }\n[[guess]]\ncard = "J"\ncorrect = false\n'
                 '[[guess]]\ncard = "J"\ncorrect = false\n', encoding="utf-8")
    assert run_cli(["solve", f]).code == 4


# -- output on any terminal -----------------------------------------------------------------------------------

def _run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sleuth", *args], capture_output=True, text=True,
                          env={**os.environ, **env}, encoding="ascii", errors="strict", timeout=300)


def test_ascii_terminal_gets_ascii_not_a_traceback():
    done = _run(["solve", "example:clue/six-players"], PYTHONIOENCODING="ascii")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "+" in done.stdout and "x" in done.stdout
    done = _run(["verify", "example:egghead/seed_example", "--json"], PYTHONIOENCODING="ascii")
    assert done.returncode == 0 and json.loads(done.stdout)["claims"]


def test_clue_sheet_fits_80_columns():
    res = run_cli(["solve", "example:clue/six-players", "--probabilities"])
    assert max(map(len, res.out.splitlines())) <= 80


def test_abbreviated_heads_stay_distinct():
    from sleuth.models.clue.puzzle import abbreviations

    heads = abbreviations(["Alexandra", "Alexander", "Bob", "Envelope"], 5)
    assert len(set(heads)) == 4 and all(len(h) <= 5 for h in heads) and heads[2] == "Bob"


# -- the cache -------------------------------------------------------------------------------------------------

@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SLEUTH_CACHE", str(tmp_path / "c"))
    monkeypatch.delenv("SLEUTH_CACHE_MAX", raising=False)
    monkeypatch.setattr(cache, "_disabled_reason", None)
    return tmp_path / "c"


def test_cache_round_trip_and_checksum(own_cache):
    import numpy as np

    cache.write_bytes("g/a.txt", b"hello")
    assert cache.read_bytes("g/a.txt") == b"hello"
    cache.save_array("g/m.npy", np.arange(10, dtype=np.uint16))
    assert cache.load_array("g/m.npy").tolist() == list(range(10))
    (own_cache / "g" / "a.txt").write_bytes(b"hellO")          # corrupted: detected, removed, never read
    assert cache.read_bytes("g/a.txt") is None and not (own_cache / "g" / "a.txt").exists()
    data = (own_cache / "g" / "m.npy").read_bytes()
    (own_cache / "g" / "m.npy").write_bytes(data[: len(data) - 4])  # truncated
    assert cache.load_array("g/m.npy") is None


def test_cache_evicts_least_recently_used(own_cache, monkeypatch):
    for age, name in enumerate(("a", "b", "c")):              # used in this order, long ago (no clock involved)
        cache.write_bytes(f"x/{name}", b"x" * 1000)
        os.utime(own_cache / "x" / name, (1000 + age, 1000 + age))
    cache.read_bytes("x/a")                                     # a is now the most recently used
    monkeypatch.setenv("SLEUTH_CACHE_MAX", "2300")
    cache.write_bytes("x/d", b"x" * 1000)
    left = sorted(p.name for p in (own_cache / "x").iterdir() if not p.name.endswith(".sha256"))
    assert left == ["a", "d"]


def test_cache_unwritable_folder_degrades_with_a_note(own_cache, monkeypatch, capsys):
    blocker = own_cache.parent / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SLEUTH_CACHE", str(blocker / "cache"))  # cannot be created, even by root
    cache.write_bytes("y/z", b"1")
    assert not cache.enabled() and "cache turned off" in capsys.readouterr().err
    assert cache.read_bytes("y/z") is None


def test_interrupted_write_leaves_no_entry(own_cache):
    def boom(fh):
        fh.write(b"partial")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        cache._atomic_write(own_cache / "k", boom)
    assert not list(own_cache.iterdir())


def test_stale_temporary_files_are_swept(own_cache):
    cache.write_bytes("s/one", b"1")
    stale = own_cache / "s" / f"two{cache._TMP}abc"
    stale.write_bytes(b"partial")
    os.utime(stale, (0, 0))
    fresh = own_cache / "s" / f"three{cache._TMP}abc"
    fresh.write_bytes(b"being written")
    cache.write_bytes("s/four", b"4")
    assert not stale.exists() and fresh.exists() and cache.read_bytes("s/one") == b"1"


def test_cache_commands(own_cache):
    cache.write_bytes("z/one", b"1234")
    res = run_cli(["cache", "info"])
    assert res.code == 0 and str(own_cache) in res.out and "entries: 1" in res.out
    assert run_cli(["cache", "clear"]).code == 0 and cache.info().entries == 0


def test_cache_size_parsing():
    assert cache.parse_size("4G") == 4 * 2**30 and cache.parse_size("500M") == 500 * 2**20
    assert cache.parse_size("1000") == 1000
    with pytest.raises(ValueError):
        cache.parse_size("lots")


def test_the_tests_never_touch_the_user_cache(private_cache):
    assert Path(os.environ["SLEUTH_CACHE"]) == private_cache


# -- every command the README and docs/ show ---------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\b(FILE|NAME|TEXT|GAME|KEY|VALUE)\b")


def _shown_commands() -> list[tuple[str, str]]:
    found = []
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S):
            for line in block.splitlines():
                line = line.split(" # ", 1)[0].strip()
                if line.startswith("sleuth ") and not _PLACEHOLDER.search(line):
                    found.append((page.name, line))
    return found


COMMANDS = _shown_commands()


def _is_long(line: str) -> bool:
    return line.startswith("sleuth experiment") and "--help" not in line


@pytest.mark.parametrize("page,line", [c for c in COMMANDS if not _is_long(c[1])])
def test_shown_command_runs(page, line, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    res = run_cli(shlex.split(line)[1:])
    assert res.code == 0, (page, line, res.err)


@pytest.mark.slow
@pytest.mark.parametrize("page,line", [c for c in COMMANDS if _is_long(c[1])])
def test_shown_experiment_runs(page, line, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    args = [a if not a.startswith("puzzles/") else str(ROOT / a) for a in shlex.split(line)[1:]]
    res = run_cli(args)
    assert res.code == 0, (page, line, res.err)
