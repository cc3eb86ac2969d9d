"""The Mascarade table and its events, read from a puzzle file, and what each viewer observes of them.

A *position* is a place a card lies: one per player, then the face-down middle cards (``Middle1``...).
Cards with the same name (the two Peasants) are one *identity*: a placement is a tuple giving each position
an identity index, so two Peasants never double a world.

The file records the facts of the game (a swap's outcome, the card a look showed) as far as its author knows
them; :meth:`MascaradeState.steps_for` keeps, for one viewer, only what that viewer saw:

- a swap-or-not's outcome is known to the one who did it (the swapper, the Spy, the Fool), or to everyone
  when the event says ``public = true``;
- a reveal is seen by everyone; a look, and the Spy's two looks, only by the one who looked.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from sleuth.errors import InternalError, PuzzleError
from sleuth.names import unique_names
from sleuth.puzzle import PuzzleDoc
from sleuth.schema import Names, Section, fold

MIN_PLAYERS, MAX_PLAYERS = 2, 13
MAX_POSITIONS = 15          # placements are packed 4 bits per position into one int64
MAX_EVENTS = 10_000
MIDDLE_PREFIX = "Middle"


class EventKind(enum.Enum):
    SWAP = "swap"       # swap-or-not by a player with another position
    REVEAL = "reveal"   # public: a position's card is shown to everyone
    LOOK = "look"       # private: a player looks at their own card
    SPY = "spy"         # the Spy looks at their own card and another, then swap-or-not with it
    FOOL = "fool"       # the Fool swaps-or-not two other positions


@dataclass(frozen=True)
class Event:
    """One event of the game as the file records it (facts the author does not know are None)."""

    index: int                              # 1-based, as in ``event[3]``
    kind: EventKind
    actor: int                              # who acts: swapper, revealed position, looker, Spy, Fool
    pair: tuple[int, int] | None = None     # the two positions swapped-or-not
    swapped: bool | None = None             # the outcome, when the file knows it
    public: bool = False                    # the outcome became known to everyone
    seen: tuple[tuple[int, int | None], ...] = ()   # (position, identity or None): cards shown / looked at

    @property
    def place(self) -> str:
        return f"event[{self.index}]"

    @property
    def positions(self) -> tuple[int, int]:
        """The two positions of a swap, a Spy's look or a Fool's swap (every such event has them)."""
        if self.pair is None:
            raise InternalError(f"event {self.index} ({self.kind.value}) has no pair of positions")
        return self.pair

    def card_seen(self, k: int = 0) -> int:
        """The ``k``-th card shown (a reveal always has its card; a look only when the file knows it)."""
        card = self.seen[k][1]
        if card is None:
            raise InternalError(f"event {self.index} ({self.kind.value}): card {k + 1} is not known")
        return card


@dataclass(frozen=True)
class SwapStep:
    """A swap-or-not as one viewer experiences it: the outcome if the viewer knows it, else None."""

    a: int
    b: int
    outcome: bool | None
    name: str               # observation name (used when the outcome is known)
    event: int


@dataclass(frozen=True)
class SeeStep:
    """The viewer learns that ``position`` holds ``identity`` (a reveal, or their own look)."""

    position: int
    identity: int
    name: str
    event: int


Step = SwapStep | SeeStep


class MissingFact(PuzzleError):
    """A viewer saw something that the file does not record (e.g. the outcome of their own swap)."""


@dataclass
class MascaradeState:
    """Positions, identities, the face-up deal and the events; the prior of an unseen swap."""

    players: list[str]
    middle: list[str]                       # position names of the middle cards
    identities: list[str]                   # distinct card names, in order of first appearance
    initial: tuple[int, ...]                # identity index per position
    events: list[Event] = field(default_factory=list)
    swap_probability: Fraction = Fraction(1, 2)
    file: str | None = None

    @property
    def positions(self) -> list[str]:
        return self.players + self.middle

    @property
    def n_positions(self) -> int:
        return len(self.players) + len(self.middle)

    @property
    def multiplicity(self) -> Counter[int]:
        return Counter(self.initial)

    def position_names(self) -> Names:
        return Names("position", self.positions)

    def card_names(self) -> Names:
        return Names("card", self.identities)

    def event_label(self, e: Event) -> str:
        """How an event is named in explanations: ``event 3 (reveal B: King)``."""
        P, C = self.positions, self.identities
        if e.kind is EventKind.REVEAL:
            pos, card = e.seen[0]
            return f"event {e.index} (reveal {P[pos]}: {C[card] if card is not None else '?'})"
        if e.kind is EventKind.LOOK:
            return f"event {e.index} ({P[e.actor]} looks)"
        a, b = e.positions
        if e.kind is EventKind.SWAP:
            return f"event {e.index} ({P[a]} swaps-or-not with {P[b]})"
        if e.kind is EventKind.SPY:
            return f"event {e.index} (Spy {P[a]} looks at {P[b]}, swaps-or-not)"
        return f"event {e.index} (Fool {P[e.actor]} swaps-or-not {P[a]} and {P[b]})"

    # -- what a viewer saw -------------------------------------------------------------------------
    def steps_for(self, viewer: int | None) -> list[Step]:
        """The events as ``viewer`` (a player index, None for an observer of public events) saw them.

        Raises :class:`MissingFact` when the viewer saw something the file leaves out.
        """
        steps: list[Step] = []
        P, C = self.positions, self.identities
        for e in self.events:
            label = self.event_label(e)
            if e.kind is EventKind.REVEAL:
                pos, shown = e.seen[0][0], e.card_seen()  # the file reader requires the card of a reveal
                steps.append(SeeStep(pos, shown, f"event {e.index} (reveal {P[pos]}: {C[shown]})", e.index))
                continue
            mine = viewer is not None and viewer == e.actor
            if e.kind in (EventKind.LOOK, EventKind.SPY) and mine:
                for k, (pos, card) in enumerate(e.seen, 1):
                    if card is None:
                        key = "card" if e.kind is EventKind.LOOK else f"cards[{k}]"
                        raise MissingFact(f"{P[e.actor]} looked here, so their belief needs the card they saw",
                                          file=self.file, place=f"{e.place}.{key}")
                    steps.append(SeeStep(pos, card, f"event {e.index} ({P[e.actor]} saw {P[pos]}: {C[card]})",
                                         e.index))
            if e.pair is None:
                continue
            known = mine or e.public
            if known and e.swapped is None:
                raise MissingFact(f"{P[e.actor] if mine else 'everyone'} knows whether this swap happened, "
                                  "so the belief needs it", file=self.file, place=f"{e.place}.swapped")
            outcome = e.swapped if known else None
            verb = "swapped" if outcome else "did not swap"
            name = f"{label}: {verb}" if known else label
            steps.append(SwapStep(e.pair[0], e.pair[1], outcome, name, e.index))
        return steps

    def true_placement(self) -> tuple[int, ...] | None:
        """The final placement, when the file records every swap's outcome."""
        if any(e.pair is not None and e.swapped is None for e in self.events):
            return None
        state = list(self.initial)
        for e in self.events:
            if e.pair is not None and e.swapped:
                a, b = e.pair
                state[a], state[b] = state[b], state[a]
        return tuple(state)


# -- reading the puzzle section ----------------------------------------------------------------------

EVENT_KINDS = ("swap", "reveal", "look", "spy", "fool")


def read_state(doc: PuzzleDoc) -> MascaradeState:
    """Read ``players``, ``cards``, ``middle``, ``swap_probability`` and the ``[[event]]`` tables."""
    section, file = doc.section, doc.file
    players = section.array("players", str, min_len=MIN_PLAYERS, max_len=MAX_PLAYERS)
    cards = section.array("cards", str, min_len=1)
    middle_cards = section.array("middle", str, [], max_len=MAX_POSITIONS - MIN_PLAYERS)
    if len(cards) != len(players):
        raise section.error(f"has {len(cards)} cards for {len(players)} players", "cards",
                            allowed="one card per player, in the order of 'players'")
    if len(players) + len(middle_cards) > MAX_POSITIONS:
        raise section.error(f"{len(players)} players and {len(middle_cards)} middle cards", "middle",
                            allowed=f"at most {MAX_POSITIONS} positions in all")
    middle = [f"{MIDDLE_PREFIX}{i + 1}" for i in range(len(middle_cards))]
    unique_names("player", players, "players", file=section.file, reserved=middle,
                 why=" (a middle position's name)")   # a name with 'holds' is quoted in claims
    identities: list[str] = []
    index: dict[str, int] = {}
    initial: list[int] = []
    for key, names in (("cards", cards), ("middle", middle_cards)):
        for i, name in enumerate(names, 1):
            folded = fold(name)
            if not folded:
                raise section.error("a card needs a name", f"{key}[{i}]")
            if folded not in index:
                index[folded] = len(identities)
                identities.append(" ".join(name.split()))
            initial.append(index[folded])
    prior = section.fraction("swap_probability", Fraction(1, 2), lo=Fraction(0), hi=Fraction(1))
    game = MascaradeState(list(players), middle, identities, tuple(initial), [], prior, file)
    event_sections = section.sections("event")
    if len(event_sections) > MAX_EVENTS:
        raise section.error(f"has {len(event_sections)} events", "event", allowed=f"at most {MAX_EVENTS}")
    for i, es in enumerate(event_sections):
        game.events.append(_parse_event(es, i + 1, game))
    return game


def _parse_event(es: Section, index: int, game: MascaradeState) -> Event:
    kinds = [k for k in EVENT_KINDS if es.has(k)]
    if len(kinds) != 1:
        what = "no event kind" if not kinds else f"several event kinds ({', '.join(kinds)})"
        raise es.error(f"has {what}", allowed="exactly one of " + ", ".join(EVENT_KINDS))
    kind = EventKind(kinds[0])
    positions = game.position_names()
    players = Names("player", game.players)
    cards = game.card_names()

    def player(key: str) -> int:
        name = es.get(key, str)
        return players.index(name, es, key)

    def position(value: object, key: str | int) -> int:
        return positions.index(es.check_type(value, str, key), es, key)

    def card(key: str, value: object = None, required: bool = False) -> int | None:
        if value is None:
            if not es.has(key):
                if required:
                    raise es.error("is required", key)
                return None
            value = es.raw(key)
        return cards.index(es.check_type(value, str, key), es, key)

    def outcome() -> tuple[bool | None, bool]:
        swapped = es.boolean("swapped", None)
        public = es.boolean("public", False)
        if public and swapped is None:
            raise es.error("a public outcome needs 'swapped'", "public", allowed="swapped = true | false")
        return swapped, public

    if kind is EventKind.SWAP:
        pair = es.array("swap", str, min_len=2, max_len=2)
        a = players.index(pair[0], es, "swap[0]")
        b = position(pair[1], "swap[1]")
        if a == b:
            raise es.error("a player cannot swap with themselves", "swap", allowed="two different positions")
        swapped, public = outcome()
        es.finish()
        return Event(index, kind, a, (a, b), swapped, public)
    if kind is EventKind.REVEAL:
        pos = position(es.raw("reveal"), "reveal")
        c = card("card", required=True)
        es.finish()
        return Event(index, kind, pos, seen=((pos, c),))
    if kind is EventKind.LOOK:
        a = player("look")
        c = card("card")
        es.finish()
        return Event(index, kind, a, seen=((a, c),))
    if kind is EventKind.SPY:
        a = player("spy")
        b = position(es.raw("with"), "with")
        if a == b:
            raise es.error("the Spy looks at another position's card", "with",
                           allowed=[p for i, p in enumerate(game.positions) if i != a])
        seen_cards = es.array("cards", str, None, min_len=2, max_len=2)
        seen: tuple[tuple[int, int | None], ...] = ((a, None), (b, None))
        if seen_cards is not None:
            seen = ((a, card("cards[0]", seen_cards[0])), (b, card("cards[1]", seen_cards[1])))
        swapped, public = outcome()
        es.finish()
        return Event(index, kind, a, (a, b), swapped, public, seen)
    # the Fool
    a = player("fool")
    pair = es.array("between", str, min_len=2, max_len=2)
    x, y = position(pair[0], "between[0]"), position(pair[1], "between[1]")
    if len({a, x, y}) != 3:
        raise es.error("the Fool swaps-or-not two other positions", "between",
                       allowed="two different positions, neither of them the Fool")
    swapped, public = outcome()
    es.finish()
    return Event(index, kind, a, (x, y), swapped, public)


def format_placement(game: MascaradeState, placement: Sequence[int]) -> dict[str, str]:
    return {p: game.identities[c] for p, c in zip(game.positions, placement, strict=True)}
