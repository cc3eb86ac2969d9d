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
:func:`view_problem` and :func:`knows` judge one view by its own count (a reference for the tests), and
:func:`brute_force_others` lists every deal and every shown card as :class:`sleuth.knowledge.Worlds`
instead (the tests' reference on small decks).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from sleuth.allocator import small_pages
from sleuth.errors import InternalError
from sleuth import knowledge as kn

from .arrays import segment_or, segment_sum, unique_pairs
from .compiled import kernel_available, split_kernel
from .problem import Counts, Problem
from .split import Reorder, SplitCounter, resolution_fits
from .state import CATEGORIES, Deck, ClueState, Obs, ObsKind, Suggestion

PARTS = ("envelope", *CATEGORIES)
Deal = tuple[int, ...]

View = tuple[frozenset[int], tuple[int, ...]]   # (hand, card shown at each unseen showing to the player)


@dataclass
class ViewInfo:
    weight: int = 0
    envelope: tuple[frozenset[int], ...] = (frozenset(), frozenset(), frozenset())


@dataclass(frozen=True)
class Showing:
    """A showing to the player: suggestion ``index``; ``card`` is None when the viewer did not see it."""

    index: int
    shower: int
    cards: tuple[int, int, int]
    card: int | None


def showings_to(game: ClueState, player: int) -> list[Showing]:
    v = game.viewer
    out = []
    for k, s in enumerate(game.suggestions):
        if s.by == player and s.shown_by is not None:
            seen = s.card is not None and (v is None or v in (s.by, s.shown_by))
            out.append(Showing(k, s.shown_by, s.cards, s.card if seen else None))
    return out


def player_game(game: ClueState, player: int, hand: frozenset[int], shown: dict[int, int]) -> ClueState:
    """The game as ``player`` sees it: their hand, the cards shown to them (``shown``: suggestion index ->
    card), the public log."""
    hands = tuple(hand if p == player else frozenset() for p in range(len(game.players)))
    sugg = tuple(Suggestion(s.by, s.cards, s.shown_by, shown.get(k)) for k, s in enumerate(game.suggestions))
    return ClueState(game.deck, game.players, game.hand_sizes, hands, sugg, game.accusations, None, player,
                game.card_names)


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
    space = _view_space(game, player)
    if space is None:
        return {}, 0
    split = _Split(space[0], player, space[2], space[1], counts=True)
    weights, denominator = split.view_weights()
    env: dict[tuple[int, tuple[int, ...]], int] = defaultdict(int)
    for comp, held, _, env_groups in split.rows:
        for sigma in itertools.product(*split.held(held)):
            env[(comp, sigma)] |= env_groups
    found = {(split.hand(comp), sigma): ViewInfo(w, split.envelope_cards(env[(comp, sigma)], comp))
             for (comp, sigma), w in weights.items()}
    return found, denominator


Classes = list[tuple[list[int], bool]]


def _view_space(game: ClueState, player: int) -> tuple[Problem, list[Showing], Classes] | None:
    """What :func:`views` splits: the viewer's problem (propagated), the showings to the player the viewer
    did not see and the classes of interchangeable cards the player may hold; None when no deal is
    consistent."""
    pv = Problem.from_observations(game, game.observations())
    reduced = pv.propagate()
    if reduced is None:
        return None
    unseen = [s for s in showings_to(game, player) if s.card is None]
    return reduced, unseen, _classes(game, pv, reduced, player)


class _Split:
    """A problem's deals split by the player's hand and by the suggested cards each shower holds at the
    unseen showings to the player, in one counting pass (:meth:`.split.SplitCounter.split`).

    Rows: (hand, held, deals, envelope).  The hand is an integer, how many cards it takes of each class
    (:meth:`hand` gives the representative hand: the first cards of each class); held is a bit per (card,
    shower) pair of the unseen showings (:meth:`held` reads it); envelope is a bit mask of the counter's
    groups that put a card in the envelope in some of the deals, or with ``envelopes`` the envelope itself
    as the three groups it takes its cards from (rows then split by it; an array of ``(g0 * groups + g1) *
    groups + g2``); without ``masks`` (and with ``envelopes``) the masks are not kept (all 0)."""

    def __init__(self, prob: Problem, player: int, classes: Classes, unseen: Sequence[Showing], *,
                 counts: bool, envelopes: bool = False, masks: bool = True, compiled: bool = False,
                 kernel_from: int | None = None, weigh: bool = False, unweighed: bool = False,
                 resolve: bool = True) -> None:
        """``compiled``: where the pass runs compiled (:attr:`form` not None; from ``kernel_from`` entries in a
        layer, default :data:`.compiled.KERNEL_FROM`), keep its last layer by record (:attr:`comp` and
        :attr:`held_bits` per record of :attr:`form`) and make no rows; the compiled part resolves the unseen
        showings into the card shown (a record is then one view, :attr:`code`; not with ``resolve`` off), its
        deals weighed by the view's share with ``weigh`` (and kept unweighed too with ``unweighed``)."""
        self.classes, self.unseen, self.player = classes, unseen, player
        self.args = {"counts": counts, "envelopes": envelopes, "masks": masks}
        class_of = self.class_of = {c: k for k, (cards, _) in enumerate(classes) for c in cards}
        self.watched = sorted({(c, s.shower) for s in unseen for c in s.cards})
        self.bit = {pair: 1 << i for i, pair in enumerate(self.watched)}
        single = {c for c, _ in self.watched}
        def counter_in(reverse: bool) -> SplitCounter:
            return SplitCounter(prob, envelopes, refine=lambda c: ("single", c) if c in single else class_of.get(c),
                            reverse=reverse)

        # compiled passes that resolve the showings (:meth:`.split.SplitCounter.split`; while the record and the
        # counts fit in int64): the named cards in the counting order, which closes the showings' sets early; a
        # pass large enough to turn compiled asks an estimate (:meth:`.split.SplitCounter.split_cost`) and starts
        # again in the reverse order where that is clearly cheaper (each order is far better than the other on
        # some slow states).  Passes that do not resolve: the reverse order (fewer entries on most slow states
        # without resolving), unless the estimate finds the counting order far cheaper; where numba is missing
        # (every pass in numpy) the same (sleuth solve example:clue/master-detective --others: 8.5 -> 1.7 s).
        # (The kernel is loaded by the first pass of the process that needs it: :data:`.compiled.COLD_KERNEL_WORK`.)
        self.resolving = compiled and resolve and _resolvable(prob, player, len(self.watched), len(unseen))
        counter = self.counter = counter_in(not self.resolving)
        if not self.resolving and (compiled or not kernel_available()) and \
                _records_bound(prob, player, single) >= ESTIMATE_FROM:
            other = counter_in(False)
            if [g.cards for g in other.groups] != [g.cards for g in counter.groups] and \
                    other.split_cost(player, self.watched) < 0.6 * counter.split_cost(player, self.watched):
                counter = self.counter = other
        reverse: list[SplitCounter] = []

        def reorder() -> bool:
            """A large resolving pass: start again in the reverse order where the estimate finds it clearly
            cheaper; a pass kept apart by the envelope (many states per record: a showing resolved early copies
            them) where it finds it not clearly dearer, and then without resolving (measured on the slowest
            states of three-player games)."""
            reverse.append(counter_in(True))
            if [g.cards for g in reverse[0].groups] == [g.cards for g in counter.groups]:
                return False
            cost, other = counter.split_cost(player, self.watched), reverse[0].split_cost(player, self.watched)
            return other < (1 / 0.9 if envelopes else 0.8) * cost
        self.shift, width = [], 0
        for cards, _ in classes:
            self.shift.append(width)
            width += len(cards).bit_length()
        compiled = compiled and width <= 62 and len(self.watched) <= 62 and 3 ** len(unseen) <= MAX_CODES
        run = functools.partial(SplitCounter.split, player=player, watched=self.watched, counts=counts,
                                by_envelope=envelopes, ors=masks and not envelopes, rows=not compiled,
                                kernel_from=kernel_from, weigh=weigh and counts, unweighed=unweighed,
                                showings=[[(c, s.shower) for c in s.cards] for s in unseen] if self.resolving else ())
        try:
            records, nums, ors = run(counter, reorder=reorder if self.resolving and compiled else None)
        except Reorder:
            counter = self.counter = reverse[0]
            self.resolving = not envelopes
            records, nums, ors = run(counter, showings=run.keywords["showings"] if self.resolving else ())
        self.form = counter.form if compiled else None
        self.group_class = [class_of.get(g.cards[0], -1) for g in counter.groups]
        self._held: dict[int, list[tuple[int, ...]]] = {}
        if self.form is not None:
            group_shift, pair_bit = counter.record_layout
            fields = [(sh, (1 << len(classes[k][0]).bit_length()) - 1, self.shift[k]) for gi, sh in group_shift.items()
                      for k in [class_of[counter.groups[gi].cards[0]]]]
            kernel = split_kernel()
            assert kernel is not None
            self.comp, self.held_bits = kernel.read_records(
                self.form.rec_val, *(np.array([f[i] for f in fields], dtype=np.int64) for i in range(3)),
                np.array([pair_bit.get(pair, -1) for pair in self.watched], dtype=np.int64))
            self.code = np.zeros(self.comp.size, dtype=np.int64)   # the view's base-3 code (:meth:`pairs`)
            for sh in self.form.digit_shift:
                self.code = self.code * 3 + ((self.form.rec_val >> sh) & 3)
            return
        records = records.astype(object) if width > 62 or len(self.watched) > 62 else records
        comp, held = self._read(records)
        env: Any = ors
        if envelopes:   # the envelope's three groups, as one number (g0 * groups + g1) * groups + g2
            slot, n_groups = (1 << counter.env_bits) - 1, len(counter.groups)
            env = np.zeros(len(nums), dtype=np.int64)
            for k in range(3):
                codes = ((records >> (counter.record_width + k * counter.env_bits)) & slot).astype(np.int64)
                env = env * n_groups + _code_groups(counter, k)[codes]
        self.comp, self.held_bits, self.nums, self.env = comp, held, nums, env

    def with_rows(self) -> _Split:
        """This pass with rows (run again without :attr:`form` when it has one)."""
        if self.form is None:
            return self
        return _Split(self.counter.prob, self.player, self.classes, self.unseen, **self.args)

    @functools.cached_property
    def complete_deals(self) -> int:
        """The complete deals of a compiled pass (:attr:`form`)."""
        form = self.form
        assert form is not None
        if form.resolved and not form.weighted:   # a deal is in each of its views: not countable from them
            raise InternalError("the deals of a resolved pass are read from its weighed counts")
        # weighed: every deal's views' shares add up to 6 per unseen showing
        ok = self.counter.accept(form.states)[form.ent_state]
        return int(form.num[ok].sum()) // (6 ** len(self.unseen) if form.weighted else 1)

    @property
    def empty(self) -> bool:
        """No complete deal."""
        return self.complete_deals == 0 if self.form is not None else not self.nums

    def _read(self, records: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The hand code and the held bits of each record."""
        group_shift, pair_bit = self.counter.record_layout
        comp, held = records & 0, records & 0
        for gi, sh in group_shift.items():
            k = self.class_of[self.counter.groups[gi].cards[0]]
            comp = comp | (((records >> sh) & ((1 << len(self.classes[k][0]).bit_length()) - 1)) << self.shift[k])
        for i, pair in enumerate(self.watched):
            if pair in pair_bit:
                held = held | (((records >> pair_bit[pair]) & 1) << i)
        return comp, held

    @functools.cached_property
    def rows(self) -> list[tuple[int, int, int, Any]]:
        return list(zip(self.comp.tolist(), self.held_bits.tolist(), self.nums, self.env, strict=True))

    def remaining(self, gi: int, comp: Any) -> Any:
        """The cards of group ``gi`` the representative hand leaves out (``comp``: a hand code, or an array of
        them)."""
        k = self.group_class[gi]
        return len(self.counter.groups[gi].cards) - (self.taken(comp, k) if k >= 0 else 0)

    def taken(self, comp: Any, k: int) -> Any:
        return comp >> self.shift[k] & ((1 << len(self.classes[k][0]).bit_length()) - 1)

    def hand(self, comp: int) -> frozenset[int]:
        return frozenset(c for k, (cards, _) in enumerate(self.classes) for c in cards[:self.taken(comp, k)])

    def held(self, bits: int) -> list[tuple[int, ...]]:
        """The suggested cards each shower holds, per unseen showing, in a row's held bits."""
        if bits not in self._held:
            pairs = {pair for i, pair in enumerate(self.watched) if bits >> i & 1}
            self._held[bits] = [tuple(c for c in s.cards if (c, s.shower) in pairs) for s in self.unseen]
        return self._held[bits]

    @functools.cached_property
    def pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every (row, view) pair, as three arrays: the row's index; the cards shown at the unseen showings,
        coded in base 3 (the digit of showing j, most significant first: the position in its suggestion
        of the card shown); and the pair's share of the row's deals times 6 per unseen showing (6 / |held|
        per showing: the card shown is uniform among the |held| suggested cards the shower holds)."""
        rows = np.arange(len(self.nums))
        code: np.ndarray = np.zeros(rows.size, dtype=object if 3 ** len(self.unseen) >= 1 << 62 else np.int64)
        share: np.ndarray = np.ones(rows.size, dtype=object if 6 ** len(self.unseen) >= 1 << 62 else np.int64)
        for s in self.unseen:
            holds = [((self.held_bits >> (self.bit[(c, s.shower)].bit_length() - 1)) & 1).astype(bool)
                     for c in s.cards]
            part = 6 // np.maximum(sum(h.astype(np.int64) for h in holds), 1)   # 6 / |held|
            parts = []
            for j, h in enumerate(holds):
                sel = h[rows]
                kept = rows[sel]
                parts.append((kept, code[sel] * 3 + j, share[sel] * part[kept]))
            rows, code, share = (np.concatenate(x) for x in zip(*parts, strict=True))
        return rows, code, share

    def shown(self, code: int) -> tuple[int, ...]:
        """The cards shown at the unseen showings, from their base-3 code (:meth:`pairs`)."""
        out = []
        for s in reversed(self.unseen):
            code, j = divmod(code, 3)
            out.append(s.cards[j])
        return tuple(reversed(out))

    def view_weights(self) -> tuple[dict[tuple[int, tuple[int, ...]], int], int]:
        """Per view (hand, card shown at each unseen showing): its weight, and the sum of the weights (the
        deals times 6 per unseen showing: each card shown among the |held| ones gets 6 / |held|)."""
        weights: dict[tuple[int, tuple[int, ...]], int] = defaultdict(int)
        for r, code, share in zip(*(x.tolist() for x in self.pairs), strict=True):
            weights[(self.rows[r][0], self.shown(code))] += self.rows[r][2] * share
        return weights, sum(self.nums) * 6 ** len(self.unseen)

    def envelope_cards(self, env_groups: int, comp: int) -> tuple[frozenset[int], ...]:
        """The envelope cards of the groups in the bit mask, the representative hand's cards left out."""
        out: tuple[set[int], ...] = (set(), set(), set())
        for gi, g in enumerate(self.counter.groups):
            if env_groups >> gi & 1:
                k = self.group_class[gi]
                out[g.category].update(g.cards[self.taken(comp, k) if k >= 0 else 0:])
        return tuple(frozenset(x) for x in out)

ESTIMATE_FROM = 10_000_000   # the records bound from which a pass that does not resolve compares its two orders


def _resolvable(prob: Problem, player: int, watched: int, unseen: int) -> bool:
    """Whether a compiled split pass may resolve its showings (:func:`.split.resolution_fits`, the record's
    width bounded by a bit per card the player may hold and per watched pair); the pass checks again with its
    record's actual width."""
    width = sum(1 for m in prob.allowed if m >> player & 1) + watched
    return unseen > 0 and resolution_fits(prob, width, unseen)


def _records_bound(prob: Problem, player: int, watched: set[int]) -> int:
    """A rough size of a split pass's records: the player's possible hands (cards they may hold, choose their
    hand size) times 2 per watched card (at most 12)."""
    return math.comb(sum(1 for m in prob.allowed if m >> player & 1), prob.sizes[player]) * 2 ** min(len(watched), 12)


def _classes(game: ClueState, pv: Problem, reduced: Problem, player: int) -> Classes:
    """The player's possible cards in classes of interchangeable cards, each with whether it is certainly
    in the player's hand (then every card of the class is)."""
    public = public_problem(game)
    named = {c for p in (pv, public) for _, s in p.some for c in s} | {c for t in public.excluded for c in t}
    bit = 1 << player
    groups: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for c, m in enumerate(reduced.allowed):
        if m & bit:
            key = (-1, c) if c in named else (pv.card_category[c], pv.allowed[c], public.allowed[c])
            groups[key].append(c)
    return [(cards, reduced.allowed[cards[0]] == bit) for cards in groups.values()]


def public_problem(game: ClueState) -> Problem:
    """The problem of the public log alone: hand sizes, passes, who showed, accusations."""
    pg = ClueState(game.deck, game.players, game.hand_sizes, tuple(frozenset() for _ in game.players),
              tuple(Suggestion(s.by, s.cards, s.shown_by, None) for s in game.suggestions), game.accusations,
              None, None, game.card_names)
    return Problem.from_observations(pg, pg.observations())


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
def others_knowledge(game: ClueState, players: Sequence[int] | None = None) -> dict[int, dict[str, Fraction]]:
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
        space = _view_space(game, p)
        if space is not None:
            reduced, unseen, classes = space
            # resolving the showings pays for the outside observer (the slow states), not in a player's view
            observer = game.viewer is None
            split = _Split(reduced, p, classes, unseen, counts=True, compiled=True, weigh=True, resolve=observer)
            if not split.empty:
                prob = player_problem(game, p, reduced)
                if prob is None:
                    raise InternalError(f"the viewer's worlds have views {game.players[p]} finds impossible")
                # an outside observer's problem is the public one: the player's pass is the same pass
                own = split if prob == reduced else _Split(prob, p, classes, unseen, counts=False,
                                                           compiled=split.form is not None, kernel_from=0,
                                                           resolve=observer)
                sums = _knowledge_sums(split, own)
        out[p] = {part: sums.get(part, Fraction(0)) for part in PARTS}
    return out


MAX_CODES = 1 << 20   # views per hand (3 ** unseen showings) past which the compiled judgement is not used


def _code_groups(counter: SplitCounter, category: int) -> np.ndarray:
    """Per envelope slot code of ``category``, the index of the counter's group it stands for."""
    group = np.zeros(1 << counter.env_bits, dtype=np.int64)
    for (cat, code), gi in counter.code_group.items():
        if cat == category:
            group[code] = gi
    return group


def _as_rows(weights: _Split, own: _Split) -> tuple[_Split, _Split]:
    """The two passes with their rows (the numpy judging), one pass where they are one."""
    if weights.form is None and own.form is None:
        return weights, own
    if own is weights:
        both = own.with_rows()
        return both, both
    return weights.with_rows(), own.with_rows()


def _compiled_rows(parts: Sequence[tuple[_Split, int]], triples: bool) -> dict[str, Any]:
    """The records of compiled split passes (:attr:`_Split.form`), each pass with its role (1: weighs the
    views, 2: the player's own deals, 3: both), as the arguments of :func:`._split_kernel.knowledge_sums`
    (``triples`` off: a row per record with some complete deal) or :func:`._split_kernel.belief_sums` (per
    final state its envelope group triple, -1 when it is not a complete deal)."""
    kernel = split_kernel()
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
                    value = np.where(ok, value * n_groups + _code_groups(counter, k)[codes], -1)
            out["comp"].append(split.comp)
            out["held"].append(split.held_bits)
            out["code"].append(split.code)
            out["resolved"].append(np.full(split.comp.size, form.resolved, dtype=np.int64))
            out["rec_start"].append(form.rec_start[:-1] + base)
            out["ent_state"].append(form.ent_state + n_states)
            out["ent_num"].append(form.num2 if form.num2.size else form.num)
            out["ent_w"].append(form.num)
            out["state_triple"].append(value)
            out["role"].append(np.full(split.comp.size, role, dtype=np.int64))
            base += form.ent_state.size
            n_states += form.states.size
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
    args["pair_bit"] = np.array([[index[(c, s.shower)] for c in s.cards] for s in own.unseen],
                                dtype=np.int64).reshape(len(own.unseen), 3)
    args["n_codes"] = args["max_views"] = 3 ** len(own.unseen)
    args["group_size"] = np.array([len(g.cards) for g in own.counter.groups], dtype=np.int64)
    args["group_class"] = np.array(own.group_class, dtype=np.int64)
    args["class_shift"] = np.array([*own.shift, 0], dtype=np.int64)
    args["class_mask"] = np.array([(1 << len(cards).bit_length()) - 1 for cards, _ in own.classes] + [0],
                                  dtype=np.int64)
    return args


def _joined_views(weights: _Split, own: _Split) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The views (hand, card shown at each unseen showing) of the viewer's pass ``weights`` joined with the
    player's own pass ``own``, all at once (arrays of (row, view) pairs, :meth:`_Split.pairs`): each view's
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


def _knowledge_sums(weights: _Split, own: _Split) -> dict[str, Fraction]:
    """The viewer's probability that the player knows each part: every view's weight from the viewer's
    pass (``weights``), and the envelope cards the player's own pass (``own``) leaves possible in that view
    (:func:`_joined_views`).  The player knows a part in a view when one card of it is possible.  Compiled
    passes (:attr:`_Split.form`) are judged by :func:`._split_kernel.knowledge_sums`."""
    if weights.form is not None and own.form is not None:
        total = weights.complete_deals * 6 ** len(weights.unseen)
        if total < 1 << 62:
            args = _compiled_rows([(weights, 3)] if own is weights else [(weights, 1), (own, 2)], False)
            args["group_cat"] = np.array([g.category for g in own.counter.groups], dtype=np.int64)
            kernel = split_kernel()
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


def player_problem(game: ClueState, player: int, reduced: Problem) -> Problem | None:
    """The player's own problem before their hand and the unseen shown cards are fixed: the public log and
    the cards shown to them that the viewer saw, with the player's column narrowed to the viewer's
    (``reduced``), which changes nothing for the hands the viewer considers possible."""
    seen = {s.index: s.card for s in showings_to(game, player) if s.card is not None}
    pg = player_game(game, player, frozenset(), seen)
    prob = Problem.from_observations(pg, pg.observations())
    bit = 1 << player
    allowed = [a & bit if r == bit else a & (~bit | r) for a, r in zip(prob.allowed, reduced.allowed, strict=True)]
    return Problem(prob.sizes, prob.card_category, allowed, prob.some, prob.excluded).propagate()


# -- reference: every deal and every shown card (tests only: small decks) -------------------------------

def all_deals(game: ClueState) -> Iterator[tuple[int, ...]]:
    """Every deal of the deck (place per card) with the game's hand sizes."""
    deck, n = game.deck, len(game.players)
    for env in itertools.product(*(deck.members(k) for k in range(3))):
        rest = [c for c in range(len(deck)) if c not in env]
        for places in _fill(rest, list(game.hand_sizes)):
            deal = [n] * len(deck)
            for c, p in zip(rest, places, strict=True):
                deal[c] = p
            yield tuple(deal)


def _fill(cards: list[int], sizes: list[int]) -> Iterator[tuple[int, ...]]:
    if not cards:
        yield ()
        return
    for p, left in enumerate(sizes):
        if left:
            sizes[p] -= 1
            for rest in _fill(cards[1:], sizes):
                yield (p, *rest)
            sizes[p] += 1


def satisfies(deal: Sequence[int], obs: Sequence[Obs]) -> bool:
    """Whether the deal agrees with every observation (read literally, one by one)."""
    n = max(deal)
    env = tuple(sorted(c for c, p in enumerate(deal) if p == n))
    for o in obs:
        if o.kind is ObsKind.HOLDS and any(deal[c] != o.player for c in o.cards):
            return False
        if o.kind is ObsKind.LACKS and any(deal[c] == o.player for c in o.cards):
            return False
        if o.kind is ObsKind.SOME and not any(deal[c] == o.player for c in o.cards):
            return False
        if o.kind is ObsKind.HAND_SIZE and sum(1 for p in deal if p == o.player) != o.size:
            return False
        if o.kind is ObsKind.NOT_TRIPLE and env == tuple(sorted(o.cards)):
            return False
        if o.kind is ObsKind.ENVELOPE and env != tuple(sorted(o.cards)):
            return False
    return True


def listed_worlds(game: ClueState, player: int) -> tuple[kn.Worlds[str], list[tuple[int, ...]], np.ndarray]:
    """Every deal the public log allows, with every card that may have been shown to ``player``, as
    :class:`sleuth.knowledge.Worlds`: the player observes their hand and the cards shown to them; a world's
    weight is 1 / (product of |held| over the showings the viewer did not see).  Also the deals (one per
    world) and the viewer's cell (a mask: deals the viewer's observations allow, seen cards as seen)."""
    shows = showings_to(game, player)
    obs = game.observations()
    rows: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    weights: list[Fraction] = []
    viewer: list[bool] = []
    for deal in all_deals(game):
        if not satisfies(deal, player_game(game, player, frozenset(), {}).observations()):
            continue
        held = [[c for c in s.cards if deal[c] == s.shower] for s in shows]
        mine = satisfies(deal, obs)
        w = Fraction(1, math.prod(len(h) for h, s in zip(held, shows, strict=True) if s.card is None))
        for cards in itertools.product(*held):
            rows.append((deal, cards))
            weights.append(w)
            viewer.append(mine and all(s.card in (None, c) for s, c in zip(shows, cards, strict=True)))
    keys = [(frozenset(c for c, p in enumerate(d) if p == player), cards) for d, cards in rows]
    return kn.Worlds(rows, {"player": keys}, weights), [d for d, _ in rows], np.array(viewer, dtype=bool)


def brute_force_others(game: ClueState, player: int) -> dict[str, Fraction]:
    """:func:`others_knowledge` for one player on listed worlds (:func:`listed_worlds`): the viewer's
    probability that the player knows each part (:meth:`sleuth.knowledge.Worlds.knows`)."""
    worlds, deals, viewer = listed_worlds(game, player)
    if not viewer.any():
        return {}
    n = len(game.players)
    envs = [tuple(c for c, p in enumerate(d) if p == n) for d in deals]
    known: dict[str, Any] = {name: worlds.knows("player", [e[i] for e in envs]) for i, name in enumerate(CATEGORIES)}
    known["envelope"] = worlds.knows("player", envs)
    return {part: worlds.probability(known[part], given=viewer) for part in PARTS}


@small_pages()
def envelope_beliefs(game: ClueState, player: int) -> dict[str, Any]:
    """The viewer's exact expectation of the player's belief about the envelope: ``entropy``, the entropy
    (bits) of the player's distribution over envelope triples (uniform over the deals they consider
    possible), and ``knows``, the probability that they know the envelope; {} when no world is consistent.

    Two counting passes kept apart by the player's view, as in :func:`others_knowledge`; the pass over the
    player's own problem also keeps the deals apart by the envelope's groups of interchangeable cards.
    Every view is judged at once, as integer arrays: its deals per envelope group triple (a triple stands
    for as many envelopes as the groups have cards outside the view's hand, each with an equal share)."""
    space = _view_space(game, player)
    if space is None:
        return {}
    reduced, unseen, classes = space
    prob = player_problem(game, player, reduced)
    if prob is None:
        return {}
    one_pass = prob == reduced
    # resolving the showings pays for the outside observer (the slow states), not in a player's view
    resolve = game.viewer is None
    own = _Split(prob, player, classes, unseen, counts=True, envelopes=True, compiled=True, weigh=one_pass,
                 unweighed=one_pass, resolve=resolve)
    # an outside observer's problem is the public one: the player's pass, summed over the envelopes, weighs
    # the views too
    weights = own if one_pass else _Split(reduced, player, classes, unseen, counts=True, masks=False, weigh=True,
                                          compiled=own.form is not None, kernel_from=0, resolve=resolve)
    if weights.empty:
        return {}
    if own.form is not None and weights.form is not None:
        denominator = weights.complete_deals * 6 ** len(unseen)
        if denominator < 1 << 62:
            args = _compiled_rows([(own, 3)] if own is weights else [(weights, 1), (own, 2)], True)
            triple = args["state_triple"]   # the groups' triple index: compact, 0 for the weighing pass's states
            n_groups = len(own.counter.groups)
            present, index = np.unique(triple[triple >= 0], return_inverse=True)
            if args["n_codes"] * present.size <= MAX_CODES:
                triple[triple >= 0] = index
                args["triple_groups"] = np.stack([present // (n_groups * n_groups), present // n_groups % n_groups,
                                                  present % n_groups], axis=1).astype(np.int64)
                kernel = split_kernel()
                assert kernel is not None
                entropy, knows, missing = kernel.belief_sums(**args)
                if missing:
                    raise InternalError("a view of the viewer's worlds has no deal in the player's own problem")
                return {"entropy": entropy / denominator, "knows": Fraction(knows, denominator)}
    weights, own = _as_rows(weights, own)
    denominator = sum(weights.nums) * 6 ** len(unseen)
    comp, weight, view, triple, deals = _belief_cells(weights, own)
    n_groups = len(own.counter.groups)
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
    if not denominator:
        return {}
    wf = np.array(weight.tolist(), dtype=float) if weight.dtype == object else weight.astype(float)
    return {"entropy": float(np.sum(wf[counted] * entropy[counted])) / denominator,
            "knows": Fraction(int(weight[counted & (triples == 1)].sum()), denominator)}


def _belief_cells(weights: _Split, own: _Split) -> tuple[np.ndarray, ...]:
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


def show_advice(game: ClueState, by: int, cards: tuple[int, int, int]) -> list[dict[str, object]]:
    """The viewer must show one of ``cards`` to ``by``: for each card they hold, what ``by`` then knows,
    in expectation over the viewer's worlds (:func:`envelope_beliefs`): the entropy (bits) of ``by``'s
    envelope distribution and the probability that ``by`` knows the envelope.  Least revealing first; []
    when no world is consistent with the suggestion being answered by the viewer."""
    v = game.viewer
    if v is None:
        raise InternalError("advice on what others learn needs a viewer")
    rows = []
    for c in cards:
        if c not in game.hands[v]:
            continue
        after = ClueState(game.deck, game.players, game.hand_sizes, game.hands,
                     (*game.suggestions, Suggestion(by, cards, v, c)), game.accusations, game.file_viewer, v,
                     game.card_names)
        values = envelope_beliefs(after, by)
        if values:
            rows.append({"card": c, "entropy": float(values["entropy"]), "knows": values["knows"]})
    rows.sort(key=lambda r: (-r["entropy"], r["knows"], r["card"]))
    return rows
