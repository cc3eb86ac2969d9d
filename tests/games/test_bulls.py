"""Issue 51: Bulls and Cows as a game (``game = "bulls"``: codes without a repeated symbol, bulls and cows) and
the exact optimum with symmetry reduction (:mod:`sleuth.models.motus.symmetry`), both against brute force."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from sleuth.models.motus.codes import PegSpace
from sleuth.models.motus.optimal_study import cell_value
from sleuth.models.motus.symmetry import SymmetricSearch, orbit_reps

from tests.conftest import run_cli
from tests.helpers.motus_brute import brute_total, pegs_feedback


def _bulls(guess: str, secret: str) -> tuple[int, int]:
    """Bulls and cows by the textbook rule (no repeated symbol on either side)."""
    bulls = sum(g == s for g, s in zip(guess, secret, strict=True))
    return bulls, len(set(guess) & set(secret)) - bulls


def _black(guess: str, secret: str) -> int:
    return sum(g == s for g, s in zip(guess, secret, strict=True))


def _write(tmp_path, text: str):
    path = tmp_path / "b.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("seed", range(6))
def test_possible_codes_are_the_brute_force_ones(tmp_path, seed: int) -> None:
    rng = random.Random(seed)
    symbols = rng.choice(["01234", "ABCDEF", "0123456"])
    length = rng.choice([2, 3, 4])
    codes = ["".join(p) for p in itertools.permutations(symbols, length)]
    secret = rng.choice(codes)
    guesses = rng.sample(codes, 2)
    lines = [f'game = "bulls"\nlength = {length}\nsymbols = "{symbols}"\n']
    for g in guesses:
        b, c = _bulls(g, secret)
        feedback = rng.choice([f"{{ bulls = {b}, cows = {c} }}", '"' + "B" * b + "C" * c + '"'])
        lines.append(f'[[guess]]\ncode = "{g}"\nfeedback = {feedback}\n')
    path = _write(tmp_path, "".join(lines))
    expected = sorted(s for s in codes if all(_bulls(g, s) == _bulls(g, secret) for g in guesses))
    for method in ("table", "model"):
        res = run_cli(["solve", path, "--method", method, "--json"])
        assert res.code == 0, res.err
        assert json.loads(res.out)["possible"] == expected


def test_digits_by_count_and_secret_instead_of_feedback(tmp_path) -> None:
    path = _write(tmp_path, 'game = "bulls"\nsymbols = 10\n[[guess]]\ncode = "0123"\nsecret = "3210"\n'
                            '[[guess]]\ncode = [4, 5, 6, 7]\nfeedback = "-"\n')
    codes = ["".join(p) for p in itertools.permutations("0123456789", 4)]
    expected = sorted(s for s in codes if _bulls("0123", s) == (0, 4) and not set(s) & set("4567"))
    res = run_cli(["solve", path, "--json"])
    assert res.code == 0, res.err
    assert json.loads(res.out)["possible"] == expected
    res = run_cli(["verify", path, "--claim", "answer is 3210", "--json"])
    assert json.loads(res.out)["claims"][-1]["verdict"] == "open"
    res = run_cli(["suggest", path, "--json"])
    assert res.code == 0, res.err
    pick = json.loads(res.out)["suggestion"]
    groups = len({_bulls(pick, s) for s in expected})
    res = run_cli(["suggest", path])
    assert f"its bulls and cows split them into {groups} group" in res.out, res.out


@pytest.mark.parametrize(("text", "needle"), [
    ('[[guess]]\ncode = "0012"\nfeedback = "B"\n', "4 different symbols"),
    ('[[guess]]\ncode = "0123"\nfeedback = "BW"\n', "a B per bull and a C per cow"),
    ('[[guess]]\ncode = "0123"\nfeedback = "BBCCC"\n', "at most 4"),
    ('[[guess]]\ncode = "0123"\nfeedback = { bulls = 3, cows = 2 }\n', "bulls + cows <= 4"),
    ('symbols = "AAB"\n', "2 to 16 different letters or digits"),
    ('length = 5\nsymbols = 4\n', "more positions than symbols"),
])
def test_bad_input_is_one_line(tmp_path, text: str, needle: str) -> None:
    path = _write(tmp_path, 'game = "bulls"\n' + text)
    res = run_cli(["solve", path])
    assert res.code == 2 and needle in res.err and len(res.err.strip().splitlines()) == 1, res.err


def _orbits_by_group(space: PegSpace, prefix: list[str]) -> set[frozenset[str]]:
    """Orbits of the codes under the permutations of positions and symbols that fix every code of
    ``prefix``, by running through the whole group."""
    syms = space.symbols
    orbit: dict[str, set[str]] = {c: {c} for c in space.guesses}
    for perm in itertools.permutations(range(space.pegs)):
        for ren in itertools.permutations(syms):
            to = dict(zip(syms, ren, strict=True))

            def act(code: str, perm=perm, to=to) -> str:
                return "".join(to[code[perm[i]]] for i in range(len(code)))

            if all(act(p) == p for p in prefix):
                for c in space.guesses:
                    orbit[c].add(act(c))
    return {frozenset(v) for v in orbit.values()}


@pytest.mark.parametrize(("family", "pegs", "colours", "prefix"), [
    ("mastermind", 3, 4, []), ("mastermind", 3, 4, ["112"]), ("mastermind", 2, 4, ["12", "13"]),
    ("bullscows", 3, 5, []), ("bullscows", 3, 5, ["123"]), ("black", 3, 3, ["123"])])
def test_orbit_representatives_match_the_group(family: str, pegs: int, colours: int, prefix: list[str]) -> None:
    space = PegSpace(pegs=pegs, colours=colours, family=family)
    orbits = _orbits_by_group(space, prefix)
    import numpy as np

    reps = orbit_reps(space, [space.guess_index[p] for p in prefix], np.arange(len(space.guesses)))
    names = [space.guesses[int(r)] for r in reps]
    assert len(names) == len(orbits)
    assert {next(o for o in orbits if n in o) for n in names} == orbits


FEEDBACK = {"mastermind": pegs_feedback, "black": _black, "bullscows": _bulls}


@pytest.mark.parametrize(("family", "pegs", "colours"), [
    ("mastermind", 2, 3), ("mastermind", 3, 3), ("black", 3, 2), ("black", 2, 4), ("bullscows", 3, 4),
    ("bullscows", 2, 5), ("bullscows", 4, 4)])
@pytest.mark.parametrize("levels", [1, 2, 3])
def test_symmetric_optimum_is_the_brute_force_one(family: str, pegs: int, colours: int, levels: int) -> None:
    space = PegSpace(pegs=pegs, colours=colours, family=family)
    truth = brute_total(space.answers, space.answers, FEEDBACK[family])
    r = SymmetricSearch(space, levels=levels).result()
    assert r["exact"] and r["total"] == truth
    assert any(o["status"] == "exact" and o["total"] == truth for o in r["openers"])


@pytest.mark.parametrize(("family", "pegs", "colours"), [("mastermind", 3, 5), ("bullscows", 4, 5),
                                                         ("black", 3, 4), ("bullscows", 3, 6)])
def test_symmetric_optimum_is_the_plain_search_one(family: str, pegs: int, colours: int) -> None:
    space = PegSpace(pegs=pegs, colours=colours, family=family)
    plain = cell_value(space)
    assert plain["exact"]
    assert SymmetricSearch(space).result()["total"] == plain["total"]


def test_table_cells_with_symmetry_resume_from_the_checkpoint(tmp_path) -> None:
    args = ["experiment", "wordle", "--mastermind-table", "--cells", "bullscows:3x6,mastermind:3x4",
            "--symmetry", "2", "--checkpoint", tmp_path / "made", "--json"]  # the directory is made
    first = run_cli(args)
    assert first.code == 0, first.err
    rows = json.loads(first.out)["cells"]
    assert [(r["family"], r["pegs"], r["colours"], r["total"]) for r in rows] == \
        [("bullscows", 3, 6, cell_value(PegSpace(pegs=3, colours=6, family="bullscows"))["total"]),
         ("mastermind", 3, 4, cell_value(PegSpace(pegs=3, colours=4))["total"])]
    saved = (tmp_path / "made" / "bullscows-3x6.jsonl").read_text().splitlines()
    assert len(saved) > 1 and json.loads(saved[0])["cell"] == rows[0]["cell"]
    again = json.loads(run_cli(args).out)["cells"]
    assert [r["total"] for r in again] == [r["total"] for r in rows]
    assert again[0]["kernel_calls"] < max(1, rows[0]["kernel_calls"])  # the finished classes are read back
    bad = run_cli(["experiment", "wordle", "--mastermind-table", "--cells", "bullscows:5x4"])
    assert bad.code == 2 and "--cells" in bad.err
    bad = run_cli(["experiment", "wordle", "--mastermind-table", "--cells", "bullscows:3x4", "--checkpoint", tmp_path])
    assert bad.code == 2 and "--symmetry" in bad.err and len(bad.err.strip().splitlines()) == 1


def _rows(name: str) -> list[dict]:
    from tests.conftest import ROOT

    text = (ROOT / "models" / "motus" / "data" / name).read_text(encoding="utf-8")
    return [json.loads(line)["r"] for line in text.splitlines()[1:]]


def test_the_shipped_symmetric_table_agrees_with_the_plain_one_and_rederives() -> None:
    """The table run with ``--symmetry 2`` (shipped, resumable): every cell within the plain run's bounds (equal
    where both are exact), and a random sample of its small exact cells derived again."""
    plain = {(r["family"], r["pegs"], r["colours"]): r for r in _rows("mastermind-table.resume")}
    sym = _rows("mastermind-table-symmetric.resume")
    assert sym
    for r in sym:
        o = plain[(r["family"], r["pegs"], r["colours"])]
        assert r["lower"] <= r["upper"]
        assert max(r["lower"], o["lower"]) <= min(r["upper"], o["upper"]), (r, o)
        if r["exact"] and o["exact"]:
            assert r["total"] == o["total"]
    small = [r for r in sym if r["exact"] and 20 <= r["codes"] <= 130 and r["cpu_seconds"] < 1]
    for r in random.Random(51).sample(small, min(4, len(small))):
        space = PegSpace(pegs=r["pegs"], colours=r["colours"], family=r["family"])
        assert SymmetricSearch(space).result()["total"] == r["total"], r
