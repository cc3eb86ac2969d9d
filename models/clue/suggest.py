"""Advice: the suggestion that tells the suggester the most about the envelope, and when to accuse.

The score of a suggestion is the mutual information (bits) between the envelope triple and what the
suggester will see (who shows, and which card; a player holding several of the cards shows one at random),
deals uniform over those consistent with the file.  It is computed exactly (:func:`exact_information`: one
counting pass shared by every suggestion, carrying per state the counts per answer so far; its inner loop
compiled with numba where available, :data:`.game.ADVICE_KERNEL`); past :data:`EXACT_BUDGET` (:data:`COMPILED_BUDGET`
with the compiled loop), or with ``--method sampled``, it is estimated from deals drawn uniformly from the
consistent deals with the Miller-Madow bias correction, and labelled so.  The envelope's entropy and the
certainty of an accusation are exact.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sleuth.allocator import small_pages
from sleuth.errors import InternalError, PuzzleError, UnknownNameError
from sleuth.results import Report, Status, decimal
from sleuth.derive import handlers
from sleuth.schema import Names

import numpy as np

from sleuth.limits import PastBudget, check_size, max_items

from .arrays import segment_sum, unique
from .counter import ENTRY_BYTES, OBJECT_FACTOR, DealCounter, LayerTooLarge
from .counting import sample_deals
from .game import ADVICE_KERNEL, GAME
from .problem import Problem, deal_bound
from .sheet import counted_sheet

if TYPE_CHECKING:
    from .puzzle import CluePuzzle

DEFAULT_SAMPLES = 1000


def information(deals: list[tuple[int, ...]], by: int, triple: tuple[int, int, int], n: int) -> float:
    """Estimated mutual information between the envelope and the answer to ``triple`` asked by ``by``."""
    return sampled_information(deals, by, [triple], n)[0]


def sampled_information(deals: list[tuple[int, ...]], by: int, triples: Sequence[tuple[int, int, int]],
                        n: int) -> list[float]:
    """:func:`information` of every suggestion in ``triples`` over the same sampled deals (arrays: one row
    per deal): the plug-in estimate with the Miller-Madow correction of its upward bias."""
    if not deals:
        return [0.0] * len(triples)
    place = np.array(deals, dtype=np.int64)
    k = place.shape[0]
    _, env = np.unique(place == n, axis=0, return_inverse=True)   # the envelope of each deal, numbered
    env = env.reshape(-1)
    out = []
    for triple in triples:
        holder = place[:, list(triple)]                            # k x 3
        shower = np.full(k, -1, dtype=np.int64)
        for i in range(n - 1, 0, -1):   # the first player clockwise from the suggester who holds a card shows
            q = (by + i) % n
            shower[(holder == q).any(axis=1)] = q
        held = holder == shower[:, None]                           # the cards the shower holds
        size = held.sum(axis=1)
        rows = [np.flatnonzero(size == 0)] + [np.flatnonzero(held[:, j]) for j in range(3)]
        answer = np.concatenate([np.full(rows[0].size, -1)] + [shower[r] * 3 + j for j, r in enumerate(rows[1:])])
        weight = np.concatenate([np.full(rows[0].size, 6)] + [6 // size[r] for r in rows[1:]])
        deal_env = env[np.concatenate(rows)]
        uniq, inverse = np.unique(deal_env * (3 * n + 1) + answer + 1, return_inverse=True)
        joint = np.bincount(inverse.reshape(-1), weights=weight / 6.0)
        p_e = np.bincount(uniq // (3 * n + 1), weights=joint)[uniq // (3 * n + 1)]
        a_index = uniq % (3 * n + 1)
        p_a = np.bincount(a_index, weights=joint)[a_index]
        mi = float(np.sum(joint / k * np.log2(joint * k / (p_a * p_e))))
        cells = len(uniq) - len(np.unique(a_index)) - len(np.unique(uniq // (3 * n + 1))) + 1
        out.append(max(mi - cells / (2 * k * math.log(2)), 0.0))
    return out


@dataclass(frozen=True)
class Score:
    """The exact mutual information (bits) of one suggestion, and a key equal for two suggestions exactly
    when their sums have the same terms (then the two are tied exactly, not just to float precision)."""

    bits: float
    key: tuple[tuple[int, int], ...]


EXACT_BUDGET = 20_000_000   # counts (:func:`exact_work`) the exact advice may take with numpy alone
COMPILED_BUDGET = 100_000_000   # the same with its inner loop compiled (:data:`.game.ADVICE_KERNEL`)
KERNEL_FROM = 10_000_000   # less work runs in numpy alone, unless the compiled loop is loaded already (loading
                          # numba and the cached loop takes a fresh process about 0.5 s: more than numpy there)


FLOAT_EXACT = 1 << 53   # counts below it add up exactly in float64 (the fast path of the exact advice)
INT_EXACT = 1 << 62   # and in int64 below this; Python integers (object arrays) past it


def exact_work(problem: Problem, suggestions: Sequence[tuple[int, int, int]]) -> int:
    """:func:`exact_information`'s work, in counts: per step of the shared pass (:class:`_Plain`), its live
    states times a bound on its columns (per set of a suggestion class's cards placed so far, the answers so
    far it allows: nobody, or a player other than the suggester with a non-empty subset of the set)."""
    reduced = problem.propagate()
    if reduced is None:
        return 0
    return _work(_Plain(reduced), _classes(_representatives(reduced), suggestions), reduced.n)


def _classes(rep: Mapping[int, int], suggestions: Sequence[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The suggestions up to symmetry (``rep``: :func:`_representatives`), sorted."""
    return sorted({(rep[t[0]], rep[t[1]], rep[t[2]]) for t in suggestions})


def _work(plain: _Plain, classes: Sequence[tuple[int, int, int]], n: int) -> int:
    """:func:`exact_work` over a shared pass already built."""
    work = 0
    for i, live in enumerate(plain.live[1:]):
        placed = {tuple(c for c in t if plain.step_of[c] <= i) for t in classes}
        work += int(live.sum()) * sum(1 + (n - 1) * ((1 << len(p)) - 1) for p in placed)
    return work


def _representatives(reduced: Problem) -> dict[int, int]:
    """Per card, the first card interchangeable with it (same category and place mask, named by no
    shown-card set or accusation)."""
    named = {c for _, s in reduced.some for c in s} | {c for t in reduced.excluded for c in t}
    first: dict[tuple[int, int], int] = {}
    return {c: c if c in named else first.setdefault((reduced.card_category[c], m), c)
            for c, m in enumerate(reduced.allowed)}


class _Plain:
    """The plain counting pass that every suggestion shares: every representative card (:func:`_representatives`)
    a one-card group placed in one step, the other cards in blocks of interchangeable cards placed one place
    per step; per step the transitions (source state, next state, ways, place) and per layer which states
    still reach a complete deal.  ``step_of``: the step of each representative card."""

    def __init__(self, prob: Problem, options: Mapping[str, Any] | None = None) -> None:
        rep = _representatives(prob)
        counter = self.counter = DealCounter(prob, True, refine=lambda c: ("single", c) if rep[c] == c else None)
        self.step_of: dict[int, int] = {}
        keys: np.ndarray = np.array([counter.initial()], dtype=counter.key_dtype)
        self.layers, self.steps = [keys], []
        forward: list[np.ndarray] = [np.ones(1, dtype=counter.dtype)]
        most = max_items(options, ENTRY_BYTES)
        kept = 1
        for i, moves in enumerate(counter.group_steps()):
            if len(counter.groups[moves[0][0]].cards) == 1:
                self.step_of[counter.groups[moves[0][0]].cards[0]] = i
            kept += keys.size * (len(moves) + 1)
            if kept > most:
                check_size(f"Clue states and transitions (advice, step {i + 1} of {len(counter.groups)})", kept,
                           options, ENTRY_BYTES, error=LayerTooLarge)
            parts = [counter.step(mv, keys)[:3] for mv in moves]
            src = np.concatenate([p[0] for p in parts])
            place = np.concatenate([np.full(p[0].size, mv[1], dtype=np.int64)
                                    for p, mv in zip(parts, moves, strict=True)])
            ways = np.concatenate([p[2] for p in parts])
            keys, dst = unique(np.concatenate([p[1] for p in parts]))
            forward.append(segment_sum(dst, forward[-1][src] * ways, keys.size, counter.dtype))
            self.steps.append((src, dst, ways, place))
            self.layers.append(keys)
        self.forward = forward
        self.live = [counter.accept(keys)]
        for i in range(len(self.steps) - 1, -1, -1):   # backward: the states with a completion
            src, dst, _, _ = self.steps[i]
            live = np.zeros(self.layers[i].size, dtype=bool)
            live[src[self.live[0][dst]]] = True
            self.live.insert(0, live)


@small_pages()
def exact_information(problem: Problem, by: int, suggestions: Sequence[tuple[int, int, int]],
                      options: Mapping[str, Any] | None = None, *, budget: int | None = None,
                      compiled_budget: int | None = None) -> dict[tuple[int, int, int], Score]:
    """The exact mutual information between the envelope and what ``by`` sees after each suggestion: who
    shows and which card (a player holding several of the cards shows each with probability 1/|held|),
    deals uniform over those consistent with ``problem``.

    One counting pass shared by every suggestion (:class:`_Plain`: every card placed on its own, so the
    envelope slots name the envelope), then one pass over its transitions that carries, per suggestion up
    to symmetry (cards sharing a category and a place mask that no shown-card set or accusation names are
    interchangeable: swapping them changes no score), the answer so far: the first player clockwise from
    ``by`` holding one of its cards placed so far, and which of them they hold.  A suggestion joins at the
    step of its first card, from the shared pass's counts.  The complete deals give the joint counts of
    (envelope, answer) per suggestion.  {} when no deal is consistent.  Raises :class:`PastBudget` when the
    work (:func:`exact_work`, read off the shared pass before the second one starts) is past ``budget`` (past
    ``compiled_budget`` instead when given and the compiled inner loop is available), and
    :class:`.counter.LayerTooLarge` past the memory budget."""
    reduced = problem.propagate()
    if reduced is None:
        return {}
    rep = _representatives(reduced)
    classes = _classes(rep, suggestions)
    plain = _Plain(reduced, options)
    if not plain.live[-1].any():
        return {}
    work = _work(plain, classes, reduced.n)
    if budget is not None and work > budget:
        if compiled_budget is None or ADVICE_KERNEL.load() is None:
            raise PastBudget(work, budget)
        if work > compiled_budget:
            raise PastBudget(work, compiled_budget)
    scores = _class_scores(plain, by, classes, options, work >= KERNEL_FROM or ADVICE_KERNEL.loaded())
    return {t: scores[(rep[t[0]], rep[t[1]], rep[t[2]])] for t in suggestions}


def _class_scores(plain: _Plain, by: int, classes: list[tuple[int, int, int]],
                  options: Mapping[str, Any] | None, compiled: bool) -> dict[tuple[int, int, int], Score]:
    """:func:`exact_information` for the suggestion classes, over the shared pass ``plain``, in dense arrays:
    a row per live state, a column per (cards of a suggestion placed so far, answer so far).  Suggestions
    that agree on the cards placed so far share their columns (one column for all of them before their
    first card); at the end a column per (suggestion, answer).  ``compiled``: the compiled inner loop where
    available (:data:`.game.ADVICE_KERNEL`), else numpy."""
    counter, n = plain.counter, plain.counter.prob.n
    bound = deal_bound(counter.prob) * max(len(g.cards) for g in counter.groups)
    dtype: type = float if bound < FLOAT_EXACT else np.int64 if bound < INT_EXACT else object   # exact sums
    card_at = {i: c for c, i in plain.step_of.items()}
    base = len(counter.prob.card_category) + 1
    unit = [base * base, base, 1]   # a set of placed cards, one per category: sum of (card + 1) * unit
    none = n << 3   # the answer so far: distance clockwise from by << 3 | its held cards (0-2); n: nobody yet
    ans_bits = (none | 7).bit_length()
    x: np.ndarray = np.ascontiguousarray(plain.forward[0][plain.live[0]].astype(dtype)[:, None])
    col_set = np.zeros(1, dtype=np.int64)
    col_ans = np.full(1, none, dtype=np.int64)
    placed = np.zeros(len(classes), dtype=np.int64)   # per class, its cards placed so far
    card_of = np.array(classes, dtype=np.int64)
    entry = 8 * (OBJECT_FACTOR if dtype is object else 1)
    kernel = ADVICE_KERNEL.load() if compiled and dtype is not object else None
    buffers = _Buffers(dtype)
    for i, (src, dst, ways, place) in enumerate(plain.steps):
        keep = np.flatnonzero(plain.live[i + 1][dst])
        src, dst, ways, place = (np.cumsum(plain.live[i])[src[keep]] - 1, np.cumsum(plain.live[i + 1])[dst[keep]] - 1,
                                 ways[keep], place[keep])
        rows = int(plain.live[i + 1].sum())
        if i not in card_at:   # a block of cards no suggestion class names: every column moves as it is
            if kernel is None:
                x = _Move(src, dst, ways).apply(x, rows)
            else:
                x, moved = buffers.zeros(rows, x.shape[1], x), x
                kernel.move(moved, src, dst, ways.astype(dtype), x)
            continue
        c = card_at[i]   # a one-card group: every way is 1
        k = counter.prob.card_category[c]
        mine = card_of[:, k] == c
        grows = np.unique(placed[mine])
        stays = np.unique(placed[~mine])
        placed = placed + mine * ((c + 1) * unit[k])
        places = np.unique(place)
        # the new columns: those without the card first (keys unchanged, in their order), then the distinct
        # (set, answer) of the columns that take it, after each place (a grown set holds the card: no key of both)
        still = np.flatnonzero(np.isin(col_set, stays))
        more = np.flatnonzero(np.isin(col_set, grows))
        ah, grown = col_ans[more], (col_set[more] + (c + 1) * unit[k]) << ans_bits
        after = []   # per place, the keys of the grown columns
        for q in places.tolist():
            dist, old = (q - by) % n, ah >> 3
            after.append(grown | (ah if q in (n, by) else
                                  np.where(dist < old, (dist << 3) | 1 << k, np.where(dist == old, ah | 1 << k, ah))))
        fresh, inverse = np.unique(np.concatenate(after), return_inverse=True)
        keys = np.concatenate([(col_set[still] << ans_bits) | col_ans[still], fresh])
        if rows * keys.size > 1_000_000:
            check_size(f"Clue advice counts (step {i + 1} of {len(plain.steps)})", rows * keys.size, options,
                       entry, error=LayerTooLarge)
        out = buffers.zeros(rows, keys.size, x)
        grown_to = (still.size + inverse).reshape(places.size, more.size)   # per place, per grown column
        if kernel is not None:
            order = np.argsort(dst, kind="stable")
            kernel.move_columns(x, src[order], dst[order], np.searchsorted(places, place)[order], still, more,
                                grown_to, out)
        else:
            if still.size:   # consecutive columns (often all of them): a view, not a copy
                run = still[-1] - still[0] == still.size - 1
                out[:, :still.size] = _Move(src, dst).apply(x[:, still[0]:still[-1] + 1] if run else x[:, still], rows)
            if more.size:
                for j, q in enumerate(places.tolist()):
                    _add_columns(out, grown_to[j], _Move(src[place == q], dst[place == q]).apply(x[:, more], rows))
        x = out
        col_set, col_ans = keys >> ans_bits, keys & ((1 << ans_bits) - 1)
    # the complete deals by envelope; the columns by suggestion
    final = counter.codes(plain.layers[-1][plain.live[-1]])
    eb = counter.env_bits
    envelope = (final[0] << 2 * eb) | (final[1] << eb) | final[2]
    order = np.argsort(envelope, kind="stable")
    env = envelope[order]
    starts = np.flatnonzero(np.concatenate([[True], env[1:] != env[:-1]]))
    per_env = np.add.reduceat(x[order], starts, axis=0)
    if dtype is float:
        per_env = np.rint(per_env).astype(np.int64)
    class_of = {int(p): k for k, p in enumerate(placed.tolist())}
    cls = np.array([class_of[p] for p in col_set.tolist()], dtype=np.int64)
    return _scores(classes, n, cls, col_ans, per_env, int(plain.forward[-1][plain.live[-1]].sum()))


class _Buffers:
    """The dense counts of :func:`_class_scores`' steps, written in turn into two flat buffers kept for the whole
    pass (each step reads the one the step before wrote): arrays past glibc's mmap threshold (32 MiB) would be
    mapped afresh at every step, every page faulted in and zeroed by the kernel again (0.3-0.8 s of system time
    on the slowest three-player states)."""

    def __init__(self, dtype: type) -> None:
        self.dtype = dtype
        self.flat: list[np.ndarray] = [np.zeros(0, dtype=dtype), np.zeros(0, dtype=dtype)]

    def zeros(self, rows: int, cols: int, read: np.ndarray) -> np.ndarray:
        """A ``(rows, cols)`` array of zeros in the buffer that does not hold ``read`` (the step's input)."""
        k = 1 if np.may_share_memory(self.flat[0], read) else 0
        if self.flat[k].size < rows * cols:
            self.flat[k] = np.zeros(0, dtype=self.dtype)   # freed before the larger one is made
            self.flat[k] = np.empty(rows * cols, dtype=self.dtype)
        out = self.flat[k][:rows * cols].reshape(rows, cols)
        out.fill(0)
        return out


class _Move:
    """The transitions of one step for one place: row ``dst[t]`` of the next layer gets row ``src[t]``,
    added up, in rounds (each a fancy-indexed add with no repeated target row)."""

    def __init__(self, src: np.ndarray, dst: np.ndarray, ways: np.ndarray | None = None) -> None:
        plain = ways is None or not (ways != 1).any()
        self.rounds: list[tuple[np.ndarray, np.ndarray, np.ndarray | None]] = [
            (src[sel], dst[sel], None if plain or ways is None else ways[sel]) for sel in _rounds(dst)]

    def apply(self, x: np.ndarray, rows: int) -> np.ndarray:
        out = np.zeros((rows, x.shape[1]), dtype=x.dtype)
        for s, d, w in self.rounds:
            out[d] += x[s] if w is None else x[s] * w.astype(x.dtype)[:, None]
        return out


def _add_columns(out: np.ndarray, target: np.ndarray, x: np.ndarray) -> None:
    """``out[:, target[j]] += x[:, j]`` for every column j, repeated targets added up (in rounds)."""
    for sel in _rounds(target):
        out[:, target[sel]] += x[:, sel]


def _rounds(target: np.ndarray) -> list[np.ndarray]:
    """The indices of ``target`` in rounds, none repeating a value within a round (round k: the k-th index of
    each value), so that a fancy-indexed add per round adds every repeated target."""
    order = np.argsort(target, kind="stable")
    t = target[order]
    first = np.concatenate([[True], t[1:] != t[:-1]])
    at = np.arange(t.size)
    rank = at - np.maximum.accumulate(np.where(first, at, 0))
    return [order[rank == r] for r in range(int(rank.max(initial=-1)) + 1)]


def _scores(classes: list[tuple[int, int, int]], n: int, cls: np.ndarray, ans: np.ndarray, per_env: np.ndarray,
            total: int) -> dict[tuple[int, int, int], Score]:
    """Per class, the mutual information from the complete deals per (envelope, column) (``per_env``; a
    column's class ``cls`` and answer so far ``ans``; ``total`` deals): nobody shows (no card held), or the
    first holder shows each of the cards they hold with probability 1 / held (weight 6 / held).  The joint
    weights in a dense array per (class, envelope, answer shown)."""
    n_env, width = per_env.shape[0], 3 * n + 1   # the answer shown: 0 nobody, 1 + 3 * distance + card
    held = ans & 7
    size: np.ndarray = ((held >> 0) & 1) + ((held >> 1) & 1) + ((held >> 2) & 1)
    cols = [np.flatnonzero(held == 0)]
    answer = [np.zeros(cols[0].size, dtype=np.int64)]
    share = [np.full(cols[0].size, 6, dtype=np.int64)]
    for j in range(3):
        r = np.flatnonzero((held >> j) & 1)
        cols.append(r)
        answer.append(1 + 3 * (ans[r] >> 3) + j)
        share.append(6 // size[r])
    col, a, w = np.concatenate(cols), np.concatenate(answer), np.concatenate(share)
    index = ((cls[col] * n_env)[None, :] + np.arange(n_env)[:, None]) * width + a[None, :]   # envelope x entry
    cells = len(classes) * n_env * width
    if 6 * total < FLOAT_EXACT:   # every sum below 2**53: float64 adds it exactly
        joint = np.rint(np.bincount(index.ravel(), weights=(per_env[:, col] * w).ravel().astype(float),
                                    minlength=cells)).astype(np.int64)
    else:
        joint = np.zeros(cells, dtype=np.int64 if 6 * total < INT_EXACT else object)
        np.add.at(joint, index.ravel(), (per_env[:, col].astype(joint.dtype) * w.astype(joint.dtype)).ravel())
    joint = joint.reshape(len(classes), n_env, width)
    jc, je, ja = np.nonzero(joint if joint.dtype != object else joint != 0)
    jw = joint[jc, je, ja]
    pe, pa = joint.sum(axis=2)[jc, je], joint.sum(axis=1)[jc, ja]
    f = [np.array(x.tolist() if x.dtype == object else x, dtype=float) for x in (jw, pe, pa)]
    terms = f[0] / total * (np.log2(f[0]) + math.log2(total) + math.log2(6) - np.log2(f[1]) - np.log2(f[2]))
    bits = np.bincount(jc, weights=terms, minlength=len(classes)) / 6
    # exact ties: the sums' terms compared exactly, for classes whose floats are close
    order = np.argsort(bits, kind="stable")
    close = np.zeros(len(classes), dtype=bool)
    if len(classes) > 1:
        near = np.isclose(bits[order][1:], bits[order][:-1], rtol=1e-9, atol=1e-12)
        close[order[1:][near]] = close[order[:-1][near]] = True
    starts = np.searchsorted(jc, np.arange(len(classes) + 1))
    # equal terms need equal joint weights: the exact keys only for close classes that share those
    weights: dict[tuple[int, bytes], list[int]] = {}
    for k in np.flatnonzero(close).tolist():
        part = jw[starts[k]:starts[k + 1]]
        weights.setdefault((part.size, np.sort(part).tobytes() if part.dtype != object else
                            repr(sorted(part.tolist())).encode()), []).append(k)
    close[:] = False
    for group in weights.values():
        close[group] = len(group) > 1
    small = jw.dtype != object and close.any() and int(pe.max()) * int(pa.max()) < 1 << 63   # products in int64
    out: dict[tuple[int, int, int], Score] = {}
    tied: dict[tuple[tuple[int, int], ...], float] = {}
    for k, t in enumerate(classes):
        lo, hi = int(starts[k]), int(starts[k + 1])
        if lo == hi:
            out[t] = Score(0.0, ())
            continue
        if close[k] and small:   # the same pairs sorted as below, in int64
            prod = pe[lo:hi] * pa[lo:hi]
            o = np.lexsort((prod, jw[lo:hi]))
            key = tuple(zip(jw[lo:hi][o].tolist(), prod[o].tolist(), strict=True))
        elif close[k]:
            key = tuple(sorted(zip(jw[lo:hi].tolist(), (pe[lo:hi].astype(object) * pa[lo:hi].astype(object))
                                   .tolist(), strict=True)))
        else:
            key = ((-1, k),)
        out[t] = Score(max(float(tied.setdefault(key, float(bits[k]))), 0.0), key)   # equal terms: one value
    return out


def _named(names: Names, value: object, file: str | None, place: str, kind: str, allowed: list[str]) -> int:
    """The index ``value`` names in ``names``, folded as names in a file are (:func:`sleuth.schema.fold`); bad
    input names the option and the ``allowed`` names."""
    try:
        return names.index(str(value))
    except PuzzleError:
        raise UnknownNameError(kind, value, allowed, file=file, place=place) from None


# per suggest method: whether the exact scores are tried first (past their budget, the sampled estimate runs)
_EXACT_FIRST = handlers(GAME.suggest_methods, {"information": True, "sampled": False})


def suggest_report(puzzle: CluePuzzle, opts: Mapping[str, Any], method: str = "information") -> Report:
    """Rank the suggestions of ``by`` (the viewer by default) by the information they bring about the
    envelope: exact (``information``; the sampled estimate, labelled, past :data:`EXACT_BUDGET`) or
    estimated from sampled deals (``sampled``)."""
    game = puzzle.state
    file = puzzle.doc.file
    by_name = opts.get("by") or (game.players[game.viewer] if game.viewer is not None else None)
    if by_name is None:
        raise PuzzleError("suggest needs the suggester: set viewer in the file, --viewer NAME or --set by=NAME",
                          file=file, place="--viewer", allowed=list(game.players))
    by = _named(Names("player", game.players), by_name, file, "--set by" if opts.get("by") else "viewer", "player",
                list(game.players))
    rooms = list(game.deck.members(2))
    if "room" in opts:   # a room's name as in the file: its long name too (Names folds both the same way)
        allowed = [game.card(c) for c in rooms]
        room = _named(game.card_names, opts["room"], file, "--set room", "room", allowed)
        if room not in rooms:
            raise UnknownNameError("room", opts["room"], allowed, file=file, place="--set room")
        rooms = [room]
    samples = puzzle.integer(opts, "samples", DEFAULT_SAMPLES, 10, 100_000)
    seed = puzzle.integer(opts, "seed", 0, 0, 2**31)
    top = puzzle.integer(opts, "top", 5, 1, 1000)
    counts = puzzle.counts(triples=True)
    if counts.total == 0:
        return Report(puzzle.game, Status.CONTRADICTION, {}, conflict=puzzle.conflict())
    triples = counts.triples
    if triples is None:
        raise InternalError("deal counts asked per envelope triple came without them")
    sheet = counted_sheet(counts)
    envelope = sheet.envelope(game)
    certain = all(envelope.values())
    entropy = -sum((k / counts.total) * math.log2(k / counts.total) for k in triples.values() if k)
    fields: dict[str, Any] = {"by": game.players[by], "certain": certain,
                              "accusation": envelope if certain else None, "envelope_entropy": round(entropy, 4)}
    lines = [f"Suggestions for {game.players[by]}"]
    if certain:
        lines.append(f"Accuse now: {envelope['suspect']} with the {envelope['weapon']} in the {envelope['room']} "
                     "(certain: every consistent deal has this envelope).")
        fields.update(suggestion=None, ranking=[], samples=0)
        return Report(puzzle.game, Status.OK, fields, "\n".join(lines))
    n = len(game.players)
    suggestions = [(s, w, r) for s in game.deck.members(0) for w in game.deck.members(1) for r in rooms]
    exact: dict[tuple[int, int, int], Score] = {}
    if _EXACT_FIRST[method]:
        try:
            exact = exact_information(puzzle.problem(), by, suggestions, opts, budget=EXACT_BUDGET,
                                      compiled_budget=COMPILED_BUDGET)
        except PastBudget as past:
            puzzle.doc.note(f"the exact information of every suggestion is past the budget ({past}): the scores "
                            f"are estimated from {samples} sampled deals", "--method")
    if exact:
        ranked = sorted(exact.items(), key=lambda x: (-x[1].bits, x[1].key, x[0]))
        rank, ranks = 0, []
        for i, (_, score) in enumerate(ranked):   # equal exact sums share a rank
            if i == 0 or score.key != ranked[i - 1][1].key:
                rank = i + 1
            ranks.append(rank)
        rows = [{"suspect": game.card(t[0]), "weapon": game.card(t[1]), "room": game.card(t[2]),
                 "information": round(score.bits, 4), "rank": r} for (t, score), r in zip(ranked, ranks, strict=True)]
        best = sum(1 for r in ranks if r == 1)
        shown = rows[:max(top, 0)]
        fields.update(suggestion=rows[0], ranking=shown, samples=0, estimate=False, tied_best=best)
        lines.append(f"Envelope entropy now: {entropy:.3f} bits over {sum(1 for k in triples.values() if k)} "
                     "possible triples (exact).")
        lines.append("Information about the envelope (bits, exact over the "
                     f"{counts.total} consistent deals): how much, on average, what {game.players[by]} will see "
                     "(who shows, and which card) lowers the uncertainty about the envelope.")
        for row in shown:
            tie = " (tie)" if sum(1 for r in ranks if r == row["rank"]) > 1 else ""
            lines.append(f"  {row['rank']:>3}. {row['information']:.4f}  {row['suspect']}, {row['weapon']}, "
                         f"{row['room']}{tie}")
        if best > 1:
            lines.append(f"{best} suggestions tie for the most information (exactly equal sums).")
        left = [r for r in rows[len(shown):] if r["rank"] == shown[-1]["rank"]]
        if left:
            lines.append(f"  ... and {len(left)} more tied with the last one listed.")
        lines += _score_words(game.players[by], entropy, len(shown), len(rows))
        return Report(puzzle.game, Status.OK, fields, "\n".join(lines))
    deals = sample_deals(puzzle.problem(), samples, random.Random(seed))
    ranking = list(zip(sampled_information(deals, by, suggestions, n), suggestions, strict=True))
    ranking.sort(key=lambda x: (-x[0], x[1]))
    rows = [{"suspect": game.card(t[0]), "weapon": game.card(t[1]), "room": game.card(t[2]),
             "information": round(info, 4)} for info, t in ranking[:top]]
    best_info = round(ranking[0][0], 4)
    tied = sum(1 for info, _ in ranking if round(info, 4) == best_info)
    fields.update(suggestion=rows[0], ranking=rows, samples=samples, estimate=True, tied=tied)
    lines.append(f"Envelope entropy now: {entropy:.3f} bits over {sum(1 for k in triples.values() if k)} "
                 "possible triples (exact).")
    lines.append(f"Expected information about the envelope (bits, estimated from {samples} deals drawn "
                 f"uniformly from the {counts.total} consistent deals; seed {seed}; approximate):")
    for row in rows:
        mark = "  (tie)" if tied > 1 and row["information"] == best_info else ""
        lines.append(f"  {row['information']:.3f}  {row['suspect']}, {row['weapon']}, {row['room']}{mark}")
    lines += _score_words(game.players[by], entropy, len(rows), len(ranking))
    if tied > 1:
        lines.append(f"{tied} suggestions tie for the best score: any of them is as good (listed in the deck's "
                     "order; --set top=N lists more).")
    return Report(puzzle.game, Status.OK, fields, "\n".join(lines))


def _score_words(who: str, entropy: float, listed: int, total: int) -> list[str]:
    """What the score means, in words, and whether the list is cut (both advice methods)."""
    lines = [f"The score is how much the answer to the suggestion is expected to tell {who} about the envelope, "
             f"in bits: each bit halves the possible envelopes on average (of the {entropy:.3f} bits still "
             "unknown). Higher is better."]
    if total > listed:
        lines.append(f"Listed: the {listed} best of {total} suggestions (--set top=N lists more, --json gives the "
                     "same list with exact fields).")
    return lines


def show_report(puzzle: CluePuzzle, opts: Mapping[str, Any]) -> Report:
    """``--set show="BY: SUSPECT, WEAPON, ROOM"``: the viewer must answer this suggestion; which of their
    cards reveals least to the suggester (exact, over the viewer's worlds)."""
    from .others import show_advice
    game, file, place = puzzle.state, puzzle.doc.file, "--show"
    form = "'PLAYER: SUSPECT, WEAPON, ROOM' (the suggestion the viewer must answer)"
    if game.viewer is None:
        raise PuzzleError("show needs the viewer who shows: set viewer in the file or --viewer NAME",
                          file=file, place="--viewer", allowed=list(game.players))
    by_name, sep, rest = str(opts["show"]).partition(":")
    names = [x.strip() for x in rest.split(",")]
    if not sep or len(names) != 3:
        raise PuzzleError(f"cannot read {opts['show']!r}", file=file, place=place, allowed=form)
    try:
        by = Names("player", game.players).index(by_name.strip())
        cards = sorted(game.card_names.index(x) for x in names)
    except PuzzleError as exc:
        raise PuzzleError(exc.message, file=file, place=place, allowed=exc.allowed) from None
    if sorted(game.deck.category(c) for c in cards) != [0, 1, 2]:
        raise PuzzleError("the suggestion must name one suspect, one weapon and one room", file=file,
                          place=place, allowed=form)
    if by == game.viewer:
        raise PuzzleError("the viewer does not show a card to themselves", file=file, place=place,
                          allowed=[p for i, p in enumerate(game.players) if i != by])
    held = [c for c in cards if c in game.hands[game.viewer]]
    if not held:
        raise PuzzleError(f"{game.players[game.viewer]}'s hand holds none of these cards", file=file,
                          place=place, allowed=[game.card(c) for c in game.hands[game.viewer]] or "a listed hand")
    rows = show_advice(game, by, (cards[0], cards[1], cards[2]))
    if not rows:
        n = len(game.players)
        between = [game.players[(by + i) % n] for i in range(1, (game.viewer - by) % n)]
        raise PuzzleError(f"no deal lets this suggestion reach {game.players[game.viewer]}: "
                          f"{' or '.join(between) or 'nobody'} must hold one of the cards",
                          file=file, place=place, allowed="a suggestion the viewer can be the one to answer")
    ranked = [_advice(r) for r in rows]
    fields: dict[str, Any] = {
        "by": game.players[by], "show": game.card(ranked[0][0]),
        "ranking": [{"card": game.card(card), "entropy": round(entropy, 4), "knows_envelope": knows}
                    for card, entropy, knows in ranked]}
    lines = [f"{game.players[game.viewer]} shows {game.players[by]} one of: "
             + ", ".join(game.card(c) for c in held),
             f"What {game.players[by]} then knows (exact expectation over {game.players[game.viewer]}'s worlds):",
             f"  {'card':<16} {'envelope entropy (bits)':>24} {'P(knows the envelope)':>22}"]
    for r in fields["ranking"]:
        lines.append(f"  {r['card']:<16} {r['entropy']:>24.4f} {decimal(r['knows_envelope']):>22}")
    lines.append(f"Show {fields['show']} (reveals least: highest entropy left, then lowest chance of knowing).")
    return Report(puzzle.game, Status.OK, fields, "\n".join(lines))


def _advice(row: Mapping[str, object]) -> tuple[int, float, object]:
    """One row of :func:`.others.show_advice` typed: (card, envelope entropy, P(the suggester knows it))."""
    card, entropy = row["card"], row["entropy"]
    if not isinstance(card, int) or not isinstance(entropy, float):
        raise InternalError(f"malformed advice row {row!r}")
    return card, entropy, row["knows"]
