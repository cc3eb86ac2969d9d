"""Clue, what the other players know and their envelope beliefs through the compiled split passes
(:mod:`sleuth.models.clue._split_kernel`): the same answers as brute force over every deal and shown card on
small decks (every layer compiled, Hypothesis drawing the games), and as the numpy path on the classic deck."""

from __future__ import annotations

import importlib.util
import inspect
import itertools
import json
import math
import random
import subprocess
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sleuth.executor import task_seed
from sleuth.models.clue import compiled, split, viewsplit
from sleuth.models.clue.game import SPLIT_KERNEL
from sleuth.models.clue._split_kernel import split_layer as split_layer_source
from sleuth.models.clue.split import SplitCounter
from sleuth.models.clue.brute_force import brute_force_others
from sleuth.models.clue.others import envelope_beliefs, chances_others_know, showings_to
from sleuth.models.clue.simulate import simulate
from sleuth.models.clue.state import ClueState
from sleuth.loading import load_puzzle
from tests.conftest import PUZZLES
from tests.helpers.clue import random_problem
from tests.helpers.clue import SMALL, small_states
from tests.helpers.clue import brute_beliefs

pytestmark = pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")


@pytest.fixture(scope="module", autouse=True)
def compiled_allowed() -> Iterator[None]:
    """These tests compare the compiled passes with numpy themselves: ``SLEUTH_CLUE_KERNEL=numpy`` (which turns
    :data:`SPLIT_KERNEL` off) does not apply to them."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv(SPLIT_KERNEL.switch, raising=False)
        yield


@contextmanager
def engine(name: str, kernel_from: int = 0) -> Iterator[list[int]]:
    """``compiled``: the split passes compiled from ``kernel_from`` entries in a layer, every child record of
    one entry or more checked for copies (:data:`.compiled.COPY_FROM`); ``numpy``: never.  Yields a list that
    counts the compiled passes (1 each), the showings they resolved (2 each), their kernel calls that ran two
    steps at once (4 each) and those that wrote copies (8 each)."""
    runs: list[int] = []
    original = SplitCounter._split_compiled
    resolved = split._resolved
    kernel = SPLIT_KERNEL.load()
    layer = kernel.split_layer if kernel is not None else None

    second_step = list(inspect.signature(split_layer_source).parameters).index("cls_inc2")

    def counted_layer(*args: object) -> object:
        second_classes = args[second_step]
        assert isinstance(second_classes, np.ndarray) and layer is not None
        if second_classes.size:
            runs.append(4)
        out = layer(*args)
        if (out[6][:out[-2]] >= 0).any():
            runs.append(8)
        return out

    def counted(self: SplitCounter, *args: object, **kw: object) -> split.SplitForm:
        runs.append(1)
        return original(self, *args, **kw)  # type: ignore[arg-type]

    def counted_resolution(*args: object, **kw: object) -> split.Merged:
        runs.append(2)
        return resolved(*args, **kw)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(SplitCounter, "_split_compiled", counted)
        mp.setattr(split, "_resolved", counted_resolution)
        if kernel is not None:
            mp.setattr(kernel, "split_layer", counted_layer)
        if name == "numpy":
            mp.setenv(SPLIT_KERNEL.switch, "numpy")
        mp.setattr(compiled, "KERNEL_FROM", kernel_from)
        mp.setattr(compiled, "COPY_FROM", 1)
        mp.setattr(compiled, "COLD_KERNEL_WORK", 0)  # as in a process that has loaded the kernel already
        yield runs


def check_against_brute_force(game: ClueState, resolving: bool = True, reordered: bool = False,
                              calls: list[int] | None = None) -> int:
    """chances_others_know and envelope_beliefs of every other player, compiled, against brute force; how many
    (player, part) pairs may be known.  ``resolving`` off: the passes told that their records or counts might
    pass int64 once the showings are resolved (they then keep the held cards apart to the end).
    ``reordered``: the estimate always finds the reverse order cheaper (the passes start again in it, those
    kept apart by the envelope without resolving).  ``calls``: extended with the counts of :func:`engine`."""
    known = 0
    players = [p for p in range(len(game.players)) if p != game.viewer]
    with engine("compiled") as runs, pytest.MonkeyPatch.context() as mp:
        if not resolving:
            mp.setattr(viewsplit, "resolvable", lambda *args: False)
        if reordered:   # asked for the counting order first, then for the reverse
            costs = itertools.cycle([1.0, 0.0])
            mp.setattr(SplitCounter, "split_cost", lambda *args: next(costs))
            restarted = split.Reorder.__init__
            mp.setattr(split.Reorder, "__init__", lambda *args: runs.append(3) or restarted(*args))
        fast = chances_others_know(game)
        beliefs = {p: envelope_beliefs(game, p) for p in players}
    assert runs
    if calls is not None:
        calls += runs
    # an outside observer's passes resolve the showings into views (a player's view keeps the held cards apart)
    if game.viewer is None and any(s.card is None for p in players for s in showings_to(game, p)):
        assert (2 in runs) == resolving
        assert (3 in runs) == reordered
    elif game.viewer is not None:
        assert 2 not in runs
    for p in players:
        assert fast[p] == brute_force_others(game, p), (game, p)
        want_known, want_entropy = brute_beliefs(game, p)
        assert beliefs[p]["knows"] == want_known, (game, p)
        assert math.isclose(beliefs[p]["entropy"], want_entropy, rel_tol=1e-9, abs_tol=1e-12), (game, p)
        known += sum(x > 0 for x in fast[p].values())
    return known


@pytest.mark.parametrize(("seed", "players"), [(51, 3), (52, 2)])
def test_compiled_passes_match_brute_force(seed: int, players: int) -> None:
    known = sum(check_against_brute_force(game) for game in small_states(seed, players, 3, 1))
    assert known


def test_compiled_passes_restarted_in_the_reverse_order_match_brute_force() -> None:
    assert sum(check_against_brute_force(game, reordered=True) for game in small_states(54, 3, 3, 1))


def test_compiled_passes_that_cannot_resolve_match_brute_force() -> None:
    """Where the counts might pass int64 once resolved, the compiled passes keep the held cards apart (the
    path before resolving) and still answer exactly."""
    assert sum(check_against_brute_force(game, resolving=False) for game in small_states(53, 3, 3, 1))


@pytest.mark.parametrize("two_steps", [True, False])
def test_two_steps_per_compiled_call_match_brute_force(monkeypatch: pytest.MonkeyPatch, two_steps: bool) -> None:
    """A compiled call runs two steps at once where no showing is resolved in between (the entries in between
    are never written out), or one step per call: both the answers of brute force, both views."""
    monkeypatch.setattr(compiled, "TWO_STEPS", two_steps)
    calls: list[int] = []
    assert sum(check_against_brute_force(game, calls=calls) for game in small_states(56, 3, 2, 1))
    assert (4 in calls) == two_steps


@pytest.mark.parametrize("copies", [True, False])
def test_compiled_passes_with_copies_match_brute_force(monkeypatch: pytest.MonkeyPatch, copies: bool) -> None:
    """Records kept as copies of others (whole multiples: :func:`._split_kernel.split_layer`) or every record
    computed: both the answers of brute force, both views, and copies found where they are kept."""
    monkeypatch.setattr(compiled, "COPIES", copies)
    calls: list[int] = []
    assert sum(check_against_brute_force(game, calls=calls) for game in small_states(57, 3, 2, 1))
    assert (8 in calls) == copies


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 3), observer=st.booleans(), turn=st.integers(0, 40))
def test_compiled_passes_match_brute_force_on_drawn_games(seed: int, players: int, observer: bool, turn: int) -> None:
    sim = simulate(players, random.Random(seed), deck=SMALL)
    check_against_brute_force(sim.view(None if observer else 0, min(turn, len(sim.suggestions))))


def test_compiled_split_rows_match_numpy() -> None:
    """The rows of a split pass (records, deals, envelope groups), with every layer compiled, equal the numpy
    pass's, with and without the envelope in the record."""
    rng = random.Random(9)
    checked = 0
    for _ in range(40):
        problem = random_problem(rng).propagate()
        if problem is None:
            continue
        watched = sorted({(c, q) for q, s in problem.some for c in s})
        for p in range(problem.n):
            for by_envelope in (False, True):
                got = {}
                for name in ("numpy", "compiled"):
                    with engine(name) as runs:
                        rows = SplitCounter(problem, by_envelope).split(p, watched, by_envelope=by_envelope,
                                                                     ors=not by_envelope)
                    assert bool(runs) == (name == "compiled")
                    got[name] = (rows[0].tolist(), rows[1], rows[2])
                assert got["numpy"] == got["compiled"]
                checked += bool(got["numpy"][0])
    assert checked > 40


def _ints(values: Iterable[int]) -> np.ndarray:
    """The values as an int64 array (what the kernels take)."""
    return np.array(list(values), dtype=np.int64)


def _random_step(rng: random.Random, n_states: int, n_next: int, increments: list[int]) -> dict[str, Any]:
    """A step drawn at random: per state up to three transitions (next state, ways, class, envelope group
    bit), ``rows``, and the same as :func:`._split_kernel.split_layer` reads it, ``args``."""
    rows = [[(rng.randrange(n_next), rng.randint(1, 4), rng.randrange(len(increments)), 1 << rng.randrange(4))
             for _ in range(rng.randint(0, 3))] for _ in range(n_states)]
    flat = [t for row in rows for t in row]
    args = (_ints(np.cumsum([0, *map(len, rows)])), *(_ints(t[k] for t in flat) for k in range(4)),
            _ints(increments), n_next)
    return {"rows": rows, "inc": increments, "args": args}


def _stepped(entries: dict[int, tuple[int, int, int]], step: dict[str, Any]
             ) -> dict[int, dict[int, tuple[int, int, int]]]:
    """The reference step: per class reached, next state -> (deals, second count, envelope groups)."""
    out: dict[int, dict[int, tuple[int, int, int]]] = {}
    for s, (num, num2, env) in entries.items():
        for dst, ways, cls, bit in step["rows"][s]:
            a, b, c = out.setdefault(cls, {}).get(dst, (0, 0, 0))
            out[cls][dst] = (a + num * ways, b + num2 * ways, c | env | bit)
    return out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kernel", ["compiled", "plain", "plain, one hash"])
def test_a_merged_record_steps_as_its_records_added_up(seed: int, kernel: str, monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """A record merged from several records (deals times their factors, the second count times its own,
    envelope groups ORed) goes through one or two steps as the sum of its records' entries would, and a record
    declared a copy (whole multiples of an earlier one) gets that record's children times its factors: every
    child record and entry of :func:`._split_kernel.split_layer` against a reference in plain Python, on layers
    drawn at random (merged records that share states, records that are multiples of others, steps that
    reach a class or not), every flag; the children it finds to be copies of others (written without their
    entries) expanded, they are the same, and it finds some.  ``one hash``: every child hashed alike, so that
    only the exact check tells copies apart.  The state column int64 or int32 (the passes'), its type kept where
    the kernel grows the buffers; :func:`._split_kernel.entries_bound` (what the passes size the buffers by) the
    sum of the transitions of the entries read, and never less than the entries written."""
    module = SPLIT_KERNEL.load() if kernel == "compiled" else SPLIT_KERNEL.plain()
    if kernel == "plain, one hash":
        monkeypatch.setattr(module, "_mix", lambda h, x: 0)
    no_step = (_ints([0]), *[_ints([])] * 5, 0)
    rng = random.Random(seed)
    checked, found = 0, 0
    for _ in range(30):
        n_states, n_next, n_next2 = rng.randint(1, 6), rng.randint(1, 5), rng.randint(1, 4)
        layer = [{s: (rng.randint(1, 50), rng.randint(1, 50), rng.randrange(8))
                  for s in rng.sample(range(n_states), rng.randint(1, n_states))} for _ in range(rng.randint(1, 5))]
        layer += [{s: (a * m, b * m2, c) for s, (a, b, c) in rng.choice(layer).items()}   # multiples of others
                  for m, m2 in [(rng.randint(1, 3), rng.randint(1, 3)) for _ in range(rng.randint(0, 3))]]
        groups = [[(r, rng.randint(1, 6), rng.randint(1, 3)) for r in rng.sample(range(len(layer)),
                                                                             rng.randint(1, len(layer)))]
                  for _ in range(rng.randint(1, 5))]
        # some records declared copies of an earlier one: (record, factor, second factor), else None
        declared = [None] + [(rng.randrange(g), rng.randint(1, 4), rng.randint(1, 4)) if rng.random() < 0.3 else None
                             for g in range(1, len(groups))]
        declared = [d if d is None or declared[d[0]] is None else None for d in declared]
        first = _random_step(rng, n_states, n_next, [0, 1 << 8, 2 << 8][:rng.randint(1, 3)])
        second = _random_step(rng, n_next, n_next2, [0, 1 << 16][:rng.randint(1, 2)]) if rng.random() < 0.5 else None
        rec_val = [g << 20 for g in range(len(groups))]
        sums: list[dict[int, tuple[int, int, int]]] = []
        for g, members in enumerate(groups):
            merged: dict[int, tuple[int, int, int]] = {}
            if declared[g] is not None:
                q, k, k2 = declared[g]
                merged = {s: (a * k, b * k2, c) for s, (a, b, c) in sums[q].items()}
            for r, f, f2 in members if declared[g] is None else []:
                for s, (a, b, c) in layer[r].items():
                    x, y, z = merged.get(s, (0, 0, 0))
                    merged[s] = (x + a * f, y + b * f2, z | c)
            sums.append(merged)
        want = []
        for g, merged in enumerate(sums):
            for c1, entries in sorted(_stepped(merged, first).items()):
                if second is None:
                    want.append((rec_val[g] + first["inc"][c1], entries))
                else:
                    want += [(rec_val[g] + first["inc"][c1] + second["inc"][c2], children)
                             for c2, children in sorted(_stepped(entries, second).items())]
        entries_in = [(s, *x) for rec in layer for s, x in rec.items()]
        copies = [_ints(-1 if d is None else d[i] for d in declared) for i in range(3)] \
            if any(declared) else [_ints([])] * 3
        rec_start_in, group_start = _ints(np.cumsum([0, *map(len, layer)])), _ints(np.cumsum([0, *map(len, groups)]))
        sources = [_ints(m[i] for g in groups for m in g) for i in range(3)]
        # the most entries written: per entry read (not in a record declared a copy), its state's transitions
        fan = [len(row) if second is None else sum(len(second["rows"][d]) for d, *_ in row) for row in first["rows"]]
        bound = sum(fan[s] for g, members in enumerate(groups) if declared[g] is None for r, *_ in members
                    for s in layer[r])
        for use_num2, use_or, copy_from, state_type in itertools.product((False, True), (False, True), (0, 1),
                                                                        (np.int64, np.int32)):
            ent_state = _ints(e[0] for e in entries_in).astype(state_type)
            assert module.entries_bound(rec_start_in, group_start, sources[0], copies[0], ent_state, _ints(fan)) \
                == bound
            # the output buffers empty: grown by the kernel, the state column in its own type (int32 in the passes)
            out = module.split_layer(
                rec_start_in, _ints(rec_val), group_start, *sources, *copies, ent_state,
                *(_ints(e[k] for e in entries_in) for k in range(1, 4)), *first["args"],
                *(second["args"] if second else no_step), use_num2, use_or, copy_from,
                *[_ints([])] * 2, np.zeros(0, dtype=state_type), *[_ints([])] * 6)
            rec_start, vals, state, num, num2, env, ref, k, k2, n_rec, n_ent = out
            assert state.dtype == state_type and n_ent <= bound
            own = [(k_, k2_, range(rec_start[j], rec_start[j + 1])) for j, k_, k2_ in
                   ((i if ref[i] < 0 else ref[i], 1 if ref[i] < 0 else k[i], 1 if ref[i] < 0 else k2[i])
                    for i in range(n_rec))]
            seen = [(int(vals[i]), {int(state[e]): (int(num[e]) * f, int(num2[e]) * f2 if use_num2 else None,
                                                   int(env[e]) if use_or else None) for e in span})
                    for i, (f, f2, span) in enumerate(own)]
            assert seen == [(v, {s: (a, b if use_num2 else None, c if use_or else None) for s, (a, b, c) in e.items()})
                            for v, e in want]
            assert all(ref[i] < 0 or (ref[ref[i]] < 0 and rec_start[i] == rec_start[i + 1]) for i in range(n_rec))
            assert copy_from or any(declared) or (ref[:n_rec] < 0).all()
            found += int(copy_from and (ref[:n_rec] >= 0).sum())
            checked += sum(len(e) for _, e in want)
    assert checked > 100 and found > 10


@pytest.mark.parametrize("int32", [True, pytest.param(False, marks=pytest.mark.slow)])   # int64: compiled afresh
def test_compiled_layers_number_their_states_in_int32_within_their_buffers(monkeypatch: pytest.MonkeyPatch,
                                                                          int32: bool) -> None:
    """The compiled passes' state columns are int32 (:func:`.split.state_index`), or int64 where a layer's states
    would not fit (here: :data:`.split.STATE32` set below every layer's), with brute force's answers both ways;
    every kernel call writes into the buffers it is given (sized by a bound, the tight one where the layer
    before's buffers may do: :func:`._split_kernel.entries_bound`), never growing them."""
    kernel = SPLIT_KERNEL.load()
    assert kernel is not None
    if not int32:
        monkeypatch.setattr(split, "STATE32", -1)
    monkeypatch.setattr(split, "TIGHT_FROM", 0)   # the tight bound for small layers too
    at = list(inspect.signature(split_layer_source).parameters).index("out_state")
    layer, bound = kernel.split_layer, kernel.entries_bound
    seen: list[tuple[bool, Any]] = []
    tight: list[int] = []

    def watched_layer(*args: Any) -> Any:
        out = layer(*args)
        seen.append((out[2] is args[at], out[2].dtype))
        return out

    def watched_bound(*args: Any) -> int:
        tight.append(bound(*args))
        return tight[-1]

    monkeypatch.setattr(kernel, "split_layer", watched_layer)
    monkeypatch.setattr(kernel, "entries_bound", watched_bound)
    assert sum(check_against_brute_force(game) for game in small_states(58, 3, 4, 1))
    assert seen and all(same for same, _ in seen)
    assert {dtype for _, dtype in seen} == {np.dtype(np.int32 if int32 else np.int64)}
    assert tight


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kernel", ["compiled", "plain", "plain, one hash"])
def test_records_read_through_their_copies(seed: int, kernel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`._split_kernel.record_copies`: each merged record's sources with the copies among them replaced by
    the records they copy (factors times the copy's, second factors the copy's), sorted, each once (factors
    added up), as a plain-Python reference has them; every record it calls a multiple of another is that
    record's sources times whole numbers, an earlier record computed itself; a record merged twice over (its
    factors doubled, or tripled) is found.  ``one hash``: every record hashed alike, so that only the exact check
    tells copies apart."""
    module = SPLIT_KERNEL.load() if kernel == "compiled" else SPLIT_KERNEL.plain()
    if kernel == "plain, one hash":
        monkeypatch.setattr(module, "_mix", lambda h, x: 0)
    rng = random.Random(seed)
    found = 0
    for _ in range(40):
        n_layer = rng.randint(1, 8)
        copy_of = [-1 if r == 0 or rng.random() < 0.5 else rng.randrange(r) for r in range(n_layer)]
        copy_of = [q if q < 0 or copy_of[q] < 0 else -1 for q in copy_of]   # a copy copies a record with entries
        k, k2 = [rng.randint(1, 5) for _ in range(n_layer)], [rng.randint(1, 5) for _ in range(n_layer)]
        merged = rng.random() < 0.7
        groups = [[(r, rng.randint(1, 6)) for r in rng.sample(range(n_layer), rng.randint(1, n_layer))]
                  for _ in range(rng.randint(1, 6))] if merged else [[(r, 1)] for r in range(n_layer)]
        if merged:
            twice = rng.sample(groups, rng.randint(0, min(2, len(groups))))
            groups += [[(r, f * rng.randint(2, 3)) for r, f in g] for g in twice]
        want = []
        for g in groups:
            canon: dict[int, tuple[int, int]] = {}
            for r, f in g:
                root, f, f2 = (r, f, 1) if copy_of[r] < 0 else (copy_of[r], f * k[r], k2[r])
                a, b = canon.get(root, (0, 0))
                canon[root] = (a + f, b + f2)
            want.append(sorted((r, a, b) for r, (a, b) in canon.items()))
        starts = _ints(np.cumsum([0, *map(len, groups)])) if merged else _ints([])
        start, src, f, f2, ref, gk, gk2 = module.record_copies(
            len(groups), starts, _ints(r for g in groups for r, _ in g) if merged else _ints([]),
            _ints(x for g in groups for _, x in g) if merged else _ints([]), _ints(copy_of), _ints(k), _ints(k2), True)
        got = [[(int(src[i]), int(f[i]), int(f2[i])) for i in range(start[g], start[g + 1])]
               for g in range(len(groups))]
        assert got == want
        for g, q in enumerate(ref.tolist()):
            if q >= 0:
                assert q < g and ref[q] < 0
                assert want[g] == [(r, a * int(gk[g]), b * int(gk2[g])) for r, a, b in want[q]]
                found += 1
        for g, q in itertools.combinations(range(len(groups)), 2):   # exact doubles of a computed record: found
            if ref[g] < 0 and [(r, 2 * a, 2 * b) for r, a, b in want[g]] == want[q]:
                assert ref[q] >= 0
    assert found > 5


def classic_states() -> list[tuple[ClueState, int]]:
    out = []
    for players, seed, turns in ((3, 61, (7, 12)), (4, 62, (9,)), (6, 63, (10,))):
        sim = simulate(players, random.Random(seed))
        for k in turns:
            out += [(sim.view(None, k), k % players), (sim.view(0, k), 1)]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("index", range(8))
def test_compiled_equals_numpy_on_the_classic_deck(index: int) -> None:
    """Full decks: the compiled passes (from 2,000 entries in a layer: numpy first, then compiled) give the
    numpy path's exact answers (the entropy to rounding)."""
    game, p = classic_states()[index]
    got = {}
    for name in ("numpy", "compiled"):
        with engine(name, 2000) as runs:
            got[name] = (chances_others_know(game), envelope_beliefs(game, p))
        assert bool(runs) == (name == "compiled")
        assert (2 in runs) == (name == "compiled" and game.viewer is None)   # an observer's passes resolved
        assert (4 in runs) == (name == "compiled")   # some compiled calls ran two steps at once
    (others_n, beliefs_n), (others_c, beliefs_c) = got["numpy"], got["compiled"]
    assert others_c == others_n
    assert beliefs_c["knows"] == beliefs_n["knows"]
    assert math.isclose(beliefs_c["entropy"], beliefs_n["entropy"], rel_tol=1e-12)


def test_compiled_split_refuses_just_past_what_it_allocates(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled pass is bounded by the entries its layers may hold (what it allocates: 48 bytes each), not
    by a looser estimate: under a memory budget of exactly that it answers, one byte less and it refuses,
    naming the layer."""
    from sleuth.executor import task_seed

    game = simulate(3, random.Random(task_seed(11, 3, 2))).view(None, 13)   # a busy outside observer's state
    asked: list[int] = []
    real = split.check_size

    def recorded(what: str, estimate: int, *args: object, **kw: object) -> None:
        if "kept apart by hand" in what and "left" in what:
            asked.append(estimate)
        real(what, estimate, *args, **kw)  # type: ignore[arg-type]

    with engine("compiled", 2000) as runs:
        monkeypatch.setattr(split, "check_size", recorded)
        monkeypatch.setattr(compiled, "TWO_STEPS", False)   # one step per call: each layer asked for
        want = envelope_beliefs(game, 1)
        assert runs and asked
        need = max(asked) * split.COMPILED_ENTRY_BYTES
        monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", str(need))
        assert envelope_beliefs(game, 1) == want
        monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", str(need - 1))
        refusal = r"kept apart by hand and shown cards \(step \d+ of \d+ left\)"   # the compiled layer's
        with pytest.raises(split.LayerTooLarge, match=refusal):
            envelope_beliefs(game, 1)
        # two steps per call where the budget allows the bound of both (else one): never refused where one
        # step per call fits.  Without copies: one step per call also finds copies in the layers that two steps
        # never write, so that its later layers, and their bounds, can be smaller
        monkeypatch.setattr(compiled, "COPIES", False)
        monkeypatch.delenv("SLEUTH_MEMORY_BUDGET")
        asked.clear()
        assert envelope_beliefs(game, 1) == want
        monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", str(max(asked) * split.COMPILED_ENTRY_BYTES))
        monkeypatch.setattr(compiled, "TWO_STEPS", True)
        assert envelope_beliefs(game, 1) == want


COLD = """
import json, random, sys
from sleuth.executor import task_seed
from sleuth.models.clue.game import SPLIT_KERNEL
from sleuth.models.clue.simulate import simulate
from sleuth.loading import load_puzzle
from sleuth.models.clue.others import chances_others_know
if sys.argv[1].startswith("observer:"):  # an outside observer's state of a simulated game: players, game, turn
    n, g, k = map(int, sys.argv[1].split(":")[1:])
    game = simulate(n, random.Random(task_seed(11, n, g))).view(None, k)
else:
    game = load_puzzle(sys.argv[1]).state
print(json.dumps({"others": {str(p): {str(k): str(v) for k, v in sorted(o.items())} for p, o in
                             chances_others_know(game).items()},
                  "kernel": SPLIT_KERNEL.loaded(), "numba": "numba" in sys.modules}))
"""


def _others_json(game: ClueState) -> dict[str, dict[str, str]]:
    return {str(p): {str(k): str(v) for k, v in sorted(o.items())} for p, o in chances_others_know(game).items()}


@pytest.mark.parametrize(("name", "loads"), [("classic-3-players", False), ("master-detective", True),
                                            ("observer:3:38:11", True)])
def test_a_fresh_process_loads_the_kernel_only_for_a_long_pass(name: str, loads: bool) -> None:
    """A command line's only answer: a small state is answered in numpy without importing numba (0.6-0.9 s);
    a long one loads the kernel in the middle of a pass and switches to it (for an outside observer, a pass
    that resolves the showings), with the answers of a process that had it loaded from the start."""
    if name.startswith("observer:"):
        n, g, k = map(int, name.split(":")[1:])
        arg, game = name, simulate(n, random.Random(task_seed(11, n, g))).view(None, k)
    else:
        arg = str(PUZZLES / "clue" / f"{name}.toml")
        game = load_puzzle(arg).state
    out = subprocess.run([sys.executable, "-c", COLD, arg], capture_output=True, text=True, check=True)
    cold = json.loads(out.stdout)
    assert (cold["kernel"], cold["numba"]) == (loads, loads)
    with engine("compiled", compiled.KERNEL_FROM) as runs:
        assert cold["others"] == _others_json(game)
    assert runs
