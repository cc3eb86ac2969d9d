"""Random legal Mascarade games with a true hidden placement, for tests, puzzles and the benchmark.

Every fact is recorded (each swap's outcome, every card looked at), so any player's belief can be computed
from the same record.  The rules followed: the first four turns are swaps; afterwards a turn is a swap, a
look, an announcement (the announcer and maybe challengers reveal their cards), the Spy or the Fool.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .state import MIDDLE_PREFIX, Event, EventKind, MascaradeState

DECK = ("King", "Queen", "Judge", "Bishop", "Thief", "Witch", "Spy", "Fool", "Cheat", "Inquisitor", "Widow",
        "Peasant", "Peasant", "Courtesan", "Usurper")
PLAYER_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea", "Max")


@dataclass(frozen=True)
class Mix:
    """Relative frequencies of the turn kinds after the opening swaps."""

    swap: float = 0.4
    announce: float = 0.25
    look: float = 0.15
    spy: float = 0.1
    fool: float = 0.1
    public: float = 0.1          # share of swaps whose outcome is made public
    challenge: float = 0.4       # chance that each further player challenges an announcement (at most 2)

    def kinds(self) -> Mapping[str, float]:
        return {"swap": self.swap, "announce": self.announce, "look": self.look, "spy": self.spy,
                "fool": self.fool}


SWAPS_ONLY = Mix(swap=1, announce=0, look=0, spy=0, fool=0, public=0)


def deal(n_players: int, middle: int = 0, rng: random.Random | None = None) -> tuple[list[str], list[str], list[str]]:
    """Players, their cards and the middle cards: the deck's first cards, shuffled."""
    cards = list(DECK[:n_players + middle])
    (rng or random.Random(0)).shuffle(cards)
    return list(PLAYER_NAMES[:n_players]), cards[:n_players], cards[n_players:]


def simulate(n_players: int, n_events: int, seed: int = 0, *, middle: int = 0, mix: Mix = Mix(),
             prior: Fraction = Fraction(1, 2), opening: int = 4) -> MascaradeState:
    """A random game of ``n_events`` events, with every fact recorded."""
    rng = random.Random(seed)
    players, cards, middle_cards = deal(n_players, middle, rng)
    identities: list[str] = []
    for c in cards + middle_cards:
        if c not in identities:
            identities.append(c)
    initial = tuple(identities.index(c) for c in cards + middle_cards)
    game = MascaradeState(players, [f"{MIDDLE_PREFIX}{i + 1}" for i in range(middle)], identities, initial, [], prior)
    truth = list(initial)
    n_pos = len(truth)
    kinds, weights = zip(*mix.kinds().items(), strict=True)

    def add(kind: EventKind, actor: int, pair: tuple[int, int] | None = None, public: bool = False,
            seen: tuple[int, ...] = ()) -> None:
        swapped = None
        if pair is not None:
            swapped = rng.random() < prior
        seen_cards = tuple((p, truth[p]) for p in seen)   # before the swap: the Spy looks first
        game.events.append(Event(len(game.events) + 1, kind, actor, pair, swapped, public, seen_cards))
        if pair is not None and swapped:
            a, b = pair
            truth[a], truth[b] = truth[b], truth[a]

    def other(*exclude: int) -> int:
        return rng.choice([p for p in range(n_pos) if p not in exclude])

    while len(game.events) < n_events:
        actor = rng.randrange(n_players)
        kind = "swap" if len(game.events) < opening else rng.choices(kinds, weights)[0]
        if kind == "swap":
            add(EventKind.SWAP, actor, (actor, other(actor)), public=rng.random() < mix.public)
        elif kind == "look":
            add(EventKind.LOOK, actor, seen=(actor,))
        elif kind == "spy":
            target = other(actor)
            add(EventKind.SPY, actor, (actor, target), seen=(actor, target))
        elif kind == "fool" and n_pos >= 3:
            x = other(actor)
            add(EventKind.FOOL, actor, (x, other(actor, x)))
        else:
            revealed = [actor]
            for p in rng.sample([q for q in range(n_players) if q != actor], min(2, n_players - 1)):
                if rng.random() < mix.challenge:
                    revealed.append(p)
            for p in revealed:
                if len(game.events) < n_events:
                    add(EventKind.REVEAL, p, seen=(p,))
    return game


def to_document(game: MascaradeState, *, viewer: str | None = None, title: str | None = None) -> dict[str, Any]:
    """The game as a puzzle table (every recorded fact kept), ready for :func:`dumps_toml`."""
    P, C = game.positions, game.identities
    doc: dict[str, Any] = {"game": "mascarade"}
    if title:
        doc["title"] = title
    doc["players"] = list(game.players)
    doc["cards"] = [C[c] for c in game.initial[:len(game.players)]]
    if game.middle:
        doc["middle"] = [C[c] for c in game.initial[len(game.players):]]
    if viewer:
        doc["viewer"] = viewer
    if game.swap_probability != Fraction(1, 2):
        doc["swap_probability"] = str(game.swap_probability)
    events = []
    for e in game.events:
        t: dict[str, Any] = {}
        if e.kind is EventKind.REVEAL:
            t = {"reveal": P[e.actor], "card": C[e.card_seen()]}
        elif e.kind is EventKind.LOOK:
            t = {"look": P[e.actor]}
            if e.seen[0][1] is not None:
                t["card"] = C[e.seen[0][1]]
        elif e.kind is EventKind.SWAP:
            t = {"swap": [P[e.positions[0]], P[e.positions[1]]]}
        elif e.kind is EventKind.SPY:
            t = {"spy": P[e.actor], "with": P[e.positions[1]]}
            if all(c is not None for _, c in e.seen):
                t["cards"] = [C[e.card_seen(k)] for k in range(len(e.seen))]
        else:
            t = {"fool": P[e.actor], "between": [P[e.positions[0]], P[e.positions[1]]]}
        if e.swapped is not None:
            t["swapped"] = e.swapped
        if e.public:
            t["public"] = True
        events.append(t)
    doc["event"] = events
    return doc


def dumps_toml(doc: Mapping[str, Any]) -> str:
    """A small TOML writer for puzzle tables (strings, booleans, integers, lists of those, [[arrays]])."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        raise TypeError(f"cannot write {v!r}")

    lines = [f"{k} = {value(v)}" for k, v in doc.items() if not (isinstance(v, list) and v and isinstance(v[0], dict))]
    for k, v in doc.items():
        if isinstance(v, list) and v and isinstance(v[0], dict):
            for table in v:
                lines.append("")
                lines.append(f"[[{k}]]")
                lines.extend(f"{kk} = {value(vv)}" for kk, vv in table.items())
    return "\n".join(lines) + "\n"
