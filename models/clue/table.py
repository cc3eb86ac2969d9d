"""Boardless Clue at a table of bots: the deal, the turns, what each seat sees, and the game's transcript.

Rules (the "Speed Clue" form): no board; on their turn a player may accuse, else suggests any suspect, weapon
and room, then may accuse.  The players after the suggester, in seat order, answer: the first who holds one of
the three cards shows one of them (their choice) to the suggester alone; the others see who showed.  A right
accusation wins; a wrong one puts the accuser out of the game (they still show cards); when everyone is out, or
after :data:`MAX_ROUNDS` rounds, the game is a draw.

A bot sees its seat only: the table gives it a :class:`SeatView` (its hand, the public events, the cards shown
to it or by it), never the deal; every card a bot receives is put there by the table from that seat's own
observations.  The bot interface is :class:`Bot`; the bots themselves are in :mod:`.bots` and :mod:`.outside`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sleuth.limits import LimitReached

from .simulate import deal_cards, even_sizes
from .state import Accusation, ClueState, Deck, NAMED_DECKS, Suggestion

MAX_ROUNDS = 60   # rounds of turns after which a game is a draw (no bot that accuses when certain gets near it)
Triple = tuple[int, int, int]


class BotFailure(Exception):
    """A bot could not decide: a program that timed out, exited or answered what the protocol does not allow.
    The table puts that seat out of the game (a forfeit); the run goes on."""


@dataclass(frozen=True)
class AccuseChoice:
    """An accusation a bot makes, and whether it says it is certain (checked: :mod:`.referee`)."""

    cards: Triple
    certain: bool


class SeatView:
    """What one seat sees, kept up to date by the table: its hand, the public events and the cards shown to it
    or by it.  It holds no reference to the deal: a bot can read from it nothing its seat could not see."""

    def __init__(self, deck: Deck, players: tuple[str, ...], hand_sizes: tuple[int, ...], seat: int,
                 hand: frozenset[int]) -> None:
        self.deck, self.players, self.hand_sizes, self.seat, self.hand = deck, players, hand_sizes, seat, hand
        self.suggestions: list[Suggestion] = []
        self.accusations: list[Accusation] = []
        self.out: set[int] = set()        # seats out of the game (wrong accusation or forfeit): public
        self.events: list[dict[str, Any]] = []   # every event as this seat saw it, in order (for outside bots)
        self.version = 0
        self._state: tuple[int, ClueState] | None = None

    @property
    def n(self) -> int:
        return len(self.players)

    def state(self) -> ClueState:
        """The game as this seat sees it (viewer = this seat), for the solvers of :mod:`sleuth.models.clue`."""
        if self._state is None or self._state[0] != self.version:
            hands = tuple(self.hand if p == self.seat else frozenset() for p in range(self.n))
            state = ClueState(self.deck, self.players, self.hand_sizes, hands, tuple(self.suggestions),
                              tuple(self.accusations), self.seat, self.seat)
            self._state = (self.version, state)
        return self._state[1]

    def shown_to_me(self) -> dict[int, int]:
        """Cards shown to this seat: card -> who showed it."""
        return {s.card: s.shown_by for s in self.suggestions
                if s.by == self.seat and s.card is not None and s.shown_by is not None}

    # -- the table's side ---------------------------------------------------------------------------------
    def see_suggestion(self, s: Suggestion) -> None:
        card = s.card if self.seat in (s.by, s.shown_by) else None
        self.suggestions.append(Suggestion(s.by, s.cards, s.shown_by, card))
        self.events.append({"type": "suggestion", "by": s.by, "cards": list(s.cards), "shown_by": s.shown_by,
                            "card": card})
        self.version += 1

    def see_accusation(self, a: Accusation) -> None:
        self.accusations.append(a)
        if not a.correct:
            self.out.add(a.by)
        self.events.append({"type": "accusation", "by": a.by, "cards": list(a.cards), "correct": a.correct})
        self.version += 1

    def see_forfeit(self, seat: int) -> None:
        self.out.add(seat)
        self.events.append({"type": "forfeit", "player": seat})
        self.version += 1


class Bot:
    """The interface of a Clue bot: one object per seat per game.

    ``new_game`` gives it its :class:`SeatView` (kept up to date by the table) and a random generator of its
    own (seeded from the game's seed and the seat: games replay exactly); then the table asks it, on its
    turns, :meth:`accuse` (before and after its suggestion) and :meth:`suggest`, and, when it must answer
    another's suggestion, :meth:`show`.  Cards are indices into ``view.deck.cards``; a triple is (suspect,
    weapon, room).  A bot that cannot decide raises :class:`BotFailure` (it forfeits the game)."""

    name = "bot"

    def new_game(self, view: SeatView, rng: random.Random) -> None:
        self.view, self.rng = view, rng

    def suggest(self) -> Triple:
        raise NotImplementedError

    def show(self, by: int, cards: Triple) -> int:
        """One of ``cards`` this seat holds (it holds at least one), to show to ``by``."""
        raise NotImplementedError

    def accuse(self) -> AccuseChoice | None:
        """An accusation now, or None to go on."""
        return None

    def close(self) -> None:
        """The game is over (a program bot's process is stopped here)."""


@dataclass
class SeatResult:
    """One seat's figures in one game."""

    bot: str
    wrong: int = 0
    certain_wrong: int = 0           # accusations said certain that were wrong (a bug in a bot: never expected)
    forfeit: str | None = None
    decisions: int = 0
    seconds: float = 0.0
    max_seconds: float = 0.0
    max_cpu: float = 0.0             # CPU seconds of its longest decision (this process; a program's own excluded)


@dataclass
class GameResult:
    winner: int | None
    turns: int
    reason: str                       # "accusation", "all out" or "turn limit"
    seats: list[SeatResult]
    transcript: list[dict[str, Any]] = field(default_factory=list)


def deck_json(deck: Deck) -> Any:
    """A deck as a transcript writes it: its name when it is a named deck, else its three lists."""
    return next((name for name, cats in NAMED_DECKS.items() if cats == deck.categories),
                {"suspects": list(deck.suspects), "weapons": list(deck.weapons), "rooms": list(deck.rooms)})


class _Table:
    """One game in progress: the deal, the views, the seats' figures and the transcript."""

    def __init__(self, deck: Deck, bots: Sequence[Bot], seed: int, transcript: bool) -> None:
        self.deck, self.bots, self.n = deck, list(bots), len(bots)
        self.rng = random.Random(seed)
        self.sizes = even_sizes(len(deck), self.n)
        self.deal = tuple(deal_cards(deck, self.sizes, self.rng))
        self.players = tuple(f"P{i + 1}" for i in range(self.n))
        self.seats = [SeatResult(b.name) for b in bots]
        self.out: set[int] = set()
        self.keep = transcript
        self.lines: list[dict[str, Any]] = []
        hands = [frozenset(c for c, q in enumerate(self.deal) if q == p) for p in range(self.n)]
        self.views = [SeatView(deck, self.players, self.sizes, p, hands[p]) for p in range(self.n)]
        self.log({"type": "game", "format": "sleuth-clue-transcript", "version": 1, "game": "clue",
                  "deck": deck_json(deck), "players": list(self.players), "hand_sizes": list(self.sizes),
                  "bots": [b.name for b in bots], "seed": seed})
        self.log({"type": "deal", "hands": {self.players[p]: self.names(hands[p]) for p in range(self.n)},
                  "envelope": self.names(c for c in range(len(deck)) if self.deal[c] == self.n)})
        for p, bot in enumerate(self.bots):
            self.decide(p, bot.new_game, self.views[p], random.Random(f"{seed}:{p}"), count=False)

    def names(self, cards: Any) -> list[str]:
        return [self.deck.cards[c] for c in sorted(cards)]

    def log(self, line: dict[str, Any]) -> None:
        if self.keep:
            self.lines.append(line)

    def decide(self, seat: int, call: Any, *args: Any, count: bool = True) -> Any:
        """``call(*args)`` for ``seat``, timed (a decision, unless not ``count``); a :class:`BotFailure` puts the
        seat out (returns None)."""
        if self.seats[seat].forfeit is not None:
            return None
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            return call(*args)
        except BotFailure as exc:
            self.forfeit(seat, str(exc) or "failed")
            return None
        except (LimitReached, MemoryError):
            raise
        except Exception as exc:   # a plug-in bot's bug loses its game, not the run (and is counted)
            self.forfeit(seat, f"raised {type(exc).__name__}: {exc}"[:300])
            return None
        finally:
            dt = time.perf_counter() - t0
            r = self.seats[seat] if count else SeatResult("")
            r.decisions += 1
            r.seconds += dt
            r.max_seconds = max(r.max_seconds, dt)
            r.max_cpu = max(r.max_cpu, time.process_time() - c0)

    def forfeit(self, seat: int, reason: str) -> None:
        self.seats[seat].forfeit = reason
        self.out.add(seat)
        for v in self.views:
            v.see_forfeit(seat)
        self.log({"type": "forfeit", "player": self.players[seat], "reason": reason})

    def legal_triple(self, t: Any) -> bool:
        return (isinstance(t, tuple) and len(t) == 3 and all(isinstance(c, int) for c in t)
                and all(c in self.deck.members(k) for k, c in enumerate(t)))

    def accusation(self, seat: int, turn: int) -> bool | None:
        """Ask ``seat`` whether it accuses: None when it does not, else whether it was right."""
        choice = self.decide(seat, self.bots[seat].accuse)
        if choice is None:
            return None
        if not isinstance(choice, AccuseChoice) or not self.legal_triple(choice.cards):
            self.forfeit(seat, f"accused {choice!r}, not one suspect, weapon and room")
            return None
        right = all(self.deal[c] == self.n for c in choice.cards)
        acc = Accusation(seat, choice.cards, right)
        if not right:
            self.seats[seat].wrong += 1
            self.seats[seat].certain_wrong += choice.certain
            self.out.add(seat)
        for v in self.views:
            v.see_accusation(acc)
        self.log({"type": "accusation", "turn": turn, "by": self.players[seat], "cards": self.names(choice.cards),
                  "correct": right, "certain": choice.certain})
        return right

    def suggestion(self, seat: int, turn: int) -> None:
        triple = self.decide(seat, self.bots[seat].suggest)
        if triple is None:
            return
        triple = tuple(triple) if isinstance(triple, (list, tuple)) else triple
        if not self.legal_triple(triple):
            self.forfeit(seat, f"suggested {triple!r}, not one suspect, weapon and room")
            return
        shown_by = card = None
        for i in range(1, self.n):
            q = (seat + i) % self.n
            held = [c for c in triple if self.deal[c] == q]
            if held:
                shown_by = q
                card = self.decide(q, self.bots[q].show, seat, triple)
                if card not in held:
                    if self.seats[q].forfeit is None:
                        self.forfeit(q, f"showed {card!r}, not a card it holds of those asked")
                    card = self.rng.choice(held)   # the table shows for a seat that forfeited
                break
        s = Suggestion(seat, triple, shown_by, card)
        for v in self.views:
            v.see_suggestion(s)
        self.log({"type": "suggestion", "turn": turn, "by": self.players[seat], "cards": self.names(triple),
                  "shown_by": None if shown_by is None else self.players[shown_by],
                  "card": None if card is None else self.deck.cards[card]})

    def play(self, max_rounds: int) -> GameResult:
        turn = 0
        for _ in range(max_rounds):
            for seat in range(self.n):
                if len(self.out) == self.n:
                    return self.end(None, turn, "all out")
                if seat in self.out:
                    continue
                turn += 1
                for step in ("accuse", "suggest", "accuse"):
                    if seat in self.out:
                        break
                    if step == "suggest":
                        self.suggestion(seat, turn)
                    elif self.accusation(seat, turn):
                        return self.end(seat, turn, "accusation")
        return self.end(None, turn, "all out" if len(self.out) == self.n else "turn limit")

    def end(self, winner: int | None, turns: int, reason: str) -> GameResult:
        self.log({"type": "end", "winner": None if winner is None else self.players[winner], "turns": turns,
                  "reason": reason})
        return GameResult(winner, turns, reason, self.seats, self.lines)


def play(deck: Deck, bots: Sequence[Bot], seed: int, *, transcript: bool = False,
         max_rounds: int = MAX_ROUNDS) -> GameResult:
    """One game of ``bots`` (seat order) dealt from ``seed``: who won, after how many turns, each seat's
    figures, and (``transcript``) the game's transcript lines (:mod:`.referee` reads them)."""
    table = _Table(deck, bots, seed, transcript)
    try:
        return table.play(max_rounds)
    finally:
        for bot in bots:
            bot.close()
