"""Events beyond public announcements: product update, factual change, private and semi-private events,
common and distributed knowledge, after(), checked against the plain explicit-state reference."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.epistemic import ExplicitState
from sleuth.formula import parse, to_text
from sleuth.models.epistemic import classic, reference, russian
from sleuth.loading import load_data
from tests.conftest import PUZZLES, run_cli
from tests.helpers.epistemic import random_action, random_worlds

EPI = PUZZLES / "epistemic"


@settings(max_examples=60, deadline=None)
@given(st.data(), st.booleans(), st.booleans())
def test_product_update_matches_the_reference(data, s5, learn):
    """Random worlds, two observing agents, a random action model (preconditions, factual change, partition
    or belief relations, a learnt value), then a public announcement: every operator agrees with the
    explicit Kripke model, world by world."""
    sizes, table, obs, views, ref = random_worlds(data)
    state = ExplicitState(table, {a: o for a, o in obs.items()})

    action, ref_events, erel, told = random_action(data, sizes, s5, learn)
    after = state.update(action)
    ref_after = reference.product(ref, ref_events, {a: [set(r) for r in rs] for a, rs in erel.items()},
                                  (lambda w: w[2], told) if learn else None, views)
    assert [tuple(r) for r in after.table.data.tolist()] == ref_after.worlds
    assert set(np.flatnonzero(after.designated_mask()).tolist()) == ref_after.designated

    for model, kripke in ((after, ref_after),
                          (after.announce("v0 != 1"), reference.restrict(
                              ref_after, {w for w, x in enumerate(ref_after.worlds) if x[0] != 1}))):
        p = lambda v, kripke=kripke: kripke.worlds[v][0] == 1   # noqa: E731
        assert model.truth("knows(a, v0 == 1)").tolist() == reference.k(kripke, "a", p)
        assert model.truth("knows(b, not (v0 == 1))").tolist() == reference.k(kripke, "b", lambda v, p=p: not p(v))
        assert model.truth("common([a, b], v0 == 1)").tolist() == reference.common(kripke, ["a", "b"], p)
        assert model.truth("common(all, v0 != 1)").tolist() == reference.common(kripke, ["a", "b"],
                                                                                lambda v, p=p: not p(v))
        assert model.truth("distributed(all, v0 == 1)").tolist() == reference.distributed(kripke, ["a", "b"], p)
        # knows the value of v1: the same value in every world considered possible
        same = [len({kripke.worlds[v][1] for v in kripke.rel["a"][w]}) <= 1 for w in range(len(kripke.worlds))]
        assert model.truth("knows(a, v1)").tolist() == same
        # after(f, g): where f holds, g in the model restricted to f
        keep = {w for w, x in enumerate(kripke.worlds) if x[1] == 0}
        sub = reference.restrict(kripke, keep)
        g = reference.k(sub, "b", lambda v, sub=sub: sub.worlds[v][0] == 1)
        order = sorted(keep)
        expect = [True] * len(kripke.worlds)
        for i, w in enumerate(order):
            expect[w] = g[i]
        assert model.truth("after(v1 == 0, knows(b, v0 == 1))").tolist() == expect


def test_common_knowledge_is_everybody_knows_iterated():
    """On the consecutive-numbers chain C(f) equals E^k(f) for k past the diameter (S5 components)."""
    puzzle = load_data(classic.consecutive_numbers(8))
    state = puzzle.final_state(after=0)
    f = "a <= 7"
    iterated = state.truth(f)
    for _ in range(state.size + 1):   # E(f), E(E(f)), ...
        iterated = state.relation("Anne").all(iterated) & state.relation("Bill").all(iterated)
    assert state.common_knowledge(f).tolist() == iterated.tolist()
    assert not state.common_knowledge(f).all() and state.common_knowledge(f).any()


@pytest.mark.parametrize("n", range(3, 11))
def test_drinking_logicians_smcdel_thirsty_check(n):
    """SMCDEL's thirstyCheck, valid for 3..10 logicians, at the actual world (everyone wants beer)."""
    puzzle = load_data(classic.drinking_logicians(n))
    state = puzzle.final_state(after=0)
    assert state.truth(classic.drinking_check(n))[state.point]
    final = puzzle.final_state()
    assert final.count == 2 and final.truth(f"knows(L{n}, min({', '.join(f'w{i}' for i in range(1, n + 1))}))").all()


@pytest.mark.parametrize("n", [3, 4])
def test_muddy_children_some_hear_matches_the_reference(n):
    for hearers in range(1, n + 1):
        for muddy in range(1, n + 1):
            expected = reference.muddy_some_hear(n, muddy, hearers)
            puzzle = load_data(classic.muddy_some_hear(n, muddy, hearers, len(expected) - 1))
            rows = []
            for after in range(1, len(expected) + 1):
                state = puzzle.final_state(after=after)
                rows.append([i for i in range(n) if state.truth(f"knows(c{i + 1}, m{i + 1})")[state.point]])
            assert rows == expected, (hearers, muddy)


def test_consecutive_numbers_match_the_reference():
    top = 12
    worlds = [(a, b) for a in range(top + 1) for b in range(top + 1) if abs(a - b) == 1]
    anne, bill = (lambda w: w[1]), (lambda w: w[0])
    value_a, value_b = (lambda w: w[0]), (lambda w: w[1])
    for view, value, knows in ((anne, value_a, False), (bill, value_b, False), (anne, value_a, True),
                               (bill, value_b, True)):
        kn = reference.knows_value(worlds, view, value)
        worlds = [w for w in worlds if (w in kn) == knows]
    report = load_data(classic.consecutive_numbers(top)).solve()
    assert sorted((r["a"], r["b"]) for r in report.fields["worlds"]) == sorted(worlds)
    assert {(2, 1), (3, 2)} <= set(worlds)


def test_russian_cards_checks_and_unsafe_announcements():
    start, point = russian.state()
    assert start.count == 140
    safe = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (2, 4, 6)]
    assert all(start.truth(f)[point] for f in russian.check_set(safe))
    # Carol holds 6: "012 or 346" and "012 or 013" both tell her something; a list without Alice's hand is false
    for unsafe in ([(0, 1, 2), (3, 4, 6)], [(0, 1, 2), (0, 1, 3)]):
        assert not all(start.truth(f)[point] for f in russian.check_set(unsafe))
    assert not start.truth(russian.alice_says([(0, 3, 4), (1, 3, 5)]))[point]
    assert russian.safe_announcements([tuple(safe), ((0, 1, 2), (3, 4, 6))]) == [tuple(safe)]


def test_russian_cards_102_safe_announcements_as_smcdel():
    """SMCDEL test suite: ``length (filter checkSet allHandLists) === 102`` (lists of 5 to 7 hands)."""
    lists = list(russian.hand_lists())
    assert len(lists) == 1290
    safe = russian.safe_announcements(lists)
    assert len(safe) == 102 and all((0, 1, 2) in s for s in safe)


COIN = {
    "game": "epistemic", "title": "coin",
    "variables": {"coin": ["heads", "tails"], "flipped": [0, 1]},
    "worlds": [{"coin": "heads", "flipped": 0}],
    "agents": {"Anne": [], "Bob": []},
    "actual": {"coin": "heads", "flipped": 0},
    "event": [{"kind": "action", "by": "Anne", "actual": "tails",
               "events": [{"name": "heads", "set": {"coin": "heads", "flipped": 1}},
                          {"name": "tails", "set": {"coin": "tails", "flipped": 1}}],
               "observers": {"Anne": [["heads"], ["tails"]], "Bob": [["heads", "tails"]]}}],
}


def test_action_model_coin_flip_seen_by_one():
    """Anne flips a coin and looks; Bob sees the flip, not the side."""
    puzzle = load_data(COIN)
    report = puzzle.solve()
    assert report.fields["count"] == 2 and report.fields["steps"][0]["kind"] == "action"
    state = puzzle.final_state()
    at = state.point
    assert state.truth("knows(Anne, coin == 'tails')")[at] and not state.truth("knows(Bob, coin)")[at]
    assert state.truth("knows(Bob, knows(Anne, coin))")[at] and state.truth("common(all, flipped == 1)")[at]
    assert state.truth("distributed(all, coin == 'tails')")[at]


def test_private_announcement_leaves_the_others_believing_nothing_happened():
    doc = dict(COIN, event=[{"kind": "private", "to": ["Anne"], "set": {"coin": "tails"}}])
    state = load_data(doc).final_state()
    at = state.point
    assert state.size == 2 and state.count == 1
    assert state.truth("believes(Bob, coin == 'heads') and believes(Anne, believes(Bob, coin == 'heads'))")[at]
    assert not state.relation("Bob").s5 and state.relation("Anne").s5   # Bob believes, Anne still knows
    assert not state.truth("knows(Bob, coin == 'tails')")[at]


def test_an_agent_who_observes_nothing_knows_only_what_holds_everywhere():
    doc = {"game": "epistemic", "variables": {"x": "1..3"}, "agents": {"blind": [], "seer": ["x"]}}
    state = load_data(doc).final_state()
    assert not state.truth("knows(blind, x)").any() and state.truth("knows(blind, x >= 1)").all()
    assert state.truth("knows(seer, x)").all()


@pytest.mark.parametrize("event,needle", [
    ({"kind": "secret", "formula": "x == 1"}, "kind"),
    ({"kind": "semi-private", "to": ["a"]}, "learn"),
    ({"kind": "private", "to": ["nobody"], "formula": "x == 1"}, "nobody"),
    ({"kind": "private", "to": ["a"], "set": {"x": "x + 1"}}, "outside its domain"),
    ({"kind": "private", "to": ["a"], "set": {"y": "1"}}, "y"),
    ({"kind": "action", "events": [{"name": "e"}, {"name": "f"}],
      "observers": {"a": {"e": ["f"], "f": ["e"]}}}, "belief relation"),
    ({"kind": "action", "events": [{"name": "e"}, {"name": "f"}], "observers": {"a": [["e"]]}}, "in no block"),
    ({"kind": "action", "events": [{"name": "e"}], "actual": "g"}, "g"),
])
def test_bad_events_exit_2_with_one_line(tmp_path, event, needle):
    doc = {"game": "epistemic", "variables": {"x": "1..3"}, "agents": {"a": ["x"], "b": []}, "event": [event]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    res = run_cli(["solve", path])
    assert res.code == 2 and "Traceback" not in res.err and len(res.err.strip().splitlines()) == 1, res.err
    assert needle in res.err and "bad.json" in res.err


def test_announcement_and_event_tables_do_not_mix(tmp_path):
    doc = {"game": "epistemic", "variables": {"x": "1..3"}, "agents": {"a": ["x"]},
           "announcement": [{"formula": "x > 1"}], "event": [{"formula": "x > 2"}]}
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(doc))
    res = run_cli(["solve", path])
    assert res.code == 2 and "not both" in res.err


def test_public_events_are_announcements():
    """[[event]] kind = 'public' with a formula gives the same worlds as [[announcement]]."""
    doc = classic.what_sum(10)
    as_events = dict(doc, event=doc["announcement"])
    del as_events["announcement"]
    assert load_data(as_events).solve().fields["worlds"] == load_data(doc).solve().fields["worlds"]


@pytest.mark.parametrize("text", [
    "common([a, b], x == 1)", "common(all, knows(a, x))", "distributed([b], not knows(a))",
    "after(x >= 2, common(all, x >= 2)) and believes(a, x)", "not after(x == 1, x == 1) or x == 2",
])
def test_new_operators_print_and_parse_back(text):
    tree = parse(text)
    assert parse(to_text(tree)) == tree


@pytest.mark.parametrize("claim,needle", [
    ("common([], x == 1)", "at least one agent"), ("common([a, zed], x == 1)", "zed"),
    ("after(x == 1)", "announcement and a formula"), ("common(a, x == 1)", "expected '['"),
    ("common(all, x)", "not a condition"),
])
def test_bad_group_formulas_exit_2(tmp_path, claim, needle):
    doc = {"game": "epistemic", "variables": {"x": "1..3"}, "agents": {"a": ["x"], "b": []},
           "claim": [{"text": claim}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    res = run_cli(["verify", path])
    assert res.code == 2 and needle in res.err and len(res.err.strip().splitlines()) == 1, res.err


def test_after_is_the_announcement_read_as_a_box():
    """[!f]g holds where f fails, and where f holds it is g after announcing f; with g = knows(a) it agrees
    with announcing f and asking knows(a) in the survivors."""
    puzzle = load_data(classic.sum_and_product(30))
    state = puzzle.final_state(after=0)
    f = "knows(S, not knows(P))"
    box = state.truth(f"after({f}, knows(P))")
    told = state.truth(f)
    assert box[~told].all()
    assert box[told].tolist() == state.announce(f).truth("knows(P)").tolist()


def test_private_learning():
    """Anne privately learns x: she knows it, Bob believes she does not, and Anne knows Bob believes that."""
    doc = {"game": "epistemic", "variables": {"x": "1..3"}, "agents": {"Anne": [], "Bob": []},
           "actual": {"x": 2}, "event": [{"kind": "private", "to": ["Anne"], "learn": "x"}]}
    state = load_data(doc).final_state()
    at = state.point
    assert state.count == 3 and state.size == 6
    assert state.truth("knows(Anne, x == 2)")[at]
    assert state.truth("believes(Bob, not knows(Anne, x))")[at]
    assert state.truth("knows(Anne, believes(Bob, not knows(Anne, x)))")[at]
    assert not state.truth("knows(Bob, x)")[at]
    # a semi-private version: Bob knows that Anne knows x, without knowing x
    doc["event"] = [{"kind": "semi-private", "to": ["Anne"], "learn": "x"}]
    state = load_data(doc).final_state()
    assert state.size == 3 and state.truth("knows(Bob, knows(Anne, x)) and not knows(Bob, x)").all()


def test_gossip_calls_match_the_reference():
    """Three calls among four agents: the product updates (one event per possible call, factual change,
    callers telling their call apart, agents seeing their own secrets) agree with the plain Kripke model."""
    agents, calls = "abcd", ["ab", "cd", "ac"]
    doc = classic.gossip(agents, calls)
    names = list(doc["variables"])
    col = {v: i for i, v in enumerate(names)}
    pairs = [x + y for i, x in enumerate(agents) for y in agents[i + 1:]]

    def post(x: str, y: str):
        def change(w):
            out = list(w)
            for z in agents:
                if z not in (x, y):
                    out[col[f"{x}_{z}"]] = max(w[col[f"{x}_{z}"]], w[col[f"{y}_{z}"]])
                    out[col[f"{y}_{z}"]] = max(w[col[f"{y}_{z}"]], w[col[f"{x}_{z}"]])
            out[col[f"{x}_{y}"]] = out[col[f"{y}_{x}"]] = 1
            return tuple(out)
        return change

    views = {k: (lambda w, k=k: tuple(w[col[f"{k}_{y}"]] for y in agents if y != k)) for k in agents}
    model = reference.observation_model([tuple(0 for _ in names)], views)
    events = [reference.RefEvent(lambda w: True, post(*p)) for p in pairs]
    # a caller tells its call apart; an agent not in the call only knows it was some call without it
    erel = {k: [{f for f, q in enumerate(pairs) if (q == p if k in p else k not in q)} for p in pairs]
            for k in agents}
    puzzle = load_data(doc)
    for step in range(1, len(calls) + 1):
        model = reference.product(model, events, erel, None, views)
        state = puzzle.final_state(after=step)
        assert [tuple(r) for r in state.table.data.tolist()] == model.worlds
        for k in agents:
            expert = [col[f"{k}_{y}"] for y in agents if y != k]
            holds = lambda v, model=model, expert=expert: all(model.worlds[v][i] for i in expert)  # noqa: E731
            assert state.truth(f"knows({k}, min({', '.join(names[i] for i in expert)}) == 1)").tolist() == \
                reference.k(model, k, holds)
    assert state.truth("knows(a, min(a_b, a_c, a_d) == 1) and not knows(a, min(b_a, b_c, b_d) == 1)")[state.point]
