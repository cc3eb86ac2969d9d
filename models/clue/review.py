"""Clue game review (``sleuth review``): the viewer's suggestions and the cards the viewer showed, judged exactly.

The file's suggestions are replayed in order; each is judged on the position before it (the file's hands, the
suggestions before it; accusations are left out, as the file does not order them among the suggestions):

* a suggestion the viewer made: its exact expected information about the envelope (bits: the mutual
  information between the envelope and what the viewer sees, :func:`.suggest.exact_information`), against the
  best suggestion then available (the same room: a suggestion is made in the room one stands in; the best in
  any room is given beside), its rank among them and its regret (the bits it fell short by);
* a card the viewer showed: what it revealed to the one who saw it, the exact expected drop of the entropy of
  that player's belief about the envelope (:func:`.others.envelope_beliefs`, expectation over the viewer's
  worlds) from before the suggestion to after the card is seen, against the least revealing card the viewer
  could have shown then (the same suggestion answered with another of the viewer's cards among the three).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from sleuth.errors import PuzzleError
from sleuth.limits import PastBudget
from sleuth.results import Report, Status, decimal, jsonable

from .counting import Problem
from .others import envelope_beliefs, show_advice
from .state import ClueState
from .suggest import COMPILED_BUDGET, EXACT_BUDGET, exact_information

SHOWN_BEST = 10


@dataclass(frozen=True)
class SuggestionReview:
    """One suggestion of the viewer: its information (bits) against the best then available (same room)."""

    move: int
    by: str
    cards: tuple[str, str, str]
    information: float | None
    best: float | None
    regret: float | None
    rank: int | None
    of: int
    best_suggestions: tuple[tuple[str, str, str], ...]
    best_count: int | None
    best_any_room: float | None
    exact: bool
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        out = {k: jsonable(getattr(self, k)) for k in ("move", "by", "cards", "information", "best", "regret", "rank",
                                                       "of", "best_suggestions", "best_count", "best_any_room",
                                                       "exact")}
        out["kind"] = "suggestion"
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class ShowReview:
    """One card the viewer showed: what it revealed to the one who saw it (bits of their envelope entropy, in
    expectation over the viewer's worlds) against the least revealing card the viewer held among the three."""

    move: int
    to: str
    cards: tuple[str, str, str]
    shown: str
    entropy_before: float
    entropy_after: float
    revealed: float
    knows: Fraction
    least: str
    least_revealed: float
    regret: float
    choices: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        out = {k: jsonable(getattr(self, k)) for k in ("move", "to", "cards", "shown", "entropy_before",
                                                       "entropy_after", "revealed", "knows", "least",
                                                       "least_revealed", "regret", "choices")}
        out["kind"] = "show"
        return out


@dataclass(frozen=True)
class ClueReview:
    viewer: str
    moves: tuple[SuggestionReview | ShowReview, ...]

    @property
    def regret(self) -> float | None:
        """The bits the viewer's suggestions fell short of the best then available, summed (None: one unknown)."""
        values = [m.regret for m in self.moves if isinstance(m, SuggestionReview)]
        return None if any(v is None for v in values) else sum(v for v in values if v is not None)

    @property
    def revealed(self) -> float:
        """The bits the viewer's shown cards revealed beyond the least revealing choices, summed."""
        return sum(m.regret for m in self.moves if isinstance(m, ShowReview))

    def to_json(self) -> dict[str, Any]:
        return {"viewer": self.viewer, "moves": [m.to_json() for m in self.moves], "regret": _r(self.regret),
                "revealed": _r(self.revealed)}

    def text(self) -> str:
        return review_text(self)


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def _prefix(game: ClueState, k: int) -> ClueState:
    """The position before suggestion ``k`` (0-based): the earlier suggestions, no accusation."""
    return replace(game, suggestions=game.suggestions[:k], accusations=())


def suggestion_review(game: ClueState, k: int, file: str | None = None) -> SuggestionReview:
    """The review of suggestion ``k`` (0-based), made by the viewer."""
    s = game.suggestions[k]
    before = _prefix(game, k)
    room = next(c for c in s.cards if game.deck.category(c) == 2)
    every = [(a, b, c) for a in game.deck.members(0) for b in game.deck.members(1) for c in game.deck.members(2)]
    played = tuple(sorted(s.cards, key=game.deck.category))
    names = (game.card(played[0]), game.card(played[1]), game.card(played[2]))
    try:
        scores = exact_information(Problem.from_observations(before, before.observations()), s.by, every,
                                   budget=EXACT_BUDGET, compiled_budget=COMPILED_BUDGET)
    except PastBudget as past:
        return SuggestionReview(k + 1, game.players[s.by], names, None, None, None, None, 0, (), None, None, False,
                                f"the exact information is past the budget ({past})")
    if not scores:
        raise PuzzleError(f"no deal is consistent with the suggestions before suggestion {k + 1}", file=file,
                          place=f"suggestion[{k + 1}]", allowed="a file sleuth solve finds consistent")
    here = {t: v for t, v in scores.items() if t[2] == room}
    mine = scores[(played[0], played[1], played[2])]
    top = max(here.values(), key=lambda v: v.bits)
    best = [t for t, v in here.items() if v.key == top.key]
    rank = 1 + sum(1 for v in here.values() if v.key != mine.key and v.bits > mine.bits)
    return SuggestionReview(
        k + 1, game.players[s.by], names, mine.bits, top.bits, 0.0 if mine.key == top.key else top.bits - mine.bits,
        rank, len(here), tuple((game.card(t[0]), game.card(t[1]), game.card(t[2])) for t in best[:SHOWN_BEST]),
        len(best), max(v.bits for v in scores.values()), True)


def show_review(game: ClueState, k: int) -> ShowReview | None:
    """The review of the card the viewer showed at suggestion ``k`` (None when no world lets it happen)."""
    s = game.suggestions[k]
    assert s.card is not None
    before = _prefix(game, k)
    rows = show_advice(before, s.by, s.cards, fixed_order=True)  # the same floats in every process
    start = envelope_beliefs(before, s.by, fixed_order=True)
    if not rows or not start:
        return None
    h0 = float(start["entropy"])
    after = {int(str(r["card"])): r for r in rows}
    mine = after.get(s.card)
    if mine is None:
        return None
    least = rows[0]
    revealed = h0 - float(str(mine["entropy"]))
    least_revealed = h0 - float(str(least["entropy"]))
    knows = mine["knows"]
    return ShowReview(k + 1, game.players[s.by], tuple(game.card(c) for c in s.cards),  # type: ignore[arg-type]
                      game.card(s.card), h0, float(str(mine["entropy"])), revealed,
                      knows if isinstance(knows, Fraction) else Fraction(str(knows)),
                      game.card(int(str(least["card"]))), least_revealed, max(revealed - least_revealed, 0.0),
                      tuple(game.card(int(str(r["card"]))) for r in rows))


def review_game(game: ClueState, file: str | None = None) -> ClueReview:
    """The review of the viewer's moves (see the module's docstring); the file must name a viewer."""
    v = game.viewer
    if v is None:
        raise PuzzleError("a review judges the viewer's moves: name the viewer", file=file, place="viewer",
                          allowed=list(game.players))
    moves: list[SuggestionReview | ShowReview] = []
    for k, s in enumerate(game.suggestions):
        if s.by == v:
            moves.append(suggestion_review(game, k, file))
        elif s.shown_by == v and s.card is not None:
            shown = show_review(game, k)
            if shown is not None:
                moves.append(shown)
    return ClueReview(game.players[v], tuple(moves))


def review(puzzle: Any) -> ClueReview:
    """The review of a loaded Clue puzzle (:func:`sleuth.load_puzzle`)."""
    return review_game(puzzle.state, puzzle.doc.file)


def report(puzzle: Any, options: dict[str, Any]) -> Report:
    """``sleuth review`` for Clue (``--plot`` draws the regret per move)."""
    r = review(puzzle)
    if options.get("plot"):
        plot_review(r, str(options["plot"]))
    return Report(puzzle.game, Status.OK, r.to_json(), r.text(), notes=tuple(puzzle.notes))


def _bits(x: float | None) -> str:
    return "?" if x is None else f"{x:.4f}"


def review_text(r: ClueReview) -> str:
    lines = [f"Review of {r.viewer}'s moves (bits: exact expectations over the deals consistent with the position "
             "before each move)"]
    for m in r.moves:
        if isinstance(m, SuggestionReview):
            best = ", ".join(" / ".join(t) for t in m.best_suggestions[:3])
            best += " ..." if (m.best_count or 0) > 3 else ""
            lines.append(f"{m.move:>3}. suggestion {', '.join(m.cards)}: {_bits(m.information)} bits about the "
                         f"envelope; best in that room {_bits(m.best)} ({best}); rank {m.rank} of "
                         f"{m.of}; regret {_bits(m.regret)}; best in any room {_bits(m.best_any_room)}"
                         + (f" ({m.note})" if m.note else ""))
        else:
            lines.append(f"{m.move:>3}. showed {m.shown} to {m.to} ({', '.join(m.cards)}): revealed "
                         f"{m.revealed:.4f} bits of {m.to}'s envelope entropy ({m.entropy_before:.4f} -> "
                         f"{m.entropy_after:.4f}; P({m.to} knows the envelope) {decimal(m.knows)}); least "
                         f"revealing: {m.least} ({m.least_revealed:.4f} bits); regret {m.regret:.4f}")
    if not r.moves:
        lines.append("  no suggestion by the viewer and no card shown by the viewer in the file")
    lines.append(f"total: suggestions {_bits(r.regret)} bits short of the best; shown cards {r.revealed:.4f} bits "
                 "more revealing than the least revealing choices")
    return "\n".join(lines)


def plot_review(r: ClueReview, path: str) -> None:
    """The regret (bits) of each reviewed move, suggestions and shown cards apart."""
    from sleuth.figures import pyplot, save

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    labels = [f"{m.move}. {'ask' if isinstance(m, SuggestionReview) else 'show'}" for m in r.moves]
    values = [m.regret if m.regret is not None else 0.0 for m in r.moves]
    colours = ["#c0392b" if isinstance(m, SuggestionReview) else "#8e44ad" for m in r.moves]
    ax.bar(range(len(values)), values, color=colours)
    ax.set_xticks(range(len(values)), labels, fontsize=8)
    ax.set_ylabel("regret (bits)")
    ax.set_title(f"Review of {r.viewer}'s moves\nred: suggestions (bits short of the best); purple: shown cards "
                 "(bits beyond the least revealing)", fontsize=8)
    fig.tight_layout()
    save(fig, path)


__all__ = ["ClueReview", "ShowReview", "SuggestionReview", "report", "review", "review_game", "review_text",
           "show_review", "suggestion_review"]
