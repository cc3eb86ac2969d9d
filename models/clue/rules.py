"""The seed's inference rules as a second, explainable engine, iterated to a fixpoint.

Every fact it derives records the rule that derived it and why.  The rules are sound, so their facts are
always a subset of the exact sheet (tests check this on many simulated games); they are not complete, and
:mod:`.sheet` finds facts they miss.

Notation of the seed: ``H[n]`` cards known in n's hand, ``N[n]`` cards known not in it, ``M`` cards known in
the envelope, ``K`` cards known not in it, ``C[n]`` the open suggestion sets of n (cards n may have shown,
minus those n cannot hold, skipping sets already explained by a known card, of two cards or more).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from sleuth.hitting import minimum_hitting_set, union_of_minimum_hitting_sets

from .state import ClueState, Obs, ObsKind
from .sheet import Mark, Sheet

RULES = ("observation", "hand disjointness", "card shown", "no card shown", "knowing a murder card",
         "all but one of a category", "number of cards ruled out", "minimal hitting set", "repeated pair",
         "sole player missing cards", "wrong accusation")


@dataclass(frozen=True)
class Fact:
    card: int
    place: int
    value: bool
    rule: str
    because: str

    def text(self, game: ClueState) -> str:
        verb = "holds" if self.value else "lacks"
        return f"{game.places[self.place]} {verb} {game.card(self.card)}  [{self.rule}: {self.because}]"


class RulesContradiction(Exception):
    """Two rules (or a rule and an observation) disagree: the observations admit no deal."""


@dataclass
class RulesResult:
    sheet: Sheet
    facts: list[Fact] = field(default_factory=list)
    contradiction: str | None = None

    @property
    def consistent(self) -> bool:
        return self.contradiction is None


@lru_cache(maxsize=4096)
def _mhs(sets: frozenset[frozenset[int]]) -> tuple[int, frozenset[int]]:
    """Size of a minimum hitting set and the union of all minimum hitting sets (CP-SAT optimiser)."""
    return len(minimum_hitting_set(sets)), union_of_minimum_hitting_sets(sets)


class RulesEngine:
    def __init__(self, game: ClueState, obs: Sequence[Obs]) -> None:
        self.game = game
        self.n = len(game.players)
        self.env = self.n
        self.n_cards = len(game.deck)
        self.grid: list[list[bool | None]] = [[None] * (self.n + 1) for _ in range(self.n_cards)]
        self.facts: list[Fact] = []
        self.sizes = list(game.hand_sizes)
        self.shows: list[tuple[int, frozenset[int], str]] = []   # (player, suggested cards, observation)
        self.wrong: list[tuple[tuple[int, ...], str]] = []
        self.given: list[tuple[int, int, bool, str, str]] = []
        for o in obs:
            if o.kind is ObsKind.HAND_SIZE:
                self.sizes[o.who] = o.size
            elif o.kind is ObsKind.HOLDS:
                self.given += [(c, o.who, True, "observation", o.name) for c in o.cards]
            elif o.kind is ObsKind.LACKS:
                self.given += [(c, o.who, False, "no card shown", o.name) for c in o.cards]
            elif o.kind is ObsKind.ENVELOPE:
                self.given += [(c, self.env, True, "observation", o.name) for c in o.cards]
            elif o.kind is ObsKind.SOME:
                self.shows.append((o.who, frozenset(o.cards), o.name))
            elif o.kind is ObsKind.NOT_TRIPLE:
                self.wrong.append((o.cards, o.name))

    # -- the grid -------------------------------------------------------------------------------------
    def record(self, card: int, place: int, value: bool, rule: str, because: str) -> bool:
        old = self.grid[card][place]
        if old is not None:
            if old != value:
                raise RulesContradiction(f"{rule} says {self.game.places[place]} "
                                         f"{'holds' if value else 'lacks'} {self.game.card(card)} ({because}), "
                                         "which contradicts an earlier fact")
            return False
        self.grid[card][place] = value
        self.facts.append(Fact(card, place, value, rule, because))
        return True

    def H(self, p: int) -> set[int]:
        return {c for c in range(self.n_cards) if self.grid[c][p] is True}

    def N(self, p: int) -> set[int]:
        return {c for c in range(self.n_cards) if self.grid[c][p] is False}

    def C(self, p: int) -> list[frozenset[int]]:
        held, lacked = self.H(p), self.N(p)
        out = []
        for q, cards, _ in self.shows:
            if q != p or cards & held:
                continue
            left = cards - lacked
            if len(left) > 1:
                out.append(frozenset(left))
        return out

    def name(self, cards: Iterable[int]) -> str:
        return ", ".join(self.game.card(c) for c in sorted(cards))

    # -- the rules --------------------------------------------------------------------------------------
    def hand_disjointness(self) -> Iterator[tuple[int, int, bool, str]]:
        for c in range(self.n_cards):
            for p in range(self.n + 1):
                if self.grid[c][p] is True:
                    for q in range(self.n + 1):
                        if q != p:
                            yield c, q, False, f"{self.game.places[p]} holds {self.game.card(c)}"

    def card_shown(self) -> Iterator[tuple[int, int, bool, str]]:
        for p, cards, label in self.shows:
            left = cards - self.N(p)
            if len(left) == 1 and not cards & self.H(p):
                c = next(iter(left))
                yield c, p, True, f"{label}; the others are ruled out for {self.game.players[p]}"

    def no_card_shown(self) -> Iterator[tuple[int, int, bool, str]]:
        for c in range(self.n_cards):
            if all(self.grid[c][p] is False for p in range(self.n)):
                yield c, self.env, True, "no player can hold it"

    def knowing_murder_card(self) -> Iterator[tuple[int, int, bool, str]]:
        deck = self.game.deck
        for k in range(3):
            members = list(deck.members(k))
            murder = [c for c in members if self.grid[c][self.env] is True]
            for m in murder:
                for c in members:
                    if c != m:
                        yield c, self.env, False, f"{self.game.card(m)} is the murder card"
            for c in members:
                if self.grid[c][self.env] is not False:
                    continue
                open_places = [p for p in range(self.n) if self.grid[c][p] is not False]
                if len(open_places) == 1:
                    yield c, open_places[0], True, (f"{self.game.card(c)} is not in the envelope and only "
                                                    f"{self.game.players[open_places[0]]} may hold it")

    def all_but_one(self) -> Iterator[tuple[int, int, bool, str]]:
        for k in range(3):
            left = [c for c in self.game.deck.members(k) if self.grid[c][self.env] is not False]
            if len(left) == 1:
                yield left[0], self.env, True, "every other card of its category is ruled out"

    def cards_ruled_out(self) -> Iterator[tuple[int, int, bool, str]]:
        for p in range(self.n):
            held, lacked, size = self.H(p), self.N(p), self.sizes[p]
            who = self.game.players[p]
            if len(held) == size:
                for c in range(self.n_cards):
                    if c not in held:
                        yield c, p, False, f"all {size} cards of {who} are known"
            elif self.n_cards - len(lacked) == size:
                for c in range(self.n_cards):
                    if c not in lacked:
                        yield c, p, True, f"only {size} cards are left for {who}, who holds {size}"

    def minimal_hitting_set(self) -> Iterator[tuple[int, int, bool, str]]:
        for p in range(self.n):
            sets = self.C(p)
            unknown = self.sizes[p] - len(self.H(p))
            if not sets or unknown <= 0 or unknown > len(sets):
                continue
            size, union = _mhs(frozenset(sets))
            if size != unknown:
                continue
            held = self.H(p)
            for c in range(self.n_cards):
                if c not in held and c not in union:
                    yield c, p, False, (f"{self.game.players[p]} has {unknown} unknown cards and every minimum "
                                        f"hitting set of the open suggestions lies in {{{self.name(union)}}}")

    def repeated_pair(self) -> Iterator[tuple[int, int, bool, str]]:
        pairs: dict[frozenset[int], list[int]] = {}
        for p in range(self.n):
            for s in set(self.C(p)):
                if len(s) == 2:
                    pairs.setdefault(s, []).append(p)
        for s, owners in pairs.items():
            if len(owners) < 2:
                continue
            m, n = owners[:2]
            why = (f"{self.game.players[m]} and {self.game.players[n]} each hold one of {{{self.name(s)}}}")
            for c in s:
                yield c, self.env, False, why
                for q in range(self.n):
                    if q not in (m, n):
                        yield c, q, False, why

    def sole_player_missing(self) -> Iterator[tuple[int, int, bool, str]]:
        deck = self.game.deck
        for p in range(self.n):
            held = self.H(p)
            x = {c for c in range(self.n_cards) if c not in held
                 and all(self.grid[c][q] is False for q in range(self.n) if q != p)}
            parts = []
            for k in range(3):
                if any(self.grid[c][self.env] is True for c in deck.members(k)):
                    continue
                part = x & set(deck.members(k))
                if len(part) >= 2:
                    parts.append(part)
            need = sum(len(part) - 1 for part in parts)
            if not parts or self.sizes[p] - len(held) != need:
                continue
            keep = set().union(*parts)
            for c in range(self.n_cards):
                if c not in held and c not in keep:
                    yield c, p, False, (f"{self.game.players[p]} must hold {need} of {{{self.name(keep)}}}, "
                                        "which only they or the envelope can hold")

    def wrong_accusation(self) -> Iterator[tuple[int, int, bool, str]]:
        for cards, label in self.wrong:
            inside = [c for c in cards if self.grid[c][self.env] is True]
            if len(inside) == 2:
                c = next(c for c in cards if c not in inside)
                yield c, self.env, False, f"{label}, and the other two cards are in the envelope"

    # -- the fixpoint -------------------------------------------------------------------------------------
    def run(self) -> RulesResult:
        rules = [("hand disjointness", self.hand_disjointness), ("card shown", self.card_shown),
                 ("no card shown", self.no_card_shown), ("knowing a murder card", self.knowing_murder_card),
                 ("all but one of a category", self.all_but_one),
                 ("number of cards ruled out", self.cards_ruled_out),
                 ("wrong accusation", self.wrong_accusation), ("repeated pair", self.repeated_pair),
                 ("sole player missing cards", self.sole_player_missing),
                 ("minimal hitting set", self.minimal_hitting_set)]
        try:
            for c, p, value, rule, because in self.given:
                self.record(c, p, value, rule, because)
            changed = True
            while changed:
                changed = False
                for rule, fn in rules:
                    for c, p, value, because in list(fn()):
                        changed |= self.record(c, p, value, rule, because)
                    if changed and rule in ("repeated pair", "sole player missing cards", "minimal hitting set"):
                        break  # the cheap rules first again
        except RulesContradiction as exc:
            return RulesResult(Sheet((), False), self.facts, str(exc))
        marks = tuple(tuple(Mark.MAYBE if v is None else Mark.YES if v else Mark.NO for v in row)
                      for row in self.grid)
        return RulesResult(Sheet(marks), self.facts)


def apply_rules(game: ClueState, obs: Sequence[Obs]) -> RulesResult:
    return RulesEngine(game, obs).run()
