"""Egghead: the question language (CP-SAT vs numpy), the packed master table vs the literal reference,
CP-SAT basic deduction vs the tables, the seed's example, puzzle files and the study's statistics."""

from __future__ import annotations

import itertools
import json
from typing import Any

import numpy as np
import pytest

from sleuth.models.egghead.model import EggheadModel
from sleuth.models.egghead.experiment import convolve_power, pmf, simulate, type_stats, win_probabilities
from sleuth.models.egghead.hands import Setup
from sleuth.models.egghead.questions import CATALOGUE, QuestionDef, hand_variables, load_catalogue, parse
from sleuth.models.egghead.reference import ReferenceTables
from sleuth.models.egghead.rounds import play_round
from sleuth.models.egghead.tables import PackedSpace, PackedTables
from sleuth.engine import Engine
from sleuth.errors import PuzzleError
from sleuth.model import Model
from sleuth.loading import load_puzzle, loads

from tests.conftest import PUZZLES
from tests.helpers.egghead import play, random_game

REQUIRED = ["missing", "sum", "distinct", *(f"count-{v}" for v in range(1, 7)), "pairs", "triples", "even",
            "high", "runs"]

EXTRA_MEANINGS = [
    "players(has(1, 6) and not pair)", "players(hcount(even) >= 2 or hmin > 4)", "sum(odd) - 2 * count(5)",
    "present(low) == absent(high)", "players(hmax <= 3)",
    "3 - count(2..V) + (highest != lowest)", "players(not (only(even) or triple))", "players(hsum < 7)",
]


# -- the catalogue and the language ---------------------------------------------------------------------------

def test_catalogue_has_the_required_questions() -> None:
    assert CATALOGUE.is_file()
    qs = load_catalogue(6)
    ids = [q.qid for q in qs]
    assert len(qs) >= 23 and len(set(ids)) == len(ids)
    assert set(REQUIRED) <= set(ids)
    assert [q.qid for q in load_catalogue(4)].count("count-4") == 1 and "count-5" not in {
        q.qid for q in load_catalogue(4)}


def test_required_meanings_on_the_seed_table() -> None:
    s = Setup(3, 6, 3)
    world = [s.hand_of(h) for h in [(1, 2, 2), (4, 5, 6), (3, 3, 3)]]
    answers = {q.qid: q.compile_for(s).answer(world, [True] * 3) for q in load_catalogue(6)}
    expect = {"missing": 0, "sum": 29, "distinct": 6, "count-1": 1, "count-2": 2, "count-3": 3, "count-4": 1,
              "pairs": 2, "triples": 1, "even": 4, "high": 3, "runs": 1}
    assert {k: answers[k] for k in expect} == expect
    # a rotating moderator B does not see B's cards
    hidden = {q.qid: q.compile_for(s).answer(world, [True, False, True]) for q in load_catalogue(6)}
    assert hidden["missing"] == 3 and hidden["sum"] == 14 and hidden["runs"] == 0


@pytest.mark.parametrize("text", ["count(", "players(pear)", "sum + ", "count(1..)", "foo", "players(hsum 3)",
                                  "1 +* 2", "count(1) $ 2"])
def test_syntax_errors(text: str) -> None:
    with pytest.raises(PuzzleError):
        parse(text, 6)


def _cpsat_answers(questions, setup: Setup, visible: list[bool]) -> dict[tuple[int, ...], list[int]]:  # type: ignore[no-untyped-def]
    """Every world with the answers of all questions, by enumerating one CP-SAT model."""
    m = Model()
    hands = [hand_variables(m, setup, setup.names[p]) for p in range(setup.players)]
    answers = []
    for q in questions:
        ans = m.int_var(-1000, 1000, f"answer {q.qid}")
        m.add(ans == q.cpsat(m, [h for h, v in zip(hands, visible, strict=False) if v]))
        answers.append(ans)
    flat = [x for h in hands for x in h] + answers
    out = {}
    k = setup.hand_size
    for sol in Engine(m, "cpsat").valids(flat):
        world = tuple(setup.hand_of(sol[p * k:(p + 1) * k]) for p in range(setup.players))
        assert world not in out, "every world has exactly one answer per question"
        out[world] = list(sol[setup.players * k:])
    return out


@pytest.mark.parametrize("setup,visible", [(Setup(2, 6, 3), [True, True]), (Setup(3, 4, 2), [True, False, True])])
def test_cpsat_and_numpy_agree_on_every_question(setup: Setup, visible: list[bool]) -> None:
    defs = load_catalogue(setup.values) + [QuestionDef(f"extra-{i}", m, m) for i, m in enumerate(EXTRA_MEANINGS)]
    questions = [qd.compile_for(setup) for qd in defs]
    cp = _cpsat_answers(questions, setup, visible)
    assert len(cp) == setup.n_worlds
    tables = [q.answers_all(visible) for q in questions]
    for world, answers in cp.items():
        got = [int(t[world]) for t in tables]
        assert got == answers, ([setup.hands[h] for h in world],
                                [(q.qid, a, b) for q, a, b in zip(questions, got, answers, strict=False) if a != b])


# -- packed tables ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("setup", [Setup(3, 4, 2), Setup(4, 3, 2), Setup(2, 12, 3)])
def test_packed_operations_match_plain_numpy(setup: Setup) -> None:
    rng = np.random.default_rng(7)
    sp = PackedSpace(setup)
    n, h = setup.players, setup.n_hands
    plain = rng.random((h,) * n) < 0.9
    packed = sp.pack(plain)
    assert np.array_equal(sp.unpack(packed), plain) and sp.count(packed) == plain.sum()
    for axis in range(n):
        counts = plain.sum(axis=axis, keepdims=True)
        for solved in (True, False):
            kept = packed & sp.singleton_keep(packed, axis, solved)
            assert np.array_equal(sp.unpack(kept), plain & ((counts == 1) == solved)), (axis, solved)
        fixed = sp.unpack(sp.fix(packed, axis, 1))
        assert np.array_equal(fixed, np.broadcast_to(np.take(plain, [1], axis=axis), plain.shape))
        world = [int(x) for x in rng.integers(h, size=n)]
        index = list(world)
        index[axis] = slice(None)
        assert list(sp.row(packed, world, axis)) == list(np.flatnonzero(plain[tuple(index)]))
    for qd in load_catalogue(setup.values)[:8]:
        q = qd.compile_for(setup)
        for visible in ([True] * n, [p != 1 for p in range(n)]):
            answers = q.answers_all(visible)
            for a in np.unique(answers):
                assert np.array_equal(sp.unpack(sp.answer_mask(q, int(a), visible)), answers == a), qd.qid


# -- the packed master table against the literal tables -------------------------------------------------------

def test_master_table_matches_the_literal_reference_on_random_games() -> None:
    rng = np.random.default_rng(2024)
    informative = 0
    for game in range(44):
        # mostly 3 players with few values; then 4 and 5 players to exercise every axis of the packed tables
        players, values, size = [(3, 3, 2), (3, 4, 2), (3, 3, 3), (3, 2, 3)][game % 4] if game < 36 else \
            [(4, 3, 2), (5, 2, 2)][game % 2]
        s = Setup(players, values, size)
        qs, ba, moderator, world0, deals, order = random_game(rng, s, game)
        fast, ref = PackedTables(s, ba), ReferenceTables(s, ba)
        got, want = play(fast, s, qs, world0, deals, order, moderator), play(ref, s, qs, world0, deals, order,
                                                                                  moderator)
        assert got == want, (game, players, values, size, ba, moderator)
        if any(ba):
            for p in fast.own:
                assert {tuple(w) for w in np.argwhere(fast.space.unpack(fast.own[p]))} == ref.world_set(p)
        basic = play(PackedTables(s, [False] * players), s, qs, world0, deals, order, moderator)
        informative += got != basic
    assert informative >= 5, "behavioural analysis changed the course of several games"


def test_cpsat_basic_deduction_matches_the_tables() -> None:
    rng = np.random.default_rng(5)
    for game in range(6):
        s = Setup(3, 3, 2)
        qs = [q.compile_for(s) for q in load_catalogue(3)]
        world0 = [s.deal(rng) for _ in range(3)]
        deals = [s.deal(rng) for _ in range(50)]
        order = [int(x) for x in rng.integers(len(qs), size=5)]
        moderator = "rotating" if game % 2 else "external"
        tables = play(PackedTables(s, [False] * 3), s, qs, world0, deals, order, moderator)
        cp = play(EggheadModel(s), s, qs, world0, deals, order, moderator)
        assert cp == tables


# -- the seed's example and the puzzle files ----------------------------------------------------------------

SEED = PUZZLES / "egghead" / "seed_example.toml"


def reference_valids(puzzle: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The puzzle's valids with the seed's literal tables (eq. 2-5, :class:`ReferenceTables`) in place of the
    packed master table, driven through the same rounds."""
    import sleuth.models.egghead.puzzle as egghead_puzzle

    with monkeypatch.context() as m:
        m.setattr(egghead_puzzle, "PackedTables", lambda setup, behavioural, options=None: ReferenceTables(
            setup, behavioural))
        return puzzle.solve(options={"method": "tables"}).to_json()["valids"]


def test_seed_example_valids(cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    res = cli(["solve", SEED, "--json"])
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["status"] == "ok"
    assert data["valids"] == reference_valids(loads(SEED.read_text()), monkeypatch)
    # the seed: A and C learn from B's solve that they hold no 4, 5 or 6; B, dealt a new hand, knows nothing
    assert all(max(hand) <= 3 for p in "AC" for hand in data["valids"][p])
    assert len(data["valids"]["B"]) == Setup(3, 6, 3).n_hands
    assert data["rounds"] == [{"question": "missing", "text": "How many numbers are missing?", "answer": 0,
                               "moderator": "external", "solves": [["B"]], "new_hands": {"B": None}}]


def test_seed_example_claims_and_reference(cli) -> None:  # type: ignore[no-untyped-def]
    claims = [f"{p} has no {v}" for p in "AC" for v in (4, 5, 6)]
    res = cli(["verify", SEED, "--json", *sum((["--claim", c] for c in claims), [])])
    assert res.code == 0
    results = {c["text"]: c for c in json.loads(res.out)["claims"]}
    assert all(results[c]["verdict"] == "entailed" for c in claims)
    # neither the answer nor B's solve alone is enough
    assert all(results[c]["because"] == ["round 1: missing = 0", "round 1, stage 1: B solves"] for c in claims)
    # the literal tables say the same
    s = Setup(3, 6, 3)
    ref = ReferenceTables(s, [True] * 3)
    world = [s.hand_of(h) for h in [(1, 2, 2), (4, 5, 6), (3, 3, 3)]]
    q = next(q for q in load_catalogue(6) if q.qid == "missing").compile_for(s)
    rec = play_round(ref, world, q, None, lambda p: 0)
    assert rec.stages == [[1]]
    assert [s.hands[h] for h in ref.valids(0, world)] == [(1, 1, 2), (1, 2, 2), (1, 2, 3)]


def test_basic_analysis_keeps_the_fourth_card_open(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    p = loads(SEED.read_text().replace('analysis = "behavioural"', 'analysis = "basic"'))
    from sleuth.results import ClaimSpec, Verdict
    res = p.verify([ClaimSpec("A has no 4", Verdict.OPEN), ClaimSpec("A has a 1"), ClaimSpec("B holds 4 5 6")])
    # B solved and was dealt a new hand that B cannot see: B's own knowledge is back to every hand
    assert [r.verdict for r in res] == [Verdict.OPEN, Verdict.ENTAILED, Verdict.OPEN]
    assert "round 1: missing = 0" in res[1].because
    valids = p.solve().to_json()["valids"]
    assert valids == reference_valids(p, monkeypatch) and any(max(hand) > 3 for hand in valids["A"])


def test_python_constraint_backend_gives_the_same_basic_valids() -> None:
    p = loads(SEED.read_text().replace('analysis = "behavioural"', 'analysis = "basic"'))
    assert p.solve(backend="cpsat").fields["valids"] == p.solve(backend="python-constraint").fields["valids"]


def test_two_stage_round_and_partial_analysis(cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    full = json.loads(cli(["solve", PUZZLES / "egghead" / "rotating_two_stages.toml", "--json"]).out)
    assert full["rounds"][-1]["solves"] == [["Bob"], ["Ann"]]
    assert [r["moderator"] for r in full["rounds"]] == ["Ann", "Bob", "Cy"] * 2
    part = json.loads(cli(["solve", PUZZLES / "egghead" / "rotating_partial_ba.toml", "--json"]).out)
    assert part["rounds"][-1]["solves"] == [["Bob"]] and part["analysts"] == ["Cy"]
    assert part["valids"] == reference_valids(load_puzzle(PUZZLES / "egghead" / "rotating_partial_ba.toml"),
                                              monkeypatch)
    assert part["valids"]["Cy"] == full["valids"]["Cy"]


def test_wrong_solves_are_a_contradiction(cli) -> None:  # type: ignore[no-untyped-def]
    text = SEED.read_text().replace('solves = [["B"]]', 'solves = [["A"]]')
    p = loads(text)
    report = p.solve()
    assert report.status.value == "contradiction" and report.conflict == ("round 1: stage 1: A solves",)
    text = SEED.read_text().replace("answer = 0", "answer = 1")
    # a false answer: the CP-SAT core names the answer and the hands it is false on, all of them needed
    assert set(loads(text).solve().conflict) == {"round 1: missing = 1", "A holds 1 2 2", "B holds 4 5 6",
                                                 "C holds 3 3 3"}
    # three 3s on C's cards alone contradict "two cards show a 3"
    text = SEED.read_text().replace('"missing"', '"count-3"').replace("answer = 0", "answer = 2")
    assert set(loads(text).solve().conflict) == {"round 1: count-3 = 2", "C holds 3 3 3"}


def test_viewer_file_judges_on_the_viewer(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli(["verify", PUZZLES / "egghead" / "viewer_cy.toml"])
    assert res.code == 0, res.out
    data = json.loads(cli(["solve", PUZZLES / "egghead" / "viewer_cy.toml", "--json"]).out)
    assert set(data["valids"]) == {"Cy"} and data["undetermined"] == ["Ann", "Bob"]


# -- the study -----------------------------------------------------------------------------------------------

def test_statistics_helpers() -> None:
    assert np.allclose(pmf([1, 1, 3]), [0, 2 / 3, 0, 1 / 3])
    two = convolve_power(np.array([0, 0.5, 0.5]), 2)
    assert np.allclose(two, [0, 0, 0.25, 0.5, 0.25])
    assert win_probabilities([np.array([0, 1.0]), np.array([0, 0, 1.0])]) == [1.0, 0.0]
    tie = win_probabilities([np.array([0, 0.5, 0.5])] * 2)
    assert tie[0] == tie[1] == pytest.approx(0.75)


def test_simulation_counts_every_solve() -> None:
    s = Setup(3, 3, 2)
    qs = [q.compile_for(s) for q in load_catalogue(3)]
    a = simulate(s, qs, [True, False, False], 40, seed=3)
    b = simulate(s, qs, [True, False, False], 40, seed=3)
    assert [r.stages for r in a.records] == [r.stages for r in b.records]
    solves = sum(len(st) for r in a.records for st in r.stages)
    assert solves == sum(len(x) for x in a.solve_rounds) > 0
    assert all(x >= 1 for xs in a.solve_rounds for x in xs)
    stats = type_stats(a, 10)
    assert [t.label for t in stats] == ["BA", "no BA"]
    assert stats[0].observations == a.solve_rounds[0]


def test_experiment_cli_json_and_errors(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    res = cli(["experiment", "egghead", "--players", "3", "--values", "3", "--hand-size", "2", "--rounds", "30",
               "--ba", "0,3", "--json"])
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert [r["ba_players"] for r in data["results"]] == [0, 3]
    assert data["results"][1]["types"][0]["type"] == "BA"
    assert data["results"][0]["types"][0]["cdf"][-1] == pytest.approx(1.0)
    bad = cli(["experiment", "egghead", "--ba", "9"])
    assert bad.code == 2 and "--ba" in bad.err and "Traceback" not in bad.err
    bad = cli(["experiment", "egghead", "--questions", "sum,nope"])
    assert bad.code == 2 and "nope" in bad.err


def test_experiment_plot(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    out = tmp_path / "cdf.png"
    res = cli(["experiment", "egghead", "--players", "3", "--values", "3", "--hand-size", "2", "--rounds", "20",
               "--ba", "1", "--plot", out])
    assert res.code == 0, res.err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_hand_is_numbered_in_order() -> None:
    s = Setup(3, 6, 3)
    assert s.n_hands == len(s.hands) == 56
    assert list(s.hands) == sorted(itertools.combinations_with_replacement(range(1, 7), 3))
