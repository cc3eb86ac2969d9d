"""Clue suggestion advice: the exact mutual information between the envelope and the answer, against brute
force over every deal of small decks (every suggestion), ties, the sampled fallback and the command line."""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import random
from collections import defaultdict
from fractions import Fraction

import pytest

from sleuth.models.clue import suggest
from sleuth.models.clue.game import ADVICE_KERNEL
from sleuth.models.clue.counting import Problem, sample_deals
from sleuth.models.clue.brute_force import all_deals, satisfies
from sleuth.models.clue.simulate import simulate
from sleuth.models.clue.state import ClueState
from tests.conftest import PUZZLES
from tests.helpers.clue import SMALL
from tests.helpers.clue import FOUR

CLASSIC = PUZZLES / "clue" / "classic-3-players.toml"
NO_NUMBA = importlib.util.find_spec("numba") is None
ENGINES = ["numpy", pytest.param("compiled", marks=pytest.mark.skipif(NO_NUMBA, reason="numba is not installed"))]


def use_engine(monkeypatch: pytest.MonkeyPatch, engine: str) -> None:
    """Run the exact advice's inner loop in ``engine``: numpy alone, or compiled at every size."""
    if engine == "numpy":
        monkeypatch.setenv(ADVICE_KERNEL.switch, "numpy")
    else:
        monkeypatch.delenv(ADVICE_KERNEL.switch, raising=False)   # compiled whatever the run's switch says
        monkeypatch.setattr(suggest, "KERNEL_FROM", 0)


def brute_information(game: ClueState, by: int, triple: tuple[int, int, int],
                      deals: list[tuple[int, ...]] | None = None) -> float:
    """Mutual information (bits) between the envelope and (shower, card shown), from every listed deal
    (``deals``: the consistent ones, when already listed), in exact fractions up to the final float."""
    obs, n = game.observations(), len(game.players)
    joint: dict[tuple[object, object], Fraction] = defaultdict(Fraction)
    for deal in deals if deals is not None else all_deals(game):
        if deals is None and not satisfies(deal, obs):
            continue
        env = tuple(c for c, q in enumerate(deal) if q == n)
        answers: list[tuple[object, Fraction]] = [(None, Fraction(1))]
        for i in range(1, n):
            q = (by + i) % n
            held = [c for c in triple if deal[c] == q]
            if held:
                answers = [((q, c), Fraction(1, len(held))) for c in held]
                break
        for a, w in answers:
            joint[(env, a)] += w
    total = sum(joint.values())
    p_env: dict[object, Fraction] = defaultdict(Fraction)
    p_ans: dict[object, Fraction] = defaultdict(Fraction)
    for (e, a), w in joint.items():
        p_env[e] += w
        p_ans[a] += w
    return sum(float(w / total) * math.log2(w * total / (p_env[e] * p_ans[a])) for (e, a), w in joint.items())


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("deck", "players", "seed", "games"), [
    pytest.param(SMALL, 3, 3, 1, marks=pytest.mark.slow), (SMALL, 2, 4, 1),
    pytest.param(FOUR, 3, 5, 1, marks=pytest.mark.slow)])
def test_exact_information_matches_brute_force(deck, players: int, seed: int, games: int, engine: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    use_engine(monkeypatch, engine)
    rng = random.Random(seed)
    checked = positive = 0
    for _ in range(games):
        sim = simulate(players, rng, deck=deck)
        for k in range(0, len(sim.suggestions) + 1, 3):
            for viewer in (0, None):
                game = sim.view(viewer, k)
                by = k % players
                triples = list(itertools.product(*(deck.members(c) for c in range(3))))
                got = suggest.exact_information(Problem.from_observations(game, game.observations()), by, triples)
                deals = [d for d in all_deals(game) if satisfies(d, game.observations())]
                for t in triples:
                    want = brute_information(game, by, t, deals)
                    assert math.isclose(got[t].bits, want, rel_tol=1e-9, abs_tol=1e-12), (game, t)
                    checked += 1
                    positive += want > 1e-9
                # equal exact keys are equal values
                for a, b in itertools.combinations(triples, 2):
                    if got[a].key == got[b].key:
                        assert got[a].bits == got[b].bits
    assert checked > 100 and positive > 10


def reference_information(deals: list[tuple[int, ...]], by: int, triple: tuple[int, int, int], n: int) -> float:
    """The sampled estimate deal by deal: plug-in mutual information minus the Miller-Madow correction."""
    joint: dict[tuple[object, object], float] = defaultdict(float)
    for deal in deals:
        env = tuple(c for c, p in enumerate(deal) if p == n)
        answers: list[tuple[object, float]] = [(None, 1.0)]
        for i in range(1, n):
            q = (by + i) % n
            held = [c for c in triple if deal[c] == q]
            if held:
                answers = [((q, c), 1.0 / len(held)) for c in held]
                break
        for a, w in answers:
            joint[(a, env)] += w
    k = float(len(deals))
    p_a: dict[object, float] = defaultdict(float)
    p_e: dict[object, float] = defaultdict(float)
    for (a, e), w in joint.items():
        p_a[a] += w
        p_e[e] += w
    mi = sum(w / k * math.log2(w * k / (p_a[a] * p_e[e])) for (a, e), w in joint.items())
    return max(mi - (len(joint) - len(p_a) - len(p_e) + 1) / (2 * k * math.log(2)), 0.0)


@pytest.mark.parametrize(("players", "k"), [(3, 6), (4, 9), (6, 12)])
def test_sampled_information_matches_deal_by_deal(players: int, k: int) -> None:
    sim = simulate(players, random.Random(players))
    game = sim.view(None, min(k, len(sim.suggestions)))
    deals = sample_deals(Problem.from_observations(game, game.observations()), 300, random.Random(1))
    triples = list(itertools.product(*(game.deck.members(c) for c in range(3))))
    got = suggest.sampled_information(deals, k % players, triples, players)
    want = [reference_information(deals, k % players, t, players) for t in triples]
    assert all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) for a, b in zip(got, want, strict=True))
    assert sum(w > 0 for w in want) > 10


@pytest.mark.parametrize("engine", ENGINES)
def test_integer_sums_give_the_float_sums(monkeypatch: pytest.MonkeyPatch, engine: str) -> None:
    """The exact advice adds counts in float64 when they stay below 2**53, in int64 otherwise: same scores."""
    use_engine(monkeypatch, engine)
    sim = simulate(4, random.Random(7))
    game = sim.view(None, min(8, len(sim.suggestions)))
    prob = Problem.from_observations(game, game.observations())
    triples = list(itertools.product(*(game.deck.members(c) for c in range(3))))
    fast = suggest.exact_information(prob, 1, triples)
    monkeypatch.setattr(suggest, "FLOAT_EXACT", 0)
    wide = suggest.exact_information(prob, 1, triples)
    assert fast.keys() == wide.keys() and len({s.bits for s in fast.values()}) > 5
    for t in triples:
        assert math.isclose(fast[t].bits, wide[t].bits, rel_tol=1e-12, abs_tol=1e-15)
        assert (fast[t].key[0][0] == -1) == (wide[t].key[0][0] == -1)


def test_python_integer_sums_match_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past int64 (forced here) the counts are Python integers: the same scores as brute force, and the same
    exact tie keys as in int64."""
    sim = simulate(3, random.Random(3), deck=SMALL)
    triples = list(itertools.product(*(SMALL.members(c) for c in range(3))))
    for k in range(0, len(sim.suggestions) + 1, 4):
        game = sim.view(None, k)
        prob = Problem.from_observations(game, game.observations())
        monkeypatch.setattr(suggest, "FLOAT_EXACT", 0)
        wide = suggest.exact_information(prob, k % 3, triples)
        monkeypatch.setattr(suggest, "INT_EXACT", 0)
        widest = suggest.exact_information(prob, k % 3, triples)
        monkeypatch.undo()
        deals = [d for d in all_deals(game) if satisfies(d, game.observations())]
        for t in triples:
            assert math.isclose(widest[t].bits, brute_information(game, k % 3, t, deals), rel_tol=1e-9, abs_tol=1e-12)
            assert widest[t].key == wide[t].key


@pytest.mark.skipif(NO_NUMBA, reason="numba is not installed")
@pytest.mark.parametrize(("players", "seed", "turn", "by"), [(3, 1, 7, 1), (5, 2, 10, 0), (6, 3, 12, 2)])
def test_compiled_and_numpy_give_the_same_scores(monkeypatch: pytest.MonkeyPatch, players: int, seed: int,
                                                 turn: int, by: int) -> None:
    """The compiled inner loop and the numpy rounds give the same scores and the same exact tie keys, on
    full-size decks (every suggestion), in float64 and in int64."""
    sim = simulate(players, random.Random(seed))
    game = sim.view(None, min(turn, len(sim.suggestions)))
    prob = Problem.from_observations(game, game.observations())
    triples = list(itertools.product(*(game.deck.members(c) for c in range(3))))
    for float_exact in (suggest.FLOAT_EXACT, 0):
        monkeypatch.setattr(suggest, "FLOAT_EXACT", float_exact)
        use_engine(monkeypatch, "compiled")
        fast = suggest.exact_information(prob, by, triples)
        use_engine(monkeypatch, "numpy")
        slow = suggest.exact_information(prob, by, triples)
        monkeypatch.undo()
        assert fast.keys() == slow.keys() and len({s.bits for s in fast.values()}) > 5
        for t in triples:
            assert math.isclose(fast[t].bits, slow[t].bits, rel_tol=1e-12, abs_tol=1e-15)
            assert fast[t].key == slow[t].key or fast[t].key[0][0] == slow[t].key[0][0] == -1


def test_the_compiled_budget_applies_only_with_the_compiled_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``budget`` but within ``compiled_budget``: exact with the compiled loop, refused without it (the
    refusal names the budget that applied)."""
    sim = simulate(4, random.Random(3))
    game = sim.view(None, min(6, len(sim.suggestions)))
    prob = Problem.from_observations(game, game.observations())
    triples = list(itertools.product(*(game.deck.members(c) for c in range(3))))
    work = suggest.exact_work(prob, triples)
    monkeypatch.delenv(ADVICE_KERNEL.switch, raising=False)
    with pytest.raises(suggest.PastBudget) as past:
        suggest.exact_information(prob, 2, triples, budget=work - 1, compiled_budget=work - 1)
    assert past.value.budget == work - 1
    if not NO_NUMBA:
        assert suggest.exact_information(prob, 2, triples, budget=work - 1, compiled_budget=work) == \
            suggest.exact_information(prob, 2, triples)
    monkeypatch.setenv(ADVICE_KERNEL.switch, "numpy")
    with pytest.raises(suggest.PastBudget) as past:
        suggest.exact_information(prob, 2, triples, budget=work - 1, compiled_budget=work)
    assert past.value.work == work and past.value.budget == work - 1


def test_the_budget_is_read_off_the_shared_pass() -> None:
    """``exact_information(..., budget=B)`` refuses exactly when :func:`exact_work` is past B, naming the work,
    and otherwise gives the scores it gives without a budget."""
    sim = simulate(4, random.Random(3))
    game = sim.view(None, min(6, len(sim.suggestions)))
    prob = Problem.from_observations(game, game.observations())
    triples = list(itertools.product(*(game.deck.members(c) for c in range(3))))
    work = suggest.exact_work(prob, triples)
    assert work > 0
    with pytest.raises(suggest.PastBudget) as past:
        suggest.exact_information(prob, 2, triples, budget=work - 1)
    assert past.value.work == work
    assert suggest.exact_information(prob, 2, triples, budget=work) == suggest.exact_information(prob, 2, triples)


def test_no_consistent_deal_gives_no_scores() -> None:
    sim = simulate(3, random.Random(1), deck=SMALL)
    game = sim.view(0, 0)
    prob = Problem.from_observations(game, game.observations())
    prob.allowed[0] = 0
    assert suggest.exact_information(prob, 0, [(0, 3, 6)]) == {}


def test_suggest_is_exact_and_reports_ties(cli) -> None:
    res = cli(["suggest", CLASSIC, "--json", "--set", "top=324"])
    data = json.loads(res.out)
    assert res.code == 0 and data["estimate"] is False and data["samples"] == 0
    rows = data["ranking"]
    assert len(rows) == 324 and [r["information"] for r in rows] == sorted((r["information"] for r in rows),
                                                                           reverse=True)
    by_rank: dict[int, list[float]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_rank[r["rank"]].append(r["information"])
        assert r["rank"] <= i + 1
    assert any(len(v) > 1 for v in by_rank.values())   # interchangeable cards tie
    assert all(len(set(v)) == 1 for v in by_rank.values())
    assert data["tied_best"] == len(by_rank[1])
    text = cli(["suggest", CLASSIC, "--set", "top=10"]).out
    assert "(tie)" in text and "exact" in text and "lowers the uncertainty about the envelope" in text


def test_sampled_method_and_budget_fallback_are_labelled(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.loads(cli(["suggest", CLASSIC, "--json", "--method", "sampled", "--set", "samples=200"]).out)
    assert data["estimate"] is True and data["samples"] == 200
    monkeypatch.setattr(suggest, "EXACT_BUDGET", 0)
    monkeypatch.setattr(suggest, "COMPILED_BUDGET", 0)
    res = cli(["suggest", CLASSIC, "--json", "--set", "samples=200"])
    data = json.loads(res.out)
    assert data["estimate"] is True and any("past the budget" in n for n in data["notes"])
