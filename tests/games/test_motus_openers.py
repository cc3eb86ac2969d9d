"""``experiment wordle --optimal --all-openers`` (:mod:`sleuth.models.motus.openers`): every proof (class-size
bound, one-ply bound, search with cut-off, exact) against brute force on small random dictionaries, normal and
hard mode, with and without a cap; the whole run serially and resumed; and a random sample of the shipped
Wordle certificates derived again."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import pytest

from sleuth.executor import Executor
from sleuth.models.motus import openers as op
from sleuth.models.motus.optimal import Optimal
from sleuth.models.motus.space import game_space

from tests.helpers.motus import INF, opener_totals, random_game as _game

Game = tuple[str, tuple[str, ...], tuple[str, ...]]


def _truth(game: Game, hard: bool, cap: int | None) -> dict[str, int]:
    return opener_totals(game, hard, cap)


@pytest.mark.parametrize(("seed", "hard", "cap"), [(1, False, None), (2, False, 3), (3, True, None), (4, True, 4),
                                                   (5, False, None), (6, True, None)])
def test_every_proof_against_brute_force(seed: int, hard: bool, cap: int | None) -> None:
    game = _game(seed, answers=11, extra=7)
    truth = _truth(game, hard, cap)
    p = op.OpenerProver(game, hard, cap, kernel="python")
    finite = sorted(v for v in truth.values() if v < INF)
    for beta in {finite[0] + 1, finite[len(finite) // 2] + 1, finite[-1] + 1}:
        for g, total in truth.items():
            r = p.decide(g, beta)
            if total < beta:
                assert (r["how"], r["value"]) == ("exact", total), (g, beta)
            else:
                assert r["how"] in ("size", "ply", "search") and beta <= r["value"] <= total, (g, beta, r)
    for g, total in truth.items():  # the one-ply bound is a lower bound, whatever the cut-off
        row = p.row(g)
        ply = p.n + sum(p.ply(a, b) for a, b in p.classes(row))
        assert p.size_bound(row) <= ply <= total or ply >= INF


@pytest.mark.parametrize(("seed", "hard", "cap", "weak"), [(1, False, 6, False), (2, True, 6, False),
                                                           (3, False, None, True), (4, True, 6, True)])
def test_wordle_cuts_against_the_search(seed: int, hard: bool, cap: int | None, weak: bool,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Cuts of the Wordle lists (real words split less evenly than random ones: the one-ply bound and the search
    have work), each opener's total from :meth:`Optimal.guess_value` (itself checked against brute force in
    test_motus_optimal.py); ``weak``: the one-ply bound replaced by the class-size bound, so that the search
    with cut-off decides what it would have."""
    wordle = game_space("wordle")
    rng = random.Random(seed)
    answers = sorted(rng.sample(wordle.answers, 60))
    game: Game = ("words", tuple(answers), tuple(sorted(set(answers) | set(rng.sample(wordle.guesses, 100)))))
    search = Optimal(game_space(game), hard=hard, cap=cap, kernel="python")
    truth = {w: search.guess_value(search.row(w)) for w in game[2]}
    if weak:
        monkeypatch.setattr(op.OpenerProver, "ply", lambda self, a, b: int(self.search.lbt[self.cd, len(a)]))
    p = op.OpenerProver(game, hard, cap, kernel="python")
    seen = set()
    finite = sorted(truth.values())
    for beta in (finite[0] + 1, finite[len(finite) // 4] + 1):
        for g, total in truth.items():
            r = p.decide(g, beta)
            seen.add(r["how"])
            if total < beta:
                assert (r["how"], r["value"]) == ("exact", total), (g, beta)
            else:
                assert beta <= r["value"] <= total, (g, beta, r)
    assert seen == {"size", "search" if weak else "ply", "exact"}


def test_whole_run_resumes_and_certifies(tmp_path: Path) -> None:
    game = _game(11, answers=12, extra=8)
    truth = _truth(game, False, 6)
    best = min(truth.values())
    cert, resume = tmp_path / "cert.jsonl", str(tmp_path / "run.jsonl")
    with Executor(resume=resume, quiet=True) as ex:
        out = op.prove_all(game, False, 6, ex, certificate=str(cert), kernel="python")
    assert out["complete"] and out["total"] == best and truth[out["best"]] == best
    assert out["beta"] == out["incumbent_total"] + 1 and truth[out["incumbent"]] == out["incumbent_total"]
    assert sum(out["counts"].values()) == out["decided"] == len(game[2])
    head, rows = op.read_certificate(str(cert))
    assert head["decided"] == len(rows) == len(game[2]) and head["beta"] == out["beta"]
    for opener, how, value in rows:
        assert (value == truth[opener]) if how == "exact" else (head["beta"] <= value <= truth[opener])
        assert op.recheck(op.OpenerProver(game, False, 6, kernel="python"), head, [opener, how, value])
    assert not op.recheck(op.OpenerProver(game, False, 6, kernel="python"), head, [rows[0][0], "exact", -1])
    with Executor(resume=resume, quiet=True) as ex:  # everything read back: nothing computed again
        again = op.prove_all(game, False, 6, ex, kernel="python", above=out["beta"] - 1)
        assert ex.stats.tasks == 0 and ex.stats.resumed == len(game[2])
    assert again["counts"] == out["counts"]
    wider = op.prove_all(game, False, 6, Executor(quiet=True), kernel="python", above=max(truth.values()))
    assert {e["opener"]: e["total"] for e in wider["exact"]} == truth


DATA = resources.files("sleuth.models.motus") / "data"
SHIPPED = [name for name in (f"wordle-openers-{mode}.jsonl" for mode in ("normal", "hard", "normal-8040"))
           if (DATA / name).is_file()]   # normal-8040: the exact ranking of every opener totalling at most 8,040


def test_the_normal_mode_certificate_is_shipped() -> None:
    assert "wordle-openers-normal.jsonl" in SHIPPED


def test_the_normal_mode_certificate_proves_salet_best_of_all() -> None:
    """Selby's published proof: SALET, 7,920 guesses over the 2,315 answers, is best over every allowed opener;
    the shipped certificate decides all 12,972 openers and says the same."""
    with resources.as_file(DATA / "wordle-openers-normal.jsonl") as path:
        head, rows = op.read_certificate(str(path))
    summary = op.summary(head, rows)
    assert head["openers"] == 12972 and summary["complete"]
    assert (summary["best"], summary["total"]) == ("SALET", 7920)
    assert [(e["opener"], e["total"]) for e in summary["exact"]][:2] == [("SALET", 7920), ("REAST", 7923)]


def test_the_hard_mode_certificate_proves_salet_best_of_all() -> None:
    """Selby's published hard-mode proof: SALET, 8,122 guesses, is best over every allowed opener; the shipped
    hard-mode certificate decides all 12,972 openers and says the same (every exact total below its cut-off)."""
    with resources.as_file(DATA / "wordle-openers-hard.jsonl") as path:
        head, rows = op.read_certificate(str(path))
    summary = op.summary(head, rows)
    assert head["hard"] and head["openers"] == len(rows) == 12972 and summary["complete"]
    assert (summary["best"], summary["total"]) == ("SALET", 8122)
    assert all(e["total"] < head["beta"] for e in summary["exact"])
    assert all(r[2] >= head["beta"] for r in rows if r[1] != "exact")


def test_the_ranking_certificate_agrees_with_the_proof_of_the_best() -> None:
    """The ``--above 8040`` certificate ranks exactly every opener totalling at most 8,040, at least the best 100:
    complete, every other opener proven above 8,040, its exact totals below the best-opener proof's cut-off are the
    exact ones of that proof, and its best 15 are Selby's published ranking (SALET 7,920 ... PRATE 7,958)."""
    with resources.as_file(DATA / "wordle-openers-normal-8040.jsonl") as path:
        head, rows = op.read_certificate(str(path))
    with resources.as_file(DATA / "wordle-openers-normal.jsonl") as path:
        proof_head, proof_rows = op.read_certificate(str(path))
    summary, proof = op.summary(head, rows), op.summary(proof_head, proof_rows)
    assert summary["complete"] and head["beta"] == 8041 and not head["hard"]
    assert all(r[2] >= head["beta"] for r in rows if r[1] != "exact")
    ranked = [(e["opener"], e["total"]) for e in summary["exact"]]
    assert len(ranked) >= 100 and all(t <= 8040 for _, t in ranked)
    assert [e for e in ranked if e[1] < proof_head["beta"]] == [(e["opener"], e["total"]) for e in proof["exact"]]
    selby = [("SALET", 7920), ("REAST", 7923), ("CRATE", 7926), ("TRACE", 7926), ("SLATE", 7928), ("CRANE", 7930),
             ("CARLE", 7937), ("SLANE", 7943), ("CARTE", 7949), ("TORSE", 7950), ("SLANT", 7951), ("TRICE", 7952),
             ("LEAST", 7954), ("TRINE", 7956), ("PRATE", 7958)]
    assert ranked[:15] == selby and ranked[15][1] > 7958


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_certificate_sample_derived_again(name: str) -> None:
    """A random sample of the shipped certificate derived again (each proof kind, the incumbent exactly)."""
    source = DATA / name
    with resources.as_file(source) as path:
        head, rows = op.read_certificate(str(path))
    assert head["decided"] == len(rows) <= head["openers"]
    assert len({r[0] for r in rows}) == len(rows)
    p = op.prover(op.game_of(head), head["hard"], head["cap"])
    summary = op.summary(head, rows)
    if summary["complete"]:
        assert summary["best"] is not None and summary["total"] < head["beta"]
    rng = random.Random(int.from_bytes(name.encode(), "little") ^ 51)
    by_how: dict[str, list[list[object]]] = {h: [r for r in rows if r[1] == h] for h in op.HOW}
    sample = rng.sample(by_how["size"], min(5, len(by_how["size"])))
    sample += rng.sample(by_how["ply"], min(8, len(by_how["ply"])))
    sample += rng.sample(by_how["search"], min(1, len(by_how["search"])))
    sample.append([head["incumbent"], "exact", head["incumbent_total"]])  # the cut-off's own proof
    for record in sample:
        assert op.recheck(p, head, record), record
