"""Clue as a sleuth puzzle: ``solve`` (knowledge sheet, probabilities), ``verify`` (claims), ``suggest``."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from sleuth.errors import PuzzleError
from sleuth.puzzle import Puzzle, PuzzleDoc
from sleuth.results import ClaimResult, ClaimSpec, Report, Status
from sleuth.schema import fold
from sleuth.errors import UnknownNameError

from .counting import Counts, Problem, count_deals
from .game import CATEGORIES, Game, Obs, parse_game
from .model import ClueModel, build_model
from .rules import apply_rules
from .sheet import Mark, Sheet, backbone_sheet, counted_sheet, exact_sheet, naive_sheet

METHODS = ("count", "backbone", "naive", "rules")
_CLAIM = re.compile(r"^\s*(not\s+)?(.+?)\s+(holds|lacks)\s+(.+?)\s*$", re.IGNORECASE)


class CluePuzzle(Puzzle):
    def __init__(self, doc: PuzzleDoc, game: Game) -> None:
        super().__init__(doc)
        self.state = game

    def option_choice(self, value: object, choices: Sequence[str], kind: str, place: str) -> str:
        for c in choices:
            if isinstance(value, str) and fold(value) == fold(c):
                return c
        raise UnknownNameError(kind, value, choices, file=self.doc.file, place=place)

    # -- pieces ---------------------------------------------------------------------------------------
    def observations(self) -> list[Obs]:
        return self.state.observations()

    def problem(self) -> Problem:
        return Problem.from_observations(self.state, self.observations())

    def counts(self, *, triples: bool = False) -> Counts:
        return count_deals(self.problem(), triples=triples)

    def clue_model(self) -> ClueModel:
        return build_model(self.state, self.observations())

    def sheet(self, method: str = "count", backend: str = "cpsat") -> Sheet:
        return self.sheet_and_method(method, backend)[0]

    def sheet_and_method(self, method: str = "count", backend: str = "cpsat",
                         time_limit: float | None = None) -> tuple[Sheet, str]:
        """The sheet and the method that produced it (count falls back to the backbone past its budget)."""
        if method == "count" and backend == "cpsat":
            return exact_sheet(self.problem(), self.clue_model)
        return self._sheet(method, backend, time_limit), method if method != "count" else "backbone"

    def _sheet(self, method: str, backend: str, time_limit: float | None = None) -> Sheet:
        if method == "rules":
            return apply_rules(self.state, self.observations()).sheet
        if method == "naive":
            return naive_sheet(self.clue_model(), backend)
        return backbone_sheet(self.clue_model(), backend, time_limit)

    def conflict(self, backend: str = "cpsat") -> tuple[str, ...]:
        return self.clue_model().engine(backend).conflict() or ()

    # -- solve --------------------------------------------------------------------------------------------
    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        opts = self.reject_options(options, ["probabilities", "method", "plot", "time-limit"])
        method = self.option_choice(opts.get("method", "count"), METHODS, "method", "--method")
        if method == "rules" and opts.get("plot"):
            raise PuzzleError("--plot draws the exact probabilities, which --method rules does not compute",
                              file=self.doc.file, place="--plot", allowed="--plot without --method rules")
        game = self.state
        fields: dict[str, Any] = {"viewer": game.players[game.viewer] if game.viewer is not None else None}
        counts = None
        if method == "rules":
            result = apply_rules(game, self.observations())
            sheet = result.sheet
            fields["facts"] = [{"card": game.card(f.card), "place": game.places[f.place],
                                "value": "yes" if f.value else "no", "rule": f.rule, "because": f.because}
                               for f in result.facts]
        elif opts.get("probabilities") or opts.get("plot"):
            counts = self.counts(triples=True)
            sheet = counted_sheet(counts)
        else:
            sheet, method = self.sheet_and_method(method, backend, opts.get("time-limit"))
        if not sheet.consistent:
            return Report(self.game, Status.CONTRADICTION, fields, conflict=self.conflict(backend))
        fields["method"] = method
        fields["sheet"] = sheet.to_json(game)
        fields["envelope"] = sheet.envelope(game)
        probs = None
        if counts is not None:
            probs = probability_table(game, counts)
            fields["deals"] = counts.total
            fields["probabilities"] = {card: {place: p for place, p in row.items()} for card, row in probs.items()}
            fields["envelope_probabilities"] = envelope_table(game, counts)
        if probs is not None and opts.get("plot"):
            from .plot import plot_probabilities

            who = "an outside observer" if game.viewer is None else game.players[game.viewer]
            plot_probabilities(opts["plot"], probs, f"{self.title or 'Clue'}\ncell probabilities seen by {who}, "
                               f"{counts.total} consistent deals", tuple(len(c) for c in game.deck.categories))
        text = render_grid(game, sheet, probs)
        if method == "rules":
            text += "\n\nRules engine (the seed's rules; may know less than the exact sheet):\n"
            text += "\n".join("  " + f.text(game) for f in result.facts if f.rule != "observation")
        if counts is not None:
            text += f"\n\nConsistent deals: {counts.total}\nMost likely envelopes:\n"
            text += "\n".join(f"  {row['p']!s:>12}  {row['suspect']}, {row['weapon']}, {row['room']}"
                              for row in fields["envelope_probabilities"][:5])
        return Report(self.game, Status.OK, fields, text)

    # -- verify --------------------------------------------------------------------------------------------
    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        opts = self.reject_options(options, ["time-limit"])
        cm = self.clue_model()
        parsed = [(spec, self.parse_claim(spec)) for spec in claims]
        engine = cm.engine(backend, opts.get("time-limit"))
        results = []
        for spec, (card, place, positive) in parsed:
            lit = cm.lit(card, place)
            results.append(engine.verify(lit if positive else ~lit, spec.text, spec.expect, world=cm.deal))
        return results

    def parse_claim(self, spec: ClaimSpec) -> tuple[int, int, bool]:
        """``[not ]<player>|envelope holds|lacks <card>`` as (card, place, positive)."""
        match = _CLAIM.match(spec.text)
        allowed = "'<player> holds <card>', '<player> lacks <card>', 'envelope holds <card>', " \
                  "'envelope lacks <card>', each optionally prefixed by 'not '"
        if not match:
            raise PuzzleError(f"cannot read claim {spec.text!r}", file=self.doc.file, place=spec.place,
                              allowed=allowed)
        negated, who, verb, card_name = match.groups()
        game = self.state
        places = {p.casefold(): i for i, p in enumerate(game.places)}
        place = places.get(who.strip().casefold())
        if place is None:
            raise PuzzleError(f"unknown player {who!r}", file=self.doc.file, place=spec.place,
                              allowed=list(game.places))
        try:
            card = game.card_names.index(card_name)
        except PuzzleError as exc:
            raise PuzzleError(exc.message, file=self.doc.file, place=spec.place, allowed=exc.allowed) from None
        positive = (verb.lower() == "holds") != bool(negated)
        return card, place, positive

    # -- suggest ------------------------------------------------------------------------------------------
    def suggest(self, *, method: str | None = None, options: Mapping[str, Any] | None = None) -> Report:
        from .suggest import suggest_report
        opts = self.reject_options(options, ["room", "by", "samples", "seed", "top"])
        self.option_choice(method or "information", ["information"], "method", "--method")
        return suggest_report(self, opts)


def probability_table(game: Game, counts: Counts) -> dict[str, dict[str, Fraction]]:
    places = game.places
    return {game.card(c): {places[q]: counts.probability(c, q) for q in range(len(places))}
            for c in range(len(game.deck))}


def envelope_table(game: Game, counts: Counts) -> list[dict[str, Any]]:
    rows = [{"suspect": game.card(s), "weapon": game.card(w), "room": game.card(r),
             "p": Fraction(k, counts.total)}
            for (s, w, r), k in (counts.triples or {}).items() if k]
    rows.sort(key=lambda row: (-row["p"], row["suspect"], row["weapon"], row["room"]))
    return rows


SYMBOL = {Mark.YES: "✓", Mark.NO: "✗", Mark.MAYBE: "·"}


def render_grid(game: Game, sheet: Sheet, probs: Mapping[str, Mapping[str, Fraction]] | None = None) -> str:
    """The sheet as players draw it: cards by category down, players and the envelope across."""
    heads = [p[:8] for p in game.players] + ["Envelope"]
    width = max(4, *(len(h) for h in heads)) + 2
    name_w = max(len(c) for c in game.deck.cards) + 2
    lines = []
    title = "Knowledge sheet" + (f" of {game.players[game.viewer]}" if game.viewer is not None
                                  else " (outside observer)")
    lines.append(title)
    for k, cat in enumerate(CATEGORIES):
        lines.append("")
        lines.append(f"{cat.title() + 's':<{name_w}}" + "".join(f"{h:>{width}}" for h in heads))
        for c in game.deck.members(k):
            cells = []
            for q, mark in enumerate(sheet.marks[c]):
                cell = SYMBOL[mark]
                if probs is not None and mark is Mark.MAYBE:
                    cell = f"{float(probs[game.card(c)][game.places[q]]):.2f}"
                cells.append(f"{cell:>{width}}")
            lines.append(f"{game.card(c):<{name_w}}" + "".join(cells))
    env = sheet.envelope(game)
    lines.append("")
    lines.append("Envelope: " + ", ".join(f"{k} {v if v else '?'}" for k, v in env.items()))
    lines.append("✓ holds   ✗ does not hold   · unknown" + ("   (numbers: probability)" if probs else ""))
    return "\n".join(lines)


def load(doc: PuzzleDoc) -> CluePuzzle:
    return CluePuzzle(doc, parse_game(doc.section, doc.viewer))
