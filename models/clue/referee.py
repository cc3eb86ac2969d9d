"""``sleuth referee TRANSCRIPT``: exact labels for a played Clue game.

A transcript is JSON lines (docs/arena.md; the JSON Schema: ``sleuth schema clue transcript``): a ``game`` line
(deck, players, hand sizes), optionally the ``deal`` (every hand, or those known, and the envelope), then the
events as the table saw them (``suggestion``, ``accusation``, ``forfeit``), optionally a player's stated
``deduction`` (facts they claim to know), and an ``end`` line.  After every event, for every player, the
referee counts exactly the deals that player's observations allow (their hand, the public events, the cards
shown to them or by them: :func:`.counting.count_deals`), which gives the facts they could know, and the
envelope's probabilities.  A stated deduction is split into the facts entailed, those claimed but not entailed
(errors: refuted, or still open) and the entailed facts it misses; an accusation is labelled certain,
premature (the player could not know it) or impossible (their observations exclude it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sleuth.errors import PuzzleError

from .counting import Counts, Problem, count_deals
from .outside import reply_schema, request_schema
from .sheet import Mark, Sheet, counted_sheet
from .simulate import even_sizes
from .state import MAX_PLAYERS, NAMED_DECKS, Accusation, ClueState, Deck, Suggestion

KINDS = ("game", "deal", "suggestion", "accusation", "forfeit", "deduction", "end")


@dataclass
class Transcript:
    """A transcript read and checked: the game, the known hands, and the events with their line numbers."""

    path: str
    deck: Deck
    players: tuple[str, ...]
    sizes: tuple[int, ...]
    hands: dict[int, frozenset[int]] = field(default_factory=dict)
    envelope: tuple[int, ...] | None = None
    events: list[tuple[int, str, Any]] = field(default_factory=list)   # (line, kind, Suggestion | ...)


class _Reader:
    def __init__(self, path: str) -> None:
        self.path = path
        self.line = 0

    def error(self, message: str, allowed: Any = None) -> PuzzleError:
        return PuzzleError(message, file=self.path, place=f"line {self.line}", allowed=allowed)

    def get(self, row: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if key not in row:
            if default is ...:
                raise self.error(f"lacks {key!r}")
            return default
        value = row[key]
        if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            raise self.error(f"{key!r} is {value!r}", allowed=getattr(kind, "__name__", str(kind)))
        return value

    def names(self, row: dict[str, Any], key: str, names: Sequence[str], what: str) -> list[int]:
        value = self.get(row, key, list)
        return [self.name(x, names, what) for x in value]

    def name(self, value: Any, names: Sequence[str], what: str) -> int:
        if not isinstance(value, str) or value not in names:
            raise self.error(f"unknown {what} {value!r}", allowed=list(names))
        return list(names).index(value)

    def triple(self, row: dict[str, Any], deck: Deck) -> tuple[int, int, int]:
        cards = self.names(row, "cards", deck.cards, "card")
        if sorted(deck.category(c) for c in cards) != [0, 1, 2]:
            raise self.error(f"cards {row['cards']!r} are not one suspect, one weapon and one room")
        s, w, r = sorted(cards)
        return s, w, r


def read_transcript(path: str) -> Transcript:
    """Read and check a transcript (bad input: one line naming the file, the line and what is allowed)."""
    r = _Reader(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise PuzzleError(f"cannot read it ({getattr(exc, 'strerror', None) or exc})", file=path) from None
    t: Transcript | None = None
    for r.line, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except ValueError as exc:
            raise r.error(f"is not JSON ({exc})") from None
        if not isinstance(row, dict) or row.get("type") not in KINDS:
            raise r.error("is not a transcript line", allowed=f"a JSON object with type = {' | '.join(KINDS)}")
        kind = row["type"]
        if t is None:
            if kind != "game":
                raise r.error("the first line must say which game", allowed='{"type": "game", ...}')
            t = _game_line(r, row)
            continue
        if kind == "game":
            raise r.error("a second game line", allowed="one game per transcript")
        if kind == "deal":
            _deal_line(r, row, t)
        elif kind == "suggestion":
            by = r.name(row.get("by"), t.players, "player")
            triple = r.triple(row, t.deck)
            shown_by = None if row.get("shown_by") is None else r.name(row["shown_by"], t.players, "player")
            card = None if row.get("card") is None else r.name(row["card"], t.deck.cards, "card")
            if shown_by == by:
                raise r.error("a player does not show a card to themselves")
            if card is not None and (shown_by is None or card not in triple):
                raise r.error(f"card {row['card']!r} was not shown by anyone at this suggestion")
            t.events.append((r.line, kind, Suggestion(by, triple, shown_by, card)))
        elif kind == "accusation":
            by = r.name(row.get("by"), t.players, "player")
            acc = Accusation(by, r.triple(row, t.deck), r.get(row, "correct", bool))
            t.events.append((r.line, kind, (acc, r.get(row, "certain", bool, None))))
        elif kind == "forfeit":
            t.events.append((r.line, kind, r.name(row.get("player"), t.players, "player")))
        elif kind == "deduction":
            by = r.name(row.get("by"), t.players, "player")
            facts = []
            for fact in r.get(row, "facts", list):
                if not isinstance(fact, dict):
                    raise r.error(f"fact {fact!r} is not a table", allowed='{"card": ..., "place": ..., "holds": ...}')
                place = r.name(fact.get("place"), (*t.players, "envelope"), "place")
                facts.append((r.name(fact.get("card"), t.deck.cards, "card"), place, r.get(fact, "holds", bool)))
            t.events.append((r.line, kind, (by, facts)))
    if t is None:
        raise PuzzleError("is empty", file=path, allowed="a transcript (sleuth docs arena)")
    return t


def _game_line(r: _Reader, row: dict[str, Any]) -> Transcript:
    if row.get("game") != "clue":
        raise r.error(f"game {row.get('game')!r} is not clue")
    raw = row.get("deck", "classic")
    if isinstance(raw, str):
        if raw not in NAMED_DECKS:
            raise r.error(f"unknown deck {raw!r}", allowed=[*NAMED_DECKS, "a table of suspects, weapons, rooms"])
        deck = Deck.named(raw)
    elif isinstance(raw, dict):
        cats = [r.get(raw, key, list) for key in ("suspects", "weapons", "rooms")]
        if any(not cat or not all(isinstance(c, str) for c in cat) for cat in cats) or \
                len({c for cat in cats for c in cat}) != sum(map(len, cats)):
            raise r.error("the deck's lists must hold distinct card names, at least one each")
        deck = Deck(tuple(cats[0]), tuple(cats[1]), tuple(cats[2]))
    else:
        raise r.error("deck is neither a name nor a table", allowed=list(NAMED_DECKS))
    players = r.get(row, "players", list)
    if not 2 <= len(players) <= MAX_PLAYERS or not all(isinstance(p, str) and p for p in players) \
            or len(set(players)) != len(players) or "envelope" in players:
        raise r.error("players must be 2 to 12 distinct names (not 'envelope')")
    free, n = len(deck) - 3, len(players)
    sizes = r.get(row, "hand_sizes", list, list(even_sizes(len(deck), n)))
    if len(sizes) != n or not all(isinstance(x, int) and x >= 0 for x in sizes) or sum(sizes) != free:
        raise r.error(f"hand_sizes {sizes!r} do not share the {free} cards out of the envelope among {n} players")
    return Transcript(r.path, deck, tuple(players), tuple(sizes))


def _deal_line(r: _Reader, row: dict[str, Any], t: Transcript) -> None:
    hands = r.get(row, "hands", dict, {})
    owner: dict[int, int] = {}
    for name, cards in hands.items():
        p = r.name(name, t.players, "player")
        held = frozenset(r.names({"cards": cards}, "cards", t.deck.cards, "card"))
        if len(held) != t.sizes[p]:
            raise r.error(f"{name}'s hand has {len(held)} cards, not {t.sizes[p]}")
        for c in held:
            if c in owner:
                raise r.error(f"{t.deck.cards[c]} is in two hands")
            owner[c] = p
        t.hands[p] = held
    if row.get("envelope") is not None:
        env = r.triple({"cards": row["envelope"]}, t.deck)
        if any(c in owner for c in env):
            raise r.error("an envelope card is also in a hand")
        t.envelope = env


# -- refereeing -------------------------------------------------------------------------------------------

def player_state(t: Transcript, player: int, suggestions: Sequence[Suggestion],
                 accusations: Sequence[Accusation]) -> ClueState:
    """The game as ``player`` saw it after these events: their hand (when the transcript has it), the public
    events and the cards shown to them or by them."""
    hands = tuple(t.hands.get(p, frozenset()) if p == player else frozenset() for p in range(len(t.players)))
    return ClueState(t.deck, t.players, t.sizes, hands, tuple(suggestions), tuple(accusations), player, player)


def player_counts(state: ClueState) -> Counts:
    return count_deals(Problem.from_observations(state, state.observations()), triples=True)


def facts(sheet: Sheet) -> set[tuple[int, int, bool]]:
    """The known cells of a sheet: (card, place, holds)."""
    return {(c, p, mark is Mark.YES) for c, row in enumerate(sheet.marks) for p, mark in enumerate(row)
            if mark is not Mark.MAYBE}


def referee(t: Transcript) -> dict[str, Any]:
    """Every step's labels (see the module docstring), as one JSON-ready object."""
    n = len(t.players)
    places = (*t.players, "envelope")
    suggestions: list[Suggestion] = []
    accusations: list[Accusation] = []
    known: list[set[tuple[int, int, bool]]] = [set() for _ in range(n)]
    current: list[tuple[Counts, Sheet]] = []
    steps, deductions, accused = [], [], []

    def fact_json(f: tuple[int, int, bool]) -> dict[str, Any]:
        return {"card": t.deck.cards[f[0]], "place": places[f[1]], "holds": f[2]}

    def judge(line: int, event: dict[str, Any]) -> None:
        current.clear()
        row: dict[str, Any] = {}
        for p in range(n):
            counts = player_counts(player_state(t, p, suggestions, accusations))
            if not counts.total:
                raise PuzzleError(f"no deal agrees with what {t.players[p]} saw up to here", file=t.path,
                                  place=f"line {line}", allowed="a transcript of a game that can happen")
            sheet = counted_sheet(counts)
            current.append((counts, sheet))
            now = facts(sheet)
            new = sorted(now - known[p])
            known[p] = now
            triples = counts.triples or {}
            best, ways = min(triples.items(), key=lambda x: (-x[1], x[0]))
            row[t.players[p]] = {
                "hand_known": p in t.hands, "known_cells": len(now), "new_facts": [fact_json(f) for f in new],
                "envelopes": sum(1 for k in triples.values() if k),
                "most_probable": {"cards": [t.deck.cards[c] for c in best], "p": str(Fraction(ways, counts.total))},
                "envelope_cards": {t.deck.cards[c]: str(counts.probability(c, n)) for c in range(len(t.deck))
                                   if counts.cells[c][n]},
                "knows": ways == counts.total}
        steps.append({"line": line, "event": event, "players": row})

    def name(cards: Sequence[int]) -> list[str]:
        return [t.deck.cards[c] for c in cards]

    judge(0, {"type": "start"})
    for line, kind, value in t.events:
        if kind == "suggestion":
            s: Suggestion = value
            suggestions.append(s)
            judge(line, {"type": kind, "by": t.players[s.by], "cards": name(s.cards),
                         "shown_by": None if s.shown_by is None else t.players[s.shown_by],
                         "card": None if s.card is None else t.deck.cards[s.card]})
        elif kind == "accusation":
            acc, stated = value
            counts = current[acc.by][0]
            p = Fraction((counts.triples or {}).get(acc.cards, 0), counts.total)
            label = "certain" if p == 1 else "impossible" if p == 0 else "premature"
            accused.append({"line": line, "by": t.players[acc.by], "cards": name(acc.cards), "probability": str(p),
                            "label": label, "correct": acc.correct, "stated_certain": stated,
                            "certain_not_entailed": bool(stated) and p != 1})
            accusations.append(acc)
            judge(line, {"type": kind, "by": t.players[acc.by], "cards": name(acc.cards), "correct": acc.correct})
        elif kind == "deduction":
            by, stated_facts = value
            sheet = current[by][1]
            entailed, errors = [], []
            for c, place, holds in stated_facts:
                mark = sheet.mark(c, place)
                if mark is Mark.MAYBE:
                    errors.append({**fact_json((c, place, holds)), "why": "open"})
                elif (mark is Mark.YES) == holds:
                    entailed.append(fact_json((c, place, holds)))
                else:
                    errors.append({**fact_json((c, place, holds)), "why": "refuted"})
            said = {(c, place, holds) for c, place, holds in stated_facts}
            missed = sorted(f for f in known[by] - said if f[1] != by)
            deductions.append({"line": line, "by": t.players[by], "entailed": entailed, "errors": errors,
                               "missed": [fact_json(f) for f in missed]})
    return {"game": "clue", "file": t.path, "players": list(t.players), "steps": steps,
            "accusations": accused, "deductions": deductions,
            "summary": {"steps": len(steps), "premature_accusations": sum(a["label"] == "premature" for a in accused),
                        "impossible_accusations": sum(a["label"] == "impossible" for a in accused),
                        "deduction_errors": sum(len(d["errors"]) for d in deductions),
                        "missed_facts": sum(len(d["missed"]) for d in deductions)}}


def text(report: dict[str, Any]) -> str:
    lines = [f"Referee: {report['file']} ({len(report['players'])} players, {report['summary']['steps']} steps)",
             "per player after each event: cells known (new), envelopes still possible, the most probable "
             "envelope and its probability (exact)"]
    for step in report["steps"]:
        e = step["event"]
        what = "start" if e["type"] == "start" else f"{e['by']} {e['type']} {', '.join(e['cards'])}"
        if e["type"] == "suggestion":
            what += f"; {e['shown_by']} showed" + (f" {e['card']}" if e["card"] else "") if e["shown_by"] else \
                "; nobody showed"
        elif e["type"] == "accusation":
            what += " (right)" if e["correct"] else " (wrong)"
        lines.append(f"line {step['line']}: {what}")
        for name, r in step["players"].items():
            top = r["most_probable"]
            knows = "  KNOWS the envelope" if r["knows"] else ""
            hand = "" if r["hand_known"] else " (hand not in the transcript)"
            lines.append(f"  {name:<10} {r['known_cells']:>4} cells (+{len(r['new_facts'])}), {r['envelopes']:>4} "
                         f"envelopes, top {'/'.join(top['cards'])} {top['p']}{knows}{hand}")
    for a in report["accusations"]:
        stated = "; said certain but not entailed" if a["certain_not_entailed"] else ""
        lines.append(f"accusation line {a['line']}: {a['by']} {', '.join(a['cards'])}: {a['label']} "
                     f"(P = {a['probability']}), {'right' if a['correct'] else 'wrong'}{stated}")
    for d in report["deductions"]:
        lines.append(f"deduction line {d['line']}: {d['by']}: {len(d['entailed'])} entailed, {len(d['errors'])} "
                     f"errors, {len(d['missed'])} missed")
        for e in d["errors"]:
            lines.append(f"  error: {e['place']} {'holds' if e['holds'] else 'lacks'} {e['card']} ({e['why']})")
    return "\n".join(lines)


def main(path: str, as_json: bool) -> int:
    report = referee(read_transcript(path))
    print(json.dumps(report, indent=2, ensure_ascii=False) if as_json else text(report))
    return 0


def transcript_schema() -> dict[str, Any]:
    """The JSON Schema of one transcript line."""
    names = {"type": "array", "items": {"type": "string"}}
    triple = {**names, "minItems": 3, "maxItems": 3}
    player = {"type": "string"}

    def line(kind: str, required: Sequence[str], properties: dict[str, Any], description: str) -> dict[str, Any]:
        return {"type": "object", "description": description, "required": ["type", *required],
                "properties": {"type": {"const": kind}, **properties}}

    deck = {"oneOf": [{"enum": list(NAMED_DECKS)},
                      {"type": "object", "required": ["suspects", "weapons", "rooms"],
                       "properties": {k: names for k in ("suspects", "weapons", "rooms")}}]}
    fact = {"type": "object", "required": ["card", "place", "holds"],
            "properties": {"card": {"type": "string"}, "place": {"type": "string", "description": "a player or "
                                                                                               "'envelope'"},
                           "holds": {"type": "boolean"}}}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "sleuth: one line of a Clue game transcript (JSON lines; the first is the game line)",
            "oneOf": [
                line("game", ["game", "players"], {
                    "game": {"const": "clue"}, "format": {"const": "sleuth-clue-transcript"},
                    "version": {"const": 1}, "deck": deck, "players": names,
                    "hand_sizes": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                    "bots": names, "seed": {"type": "integer"}}, "first line: the deck and the seats"),
                line("deal", [], {"hands": {"type": "object", "additionalProperties": names},
                                  "envelope": {"oneOf": [triple, {"type": "null"}]}},
                     "the hands known (all, or some) and the envelope"),
                line("suggestion", ["by", "cards"], {
                    "turn": {"type": "integer"}, "by": player, "cards": triple,
                    "shown_by": {"type": ["string", "null"]},
                    "card": {"type": ["string", "null"], "description": "the card shown, when known"}},
                     "a suggestion as the table saw it"),
                line("accusation", ["by", "cards", "correct"], {
                    "turn": {"type": "integer"}, "by": player, "cards": triple, "correct": {"type": "boolean"},
                    "certain": {"type": "boolean", "description": "the accuser said it was certain"}},
                     "an accusation and whether it was right"),
                line("forfeit", ["player"], {"player": player, "reason": {"type": "string"}},
                     "a player out of the game without accusing (an outside bot that failed)"),
                line("deduction", ["by", "facts"], {"by": player, "facts": {"type": "array", "items": fact}},
                     "facts a player states they know at this point"),
                line("end", [], {"winner": {"type": ["string", "null"]}, "turns": {"type": "integer"},
                                 "reason": {"type": "string"}}, "the end of the game")]}


def documents() -> dict[str, dict[str, Any]]:
    """The Clue documents ``sleuth schema clue NAME`` prints."""
    return {"transcript": transcript_schema(), "bot-request": request_schema(), "bot-reply": reply_schema()}
