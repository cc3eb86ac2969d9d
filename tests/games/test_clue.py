"""Clue: exact counting vs brute force and the engine, the rules engine (each rule, soundness, where it
stops short), viewpoints, probabilities, explanations, suggest and the command line."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from math import factorial, prod

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sleuth.models.clue.counter import DealCounter
from sleuth.models.clue.counting import Counts, Problem, brute_force_counts, count_deals, sample_deals
from sleuth.models.clue.state import Deck
from sleuth.models.clue.model import build_model
from sleuth.models.clue.rules import apply_rules
from sleuth.models.clue.sheet import Mark, backbone_sheet, counted_sheet, naive_sheet
from sleuth.models.clue.simulate import simulate
from sleuth.engine import Engine
from sleuth.loading import load_puzzle, loads
from tests.conftest import PUZZLES
from tests.helpers.clue import random_problem

SMALL = Deck(("Ash", "Birch", "Cedar"), ("Axe", "Bow", "Club"), ("Attic", "Barn", "Cellar", "Den"))


def nonzero(d: dict) -> dict:
    return {k: v for k, v in d.items() if v}


# -- counting ------------------------------------------------------------------------------------------

def test_counts_match_brute_force_on_random_small_problems() -> None:
    rng = random.Random(1)
    consistent = 0
    for _ in range(250):
        problem = random_problem(rng)
        fast, slow = count_deals(problem, triples=True), brute_force_counts(problem)
        assert fast.total == slow.total
        assert fast.cells == slow.cells
        assert nonzero(fast.triples) == nonzero(slow.triples)
        assert count_deals(problem).cells == slow.cells
        consistent += fast.total > 0
    assert 50 < consistent < 250  # both consistent and inconsistent cases were exercised


@st.composite
def many_sets(draw: st.DrawFn) -> Problem:
    """A small deck with many short at-least-one sets (some open at different times, so they share a slot)."""
    ns, nw, nr = draw(st.integers(2, 3)), draw(st.integers(2, 3)), draw(st.integers(2, 3))
    cats = (0,) * ns + (1,) * nw + (2,) * nr
    n = draw(st.integers(2, 3))
    free = len(cats) - 3
    sizes = tuple(free // n + (1 if i < free % n else 0) for i in range(n))
    card = st.integers(0, len(cats) - 1)
    some = draw(st.lists(st.tuples(st.integers(0, n - 1), st.frozensets(card, min_size=2, max_size=3)),
                         min_size=2, max_size=7))
    lacks = draw(st.lists(st.tuples(card, st.integers(0, n)), max_size=3))
    allowed = [(1 << (n + 1)) - 1] * len(cats)
    for c, q in lacks:
        allowed[c] &= ~(1 << q)
    return Problem(sizes, cats, allowed, some, set())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(many_sets())
def test_shared_set_slots_and_whole_steps_count_as_brute_force(problem: Problem) -> None:
    """Sets open at different times share one bit of the state; a one-card group's places make one layer
    (:meth:`DealCounter.run`) or one layer each (``per_move``, the draws' order): both count every deal."""
    slow = brute_force_counts(problem)
    assert count_deals(problem, triples=True) == Counts(slow.total, slow.cells, nonzero(slow.triples))
    reduced = problem.propagate()
    if reduced is not None:
        counter = DealCounter(reduced, True)
        assert counter.n_slots <= len(reduced.some)
        assert counter.run() == DealCounter(reduced, True).run(per_move=True)


def test_sets_share_slots_in_some_problems() -> None:
    """The problems :func:`many_sets` draws do exercise shared slots (fewer state bits than sets)."""
    rng = random.Random(9)
    shared = 0
    for _ in range(200):
        problem = random_problem(rng)
        problem = Problem(problem.sizes, problem.card_category, problem.allowed,
                          [(rng.randrange(problem.n), frozenset(rng.sample(range(len(problem.card_category)), 2)))
                           for _ in range(6)], problem.excluded).propagate()
        if problem is not None and problem.some:
            counter = DealCounter(problem, False)
            shared += counter.n_slots < len(problem.some)
            assert count_deals(problem).total == brute_force_counts(problem).total
    assert shared > 10


def test_python_integer_layers_count_the_same() -> None:
    """The object-array path (keys past 62 bits or counts past int64, e.g. big custom decks) on small problems."""
    rng = random.Random(5)
    for _ in range(60):
        problem = random_problem(rng).propagate()
        if problem is None:
            continue
        narrow, wide = DealCounter(problem, True), DealCounter(problem, True, wide=True)
        assert narrow.dtype is np.int64 and wide.dtype is object
        assert narrow.run() == wide.run()


def test_big_deck_counts_are_python_integers() -> None:
    """Six players with the master-detective deck: the counts pass int64 and must still be exact."""
    deck = Deck.named("master-detective")
    sim = simulate(6, random.Random(2), deck=deck)
    problem = Problem.from_observations(game := sim.view(None, 0), game.observations())
    assert DealCounter(problem, False).dtype is object
    counts = count_deals(problem)
    sizes = game.hand_sizes
    deals = len(deck.suspects) * len(deck.weapons) * len(deck.rooms) * factorial(sum(sizes))
    assert counts.total == deals // prod(factorial(h) for h in sizes) > 1 << 63
    room = deck.members(2)[0]
    assert counts.cells[room][len(sizes)] * len(deck.rooms) == counts.total
    assert len(sample_deals(problem, 3, random.Random(0))) == 3


def test_sampler_is_uniform_over_consistent_deals() -> None:
    rng = random.Random(3)
    problem = next(p for p in iter(lambda: random_problem(rng), None) if 5 <= brute_force_counts(p).total <= 12)
    total = brute_force_counts(problem).total
    deals = sample_deals(problem, 200 * total, random.Random(0))
    freq = Counter(deals)
    assert len(freq) == total
    assert max(freq.values()) < 1.5 * min(freq.values())


def small_games(count: int, seed: int):
    rng = random.Random(seed)
    for i in range(count):
        sim = simulate(2 + i % 2, rng, deck=SMALL, max_turns=rng.randint(1, 8))
        yield sim, sim.view(None if i % 3 == 0 else 0)


def test_fast_sheet_equals_engine_backbone_naive_and_brute_force() -> None:
    for sim, game in small_games(16, 5):
        obs = game.observations()
        problem = Problem.from_observations(game, obs)
        counts = count_deals(problem, triples=True)
        fast = counted_sheet(counts)
        cm = build_model(game, obs)
        assert backbone_sheet(cm) == fast
        assert naive_sheet(cm) == fast
        assert counts.total == brute_force_counts(problem).total
        # number of deals, as the engine counts them
        assert Engine(cm.model).count([v for row in cm.holds for v in row]) == counts.total
        assert counts.cells[0][sim.deal[0]] > 0


def test_python_constraint_backend_agrees_on_small_games() -> None:
    for _, game in small_games(4, 9):
        cm = build_model(game, game.observations())
        assert backbone_sheet(cm, "python-constraint") == backbone_sheet(cm, "cpsat")


def test_wrong_accusation_excludes_exactly_one_triple() -> None:
    base = PUZZLES / "clue" / "small-deck.toml"
    with_acc = load_puzzle(base)
    text = base.read_text().split("[[accusation]]")[0]
    without = loads(text, name="no-accusation.toml")
    fixed = loads(text + '\n[[accusation]]\nby = "Bob"\ncards = ["Cedar", "Bow", "Barn"]\ncorrect = true\n')
    a, b, c = with_acc.counts(), without.counts(), fixed.counts()
    assert c.total > 0 and a.total == b.total - c.total
    assert all(x == y - z for ra, rb, rc in zip(a.cells, b.cells, c.cells, strict=True)
               for x, y, z in zip(ra, rb, rc, strict=True))


# -- rules engine --------------------------------------------------------------------------------------

SIX = 'game = "clue"\nplayers = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]\n'
THREE = 'game = "clue"\nplayers = ["Ann", "Bob", "Cat"]\n'


def facts(text: str) -> set[tuple[str, str, str, bool]]:
    puzzle = loads(text)
    result = apply_rules(puzzle.state, puzzle.observations())
    assert result.consistent
    exact = puzzle.sheet()
    assert all(exact.mark(f.card, f.place) is (Mark.YES if f.value else Mark.NO) for f in result.facts)
    g = puzzle.state
    return {(f.rule, g.places[f.place], g.card(f.card), f.value) for f in result.facts}


def suggestion(by: str, cards: list[str], shown_by: str | None = None, card: str | None = None) -> str:
    text = f'\n[[suggestion]]\nby = "{by}"\ncards = {json.dumps(cards)}\n'
    text += f'shown_by = "{shown_by}"\n' if shown_by else ""
    return text + (f'card = "{card}"\n' if card else "")


@pytest.mark.parametrize("rule, text, expected", [
    ("hand disjointness", THREE + '[hands]\nAnn = ["Rope"]\n', ("Bob", "Rope", False)),
    ("observation", THREE + '[hands]\nAnn = ["Rope"]\n', ("Ann", "Rope", True)),
    ("no card shown", THREE + suggestion("Cat", ["Scarlet", "Knife", "Kitchen"]), ("Bob", "Knife", False)),
    ("card shown", THREE + suggestion("Cat", ["Scarlet", "Knife", "Kitchen"])
     + suggestion("Ann", ["Scarlet", "Rope", "Kitchen"], "Bob"), ("Bob", "Rope", True)),
    ("no card shown", THREE + 'viewer = "Cat"\n[hands]\nCat = ["Plum", "Rope", "Hall", "Study", "Knife", "Lounge"]\n'
     + suggestion("Cat", ["Scarlet", "Knife", "Kitchen"]), ("envelope", "Scarlet", True)),
    ("knowing a murder card", THREE + 'viewer = "Cat"\n[hands]\nCat = ["Plum", "Rope", "Hall", "Study", "Knife", '
     '"Lounge"]\n' + suggestion("Cat", ["Scarlet", "Knife", "Kitchen"]), ("envelope", "Mustard", False)),
    ("number of cards ruled out", THREE + '[hands]\nAnn = ["Plum", "Rope", "Hall", "Study", "Knife", "Lounge"]\n',
     ("Ann", "Scarlet", False)),
    ("all but one of a category", 'game = "clue"\nplayers = ["Ann", "Bob"]\n[deck]\nsuspects = ["Ash", "Birch"]\n'
     'weapons = ["Axe", "Bow"]\nrooms = ["Attic", "Barn"]\n[hands]\nAnn = ["Ash"]\n', ("envelope", "Birch", True)),
    ("minimal hitting set", SIX + '[hands]\nBob = ["Hall", "Plum"]\n'
     + suggestion("Ann", ["Scarlet", "Rope", "Kitchen"], "Bob")
     + suggestion("Ann", ["Scarlet", "Knife", "Kitchen"], "Bob")
     + suggestion("Ann", ["Scarlet", "Wrench", "Study"], "Cat"), ("Bob", "Lounge", False)),
    ("repeated pair", SIX + suggestion("Ann", ["Scarlet", "Rope", "Kitchen"], "Bob")
     + suggestion("Bob", ["Scarlet", "Rope", "Kitchen"], "Cat")
     + suggestion("Ann", ["Scarlet", "Wrench", "Study"], "Dan"),
     ("Dan", "Rope", False)),
    ("sole player missing cards", THREE + '[hands]\nCat = ["Scarlet", "Rope", "Kitchen", "Study", "Lounge"]\n'
     + suggestion("Cat", ["Green", "Knife", "Hall"]) + suggestion("Cat", ["Plum", "Knife", "Hall"]),
     ("Cat", "Wrench", False)),
    ("wrong accusation", THREE + 'viewer = "Ann"\n'
     '[hands]\nAnn = ["Plum", "Hall", "Study", "Knife", "Lounge", "Green"]\n'
     + suggestion("Ann", ["Scarlet", "Rope", "Hall"])
     + '\n[[accusation]]\nby = "Bob"\ncards = ["Scarlet", "Rope", "Kitchen"]\ncorrect = false\n',
     ("envelope", "Kitchen", False)),
])
def test_each_rule_derives_its_fact(rule: str, text: str, expected: tuple[str, str, bool]) -> None:
    assert (rule, *expected) in facts(text)


def test_minimal_hitting_set_rule_then_pins_the_last_card() -> None:
    text = (SIX + '[hands]\nBob = ["Hall", "Plum"]\n' + suggestion("Ann", ["Scarlet", "Rope", "Kitchen"], "Bob")
            + suggestion("Ann", ["Scarlet", "Knife", "Kitchen"], "Bob")
            + suggestion("Ann", ["Scarlet", "Wrench", "Study"], "Cat"))
    derived = facts(text)
    # open sets {Rope, Kitchen} and {Knife, Kitchen}, one unknown card: the only minimum hitting set is {Kitchen}
    assert ("minimal hitting set", "Bob", "Rope", False) in derived
    assert ("card shown", "Bob", "Kitchen", True) in derived


def check_rules_sound(games: int, seed: int, every: int, setups: list[tuple[int, bool]]) -> tuple[int, int]:
    """Rules facts and exact facts are true in the real deal; rules ⊆ exact.  Returns (states, gap states).

    ``setups`` cycles through (players, seen by an outside observer?)."""
    rng = random.Random(seed)
    states = short = 0
    for i in range(games):
        players, observer = setups[i % len(setups)]
        sim = simulate(players, rng)
        viewer = None if observer else i % players
        for k in range(i % every, len(sim.suggestions) + 1, every):
            game = sim.view(viewer, k)
            obs = game.observations()
            exact = counted_sheet(count_deals(Problem.from_observations(game, obs)))
            rules = apply_rules(game, obs)
            assert rules.consistent and exact.consistent
            for c, place in enumerate(sim.deal):
                row = exact.marks[c]
                assert row[place] is not Mark.NO and all(m is not Mark.YES for q, m in enumerate(row) if q != place)
                for q, m in enumerate(rules.sheet.marks[c]):
                    assert m is Mark.MAYBE or m is row[q]
            states += 1
            short += rules.sheet.known() < exact.known()
    return states, short


def test_rules_are_sound_and_a_subset_of_the_exact_sheet() -> None:
    states, short = check_rules_sound(60, 11, 6, [(3, False), (4, False), (6, False), (3, True)])
    assert states > 250 and short > 0


@pytest.mark.slow
def test_rules_are_sound_on_thousands_of_games() -> None:
    states, _ = check_rules_sound(2000, 12, 3, [(3, False), (4, False), (6, False), (3, True), (4, True)])
    assert states > 20_000


def test_rules_stop_short_puzzle() -> None:
    puzzle = load_puzzle(PUZZLES / "clue" / "rules-stop-short.toml")
    exact, rules = puzzle.sheet(), puzzle.sheet("rules")
    assert exact.known() > rules.known()
    for spec in puzzle.claims:
        card, place, _ = puzzle.parse_claim(spec)
        assert rules.mark(card, place) is Mark.MAYBE and exact.mark(card, place) is not Mark.MAYBE


# -- viewpoints, probabilities, explanations -----------------------------------------------------------

VIEWED = THREE + 'viewer = "Ann"\n[hands]\nAnn = ["Plum", "Rope", "Hall", "Study", "Knife", "Lounge"]\n' \
    + 'Cat = ["Green"]\n' + suggestion("Ann", ["Green", "Wrench", "Library"], "Bob", "Wrench") \
    + suggestion("Cat", ["Scarlet", "Candlestick", "Kitchen"], "Bob", "Kitchen")


def test_viewer_sees_own_hand_cards_shown_to_them_and_public_events() -> None:
    ann = {o.name for o in loads(VIEWED).observations()}
    assert "Ann's hand" in ann and "Cat's hand" in ann  # written by Ann: Cat's card is one she saw
    assert any(n.endswith("Bob showed Wrench") for n in ann)
    assert any(n.endswith("Bob showed a card") and "Cat:" in n for n in ann)
    cat = {o.name for o in loads(VIEWED, viewer="Cat").observations()}
    assert "Ann's hand" not in cat and "Cat's hand" in cat
    assert any(n.endswith("Bob showed Kitchen") for n in cat)
    assert any(n.endswith("Bob showed a card") and "Ann:" in n for n in cat)
    outside = loads(VIEWED.replace('viewer = "Ann"\n', ""))
    assert outside.state.viewer is None and len(outside.observations()) == len(ann)
    assert loads(VIEWED).sheet().mark(outside.state.card_names.index("Wrench"), 1) is Mark.YES
    assert loads(VIEWED, viewer="Cat").sheet().mark(outside.state.card_names.index("Wrench"), 1) is Mark.MAYBE


def test_probabilities_are_exact_and_match_enumeration() -> None:
    puzzle = load_puzzle(PUZZLES / "clue" / "small-deck.toml")
    report = puzzle.solve(options={"probabilities": True})
    cm = puzzle.clue_model()
    deals = [cm.deal(sol) for sol in cm.engine().backend.solutions(cm.model.observation_lits())]
    assert report.fields["deals"] == len(deals) == 17
    for card, row in report.fields["probabilities"].items():
        assert sum(row.values()) == 1
        for place, p in row.items():
            assert p == Fraction(sum(d[card] == place for d in deals), len(deals))
    triples = Counter(tuple(c for c, place in d.items() if place == "envelope") for d in deals)
    assert {(r["suspect"], r["weapon"], r["room"]): r["p"] for r in report.fields["envelope_probabilities"]} == \
        {t: Fraction(k, len(deals)) for t, k in triples.items()}
    assert report.to_json()["probabilities"]["Bow"]["envelope"] == "15/17"


def test_probabilities_of_a_classic_six_player_state_sum_to_one() -> None:
    puzzle = load_puzzle(PUZZLES / "clue" / "six-players.toml")
    counts = puzzle.counts(triples=True)
    assert counts.total > 10**3
    assert sum(counts.triples.values()) == counts.total
    for row in counts.cells:
        assert sum(row) == counts.total
    for s, w, r in counts.triples:
        assert counts.cells[s][6] >= counts.triples[(s, w, r)]


def test_entailed_claim_names_the_observations_that_force_it(cli) -> None:
    res = cli(["verify", PUZZLES / "clue" / "small-deck.toml", "--json", "--claim", "Bob holds Club",
               "--claim", "not Ann holds Birch", "--claim", "Bob holds Axe"])
    claims = json.loads(res.out)["claims"]
    assert claims[-3]["verdict"] == "entailed"
    assert claims[-3]["because"] == ["suggestion 3 (Ann: Cedar, Club, Attic): Bob showed Club"]
    assert claims[-2]["because"] == ["suggestion 2 (Bob: Birch, Bow, Barn): Ann could not show"]
    assert claims[-1]["verdict"] == "open"
    assert claims[-1]["witness"]["true"]["Axe"] == "Bob" and claims[-1]["witness"]["false"]["Axe"] != "Bob"


# -- command line --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["classic-3-players", "four-players-uneven", "six-players", "master-detective",
                                  "rules-stop-short", "small-deck"])
def test_puzzle_claims_hold(cli, name: str) -> None:
    res = cli(["verify", PUZZLES / "clue" / f"{name}.toml"])
    assert res.code == 0, res.out + res.err


def test_small_golden_puzzle_on_both_backends(cli) -> None:
    outs = [json.loads(cli(["solve", PUZZLES / "clue" / "small-deck.toml", "--json", "--backend", b]).out)
            for b in ("cpsat", "python-constraint")]
    assert outs[0]["sheet"] == outs[1]["sheet"] and outs[0]["envelope"] == outs[1]["envelope"]
    assert outs[0]["sheet"]["Club"] == {"Ann": "no", "Bob": "yes", "envelope": "no"}
    assert cli(["verify", PUZZLES / "clue" / "small-deck.toml", "--backend", "python-constraint"]).code == 0


def test_solve_prints_a_paper_grid_and_json(cli) -> None:
    res = cli(["solve", PUZZLES / "clue" / "classic-3-players.toml"])
    lines = res.out.splitlines()
    assert res.code == 0 and "Knowledge sheet of Ann" in lines[0]
    header = next(line for line in lines if line.startswith("Suspects"))
    assert header.split() == ["Suspects", "Ann", "Bob", "Cat", "Envelope"]
    assert sum(1 for line in lines if line.split() and line.split()[0] in ("Scarlet", "Kitchen", "Rope")) == 3
    data = json.loads(cli(["solve", PUZZLES / "clue" / "classic-3-players.toml", "--json"]).out)
    assert set(data["envelope"]) == {"suspect", "weapon", "room"}
    assert len(data["sheet"]) == 21 and set(data["sheet"]["Rope"]) == {"Ann", "Bob", "Cat", "envelope"}
    probs = json.loads(cli(["solve", PUZZLES / "clue" / "classic-3-players.toml", "--json", "--probabilities"]).out)
    assert all(isinstance(p, str) for row in probs["probabilities"].values() for p in row.values())
    assert probs["sheet"] == data["sheet"]


def test_methods_agree_on_the_six_player_puzzle(cli) -> None:
    sheets = [json.loads(cli(["solve", PUZZLES / "clue" / "six-players.toml", "--json", "--method", m]).out)["sheet"]
              for m in ("count", "backbone")]
    assert sheets[0] == sheets[1]
    rules = json.loads(cli(["solve", PUZZLES / "clue" / "six-players.toml", "--json", "--method", "rules"]).out)
    assert rules["facts"] and all(f["rule"] for f in rules["facts"])


def test_contradiction_names_conflicting_observations(cli) -> None:
    res = cli(["solve", "tests/data/clue/contradiction.toml", "--json"])
    data = json.loads(res.out)
    assert data["status"] == "contradiction"
    assert sorted(data["conflict"]) == ["Ann's hand", "suggestion 1 (Cat: Scarlet, Rope, Kitchen): Ann could not show"]


def test_suggest_ranks_suggestions_and_knows_when_to_accuse(cli) -> None:
    res = cli(["suggest", PUZZLES / "clue" / "classic-3-players.toml", "--json", "--set", "room=Hall",
               "--set", "samples=300"])
    data = json.loads(res.out)
    assert res.code == 0 and data["certain"] is False
    assert {r["room"] for r in data["ranking"]} == {"Hall"}
    infos = [r["information"] for r in data["ranking"]]
    assert infos == sorted(infos, reverse=True) and infos[0] > 0
    solved = THREE + '[hands]\nAnn = ["Plum", "Rope", "Hall", "Study", "Knife", "Lounge"]\n' \
        '\n[[accusation]]\nby = "Bob"\ncards = ["Green", "Wrench", "Library"]\ncorrect = true\n'
    report = loads(solved, viewer="Ann").suggest()
    assert report.fields["certain"] and report.fields["accusation"] == {"suspect": "Green", "weapon": "Wrench",
                                                                        "room": "Library"}
    assert "Accuse now" in report.text


def test_sheet_falls_back_to_the_backbone_past_the_state_budget(monkeypatch) -> None:
    puzzle = load_puzzle(PUZZLES / "clue" / "rules-stop-short.toml")
    fast = puzzle.solve()
    assert fast.fields["method"] == "count" and fast.fields["backend"] is None
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "2K")  # the counting's share of the shared memory budget
    slow = puzzle.solve()
    assert slow.fields["method"] == "model" and slow.fields["backend"] == "cpsat"
    assert slow.fields["sheet"] == fast.fields["sheet"]
    assert any("memory budget" in n for n in slow.notes)


@pytest.mark.parametrize("dtype", [np.int64, object])
@pytest.mark.parametrize("size", [0, 1, 2, 5])
def test_counting_layers_of_any_size_merge_and_sum_exactly(dtype, size):
    """The counting's merge of equal states and its per-state sums, on layers of every size (one state and none
    take shortcuts), against plain Python; object layers hold numbers past 64 bits."""
    from sleuth.models.clue.arrays import distinct as states_alone
    from sleuth.models.clue.arrays import segment_sum, unique

    rng = random.Random(size)
    big = 1 << 70 if dtype is object else 1 << 40
    values = [rng.choice([3, 7, big]) for _ in range(size)]
    distinct, index = unique(np.array(values, dtype=dtype))
    assert distinct.tolist() == sorted(set(values)) and distinct.dtype == np.dtype(dtype)
    alone = states_alone(np.array(values, dtype=dtype))   # the same without the index
    assert alone.tolist() == distinct.tolist() and alone.dtype == np.dtype(dtype)
    assert [distinct[i] for i in index.tolist()] == values
    weights = [rng.choice([1, big, 5]) for _ in range(size)]
    sums = segment_sum(index, np.array(weights, dtype=dtype), distinct.size, dtype)
    assert sums.tolist() == [sum(w for v, w in zip(values, weights, strict=True) if v == d)
                             for d in distinct.tolist()]


@pytest.mark.parametrize("by, room", [("bob", "dining  room"), ("  BOB ", "DINING ROOM"), ("Bob", " Dining\tRoom ")])
def test_suggest_options_fold_names_as_a_file_does(by: str, room: str) -> None:
    """``--set by=`` and ``--set room=`` read a name by the one rule of docs/names.md (:func:`sleuth.schema.fold`):
    a spelling the file accepts for that player or room names the same one there."""
    text = THREE + f'\n[[suggestion]]\nby = "{by}"\ncards = ["Green", "Wrench", "{room}"]\n'
    plain = THREE + '\n[[suggestion]]\nby = "Bob"\ncards = ["Green", "Wrench", "Dining Room"]\n'
    assert loads(text).state.suggestions[0] == loads(plain).state.suggestions[0]
    puzzle = load_puzzle(PUZZLES / "clue" / "classic-3-players.toml")
    canonical = puzzle.suggest(method="sampled", options={"by": "Bob", "room": "Dining Room", "samples": 50})
    folded = puzzle.suggest(method="sampled", options={"by": by, "room": room, "samples": 50})
    assert folded.fields == canonical.fields and folded.fields["by"] == "Bob"
    assert {r["room"] for r in folded.fields["ranking"]} == {"Dining Room"}
