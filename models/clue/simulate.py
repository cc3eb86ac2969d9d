"""Random Clue games played with a simple policy: the log, the true deal, and views of every prefix.

Policy: on their turn a player suggests, in each category, a random card they have neither in hand nor been
shown (any card when none is left); the first player clockwise who holds one of the three shows one at
random.  When a player has seen all cards but one in every category they accuse (correctly) and the game
ends.  Used by the soundness tests (the true deal must be consistent with every view) and the benchmark.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sleuth.errors import PuzzleError

from .state import Accusation, Deck, ClueState, Suggestion


@dataclass(frozen=True)
class SimulatedGame:
    deck: Deck
    players: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    deal: tuple[int, ...]                 # place of every card (players 0..n-1, envelope n)
    suggestions: tuple[Suggestion, ...]
    accusations: tuple[Accusation, ...]

    @property
    def envelope(self) -> tuple[int, int, int]:
        n = len(self.players)
        suspect, weapon, room = (c for c, p in enumerate(self.deal) if p == n)
        return suspect, weapon, room

    def hand(self, p: int) -> frozenset[int]:
        return frozenset(c for c, q in enumerate(self.deal) if q == p)

    def view(self, viewer: int | None, turns: int | None = None) -> ClueState:
        """The log after ``turns`` suggestions, as seen by ``viewer`` (None: an outside observer who knows
        no hand and sees no shown card)."""
        n = len(self.players)
        hands = tuple(self.hand(p) if p == viewer else frozenset() for p in range(n))
        sugg = self.suggestions if turns is None else self.suggestions[:turns]
        if viewer is None:
            sugg = tuple(Suggestion(s.by, s.cards, s.shown_by, None) for s in sugg)
        acc = self.accusations if turns is None or turns >= len(self.suggestions) else ()
        return ClueState(self.deck, self.players, self.hand_sizes, hands, sugg, acc, viewer, viewer)

    def full(self) -> ClueState:
        """Everything: all hands, every shown card (the file a referee would write)."""
        hands = tuple(self.hand(p) for p in range(len(self.players)))
        return ClueState(self.deck, self.players, self.hand_sizes, hands, self.suggestions, self.accusations)


def deal_cards(deck: Deck, sizes: tuple[int, ...], rng: random.Random) -> list[int]:
    """A uniform deal with these hand sizes: the place of every card (players 0..n-1, envelope n)."""
    n_players = len(sizes)
    deal = [n_players] * len(deck)
    envelope = [rng.choice(list(deck.members(k))) for k in range(3)]
    rest = [c for c in range(len(deck)) if c not in envelope]
    rng.shuffle(rest)
    start = 0
    for p, h in enumerate(sizes):
        for c in rest[start:start + h]:
            deal[c] = p
        start += h
    return deal


def even_sizes(n_cards: int, n_players: int) -> tuple[int, ...]:
    """Hand sizes of an even deal of the cards out of the envelope (earlier seats get the extras)."""
    free = n_cards - 3
    return tuple(free // n_players + (1 if i < free % n_players else 0) for i in range(n_players))


def simulate(n_players: int, rng: random.Random, *, deck: Deck | None = None, max_turns: int = 60,
             hand_sizes: tuple[int, ...] | None = None) -> SimulatedGame:
    deck = deck or Deck.named("classic")
    players = tuple(f"P{i + 1}" for i in range(n_players))
    sizes = hand_sizes or even_sizes(len(deck), n_players)
    deal = deal_cards(deck, sizes, rng)
    seen = [{c for c, q in enumerate(deal) if q == p} for p in range(n_players)]
    suggestions: list[Suggestion] = []
    accusations: list[Accusation] = []
    for turn in range(max_turns):
        by = turn % n_players
        unseen = [[c for c in deck.members(k) if c not in seen[by]] for k in range(3)]
        if all(len(u) == 1 for u in unseen):
            accusations.append(Accusation(by, (unseen[0][0], unseen[1][0], unseen[2][0]), True))
            break
        pools = [u if u else list(deck.members(k)) for k, u in enumerate(unseen)]
        triple = (rng.choice(pools[0]), rng.choice(pools[1]), rng.choice(pools[2]))
        shown_by = card = None
        for i in range(1, n_players):
            p = (by + i) % n_players
            held = [c for c in triple if deal[c] == p]
            if held:
                shown_by, card = p, rng.choice(held)
                seen[by].add(card)
                break
        suggestions.append(Suggestion(by, triple, shown_by, card))
    return SimulatedGame(deck, players, sizes, tuple(deal), tuple(suggestions), tuple(accusations))


SEATS = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
TEMPLATE_PLAYERS = range(3, len(SEATS) + 1)


def template(n_players: int, seed: int = 7) -> str:
    """A commented puzzle file for ``sleuth new clue --players N``: a simulated game seen by Ann (her own hand,
    the cards shown to her or by her), after two rounds of suggestions; it solves with no note."""
    if n_players not in TEMPLATE_PLAYERS:
        raise PuzzleError(f"no template for {n_players} players", place="--players",
                          allowed=f"{TEMPLATE_PLAYERS.start} to {TEMPLATE_PLAYERS.stop - 1}")
    sim = simulate(n_players, random.Random(seed))
    game = sim.view(0, turns=min(2 * n_players, len(sim.suggestions)))
    game = ClueState(game.deck, SEATS[:n_players], game.hand_sizes, game.hands, game.suggestions, (), 0, 0)
    doc = game.to_doc()

    def q(v: object) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(q(x) for x in v) + "]"
        return f'"{v}"' if isinstance(v, str) else str(v).lower()

    lines = [f"# A simulated {n_players}-player game (sleuth's simulator, seed {seed}) seen by Ann: her own hand, the",
             "# cards shown to her or by her, and who showed a card to whom. Add your own turns as [[suggestion]]s.",
             'game = "clue"', f'title = "Classic deck, {n_players} players, seen by Ann"', 'deck = "classic"',
             f"players = {q(doc['players'])}      # seating order, clockwise",
             f"hand_sizes = {q(doc['hand_sizes'])}", 'viewer = "Ann"', "", "[hands]", f"Ann = {q(doc['hands']['Ann'])}"]
    for s in doc["suggestion"]:
        lines += ["", "[[suggestion]]"] + [f"{k} = {q(v)}" for k, v in s.items()]
    lines += ["", "# Ask: sleuth verify FILE --claim 'Bob holds Rope'.  Check: a [[claim]] table with text = ... and",
              "# expect = entailed | refuted | open (sleuth verify FILE exits 1 when one misses)."]
    return "\n".join(lines) + "\n"
