"""Mascarade: the seed's numbers, the four methods against each other and a brute force, viewers, scale."""

from __future__ import annotations

import json
import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.models.mascarade import belief, own_card_beliefs, simulate
from sleuth.models.mascarade.analysis import make_tracker, observation_names, replay, run_steps, without
from sleuth.models.mascarade.components import ComponentBelief, Method
from sleuth.models.mascarade.model import build_model, enumerate_belief
from sleuth.models.mascarade.state import SeeStep, SwapStep
from sleuth.models.mascarade.reference import brute_force, marginals_of
from sleuth.models.mascarade.simulation import SWAPS_ONLY, Mix, dumps_toml, to_document
from sleuth.loading import load_data, load_puzzle, loads
from sleuth.results import ClaimSpec, Verdict
from tests.conftest import PUZZLES

EXACT = (Method.AUTO, Method.TREE, Method.STATES, Method.CPSAT)
SEED_SWAPS = [SwapStep(0, 1, None, "s1", 1), SwapStep(1, 2, None, "s2", 2), SwapStep(0, 1, None, "s3", 3)]
SEED_OBS = SeeStep(1, 0, "J1 holds C0", 4)
SEED_MATRIX = [[F(3, 8), F(3, 8), F(1, 4)], [F(3, 8), F(3, 8), F(1, 4)], [F(1, 4), F(1, 4), F(1, 2)]]


def as_matrix(marginals, n_ids):
    return [[row.get(c, F(0)) for c in range(n_ids)] for row in marginals]


# -- the seed -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("method", list(Method))
def test_seed_matrix_example_every_method(method):
    """Section 4.2.3: swaps (0,1), (1,2), (0,1) from the identity give the seed's doubly stochastic matrix."""
    r = run_steps((0, 1, 2), SEED_SWAPS, F(1, 2), method)
    assert as_matrix(r.marginals, 3) == SEED_MATRIX
    assert r.exact
    if method is not Method.MATRIX:
        assert r.support == 6


def test_seed_figure3_pruning_and_history():
    """Figure 3: after J1 holds C0, 'if the first swap did happen, then the second swap could not have'."""
    results = {m: run_steps((0, 1, 2), [*SEED_SWAPS, SEED_OBS], F(1, 2), m) for m in EXACT}
    ref = brute_force((0, 1, 2), [*SEED_SWAPS, SEED_OBS])
    assert ref == {(1, 0, 2): F(2, 3), (2, 0, 1): F(1, 3)}
    for m, r in results.items():
        assert r.marginals == marginals_of(ref, 3), m
        assert r.support == 2
    # the tree keeps the histories: P(swap k) from its leaves equals the brute force over histories
    assert results[Method.TREE].swap_posteriors == {1: F(1, 3), 2: F(1, 3), 3: F(2, 3)}
    tree = ComponentBelief((0, 1, 2), method=Method.TREE, factor=False)
    for s in SEED_SWAPS:
        tree.swap(s.a, s.b, None)
    tree.see(1, 0)
    comp = tree.components[0]
    both = [(int(h[0]) & 1) and (int(h[0]) >> 1 & 1) for h in comp.hist]
    assert comp.rows == 3 and not any(both)       # 3 of 8 leaves survive; none has swaps 1 and 2


def test_matrix_is_labelled_approximate_after_a_reveal_and_how_far_off():
    exact = run_steps((0, 1, 2), [*SEED_SWAPS, SEED_OBS], F(1, 2), Method.STATES)
    approx = run_steps((0, 1, 2), [*SEED_SWAPS, SEED_OBS], F(1, 2), Method.MATRIX)
    assert not approx.exact and "estimate" in approx.note
    errors = [abs(approx.p(i, c) - exact.p(i, c)) for i in range(3) for c in range(3)]
    assert max(errors) == F(1, 15)              # J0 holds C1: matrix 3/5, exact 2/3
    assert approx.p(0, 1) == F(3, 5) and exact.p(0, 1) == F(2, 3)
    # a reveal that was already certain keeps the matrix exact
    r = run_steps((0, 1, 2), [SwapStep(0, 1, None, "s", 1), SeeStep(2, 2, "J2", 2)], F(1, 2), Method.MATRIX)
    assert r.exact


# -- cross-checks on simulated games --------------------------------------------------------------------

def small_games():
    for seed in range(12):
        rng = random.Random(seed)
        n = rng.randint(2, 5)
        middle = rng.choice([0, 0, 2]) if n >= 4 else 0
        g = simulate(n, rng.randint(6, 14), seed, middle=middle)
        if seed % 3 == 0:
            g.swap_probability = F(1, 3)
        yield g


@pytest.mark.parametrize("game", list(small_games()), ids=lambda g: f"{len(g.players)}p{len(g.events)}e")
def test_exact_methods_agree_with_brute_force(game):
    viewers = [None, *range(len(game.players))]
    truth = game.true_placement()
    for v in viewers:
        steps = game.steps_for(v)
        if sum(isinstance(s, SwapStep) and s.outcome is None for s in steps) > 12:
            continue
        ref = brute_force(game.initial, steps, game.swap_probability)
        assert ref.get(truth, 0) > 0                     # the true placement is always possible
        for m, cap in ((Method.AUTO, 1024), (Method.AUTO, 8), (Method.TREE, 0), (Method.STATES, 0)):
            t = make_tracker(game.initial, game.swap_probability, m, tree_cap=cap)
            for s in steps:
                t.swap(s.a, s.b, s.outcome) if isinstance(s, SwapStep) else t.see(s.position, s.identity)
            assert t.distribution() == ref, (m, cap, v)
            assert t.support() == len(ref)
        cp = belief(game, v, Method.CPSAT)
        assert cp.distribution == ref


def test_python_constraint_enumeration_matches_cpsat():
    g = simulate(4, 8, 7, mix=SWAPS_ONLY)
    steps = g.steps_for(None)
    gm = build_model(g.initial, steps, F(1, 2))
    a, na = enumerate_belief(gm, F(1, 2), "cpsat")
    b, nb = enumerate_belief(build_model(g.initial, steps, F(1, 2)), F(1, 2), "python-constraint")
    assert a == b == brute_force(g.initial, steps) and na == nb == 2 ** 8


def test_seed_plain_methods_equal_factored_ones():
    g = simulate(6, 30, 4)
    for m in (Method.TREE, Method.STATES):
        plain = ComponentBelief(g.initial, method=m, factor=False)
        fact = ComponentBelief(g.initial, method=m)
        for s in g.steps_for(2):
            for t in (plain, fact):
                t.swap(s.a, s.b, s.outcome) if isinstance(s, SwapStep) else t.see(s.position, s.identity)
        assert plain.marginals() == fact.marginals() and plain.support() == fact.support()
        assert len(plain.components) == 1


@pytest.mark.parametrize("players", [9, 13])
def test_large_tables_true_placement_possible_and_methods_agree(players):
    for seed in range(3):
        g = simulate(players, 60, seed)
        truth = g.true_placement()
        for v in (None, 0, players - 1):
            auto = belief(g, v)
            assert all(auto.p(p, truth[p]) > 0 for p in range(players))
            states = belief(g, v, Method.STATES)
            assert states.marginals == auto.marginals and states.support == auto.support
            # the marginals of every position sum to 1, and each card's column to its count
            for p in range(players):
                assert sum(auto.marginals[p].values()) == 1
            for c, count in g.multiplicity.items():
                assert sum(auto.p(p, c) for p in range(players)) == count


# -- model details ----------------------------------------------------------------------------------------

def test_identical_cards_do_not_double_worlds():
    # Peasant, Peasant, King: swapping the two Peasants changes nothing
    r = run_steps((0, 0, 1), [SwapStep(0, 1, None, "s", 1)], F(1, 2), Method.STATES)
    assert r.support == 1 and r.p(0, 0) == 1
    r = run_steps((0, 0, 1), [SwapStep(0, 2, None, "s", 1), SwapStep(1, 2, None, "t", 2)], F(1, 2), Method.AUTO)
    assert r.support == 3 and r.p(2, 0) == F(3, 4) and r.p(0, 1) == F(1, 2) and r.p(1, 1) == F(1, 4)
    assert r.support == len(brute_force((0, 0, 1), [SwapStep(0, 2, None, "s", 1), SwapStep(1, 2, None, "t", 2)]))


def test_components_merge_and_split():
    t = ComponentBelief(range(6))
    t.swap(0, 1, None)
    t.swap(2, 3, None)
    assert sorted(sorted(c.positions) for c in t.components if len(c.positions) > 1) == [[0, 1], [2, 3]]
    assert t.support() == 4
    t.swap(1, 2, None)                              # crosses the two components: they merge
    assert sorted(len(c.positions) for c in t.components) == [1, 1, 4]
    t.swap(4, 5, True)                              # a known swap only moves cards
    assert t.marginals()[4] == {5: 1}
    t.see(0, 0)
    t.see(1, 1)                                     # J0 and J1 certain again: split off
    assert sorted(sorted(c.positions) for c in t.components if len(c.positions) > 1) == [[2, 3]]
    assert t.support() == 2


def test_weights_beyond_int64_stay_exact():
    # Two positions swapped-or-not 90 times with p = 1/3: P(unchanged) = (1 + (1/3)^90) / 2
    for m in (Method.STATES, Method.TREE):
        t = ComponentBelief((0, 1), F(1, 3), m if m is Method.STATES else Method.AUTO, tree_cap=4)
        for _ in range(90):
            t.swap(0, 1, None)
        assert t.marginals()[0][0] == (1 + F(1, 3) ** 90) / 2
    # many merged histories with p = 1/2 (counts above 2^62)
    t = ComponentBelief((0, 1, 2), F(1, 2), Method.STATES)
    rng = random.Random(1)
    steps = [SwapStep(*rng.sample(range(3), 2), None, "s", 0) for _ in range(70)]
    for s in steps:
        t.swap(s.a, s.b, None)
    m = make_tracker((0, 1, 2), F(1, 2), Method.MATRIX)
    for s in steps:
        m.swap(s.a, s.b, None)
    assert t.marginals() == m.marginals()           # swaps only: the matrix is exact


def test_prior_zero_and_one():
    steps = [SwapStep(0, 1, None, "s", 1), SeeStep(2, 2, "x", 2)]
    for m in EXACT:
        assert run_steps((0, 1, 2), steps, F(1), m).p(0, 1) == 1
        assert run_steps((0, 1, 2), steps, F(0), m).p(0, 0) == 1


# -- viewers and knowledge --------------------------------------------------------------------------------

GAME = """
game = "mascarade"
players = ["A", "B", "C", "D"]
cards = ["King", "Queen", "Judge", "Thief"]
viewer = "{viewer}"
[[event]]
swap = ["A", "B"]
swapped = true
[[event]]
look = "C"
card = "Judge"
[[event]]
spy = "D"
with = "C"
cards = ["Thief", "Judge"]
swapped = false
[[event]]
fool = "C"
between = ["A", "D"]
swapped = true
"""


def solve_json(text, **options):
    return json.loads(json.dumps(loads(text).solve(options=options).to_json()))


def test_each_viewer_sees_only_their_own_events():
    a = solve_json(GAME.format(viewer="A"))
    # A knows their swap happened (A holds Queen, B holds King) but not the Spy's or the Fool's outcome
    assert a["marginals"]["B"]["King"] == "1"
    assert a["marginals"]["A"]["Queen"] == "1/2" and a["marginals"]["D"]["Thief"] == "1/4"
    c = solve_json(GAME.format(viewer="C"))
    # C looked (Judge) and was the Fool (A and D did swap); C does not know the Spy's outcome
    assert c["marginals"]["C"]["Judge"] == "1/2" and c["marginals"]["A"]["Thief"] == "1/2"
    d = solve_json(GAME.format(viewer="D"))
    # the Spy saw both cards and knows they stayed; D does not know the Fool's outcome
    assert d["marginals"]["C"]["Judge"] == "1" and d["marginals"]["D"]["Thief"] == "1/2"
    # each from their own information: C looked, but then the Spy may have taken the Judge; nobody is sure
    assert d["knowledge"]["C"]["own"] == {"Judge": "1/2", "Thief": "1/2"} and d["knowledge"]["B"]["p"] == "1/2"
    assert d["knows_own_card"] == []
    shorter = GAME.format(viewer="D").split("[[event]]\nspy")[0]
    assert solve_json(shorter)["knows_own_card"] == ["A", "C", "D"]      # B was swapped unseen
    observer = json.loads(json.dumps(load_data(_toml(GAME.format(viewer="A"))).solve().to_json()))
    assert observer["viewer"] == "observer" and observer["support"] > a["support"]


def _toml(text):
    import tomllib
    data = tomllib.loads(text)
    data.pop("viewer")
    return data


def test_knowledge_of_others_matches_each_players_own_belief():
    g = simulate(6, 30, 2)
    rows = own_card_beliefs(g)
    for o in rows:
        own = belief(g, o.player, Method.STATES)
        assert o.available and o.row == own.marginals[o.player]
        assert o.row.get(g.true_placement()[o.player], 0) > 0


def test_public_swap_outcome_is_known_to_all():
    text = GAME.format(viewer="B").replace('swapped = true\n[[event]]\nlook', 'swapped = true\npublic = true\n'
                                                                              '[[event]]\nlook', 1)
    b = solve_json(text)
    assert b["marginals"]["B"]["King"] == "1"


def test_missing_fact_for_the_viewer_is_an_error(cli, tmp_path):
    f = tmp_path / "m.toml"
    f.write_text(GAME.format(viewer="D").replace('cards = ["Thief", "Judge"]\n', ""))
    r = cli(["solve", f])
    assert r.code == 2 and "event[3].cards[1]" in r.err and "Traceback" not in r.err
    # another viewer does not need it; the knowledge table marks D as unknown
    r = cli(["solve", f, "--viewer", "A", "--json"])
    assert r.code == 0
    assert json.loads(r.out)["knowledge"]["D"]["available"] is False


def test_contradiction_names_a_minimal_conflict():
    text = GAME.format(viewer="A") + '[[event]]\nreveal = "B"\ncard = "Queen"\n'
    rep = loads(text).solve()
    assert rep.status.value == "contradiction"
    assert rep.conflict == ("event 1 (A swaps-or-not with B): swapped", "event 5 (reveal B: Queen)")


def test_simulated_document_round_trips():
    g = simulate(5, 25, 9, middle=2)
    doc = loads(dumps_toml(to_document(g, viewer="Cat")))
    assert doc.state.events == g.events and doc.state.initial == g.initial


def test_swap_heavy_mix_still_exact_on_small_tables():
    g = simulate(5, 16, 3, mix=Mix(swap=0.8, announce=0.1, look=0.1, spy=0, fool=0))
    ref = brute_force(g.initial, g.steps_for(None))
    assert belief(g, None, Method.TREE).marginals == marginals_of(ref, 5)


def test_design_example_verbatim():
    text = '''game = "mascarade"
players = ["A", "B", "C", "D"]
cards = ["King", "Queen", "Judge", "Thief"]
viewer = "A"
swap_probability = "1/2"
[[event]]
swap = ["A", "B"]
swapped = true
[[event]]
reveal = "B"
card = "King"
[[event]]
look = "C"
card = "Queen"
'''
    out = solve_json(text)
    assert out["support"] == 1 and out["marginals"]["A"]["Queen"] == "1"
    # C's look (Queen) contradicts C's own information (C never took part in a swap): C's row says so
    assert out["knowledge"]["C"]["available"] is False and "contradict" in out["knowledge"]["C"]["reason"]
    assert out["knows_own_card"] == ["A", "B", "D"]      # B learnt their card from the public reveal


def test_explanations_cpsat_core_and_deletion_are_both_minimal():
    puzzle = load_puzzle(PUZZLES / "mascarade" / "six-players.toml")
    g = puzzle.state
    steps = g.steps_for(puzzle.viewer)
    claims = [ClaimSpec("Dan holds Witch"), ClaimSpec("Ann holds Judge", Verdict.REFUTED)]
    for backend in ("cpsat", "python-constraint"):
        for res, (pos, card, want) in zip(puzzle.verify(claims, backend=backend), [(3, 3, 1), (0, 0, 0)],
                                            strict=True):
            assert res.ok and res.because
            names = observation_names(steps)

            def p_with(keep, names=names, pos=pos, card=card, want=want):
                b = replay(ComponentBelief(g.initial), without(steps, set(names) - set(keep)))
                return b.consistent and b.marginals()[pos].get(card, 0) == want

            assert p_with(res.because)                                  # sufficient
            assert not any(p_with(set(res.because) - {n}) for n in res.because)   # minimal


def test_conflict_the_same_with_both_backends():
    text = GAME.format(viewer="A") + '[[event]]\nreveal = "B"\ncard = "Queen"\n'
    cp = loads(text).solve(backend="cpsat")
    pc = loads(text).solve(backend="python-constraint")
    assert cp.conflict == pc.conflict == ("event 1 (A swaps-or-not with B): swapped", "event 5 (reveal B: Queen)")


@st.composite
def tables(draw):
    n = draw(st.integers(2, 5))
    initial = tuple(draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n)))
    ids = {c: i for i, c in enumerate(dict.fromkeys(initial))}      # identities numbered by first appearance
    initial = tuple(ids[c] for c in initial)
    steps = []
    for k in range(draw(st.integers(0, 12))):
        if draw(st.booleans()) or k < 2:
            a, b = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
            steps.append(SwapStep(a, b, draw(st.sampled_from([None, None, True, False])), f"s{k}", k))
        else:
            steps.append(SeeStep(draw(st.integers(0, n - 1)), draw(st.integers(0, max(initial))), f"o{k}", k))
    prior = draw(st.sampled_from([F(1, 2), F(1, 3), F(0), F(1)]))
    return initial, steps, prior


@settings(max_examples=150, deadline=None)
@given(tables())
def test_property_component_engine_equals_brute_force(case):
    """Random tables with repeated cards, known and unknown swaps, consistent or contradictory sightings."""
    initial, steps, prior = case
    ref = brute_force(initial, steps, prior)
    for m, cap in ((Method.AUTO, 2), (Method.TREE, 0), (Method.STATES, 0)):
        t = make_tracker(initial, prior, m, tree_cap=cap)
        for s in steps:
            if isinstance(s, SwapStep):
                t.swap(s.a, s.b, s.outcome)
            elif not t.see(s.position, s.identity):
                break
        assert t.consistent == bool(ref)
        assert t.distribution() == ref and t.support() == len(ref)


@pytest.mark.parametrize("name", ["thirteen-players.toml", "five-players-middle.toml", "six-players.toml"])
def test_puzzles_cpsat_enumeration_equals_exact_belief(name):
    puzzle = load_puzzle(PUZZLES / "mascarade" / name)
    cp = belief(puzzle.state, puzzle.viewer, Method.CPSAT)
    for m in (Method.AUTO, Method.TREE, Method.STATES):
        r = belief(puzzle.state, puzzle.viewer, m)
        assert r.marginals == cp.marginals and r.support == cp.support
    assert cp.histories >= cp.support
