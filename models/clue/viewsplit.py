"""A player's views counted from the viewer's side (:class:`ViewSplit`): the deals kept apart by the player's hand
(up to interchangeable cards) and by which suggested cards each shower holds at the showings to them the viewer
did not see, in one pass of :class:`.split.SplitCounter`.  What the others know and believe (:mod:`.others`) is
read off two such passes; the showings, the player's game and problem are here too.
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sleuth.errors import InternalError

from .game import SPLIT_KERNEL
from .problem import Problem
from .split import Reorder, SplitCounter, resolution_fits
from .state import CATEGORIES, ClueState, Suggestion


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


Classes = list[tuple[list[int], bool]]


def view_space(game: ClueState, player: int) -> tuple[Problem, list[Showing], Classes] | None:
    """What :func:`views` splits: the viewer's problem (propagated), the showings to the player the viewer
    did not see and the classes of interchangeable cards the player may hold; None when no deal is
    consistent."""
    pv = Problem.from_observations(game, game.observations())
    reduced = pv.propagate()
    if reduced is None:
        return None
    unseen = [s for s in showings_to(game, player) if s.card is None]
    return reduced, unseen, _classes(game, pv, reduced, player)


MAX_CODES = 1 << 20   # views per hand (3 ** unseen showings) past which the compiled judgement is not used


def code_groups(counter: SplitCounter, category: int) -> np.ndarray:
    """Per envelope slot code of ``category``, the index of the counter's group it stands for."""
    group = np.zeros(1 << counter.env_bits, dtype=np.int64)
    for (cat, code), gi in counter.code_group.items():
        if cat == category:
            group[code] = gi
    return group


class ViewSplit:
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
                 resolve: bool = True, watch: Problem | None = None, alone: frozenset[int] = frozenset()) -> None:
        """``compiled``: where the pass runs compiled (:attr:`form` not None; from ``kernel_from`` entries in a
        layer, default :data:`.compiled.KERNEL_FROM`), keep its last layer by record (:attr:`comp` and
        :attr:`held_bits` per record of :attr:`form`) and make no rows; the compiled part resolves the unseen
        showings into the card shown (a record is then one view, :attr:`code`; not with ``resolve`` off), its
        deals weighed by the view's share with ``weigh`` (and kept unweighed too with ``unweighed``).  ``watch``:
        the (card, shower) pairs of the unseen showings kept apart only where that problem lets the shower hold
        the card (the views that show another card are then not counted: where they weigh nothing).  ``alone``:
        cards counted as groups of their own (each a block of one card, in the blocks' order)."""
        self.classes, self.unseen, self.player = classes, unseen, player
        self.watch = watch
        self.args: dict[str, Any] = {"counts": counts, "envelopes": envelopes, "masks": masks, "watch": watch,
                                     "alone": alone}
        class_of = self.class_of = {c: k for k, (cards, _) in enumerate(classes) for c in cards}
        self.watched = sorted({(c, s.shower) for s in unseen for c in s.cards
                               if watch is None or watch.allowed[c] >> s.shower & 1})
        self.bit = {pair: 1 << i for i, pair in enumerate(self.watched)}
        single = {c for c, _ in self.watched}
        def counter_in(reverse: bool) -> SplitCounter:
            return SplitCounter(prob, envelopes, refine=lambda c: ("single", c) if c in single
                                else ("apart", c) if c in alone else class_of.get(c),
                            reverse=reverse)

        # compiled passes that resolve the showings (:meth:`.split.SplitCounter.split`; while the record and the
        # counts fit in int64): the named cards in the counting order, which closes the showings' sets early; a
        # pass large enough to turn compiled asks an estimate (:meth:`.split.SplitCounter.split_cost`) and starts
        # again in the reverse order where that is clearly cheaper (each order is far better than the other on
        # some slow states).  Passes that do not resolve: the reverse order (fewer entries on most slow states
        # without resolving), unless the estimate finds the counting order far cheaper; where numba is missing
        # (every pass in numpy) the same (sleuth solve example:clue/master-detective --others: 8.5 -> 1.7 s).
        # (The kernel is loaded by the first pass of the process that needs it: :data:`.compiled.COLD_KERNEL_WORK`.)
        # A pass kept apart by the envelope that does not weigh (the player's own deals) resolves in the order of a
        # pass that does not resolve (its showings then resolve late, in the last steps: the envelope suggest --show
        # example:clue/master-detective: 34.2M -> 29.6M entries, its last layer by record 8.3M -> 2.5M), and keeps no
        # record as a copy of another (there 7% fewer entries for the checks of every child: the pass 1.43 -> 1.05 s).
        self.resolving = compiled and resolve and resolvable(prob, player, len(self.watched), len(unseen),
                                                             weigh and counts)
        late = self.resolving and envelopes and not (weigh and counts)
        counter = self.counter = counter_in(not self.resolving or late)
        if (not self.resolving or late) and (compiled or not SPLIT_KERNEL.available()) and \
                _records_bound(prob, player, single) >= ESTIMATE_FROM:
            other = counter_in(False)
            if [g.cards for g in other.groups] != [g.cards for g in counter.groups] and \
                    _cheaper(other, counter, player, self.watched, 0.6):
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
            return _cheaper(reverse[0], counter, player, self.watched, 1 / 0.9 if envelopes else 0.8)
        self.shift, width = [], 0
        for cards, _ in classes:
            self.shift.append(width)
            width += len(cards).bit_length()
        compiled = compiled and width <= 62 and len(self.watched) <= 62 and 3 ** len(unseen) <= MAX_CODES
        run = functools.partial(SplitCounter.split, player=player, watched=self.watched, counts=counts,
                                by_envelope=envelopes, ors=masks and not envelopes, rows=not compiled,
                                kernel_from=kernel_from, weigh=weigh and counts, unweighed=unweighed,
                                showings=[[(c, s.shower) for c in s.cards] for s in unseen] if self.resolving else (),
                                copies=not late)
        try:
            records, nums, ors = run(counter, reorder=reorder if self.resolving and compiled and not late else None)
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
            kernel = SPLIT_KERNEL.load()
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
                env = env * n_groups + code_groups(counter, k)[codes]
        self.comp, self.held_bits, self.nums, self.env = comp, held, nums, env

    def with_rows(self) -> ViewSplit:
        """This pass with rows (run again without :attr:`form` when it has one)."""
        if self.form is None:
            return self
        return ViewSplit(self.counter.prob, self.player, self.classes, self.unseen, **self.args)

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
                     if (c, s.shower) in self.bit else np.zeros(self.held_bits.size, dtype=bool) for c in s.cards]
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


def _cheaper(other: SplitCounter, counter: SplitCounter, player: int, watched: Sequence[tuple[int, int]],
             factor: float) -> bool:
    """Whether the split pass of ``other``'s card order is estimated to cost less than ``factor`` times that of
    ``counter``'s (:meth:`.split.SplitCounter.split_cost`; ``other``'s estimate stops once it reaches that)."""
    bound = factor * counter.split_cost(player, watched)
    return other.split_cost(player, watched, bound) < bound


ESTIMATE_FROM = 10_000_000   # the records bound from which a pass that does not resolve compares its two orders


def resolvable(prob: Problem, player: int, watched: int, unseen: int, weigh: bool = True) -> bool:
    """Whether a compiled split pass may resolve its showings (:func:`.split.resolution_fits`, the record's
    width bounded by a bit per card the player may hold and per watched pair; ``weigh``: its deals weighed);
    the pass checks again with its record's actual width."""
    width = sum(1 for m in prob.allowed if m >> player & 1) + watched
    return unseen > 0 and resolution_fits(prob, width, unseen, weigh)


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


def player_problem(game: ClueState, player: int, reduced: Problem,
                   unsaid: tuple[int, frozenset[int]] | None = None) -> Problem | None:
    """The player's own problem before their hand and the unseen shown cards are fixed: the public log and
    the cards shown to them that the viewer saw, with the player's column narrowed to the viewer's
    (``reduced``), which changes nothing for the hands the viewer considers possible.  ``unsaid``: one
    (player, cards) 'holds one of' of the log left out (the show advice conditions on it otherwise)."""
    seen = {s.index: s.card for s in showings_to(game, player) if s.card is not None}
    pg = player_game(game, player, frozenset(), seen)
    prob = Problem.from_observations(pg, pg.observations())
    if unsaid is not None:
        prob.some.remove(unsaid)
    bit = 1 << player
    allowed = [a & bit if r == bit else a & (~bit | r) for a, r in zip(prob.allowed, reduced.allowed, strict=True)]
    return Problem(prob.sizes, prob.card_category, allowed, prob.some, prob.excluded).propagate()
