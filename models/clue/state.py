"""A Clue game as written in a puzzle file: the deck, the seats, the known cards and the public log.

Everything the solvers use is first turned into a list of :class:`Obs` (one per named observation: a known
hand, a pass, a shown card, an accusation, a hand size), seen from a viewpoint.  The constraint model, the
counting engine and the rules engine all read that same list.
"""

from __future__ import annotations

import enum
import textwrap
from dataclasses import dataclass, field
from typing import Any

from sleuth.errors import InternalError, Mistakes, PuzzleError
from sleuth.names import unique_items, unique_names
from sleuth.puzzle import PuzzleDoc
from sleuth.schema import Names, Section

CATEGORIES = ("suspect", "weapon", "room")

CLASSIC = (
    ("Scarlet", "Mustard", "White", "Green", "Peacock", "Plum"),
    ("Candlestick", "Knife", "Lead Pipe", "Revolver", "Rope", "Wrench"),
    ("Kitchen", "Ballroom", "Conservatory", "Dining Room", "Billiard Room", "Library", "Lounge", "Hall", "Study"),
)
MASTER_DETECTIVE = (
    ("Scarlet", "Mustard", "White", "Green", "Peacock", "Plum", "Rose", "Gray", "Brunette", "Peach"),
    ("Candlestick", "Knife", "Lead Pipe", "Revolver", "Rope", "Wrench", "Horseshoe", "Poison"),
    ("Carriage House", "Conservatory", "Kitchen", "Trophy Room", "Dining Room", "Drawing Room", "Gazebo",
     "Courtyard", "Fountain", "Library", "Billiard Room", "Studio"),
)
NAMED_DECKS = {"classic": CLASSIC, "master-detective": MASTER_DETECTIVE}
# The long forms of the bundled decks' names (US and UK boxes); they read as the short name in files and claims.
LONG_NAMES = {
    "Scarlet": ("Miss Scarlet", "Miss Scarlett", "Scarlett"),
    "Mustard": ("Colonel Mustard", "Col. Mustard", "Col Mustard"),
    "White": ("Mrs. White", "Mrs White"),
    "Green": ("Mr. Green", "Mr Green", "Reverend Green", "Rev. Green", "Rev Green"),
    "Peacock": ("Mrs. Peacock", "Mrs Peacock"),
    "Plum": ("Professor Plum", "Prof. Plum", "Prof Plum"),
    "Rose": ("Madame Rose",),
    "Gray": ("Sergeant Gray", "Sgt. Gray", "Sgt Gray", "Grey", "Sergeant Grey"),
    "Brunette": ("Monsieur Brunette",),
    "Peach": ("Miss Peach",),
    "Knife": ("Dagger",),
    "Lead Pipe": ("Lead Piping", "Pipe"),
    "Wrench": ("Spanner",),
    "Revolver": ("Pistol",),
    "Candlestick": ("Candle Stick",),
    "Billiard Room": ("Billiards Room",),
    "Dining Room": ("Dining Hall",),
}


def deck_lines() -> list[str]:
    """The bundled decks with their card names and the long forms they accept (``sleuth games clue``)."""
    lines = []
    for name, deck in NAMED_DECKS.items():
        lines += ["", f"deck = \"{name}\":"]
        for category, cards in zip(CATEGORIES, deck, strict=True):
            lines.append(f"  {category + 's':<9} {', '.join(cards)}")
        forms = "; ".join(f"{card} = {' / '.join(aliases)}" for card, aliases in LONG_NAMES.items()
                          if any(card in cat for cat in deck))
        lines += textwrap.wrap("long forms (read as the card): " + forms, 110, initial_indent="  ",
                               subsequent_indent="    ")
    return lines


def long_names(deck: tuple[tuple[str, ...], ...]) -> dict[str, str]:
    """The long forms (alias -> card) that a bundled deck's cards accept."""
    cards = {c for cat in deck for c in cat}
    return {alias: card for card, aliases in LONG_NAMES.items() if card in cards for alias in aliases}
MAX_CARDS = 120
MAX_PLAYERS = 12


@dataclass(frozen=True)
class Deck:
    """Cards by category; a card is an index into :attr:`cards` (suspects, then weapons, then rooms)."""

    suspects: tuple[str, ...]
    weapons: tuple[str, ...]
    rooms: tuple[str, ...]

    @property
    def categories(self) -> tuple[tuple[str, ...], ...]:
        return (self.suspects, self.weapons, self.rooms)

    @property
    def cards(self) -> tuple[str, ...]:
        return self.suspects + self.weapons + self.rooms

    def __len__(self) -> int:
        return len(self.cards)

    def category(self, card: int) -> int:
        if card < len(self.suspects):
            return 0
        return 1 if card < len(self.suspects) + len(self.weapons) else 2

    def members(self, category: int) -> range:
        start = sum(len(c) for c in self.categories[:category])
        return range(start, start + len(self.categories[category]))

    @classmethod
    def named(cls, name: str) -> Deck:
        return cls(*NAMED_DECKS[name])


class ObsKind(enum.Enum):
    HOLDS = "holds"            # the player holds every listed card
    LACKS = "lacks"            # the player holds none of the listed cards
    SOME = "some"              # the player holds at least one of the listed cards
    HAND_SIZE = "hand size"    # the player holds exactly `size` cards
    NOT_TRIPLE = "not triple"  # the envelope is not exactly these three cards
    ENVELOPE = "envelope"      # the envelope is exactly these three cards


@dataclass(frozen=True)
class Obs:
    """One named observation: what it says about which place holds which cards."""

    name: str
    kind: ObsKind
    player: int | None = None
    cards: tuple[int, ...] = ()
    size: int = 0

    @property
    def who(self) -> int:
        """The player the observation is about (every kind names one but the envelope and wrong triples)."""
        if self.player is None:
            raise InternalError(f"observation {self.name!r} ({self.kind.name}) names no player")
        return self.player


@dataclass(frozen=True)
class Suggestion:
    by: int
    cards: tuple[int, int, int]
    shown_by: int | None = None
    card: int | None = None


@dataclass(frozen=True)
class Accusation:
    by: int
    cards: tuple[int, int, int]
    correct: bool = False


@dataclass(frozen=True)
class ClueState:
    """The full state of a puzzle file; :meth:`observations` gives what a viewer knows of it."""

    deck: Deck
    players: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    hands: tuple[frozenset[int], ...]
    suggestions: tuple[Suggestion, ...] = ()
    accusations: tuple[Accusation, ...] = ()
    file_viewer: int | None = None
    viewer: int | None = None
    card_names: Names = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    @property
    def envelope(self) -> int:
        """The place index of the envelope (players are 0..n-1)."""
        return len(self.players)

    @property
    def places(self) -> tuple[str, ...]:
        return (*self.players, "envelope")

    def card(self, i: int) -> str:
        return self.deck.cards[i]

    def suggestion_label(self, k: int) -> str:
        s = self.suggestions[k]
        return f"suggestion {k + 1} ({self.players[s.by]}: {', '.join(self.card(c) for c in s.cards)})"

    def observations(self) -> list[Obs]:
        """The observations the viewer has (everything the file states when there is no viewer).

        A viewer knows their own hand, the cards shown to them or by them, and public events.  The other
        players' entries under ``[hands]`` count only when the file was written by this viewer (they are
        the cards this viewer has seen).
        """
        v = self.viewer
        obs: list[Obs] = []
        for p, size in enumerate(self.hand_sizes):
            obs.append(Obs(f"hand size of {self.players[p]}", ObsKind.HAND_SIZE, p, size=size))
        for p, hand in enumerate(self.hands):
            if hand and (v is None or p == v or v == self.file_viewer):
                obs.append(Obs(f"{self.players[p]}'s hand", ObsKind.HOLDS, p, tuple(sorted(hand))))
        n = len(self.players)
        for k, s in enumerate(self.suggestions):
            label = self.suggestion_label(k)
            asked = [(s.by + i) % n for i in range(1, n)]
            passers = asked if s.shown_by is None else asked[:asked.index(s.shown_by)]
            for p in passers:
                obs.append(Obs(f"{label}: {self.players[p]} could not show", ObsKind.LACKS, p, s.cards))
            if s.shown_by is None:
                continue
            who = self.players[s.shown_by]
            if s.card is not None and (v is None or v in (s.by, s.shown_by)):
                obs.append(Obs(f"{label}: {who} showed {self.card(s.card)}", ObsKind.HOLDS, s.shown_by,
                               (s.card,)))
            else:
                obs.append(Obs(f"{label}: {who} showed a card", ObsKind.SOME, s.shown_by, s.cards))
        for k, a in enumerate(self.accusations):
            cards = ", ".join(self.card(c) for c in a.cards)
            label = f"accusation {k + 1} ({self.players[a.by]}: {cards})"
            if a.correct:
                obs.append(Obs(f"{label} was right", ObsKind.ENVELOPE, None, a.cards))
            else:
                obs.append(Obs(f"{label} was wrong", ObsKind.NOT_TRIPLE, None, a.cards))
        return obs

    # -- writing back (the simulator's logs) ---------------------------------------------------------
    def to_doc(self) -> dict[str, Any]:
        """A puzzle-file table for this game (custom deck written out unless it is a named deck)."""
        deck: Any = next((name for name, cats in NAMED_DECKS.items() if cats == self.deck.categories),
                         {"suspects": list(self.deck.suspects), "weapons": list(self.deck.weapons),
                          "rooms": list(self.deck.rooms)})
        doc: dict[str, Any] = {"game": "clue", "deck": deck, "players": list(self.players),
                               "hand_sizes": list(self.hand_sizes)}
        if self.viewer is not None:
            doc["viewer"] = self.players[self.viewer]
        hands = {self.players[p]: [self.card(c) for c in sorted(h)] for p, h in enumerate(self.hands) if h}
        if hands:
            doc["hands"] = hands
        doc["suggestion"] = []
        for s in self.suggestions:
            row: dict[str, Any] = {"by": self.players[s.by], "cards": [self.card(c) for c in s.cards]}
            if s.shown_by is not None:
                row["shown_by"] = self.players[s.shown_by]
            if s.card is not None and (self.viewer is None or self.viewer in (s.by, s.shown_by)):
                row["card"] = self.card(s.card)  # a showing between two others: the viewer saw no card
            doc["suggestion"].append(row)
        doc["accusation"] = [{"by": self.players[a.by], "cards": [self.card(c) for c in a.cards],
                              "correct": a.correct} for a in self.accusations]
        return doc


# -- parsing -----------------------------------------------------------------------------------------

def parse_deck(section: Section) -> Deck:
    raw = section.raw("deck", "classic")
    if isinstance(raw, str):
        key = raw.strip().casefold().replace("_", "-").replace(" ", "-")
        if key not in NAMED_DECKS:
            raise section.error(f"unknown deck {raw!r}", "deck", allowed=[*NAMED_DECKS, "a [deck] table"])
        return Deck.named(key)
    if not isinstance(raw, dict):
        raise section.error("expected a deck name or a table", "deck",
                            allowed=[*NAMED_DECKS, "a [deck] table with suspects, weapons, rooms"])
    ds = section.section("deck")
    keys = ("suspects", "weapons", "rooms")
    cats = [tuple(ds.array(key, str, min_len=1)) for key in keys]
    unique_items("card", [(ds.path(f"{key}[{i}]"), c) for key, cat in zip(keys, cats, strict=True)
                          for i, c in enumerate(cat, 1)], file=section.file)
    ds.finish()
    deck = Deck(*cats)
    if len(deck) > MAX_CARDS:
        raise ds.error(f"has {len(deck)} cards", allowed=f"at most {MAX_CARDS}")
    return deck


def read_state(doc: PuzzleDoc) -> ClueState:
    """Read and check the clue keys of a puzzle file (every mistake names its place)."""
    section, viewer = doc.section, doc.viewer
    deck = parse_deck(section)
    named = deck.categories in NAMED_DECKS.values()
    try:
        cards = Names("card", deck.cards, long_names(deck.categories) if named else None)
    except PuzzleError as exc:
        raise exc.located(section.file, "deck") from None
    names = section.array("players", str, min_len=2, max_len=MAX_PLAYERS)
    unique_names("player", names, "players", file=section.file, reserved=["envelope"],
                 why=" (the envelope's place in claims and in the --json sheet)")
    try:
        players = Names("player", names)
    except PuzzleError as exc:
        raise exc.located(section.file, "players") from None
    n, free = len(players), len(deck) - 3
    if section.has("hand_sizes"):
        sizes = section.array("hand_sizes", int, min_len=n, max_len=n)
        for i, h in enumerate(sizes, 1):
            if h < 0:
                raise section.error(f"{h} is negative", f"hand_sizes[{i}]", allowed="0 and more")
        if sum(sizes) != free:
            raise section.error(f"hand sizes add up to {sum(sizes)}, but the deck leaves {free} cards for the "
                                f"hands ({len(deck)} cards minus 3 in the envelope)", "hand_sizes",
                                allowed=f"{n} sizes adding up to {free}")
    else:
        sizes = [free // n + (1 if i < free % n else 0) for i in range(n)]
    hands: list[set[int]] = [set() for _ in range(n)]
    owner: dict[int, int] = {}
    mistakes = Mistakes()   # names and entries: every mistake of the file in one run
    hs = section.section("hands", None)
    if hs is not None:
        for key in hs.data:
            with mistakes.collect():
                p = players.index(key, hs)
                for i, name in enumerate(hs.array(key, str), 1):
                    with mistakes.collect():
                        c = cards.index(name, hs, f"{key}[{i}]")
                        if c in owner and owner[c] != p:
                            raise hs.error(f"{deck.cards[c]} is also in {players.names[owner[c]]}'s hand",
                                           f"{key}[{i}]")
                        owner[c] = p
                        hands[p].add(c)
                if len(hands[p]) > sizes[p]:
                    raise hs.error(f"lists {len(hands[p])} cards but {players.names[p]} holds {sizes[p]}", key,
                                   allowed=f"at most {sizes[p]} cards")
    suggestions = []
    for ss in section.sections("suggestion"):
        with mistakes.collect():
            if (one := _suggestion(ss, deck, cards, players, mistakes)) is not None:
                suggestions.append(one)
    if section.has("log"):  # the companion's play order: checked to be a list of strings, then ignored
        section.array("log", str)
    accusations = []
    for acc in section.sections("accusation"):
        with mistakes.collect():
            by = _name(players, acc, "by", mistakes)
            triple = _triple(acc, deck, cards, mistakes)
            correct = acc.boolean("correct")
            acc.finish()
            if by is not None and triple is not None:
                accusations.append(Accusation(by, triple, correct))
    fv = v = None
    with mistakes.collect():
        file_viewer = section.raw("viewer", None)
        fv = players.index(file_viewer, section, "viewer") if file_viewer is not None else None
    with mistakes.collect():
        v = players.index(viewer, section, "viewer") if viewer is not None else None
    mistakes.raise_any()
    return ClueState(deck, tuple(players.names), tuple(sizes), tuple(frozenset(h) for h in hands),
                tuple(suggestions), tuple(accusations), fv, v, cards)


def _name(names: Names, s: Section, key: str, mistakes: Mistakes) -> int | None:
    """The index of the name at ``key`` (None, the mistake recorded, when it matches nothing)."""
    with mistakes.collect():
        return names.index(s.string(key), s, key)
    return None


def _suggestion(ss: Section, deck: Deck, cards: Names, players: Names, mistakes: Mistakes) -> Suggestion | None:
    """One [[suggestion]]; every wrong name in it is recorded before it is refused."""
    by = _name(players, ss, "by", mistakes)
    triple = _triple(ss, deck, cards, mistakes)
    shown_by = _name(players, ss, "shown_by", mistakes) if ss.has("shown_by") else None
    if shown_by is not None and shown_by == by:
        raise ss.error("a player does not show a card to themselves", "shown_by",
                       allowed=[p for i, p in enumerate(players) if i != by])
    card = None
    if ss.has("card"):
        card = _name(cards, ss, "card", mistakes)
        if not ss.has("shown_by"):
            raise ss.error("a card was shown but no shown_by says by whom", "card")
        if card is not None and triple is not None and card not in triple:
            raise ss.error(f"{deck.cards[card]} is not one of the suggested cards", "card",
                           allowed=[deck.cards[c] for c in triple])
    ss.finish()
    if by is None or triple is None or (ss.has("shown_by") and shown_by is None) or \
            (ss.has("card") and card is None):
        return None  # its mistakes are recorded already
    return Suggestion(by, triple, shown_by, card)


def _triple(s: Section, deck: Deck, cards: Names, mistakes: Mistakes) -> tuple[int, int, int] | None:
    """One suspect, one weapon and one room, in any order; returned in that order (None: a name is wrong)."""
    names = s.array("cards", str, min_len=3, max_len=3)
    picked: list[int | None] = [None, None, None]
    found: list[int | None] = []
    for i, name in enumerate(names, 1):
        c = None
        with mistakes.collect():
            c = cards.index(name, s, f"cards[{i}]")
        found.append(c)
        if c is None:
            continue
        cat = deck.category(c)
        earlier = picked[cat]
        if earlier is not None:
            raise s.error(f"names two {CATEGORIES[cat]}s ({deck.cards[earlier]} and {deck.cards[c]})",
                          "cards", allowed="one suspect, one weapon and one room")
        picked[cat] = c
    if None in found:
        return None
    suspect, weapon, room = picked
    if suspect is None or weapon is None or room is None:  # three cards, no category twice: one of each
        raise InternalError(f"triple {names!r}: a category is missing")
    return suspect, weapon, room

