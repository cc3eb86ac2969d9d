"""What the other players know, seen from the viewer's side: nested exact counting over their views.

A *world* is a deal consistent with the viewer's observations (uniform) together with the card shown at
every showing the viewer did not see (uniform among the suggested cards the shower holds).  A player's
*view* in a world is their own hand and the cards shown to them; the public log is common to all.  The
player knows a part of the envelope in a world when every deal consistent with their view and the public
log has the same answer for that part.

Nested counting, not enumeration of deals or of views one by one: for one player, one counting pass over
the viewer's deals keeps them apart by the player's view (their hand, up to cards no observation tells
apart, and which suggested cards each shower holds at the showings to them the viewer did not see), which
gives every view's weight (times 1/|held| per unseen showing for the card shown); a second pass over the
player's own problem before their hand is fixed (the public log and the cards the viewer saw shown to
them), kept apart the same way, gives for every view the envelope cards the player considers possible
(and with :func:`envelope_beliefs`, how many of their deals have each envelope).  The player knows a part
in a view when one card of it is possible; :func:`sleuth.knowledge.expectation` averages over the views.
The passes and the views' bookkeeping are :mod:`.viewsplit`'s.
:func:`view_problem` and :func:`knows` judge one view by its own count (a reference for the tests), and
:func:`.brute_force.brute_force_others` lists every deal and every shown card as :class:`sleuth.knowledge.Worlds`
instead (the tests' reference on small decks).
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from sleuth.allocator import small_pages
from sleuth.errors import InternalError
from sleuth import knowledge as kn

from .arrays import segment_or, segment_sum, unique_pairs
from .game import SPLIT_KERNEL
from .problem import Counts, Problem
from .state import CATEGORIES, Deck, ClueState, Suggestion
from .viewsplit import PARTS as PARTS  # named here too, where the puzzle reads it
from .viewsplit import (MAX_CODES, Classes, Showing, View, ViewInfo, ViewSplit, code_groups, player_game,
                        player_problem, showings_to, view_space)


def views(game: ClueState, player: int) -> tuple[dict[View, ViewInfo], int]:
    """The views of ``player`` the viewer considers possible, up to symmetry, with their weights: a view
    stands for ``weight / denominator`` of the worlds (exact integers; the weights add up to the
    denominator), and the envelope cards the viewer's own worlds with that view leave possible (a part
    with two of them is a part the player cannot know in that view).

    Cards that share a category, their place masks in the viewer's and in the public problem, and that no
    shown-card set or accusation names are interchangeable in every problem involved, so hands are listed
    as how many cards they take of each such class (one representative hand, weighted by the number of
    hands it stands for).  One counting pass over the viewer's deals, kept apart by the player's hand and
    by which suggested cards each shower holds at the showings to the player the viewer did not see
    (:meth:`.split.SplitCounter.split`), gives every weight at once."""
    space = view_space(game, player)
    if space is None:
        return {}, 0
    split = ViewSplit(space[0], player, space[2], space[1], counts=True)
    weights, denominator = split.view_weights()
    env: dict[tuple[int, tuple[int, ...]], int] = defaultdict(int)
    for comp, held, _, env_groups in split.rows:
        for sigma in itertools.product(*split.held(held)):
            env[(comp, sigma)] |= env_groups
    found = {(split.hand(comp), sigma): ViewInfo(w, split.envelope_cards(env[(comp, sigma)], comp))
             for (comp, sigma), w in weights.items()}
    return found, denominator


def view_problem(game: ClueState, player: int, view: View) -> Problem:
    hand, sigma = view
    shown = {s.index: s.card for s in showings_to(game, player) if s.card is not None}
    shown.update({s.index: c for s, c in zip((s for s in showings_to(game, player) if s.card is None), sigma,
                                              strict=True)})
    pg = player_game(game, player, hand, shown)
    return Problem.from_observations(pg, pg.observations())


def part_counts(counts: Counts, deck: Deck, k: int) -> dict[int, int]:
    """The counted cell split by the envelope's card of category ``k`` (every deal has one there)."""
    return {c: counts.cells[c][-1] for c in deck.members(k)}


def knows(counts: Counts, deck: Deck) -> dict[str, bool]:
    """Which parts of the envelope are the same in every counted deal (:func:`sleuth.knowledge.knows` on the
    cell split by each part)."""
    out = {name: kn.knows(part_counts(counts, deck, k)) for k, name in enumerate(CATEGORIES)}
    return {"envelope": all(out.values()), **out}


@small_pages()
def chances_others_know(game: ClueState, players: Sequence[int] | None = None) -> dict[int, dict[str, Fraction]]:
    """For every other player: the probability that they know the envelope and each of its parts.

    Per player two counting passes, each kept apart by the player's view: the viewer's deals (the weight
    of every view, :func:`views`) and the player's own problem before their hand is fixed
    (:func:`player_problem`: for each view, which envelope cards some deal of the player's leaves
    possible).  The player knows a part in a view when exactly one card of it is possible."""
    if players is None:
        players = [p for p in range(len(game.players)) if p != game.viewer]
    out = {}
    for p in players:
        sums: dict[str, Fraction] = {}
        space = view_space(game, p)
        if space is not None:
            reduced, unseen, classes = space
            # resolving the showings pays for the outside observer (the slow states), not in a player's view
            observer = game.viewer is None
            split = ViewSplit(reduced, p, classes, unseen, counts=True, compiled=True, weigh=True, resolve=observer)
            if not split.empty:
                prob = player_problem(game, p, reduced)
                if prob is None:
                    raise InternalError(f"the viewer's worlds have views {game.players[p]} finds impossible")
                # an outside observer's problem is the public one: the player's pass is the same pass
                own = split if prob == reduced else ViewSplit(prob, p, classes, unseen, counts=False,
                                                           compiled=split.form is not None, kernel_from=0,
                                                           resolve=observer)
                sums = _know_sums(split, own)
        out[p] = {part: sums.get(part, Fraction(0)) for part in PARTS}
    return out


def _as_rows(weights: ViewSplit, own: ViewSplit) -> tuple[ViewSplit, ViewSplit]:
    """The two passes with their rows (the numpy judging), one pass where they are one."""
    if weights.form is None and own.form is None:
        return weights, own
    if own is weights:
        both = own.with_rows()
        return both, both
    return weights.with_rows(), own.with_rows()


def _compiled_rows(parts: Sequence[tuple[ViewSplit, int]], triples: bool) -> dict[str, Any]:
    """The records of compiled split passes (:attr:`ViewSplit.form`), each pass with its role (1: weighs the
    views, 2: the player's own deals, 3: both), as the arguments of :func:`._split_kernel.knowledge_sums`
    (``triples`` off: a row per record with some complete deal) or :func:`._split_kernel.belief_sums` (per
    final state its envelope group triple, -1 when it is not a complete deal)."""
    kernel = SPLIT_KERNEL.load()
    own = parts[-1][0]
    out: dict[str, list[np.ndarray]] = defaultdict(list)
    base = n_states = 0
    for split, role in parts:
        form, counter = split.form, split.counter
        assert form is not None and kernel is not None
        ok = counter.accept(form.states)
        if triples:
            value = np.where(ok, 0, -1).astype(np.int64)
            if role & 2:
                n_groups = len(counter.groups)
                for k, codes in enumerate(counter.codes(form.states)):
                    value = np.where(ok, value * n_groups + code_groups(counter, k)[codes], -1)
            out["comp"].append(split.comp)
            out["held"].append(split.held_bits)
            out["code"].append(split.code)
            out["resolved"].append(np.full(split.comp.size, form.resolved, dtype=np.int64))
            out["role"].append(np.full(split.comp.size, role, dtype=np.int64))
            deals = form.num2 if form.num2.size else form.num
            rec_w = np.zeros(split.comp.size, dtype=np.int64)
            if role & 1:   # each record's weight: its complete deals (weighed ones where resolved; < 2**62)
                upto = np.concatenate(([0], np.cumsum(np.where(ok[form.ent_state], form.num if form.resolved else
                                                               deals, 0))))
                rec_w = upto[form.rec_start[1:]] - upto[form.rec_start[:-1]]
            out["rec_w"].append(rec_w)
            if role & 2:   # the entries (the player's deals by final state): only this pass's, no copy
                out["rec_start"].append(form.rec_start[:-1] + base)
                out["ent_state"].append(form.ent_state.astype(np.int64) + n_states if n_states else form.ent_state)
                out["ent_num"].append(deals)
                out["state_triple"].append(value)
                base += form.ent_state.size
                n_states += form.states.size
            else:   # weighs only: no entries (each record's range empty)
                out["rec_start"].append(np.full(split.comp.size, base, dtype=np.int64))
        else:
            nums, ors = kernel.finish(form.rec_start, form.ent_state, form.num, form.env_groups, ok)
            kept = np.flatnonzero(nums)
            for name, x in (("comp", split.comp), ("held", split.held_bits), ("code", split.code), ("nums", nums),
                            ("env", ors)):
                out[name].append(x[kept])
            out["resolved"].append(np.full(kept.size, form.resolved, dtype=np.int64))
            out["role"].append(np.full(kept.size, role, dtype=np.int64))
    args: dict[str, Any] = {name: x[0] if len(x) == 1 else np.concatenate(x) for name, x in out.items()}
    if triples:
        args["rec_start"] = np.append(args["rec_start"], base)
    args["order"] = np.argsort(args["comp"], kind="stable")
    if not triples:   # the rows in that order: the kernel then reads them one after the other
        for name in ("comp", "held", "code", "resolved", "nums", "env", "role"):
            args[name] = args[name][args["order"]]
        args["order"] = np.arange(args["comp"].size)
    index = {pair: i for i, pair in enumerate(own.watched)}
    args["pair_bit"] = np.array([[index.get((c, s.shower), -1) for c in s.cards] for s in own.unseen],
                                dtype=np.int64).reshape(len(own.unseen), 3)
    args["n_codes"] = args["max_views"] = 3 ** len(own.unseen)
    args["group_size"] = np.array([len(g.cards) for g in own.counter.groups], dtype=np.int64)
    args["group_class"] = np.array(own.group_class, dtype=np.int64)
    args["class_shift"] = np.array([*own.shift, 0], dtype=np.int64)
    args["class_mask"] = np.array([(1 << len(cards).bit_length()) - 1 for cards, _ in own.classes] + [0],
                                  dtype=np.int64)
    return args


def _joined_views(weights: ViewSplit, own: ViewSplit) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The views (hand, card shown at each unseen showing) of the viewer's pass ``weights`` joined with the
    player's own pass ``own``, all at once (arrays of (row, view) pairs, :meth:`ViewSplit.pairs`): each view's
    hand code, the view of each of ``own``'s pairs, and each view's weight (the viewer's deals with it, times
    6 per unseen showing: exact integers).  Raises InternalError when a view of the viewer's worlds has no
    deal in the player's pass."""
    rows, code, share = weights.pairs
    total = sum(weights.nums) * 6 ** len(weights.unseen)
    w = np.array(weights.nums, dtype=object if total >= 1 << 62 else np.int64)[rows] * share
    n_views = rows.size
    if own is weights:   # one pass for both (an outside observer): no join
        comp, _, index = unique_pairs(weights.comp[rows], code)
        index = np.concatenate([index, index])
    else:
        own_rows, own_code, _ = own.pairs
        comp, _, index = unique_pairs(np.concatenate([weights.comp[rows], own.comp[own_rows]]),
                                       np.concatenate([code, own_code]))
    seen = np.zeros(comp.size, dtype=bool)
    seen[index[n_views:]] = True
    if not seen[index[:n_views]].all():
        raise InternalError("a view of the viewer's worlds has no deal in the player's own problem")
    return comp, index[n_views:], segment_sum(index[:n_views], w, comp.size, w.dtype)


def _know_sums(weights: ViewSplit, own: ViewSplit) -> dict[str, Fraction]:
    """The viewer's probability that the player knows each part: every view's weight from the viewer's
    pass (``weights``), and the envelope cards the player's own pass (``own``) leaves possible in that view
    (:func:`_joined_views`).  The player knows a part in a view when one card of it is possible.  Compiled
    passes (:attr:`ViewSplit.form`) are judged by :func:`._split_kernel.knowledge_sums`."""
    if weights.form is not None and own.form is not None:
        total = weights.complete_deals * 6 ** len(weights.unseen)
        if total < 1 << 62:
            args = _compiled_rows([(weights, 3)] if own is weights else [(weights, 1), (own, 2)], False)
            args["group_cat"] = np.array([g.category for g in own.counter.groups], dtype=np.int64)
            kernel = SPLIT_KERNEL.load()
            assert kernel is not None
            got = kernel.knowledge_sums(**args).tolist()
            if got[4]:
                raise InternalError("a view of the viewer's worlds has no deal in the player's own problem")
            return {part: Fraction(got[i], total) for i, part in enumerate(PARTS)}
    weights, own = _as_rows(weights, own)
    comp, own_view, weight = _joined_views(weights, own)
    env_dtype: type = np.int64 if len(own.counter.groups) <= 62 else object
    env = segment_or(own_view, np.array(own.env, dtype=env_dtype)[own.pairs[0]], comp.size, env_dtype)
    sizes = [np.zeros(comp.size, dtype=np.int64) for _ in CATEGORIES]
    for gi, g in enumerate(own.counter.groups):
        sizes[g.category] += ((env >> gi) & 1).astype(np.int64) * np.asarray(own.remaining(gi, comp), dtype=np.int64)
    one = [x == 1 for x in sizes]
    known = {"envelope": one[0] & one[1] & one[2], **dict(zip(CATEGORIES, one, strict=True))}
    total = sum(weights.nums) * 6 ** len(weights.unseen)
    return {part: Fraction(int(weight[mask].sum()), total) for part, mask in known.items()}


@small_pages()
def envelope_beliefs(game: ClueState, player: int, *, fixed_order: bool = False) -> dict[str, Any]:
    """The viewer's exact expectation of the player's belief about the envelope: ``entropy``, the entropy
    (bits) of the player's distribution over envelope triples (uniform over the deals they consider
    possible), and ``knows``, the probability that they know the envelope; {} when no world is consistent.

    Two counting passes kept apart by the player's view, as in :func:`chances_others_know`; the pass over the
    player's own problem also keeps the deals apart by the envelope's groups of interchangeable cards.
    Every view is judged at once, as integer arrays: its deals per envelope group triple (a triple stands
    for as many envelopes as the groups have cards outside the view's hand, each with an equal share)."""
    space = view_space(game, player)
    if space is None:
        return {}
    reduced, unseen, classes = space
    prob = player_problem(game, player, reduced)
    if prob is None:
        return {}
    one_pass = prob == reduced
    # resolving the showings pays for the outside observer (the slow states), not in a player's view
    resolve = game.viewer is None
    own = ViewSplit(prob, player, classes, unseen, counts=True, envelopes=True, compiled=True, weigh=one_pass,
                 unweighed=one_pass, resolve=resolve)
    # an outside observer's problem is the public one: the player's pass, summed over the envelopes, weighs
    # the views too
    weights = own if one_pass else _weighing_pass(reduced, player, classes, unseen, own, resolve)
    if weights.empty:
        return {}
    return _Beliefs(weights, own, fixed_order).judge()[0]


def _weighing_pass(reduced: Problem, player: int, classes: Classes, unseen: list[Showing], own: ViewSplit,
                   resolve: bool) -> ViewSplit:
    """The pass over the viewer's deals that weighs the player's views (:func:`envelope_beliefs`), watching
    the pairs ``own`` watches."""
    return ViewSplit(reduced, player, classes, unseen, counts=True, masks=False, weigh=True,
                     compiled=own.form is not None, kernel_from=0, resolve=resolve, watch=own.watch)


class _Beliefs:
    """:func:`envelope_beliefs` read off its two passes (``weights``: the viewer's deals, ``own``: the player's,
    kept apart by the envelope; one pass for both where they are one), each envelope group triple that holds a
    group of ``drop`` (:meth:`judge`) left out: the player's deals conditioned on that group's card not being
    in the envelope (:func:`show_advice`).  ``fixed_order``: numpy only, a term per cell then one correctly
    rounded sum (math.fsum), so the floats are the same in every process (the compiled sums' order differs)."""

    def __init__(self, weights: ViewSplit, own: ViewSplit, fixed_order: bool = False) -> None:
        self.weights, self.own, self.fixed_order = weights, own, fixed_order
        self.n_groups = len(own.counter.groups)
        self.denominator = 0
        self.args: dict[str, Any] | None = None
        if own.form is not None and weights.form is not None and not fixed_order:
            self.denominator = weights.complete_deals * 6 ** len(own.unseen)
            if self.denominator < 1 << 62:
                self.args = _compiled_rows([(own, 3)] if own is weights else [(weights, 1), (own, 2)], True)
        self.cells: tuple[np.ndarray, ...] | None = None

    def judge(self, drops: Sequence[Sequence[int]] = ((),)) -> list[dict[str, Any]]:
        """Per entry of ``drops``: ``entropy`` and ``knows``, the triples holding one of its groups left out;
        {} when no view is weighed.  Compiled passes are judged in one kernel call for all of them where its
        tables fit (:data:`.viewsplit.MAX_CODES`), else one call each."""
        if self.args is not None:
            together = self._kernel_judge(drops)
            if together is not None:
                return together
            one_by_one = [self._kernel_judge([drop]) for drop in drops]
            if all(x is not None for x in one_by_one):
                return [x[0] for x in one_by_one if x is not None]
        return [self._judged(drop) for drop in drops]

    def _kernel_judge(self, drops: Sequence[Sequence[int]]) -> list[dict[str, Any]] | None:
        """:meth:`judge` by :func:`._split_kernel.belief_sums`, None where its tables would not fit."""
        assert self.args is not None
        n_groups = self.n_groups
        args = dict(self.args)
        triple = args["state_triple"].copy()   # the groups' triple index per state of the player's, compact
        present, index = np.unique(triple[triple >= 0], return_inverse=True)
        if args["n_codes"] * max(present.size, len(drops)) > MAX_CODES:   # the kernel's tables per hand
            return None
        out = np.zeros(triple.size, dtype=np.int64)   # per state, the variants it is left out of
        # the player's own states only (a weighing pass lists none)
        parts = (triple // (n_groups * n_groups), triple // n_groups % n_groups, triple % n_groups)
        for q, drop in enumerate(drops):
            if drop:
                if self.own is self.weights:
                    raise InternalError("one pass weighs the views: its deals cannot be left out")
                gone = np.isin(parts[0], drop) | np.isin(parts[1], drop) | np.isin(parts[2], drop)
                out |= np.where(gone & (triple >= 0), 1 << q, 0)
        triple[triple >= 0] = index
        args.update(state_triple=triple, state_out=out, n_var=len(drops))
        args["triple_groups"] = np.stack([present // (n_groups * n_groups), present // n_groups % n_groups,
                                          present % n_groups], axis=1).astype(np.int64)
        kernel = SPLIT_KERNEL.load()
        assert kernel is not None
        entropy, knows, missing = kernel.belief_sums(**args)
        if missing:
            raise InternalError("a view of the viewer's worlds has no deal in the player's own problem")
        return [{"entropy": float(e) / self.denominator, "knows": Fraction(int(k), self.denominator)}
                for e, k in zip(entropy.tolist(), knows.tolist(), strict=True)]

    def _judged(self, drop: Sequence[int]) -> dict[str, Any]:
        """:meth:`judge` of one variant, by numpy on rows."""
        n_groups = self.n_groups
        if self.cells is None:
            self.weights, self.own = _as_rows(self.weights, self.own)
            self.cells = _belief_cells(self.weights, self.own)
        weights, own = self.weights, self.own
        denominator = sum(weights.nums) * 6 ** len(own.unseen)
        comp, weight, view, triple, deals = self.cells
        if drop:
            keep = ~(np.isin(triple // (n_groups * n_groups), drop) | np.isin(triple // n_groups % n_groups, drop)
                     | np.isin(triple % n_groups, drop))
            view, triple, deals = view[keep], triple[keep], deals[keep]
        ways = np.ones(view.size, dtype=np.int64)   # envelopes per group triple: cards of each group outside the hand
        sizes = np.array([len(g.cards) for g in own.counter.groups], dtype=np.int64)
        klass = np.array(own.group_class, dtype=np.int64)
        shift = np.array([*own.shift, 0], dtype=np.int64)
        mask = np.array([(1 << len(cards).bit_length()) - 1 for cards, _ in own.classes] + [0], dtype=np.int64)
        for part in (triple // (n_groups * n_groups), triple // n_groups % n_groups, triple % n_groups):
            k = klass[part]
            ways *= sizes[part] - ((comp[view] >> shift[k]) & mask[k])
        total = np.zeros(comp.size, dtype=float)
        np.add.at(total, view, deals.astype(float))
        d, t = deals.astype(float), total[view]
        entropy = np.zeros(comp.size, dtype=float)
        np.add.at(entropy, view, d / t * np.log2(ways * t / d))
        triples = np.zeros(comp.size, dtype=np.int64)
        np.add.at(triples, view, ways)
        counted = weight != 0
        if drop and not (total[counted] > 0).all():
            raise InternalError("a view of the viewer's worlds has no deal in the player's own problem")
        if not denominator:
            return {}
        wf = np.array(weight.tolist(), dtype=float) if weight.dtype == object else weight.astype(float)
        knows = Fraction(int(weight[counted & (triples == 1)].sum()), denominator)
        if self.fixed_order:  # a term per cell, then one correctly rounded sum: the same whatever their order
            terms = (wf[view] * (d / t * np.log2(ways * t / d)))[counted[view]]
            return {"entropy": math.fsum(terms.tolist()) / denominator, "knows": knows}
        return {"entropy": float(np.sum(wf[counted] * entropy[counted])) / denominator, "knows": knows}


def _belief_cells(weights: ViewSplit, own: ViewSplit) -> tuple[np.ndarray, ...]:
    """The views of :func:`_joined_views` (each one's hand code and weight) and the player's deals per (view,
    envelope group triple) of ``own`` (a pass with ``envelopes``), for the views the viewer's worlds have: as
    arrays ``comp``, ``weight`` per view and ``view``, ``triple``, ``deals`` per (view, triple) cell, sorted.
    An outside observer's single pass (``own is weights``) sorts its (row, view) pairs once, by view and
    triple together, where the three fit in one int64."""
    rows, code, share = own.pairs
    deal_dtype: type = object if sum(own.nums) >= 1 << 62 else np.int64
    nums: np.ndarray = np.array(own.nums, dtype=deal_dtype)[rows]
    env = own.env[rows]
    hand = own.comp[rows]
    widths = [int(x.max(initial=0)).bit_length() if x.dtype != object else 63 for x in (hand, code, env)]
    if own is not weights or sum(widths) > 63:
        comp, own_view, weight = _joined_views(weights, own)
        view, triple, cell = unique_pairs(own_view, env)
        return comp, weight, view, triple, segment_sum(cell, nums, view.size, deal_dtype)
    key = (((hand << widths[1]) | code) << widths[2]) | env
    order = np.argsort(key, kind="quicksort")
    key = key[order]
    cell_start = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
    view_key = key >> widths[2]
    view_start = np.flatnonzero(np.concatenate(([True], view_key[1:] != view_key[:-1])))
    is_view = np.zeros(key.size, dtype=np.int64)
    is_view[view_start] = 1
    view = (np.cumsum(is_view) - 1)[cell_start]
    nums = nums[order]
    wide = sum(own.nums) * 6 ** len(own.unseen) >= 1 << 62   # the weights' sum past int64: Python integers
    weight = np.add.reduceat(nums.astype(object) * share[order] if wide else nums * share[order], view_start)
    return (view_key[view_start] >> widths[1], weight, view, key[cell_start] & ((1 << widths[2]) - 1),
            np.add.reduceat(nums, cell_start))


def show_advice(game: ClueState, by: int, cards: tuple[int, int, int], *, fixed_order: bool = False
                ) -> list[dict[str, object]]:
    """The viewer must show one of ``cards`` to ``by``: for each card they hold, what ``by`` then knows,
    in expectation over the viewer's worlds (:func:`envelope_beliefs`): the entropy (bits) of ``by``'s
    envelope distribution and the probability that ``by`` knows the envelope.  Least revealing first; []
    when no world is consistent with the suggestion being answered by the viewer.

    The cards' worlds share their passes where they may (:func:`_shared_show`), else each card is judged on
    its own (always with ``fixed_order``: see :func:`envelope_beliefs`)."""
    v = game.viewer
    if v is None:
        raise InternalError("advice on what others learn needs a viewer")
    held = [c for c in cards if c in game.hands[v]]
    found = None if fixed_order else _shared_show(game, by, cards, held)
    if found is None:
        found = {c: envelope_beliefs(_answered(game, by, cards, c), by, fixed_order=fixed_order) for c in held}
    rows = [{"card": c, "entropy": float(values["entropy"]), "knows": values["knows"]}
            for c, values in found.items() if values]
    rows.sort(key=lambda r: (-r["entropy"], r["knows"], r["card"]))
    return rows


def _answered(game: ClueState, by: int, cards: tuple[int, int, int], card: int | None) -> ClueState:
    """The game after the viewer answers ``by``'s suggestion of ``cards`` by showing ``card`` (None: unseen)."""
    return ClueState(game.deck, game.players, game.hand_sizes, game.hands,
                     (*game.suggestions, Suggestion(by, cards, game.viewer, card)), game.accusations,
                     game.file_viewer, game.viewer, game.card_names)


@small_pages()
def _shared_show(game: ClueState, by: int, cards: tuple[int, int, int],
                 held: list[int]) -> dict[int, dict[str, Any]] | None:
    """:func:`show_advice`'s values for every card of ``held`` from one pass over ``by``'s deals and one over
    the viewer's; None where the cards' worlds cannot share them.

    Showing a card of their own changes nothing in the viewer's worlds, nor in ``by``'s views of them (the
    card shown is seen by both): only ``by``'s own problem differs, by the shown card being in the viewer's
    hand.  Where every held card can only be in the viewer's hand or in the envelope of ``by``'s problem with
    the card shown left unknown (the players between them passed, and ``by``'s hand never holds it in the
    viewer's worlds), the card is in the viewer's hand exactly where it is not in the envelope: one pass over
    that problem, kept apart by the envelope, gives every card's deals by leaving out the envelopes holding it
    (:class:`_Beliefs` ``drop``; each held card a group of its own)."""
    v = game.viewer
    assert v is not None
    if len(held) < 2:
        return None
    spaces = [view_space(_answered(game, by, cards, c), by) for c in held]
    first = spaces[0]
    if first is None or any(s != first for s in spaces[1:]):
        return None
    reduced, unseen, classes = first
    # the card shown left unknown, and its 'the viewer holds one of them' too: leaving the envelopes that hold
    # a card out puts it in the viewer's hand
    prob = player_problem(_answered(game, by, cards, None), by, reduced, (v, frozenset(cards)))
    if prob is None or prob == reduced:
        return None
    if any(prob.allowed[c] & ~((1 << v) | prob.env_bit) for c in held):
        return None
    own = ViewSplit(prob, by, classes, unseen, counts=True, envelopes=True, compiled=True, resolve=True,
                    watch=reduced, alone=frozenset(held))
    group = [own.counter.card_group[c] for c in held]
    if any(len(own.counter.groups[gi].cards) != 1 for gi in group):
        raise InternalError("a card shown is not a group of its own")
    weights = _weighing_pass(reduced, by, classes, unseen, own, False)
    if weights.empty:
        return {c: {} for c in held}
    return dict(zip(held, _Beliefs(weights, own).judge([[gi] for gi in group]), strict=True))
