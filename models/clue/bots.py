"""The arena's bots: ``random``, ``rules``, ``clauses`` and ``sleuth``, behind :class:`.table.Bot`; and the
registry that names them (built in, ``cmd:PROGRAM`` for an outside program, plug-ins in the ``sleuth.bots``
entry-point group).  docs/arena.md describes each bot's play."""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from sleuth.errors import PuzzleError
from sleuth.limits import TooLarge

import numpy as np

from .counting import Counts, Problem, count_deals, sample_deals
from .rules import apply_rules
from .sheet import Mark, Sheet
from .state import ObsKind
from .table import AccuseChoice, Bot, SeatView, Triple

BOT_GROUP = "sleuth.bots"   # entry points: name = "package.module:BotClass" (called with no argument per seat)


def _all_triples(view: SeatView) -> list[Triple]:
    d = view.deck
    return [(s, w, r) for s in d.members(0) for w in d.members(1) for r in d.members(2)]


class RandomBot(Bot):
    """Suggests uniformly at random; shows a random card it may show; accuses when its own hand and the cards
    shown to it leave one card of each category (no other inference)."""

    name = "random"

    def suggest(self) -> Triple:
        d = self.view.deck
        s, w, r = (self.rng.choice(list(d.members(k))) for k in range(3))
        return s, w, r

    def show(self, by: int, cards: Triple) -> int:
        return self.rng.choice([c for c in cards if c in self.view.hand])

    def accuse(self) -> AccuseChoice | None:
        seen = set(self.view.hand) | set(self.view.shown_to_me())
        left = [[c for c in self.view.deck.members(k) if c not in seen] for k in range(3)]
        if all(len(cat) == 1 for cat in left):
            return AccuseChoice((left[0][0], left[1][0], left[2][0]), True)
        return None


class RulesBot(Bot):
    """The seed paper's deduction rules to a fixpoint (:mod:`.rules`, as the rule-based web solver does);
    suggests, per category, a random card its sheet does not rule out of the envelope; shows a random card it
    may show; accuses when its rules determine the envelope."""

    name = "rules"
    _cache: tuple[int, Sheet] | None = None

    def sheet(self) -> Sheet:
        if self._cache is None or self._cache[0] != self.view.version:
            state = self.view.state()
            result = apply_rules(state, state.observations())
            self._cache = (self.view.version, result.sheet)
        return self._cache[1]

    def suggest(self) -> Triple:
        sheet, d, env = self.sheet(), self.view.deck, self.view.n
        picks = []
        for k in range(3):
            open_ = [c for c in d.members(k) if sheet.marks and sheet.mark(c, env) is not Mark.NO]
            picks.append(self.rng.choice(open_ or list(d.members(k))))
        return picks[0], picks[1], picks[2]

    def show(self, by: int, cards: Triple) -> int:
        return self.rng.choice([c for c in cards if c in self.view.hand])

    def accuse(self) -> AccuseChoice | None:
        sheet = self.sheet()
        if not sheet.marks:
            return None
        env = [c for c in range(len(self.view.deck)) if sheet.mark(c, self.view.n) is Mark.YES]
        if len(env) == 3:
            s, w, r = sorted(env)
            return AccuseChoice((s, w, r), True)
        return None


class _Clauses:
    """The ``clauses`` bot's knowledge: per card its known place (or None), per place the cards known not there,
    per player the clauses (sets of cards of which the player holds at least one), reduced: known cards taken
    out, satisfied clauses and supersets of another clause of the same player dropped, one-card clauses
    turned into facts; hand sizes and the envelope's one card per category applied, to a fixpoint."""

    def __init__(self, view: SeatView) -> None:
        self.n, self.deck = view.n, view.deck
        self.place: list[int | None] = [None] * len(view.deck)
        self.lacks: list[set[int]] = [set() for _ in range(self.n + 1)]
        self.clauses: list[list[frozenset[int]]] = [[] for _ in range(self.n)]
        self.wrong: list[tuple[int, ...]] = []
        self.sizes = view.hand_sizes
        self.changed = False
        state = view.state()
        for o in state.observations():
            if o.kind is ObsKind.HOLDS:
                for c in o.cards:
                    self.set_place(c, o.who)
            elif o.kind is ObsKind.LACKS:
                for c in o.cards:
                    self.lack(c, o.who)
            elif o.kind is ObsKind.SOME:
                self.clauses[o.who].append(frozenset(o.cards))
            elif o.kind is ObsKind.ENVELOPE:
                for c in o.cards:
                    self.set_place(c, self.n)
            elif o.kind is ObsKind.NOT_TRIPLE:
                self.wrong.append(o.cards)
        self.fix()

    def set_place(self, c: int, p: int) -> None:
        if self.place[c] is None:
            self.place[c] = p
            self.changed = True
            for q in range(self.n + 1):
                if q != p:
                    self.lack(c, q)

    def lack(self, c: int, p: int) -> None:
        if c not in self.lacks[p]:
            self.lacks[p].add(c)
            self.changed = True

    def possible(self, c: int) -> list[int]:
        return [q for q in range(self.n + 1) if c not in self.lacks[q]]

    def fix(self) -> None:
        cards, env = range(len(self.deck)), self.n
        self.changed = True
        while self.changed:
            self.changed = False
            for p in range(self.n):
                kept: list[frozenset[int]] = []
                for cl in sorted(set(self.clauses[p]), key=len):
                    if any(self.place[c] == p for c in cl):
                        continue
                    left = frozenset(c for c in cl if c not in self.lacks[p])
                    if len(left) == 1:
                        self.set_place(next(iter(left)), p)
                    elif left and not any(k <= left for k in kept):   # subset reduction
                        kept.append(left)
                self.clauses[p] = kept
                held = [c for c in cards if self.place[c] == p]
                if len(held) == self.sizes[p]:
                    for c in cards:
                        if self.place[c] != p:
                            self.lack(c, p)
                could = [c for c in cards if c not in self.lacks[p]]
                if len(could) == self.sizes[p]:
                    for c in could:
                        self.set_place(c, p)
            for c in cards:
                where = self.possible(c)
                if len(where) == 1:
                    self.set_place(c, where[0])
            for k in range(3):
                members = list(self.deck.members(k))
                inside = [c for c in members if self.place[c] == env]
                for c in members if inside else ():
                    if c != inside[0]:
                        self.lack(c, env)
                could = [c for c in members if c not in self.lacks[env]]
                if len(could) == 1:
                    self.set_place(could[0], env)
            for t in self.wrong:
                if sum(self.place[c] == env for c in t) == 2:
                    for c in t:
                        if self.place[c] != env:
                            self.lack(c, env)

    def envelope(self) -> Triple | None:
        env = [c for c in range(len(self.deck)) if self.place[c] == self.n]
        return (env[0], env[1], env[2]) if len(env) == 3 else None

    def worst_case(self, seat: int, triple: Triple) -> int:
        """The fewest unknown cells that the answer to ``triple`` settles, over every answer still possible
        (players who pass settle their cells of the three cards; a shown card settles its row; nobody
        showing puts the cards the suggester does not hold in the envelope)."""
        outcomes: list[int] = []
        passed = 0
        for i in range(1, self.n):
            q = (seat + i) % self.n
            may = [c for c in triple if self.place[c] == q or (self.place[c] is None and c not in self.lacks[q])]
            outcomes += [passed + (len(self.possible(c)) if self.place[c] is None else 0) for c in may]
            if any(self.place[c] == q for c in triple):
                break
            passed += sum(1 for c in triple if self.place[c] is None and c not in self.lacks[q])
        else:
            outcomes.append(passed + sum(len(self.possible(c)) for c in triple if self.place[c] is None))
        return min(outcomes) if outcomes else 0


def shown_before(view: SeatView, by: int, held: list[int]) -> int | None:
    """A card of ``held`` this seat showed ``by`` before, else one it showed anyone, else None."""
    mine = [s for s in view.suggestions if s.shown_by == view.seat and s.card is not None]
    for group in ([s.card for s in mine if s.by == by], [s.card for s in mine]):
        again = [c for c in held if c in group]
        if again:
            return again[0]
    return None


class ClausesBot(Bot):
    """Clause sets per player with subset reduction (:class:`_Clauses`); suggests the triple whose least
    informative possible answer settles the most cells (best worst case), ties to the one naming the most
    possible envelope cards, then at random; shows a card it showed that player before, else one it showed
    anyone, else a random one; accuses when its clauses determine the envelope.  Rebuilt from the published
    description of the Speed Clue runner-up (clause-based inference, worst-case information)."""

    name = "clauses"
    _cache: tuple[int, _Clauses] | None = None

    def clauses(self) -> _Clauses:
        if self._cache is None or self._cache[0] != self.view.version:
            self._cache = (self.view.version, _Clauses(self.view))
        return self._cache[1]

    def suggest(self) -> Triple:
        kb, seat = self.clauses(), self.view.seat
        scored = [(kb.worst_case(seat, t), sum(c not in kb.lacks[kb.n] for c in t), t) for t in _all_triples(self.view)]
        best = max(s[:2] for s in scored)
        return self.rng.choice([t for *s, t in scored if tuple(s) == best])

    def show(self, by: int, cards: Triple) -> int:
        held = [c for c in cards if c in self.view.hand]
        again = shown_before(self.view, by, held)
        return again if again is not None else self.rng.choice(held)

    def accuse(self) -> AccuseChoice | None:
        env = self.clauses().envelope()
        return AccuseChoice(env, True) if env is not None else None


def finish_chances(deals: list[tuple[int, ...]], by: int, triples: list[Triple], n: int) -> list[float]:
    """For each suggestion of ``by``, the share of ``deals`` (places per card; the envelope is place ``n``) in
    which its answer (who shows, and which card: each card the shower holds equally likely) leaves one
    envelope among the deals: the chance that the suggestion ends the game this turn, estimated."""
    place = np.array(deals, dtype=np.int64)
    k = place.shape[0]
    _, env = np.unique(place == n, axis=0, return_inverse=True)
    env = env.reshape(-1)
    width = int(env.max()) + 1
    out = []
    for t in triples:
        holder = place[:, list(t)]
        shower = np.full(k, -1, dtype=np.int64)
        for i in range(n - 1, 0, -1):   # the first player clockwise from the suggester who holds a card shows
            q = (by + i) % n
            shower[(holder == q).any(axis=1)] = q
        held = holder == shower[:, None]
        size = held.sum(axis=1)
        rows = [np.flatnonzero(size == 0)] + [np.flatnonzero(held[:, j]) for j in range(3)]
        code = np.concatenate([np.zeros(rows[0].size, dtype=np.int64)]
                              + [shower[r] * 3 + j + 1 for j, r in enumerate(rows[1:])])
        weight = np.concatenate([np.ones(rows[0].size)] + [1.0 / size[r] for r in rows[1:]])
        pairs = np.unique(code * width + env[np.concatenate(rows)])
        envelopes = np.bincount(pairs // width, minlength=3 * n + 1)   # per answer, the envelopes it leaves
        out.append(float(weight[envelopes[code] == 1].sum()) / k)
    return out


class SleuthBot(Bot):
    """sleuth's exact play.

    * the exact counts of the deals its seat considers possible (:func:`.counting.count_deals`);
    * when at most :attr:`FINISH_ENVELOPES` envelopes are left, the suggestion most likely to leave one envelope
      after its answer, so that it accuses at the end of this turn (:func:`finish_chances`, on
      :attr:`FINISH_SAMPLES` sampled deals), when one has a chance; otherwise the triple of most expected
      information about the envelope (:func:`.suggest.exact_information`, the advice of ``sleuth suggest``;
      past its budget, :attr:`ADVICE_BUDGET` counts, the sampled estimate; its cost per count grows with the
      envelopes, so on decks of more than :attr:`CLASSIC_ENVELOPES` the budget shrinks with their cube); among
      ties, the one naming the most of its own cards (what it reveals to others: an own card tells the table
      nothing true about the envelope), then the first in deck order;
    * shows the card that reveals least to the suggester (:func:`.others.show_advice`, ``suggest --show``); on a
      deck of more than :attr:`LARGE_DECK` cards (seconds of work there) a card it showed before, else the first;
    * accuses when the envelope is certain; otherwise it may gamble, only right after its suggestion (a gamble
      before it is never better): with ``p`` the most probable envelope's probability and ``m`` players still
      in, it accuses that envelope when ``p >= 1/4`` and ``p > (1 - h)^m * prod(1 - q_i)``, where ``q_i`` is
      the probability that player ``i`` knows the envelope now (:func:`.others.chances_others_know`; taken as 0
      on large decks) and ``h`` (:attr:`HAZARD`) the chance that one who does not learns it on their turn:
      the estimated chance that waiting for its next turn still wins (docs/arena.md: how ``h`` was chosen)."""

    name = "sleuth"
    GAMBLE_FROM = Fraction(1, 4)
    HAZARD = Fraction(1, 5)   # the chance that a player still in, who does not know now, wins on its next turn
    ADVICE_BUDGET = 50_000_000   # counts of the exact advice with its compiled loop (about 0.3 s on the classic deck)
    CLASSIC_ENVELOPES = 324   # the exact advice's budget shrinks with the cube of the envelopes past this many
    LARGE_DECK = 21   # cards past which the others' knowledge and the show advice are not computed (seconds each)
    FINISH_ENVELOPES = 24
    FINISH_SAMPLES = 400
    _cache: tuple[int, Counts] | None = None
    estimates = 0   # suggestions scored by the sampled estimate (past the exact advice's budget)
    suggested = False   # whether the next accusation question comes right after this seat's suggestion

    def counts(self) -> Counts:
        if self._cache is None or self._cache[0] != self.view.version:
            state = self.view.state()
            self._cache = (self.view.version,
                           count_deals(Problem.from_observations(state, state.observations()), triples=True))
        return self._cache[1]

    def accuse(self) -> AccuseChoice | None:
        counts = self.counts()
        if not counts.total or not counts.triples:
            return None
        best, ways = min(counts.triples.items(), key=lambda x: (-x[1], x[0]))
        p = Fraction(ways, counts.total)
        if p == 1:
            return AccuseChoice(best, True)
        after, self.suggested = self.suggested, False
        others = [q for q in range(self.view.n) if q != self.view.seat and q not in self.view.out]
        if not after or p < self.GAMBLE_FROM or not others:   # a gamble waits for this turn's suggestion
            return None
        wait = (1 - self.HAZARD) ** len(others)   # each player still in moves before its next turn
        if p > wait:   # worth more than waiting, whatever the others know now
            return AccuseChoice(best, False)
        if len(self.view.deck) <= self.LARGE_DECK:
            from .others import chances_others_know

            try:
                knows = chances_others_know(self.view.state(), others)
                wait *= math.prod(1 - knows[q]["envelope"] for q in others)
            except TooLarge:   # past the memory budget: as if nobody knew it now
                pass
        return AccuseChoice(best, False) if p > wait else None

    def suggest(self) -> Triple:
        from sleuth.limits import PastBudget

        from .suggest import COMPILED_BUDGET, DEFAULT_SAMPLES, EXACT_BUDGET, exact_information, sampled_information

        self.suggested = True
        state, hand = self.view.state(), self.view.hand
        problem = Problem.from_observations(state, state.observations())
        triples = _all_triples(self.view)
        left = sum(1 for k in (self.counts().triples or {}).values() if k)
        if 1 < left <= self.FINISH_ENVELOPES:
            deals = sample_deals(problem, self.FINISH_SAMPLES, self.rng)
            chances = finish_chances(deals, self.view.seat, triples, self.view.n)
            if max(chances) > 0:
                return min((t for t, x in zip(triples, chances, strict=True) if x == max(chances)),
                           key=lambda t: (-sum(c in hand for c in t), t))
        try:
            shrink = min(1.0, (self.CLASSIC_ENVELOPES / len(triples)) ** 3)
            scores = exact_information(problem, self.view.seat, triples, budget=int(EXACT_BUDGET * shrink),
                                       compiled_budget=int(min(COMPILED_BUDGET, self.ADVICE_BUDGET) * shrink))
            top = min(scores.items(), key=lambda x: (-x[1].bits, x[1].key, x[0]))[1]
            tied = [t for t in triples if scores[t].key == top.key]
        except (PastBudget, TooLarge):
            self.estimates += 1
            deals = sample_deals(problem, DEFAULT_SAMPLES, self.rng)
            info = sampled_information(deals, self.view.seat, triples, self.view.n)
            tied = [t for t, x in zip(triples, info, strict=True) if x == max(info)]
        if not tied:
            return triples[0]
        return min(tied, key=lambda t: (-sum(c in hand for c in t), t))

    def show(self, by: int, cards: Triple) -> int:
        held = [c for c in cards if c in self.view.hand]
        if len(held) == 1:
            return held[0]
        from .others import show_advice

        again = shown_before(self.view, by, held)
        if len(self.view.deck) > self.LARGE_DECK:   # a large deck: a card shown before, else the first
            return again if again is not None else held[0]
        try:
            rows = show_advice(self.view.state(), by, cards)
        except TooLarge:   # past the memory budget: a card shown before, else the first
            return again if again is not None else held[0]
        card = rows[0]["card"] if rows else held[0]
        return card if isinstance(card, int) else held[0]


BUILTIN: dict[str, Callable[[], Bot]] = {"random": RandomBot, "rules": RulesBot, "clauses": ClausesBot,
                                         "sleuth": SleuthBot}


def plugin_bots() -> dict[str, str]:
    """The bots of installed plug-ins (``sleuth.bots`` entry points): name -> "module:attr" (built-in names
    win)."""
    from sleuth.registry import plugin_points

    return {name: target for _, name, target in plugin_points(BOT_GROUP)}


def bot_names() -> list[str]:
    return [*BUILTIN, *(name for name in plugin_bots() if name not in BUILTIN), "cmd:PROGRAM"]


def check_bot(spec: str) -> None:
    """Bad input (one line) unless ``spec`` names a bot."""
    if spec.startswith("cmd:"):
        if not spec[4:].strip():
            raise PuzzleError("cmd: names no program", place="--bots", allowed="cmd:PROGRAM (a command line)")
        return
    if spec not in BUILTIN and spec not in plugin_bots():
        raise PuzzleError(f"unknown bot {spec!r}", place="--bots", allowed=bot_names())


def make_bot(spec: str, timeout: float) -> Bot:
    """A fresh bot for one seat of one game."""
    check_bot(spec)
    if spec.startswith("cmd:"):
        from .outside import ProgramBot

        return ProgramBot(spec[4:].strip(), timeout)
    if spec in BUILTIN:
        return BUILTIN[spec]()
    module, _, attr = plugin_bots()[spec].partition(":")
    value: Any = importlib.import_module(module.strip())
    for part in attr.strip().split("."):
        value = getattr(value, part)
    bot = value()
    if not isinstance(bot, Bot):
        raise PuzzleError(f"plug-in bot {spec!r} does not make a sleuth Bot", place="--bots", allowed=bot_names())
    bot.name = spec
    return bot
