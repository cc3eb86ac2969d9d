"""Clue as a sleuth puzzle: ``solve`` (knowledge sheet, probabilities), ``verify`` (claims), ``suggest``."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from dataclasses import dataclass, replace

from sleuth.derive import Choice, NotServed, find_derivation, handlers
from sleuth.errors import InternalError, PuzzleError
from sleuth.limits import TooLarge, max_items
from sleuth.names import NAME, unquote
from sleuth.puzzle import Puzzle, PuzzleDoc
from sleuth.model import Lit
from sleuth.results import Labelled, ClaimResult, ClaimSpec, Report, Status, Verdict, optional, decimal
from sleuth.schema import Names, fold

from .counting import Counts, Problem, count_deals
from .game import GAME
from .state import CATEGORIES, ClueState, Obs, read_state
from .model import ClueModel, build_model, enumerated_counts
from .others import PARTS, chances_others_know
from .rules import apply_rules
from .sheet import Mark, Sheet, backbone_sheet, counted_sheet, exact_sheet, naive_sheet

_CLAIM = re.compile(rf"^\s*(not\s+)?({NAME})\s+(holds|lacks)\s+({NAME})\s*$", re.IGNORECASE)
_KNOWS = re.compile(rf"^\s*(not\s+)?({NAME})\s+(knows|may\s+know)\s+the\s+(envelope|suspect|weapon|room)\s*$",
                    re.IGNORECASE)


ANSWERED = (Verdict.ENTAILED, Verdict.REFUTED, Verdict.OPEN)


class Holding(NamedTuple):
    """A read holds/lacks claim: whether ``place`` holds ``card`` (``positive``) or lacks it."""

    card: int
    place: int
    positive: bool


class Knowing(NamedTuple):
    """A read knows/may-know claim: does ``player`` know ``part`` (in every world, or with ``may`` some)."""

    player: int
    part: str
    may: bool
    negated: bool


@dataclass(frozen=True)
class ClueAnswer(Labelled):
    """Clue's answer: the knowledge sheet and the envelope, with the exact counts when asked for."""

    viewer: str | None
    sheet: Mapping[str, Mapping[str, Mark]]                  # card -> place -> yes / no / maybe
    envelope: Mapping[str, str | None]                        # suspect, weapon, room (None: not known)
    deals: int | None = optional()                            # --probabilities: consistent deals
    probabilities: Mapping[str, Mapping[str, Fraction]] | None = optional()
    envelope_probabilities: Sequence[Mapping[str, Any]] | None = optional()
    facts: Sequence[Mapping[str, Any]] | None = optional()    # --method rules: each fact and its rule
    others: Mapping[str, Mapping[str, Fraction]] | None = optional()  # --others


class CluePuzzle(Puzzle):
    def __init__(self, doc: PuzzleDoc, game: ClueState) -> None:
        super().__init__(doc)
        self.state = game

    # -- pieces ---------------------------------------------------------------------------------------
    def observations(self) -> list[Obs]:
        return self.state.observations()

    def problem(self) -> Problem:
        return Problem.from_observations(self.state, self.observations())

    def counts(self, *, triples: bool = False, options: Mapping[str, Any] | None = None) -> Counts:
        return count_deals(self.problem(), triples=triples, options=options)

    def clue_model(self) -> ClueModel:
        return build_model(self.state, self.observations())

    def sheet(self, method: str = "count", backend: str = "cpsat", time_limit: float | None = None) -> Sheet:
        """The sheet by ``method`` (count, model, naive, rules); count falls back to the model's backbone."""
        return _SHEETS[find_derivation(self.doc.game.methods, method).name](self, backend, time_limit)

    def conflict(self, backend: str = "cpsat") -> tuple[str, ...]:
        return self.clue_model().engine(backend).conflict() or ()

    # -- solve --------------------------------------------------------------------------------------------
    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        opts = dict(options or {})
        choice = self.derivation(opts, backend)
        method = choice.name
        others = self.flag(opts.get("others", False), "--others")
        wants_counts = bool(opts.get("probabilities") or opts.get("plot"))
        if wants_counts and method not in _COUNTS:
            raise NotServed(f"--method {method} derives the sheet only, not the exact probabilities",
                            file=self.doc.file, place="--probabilities" if opts.get("probabilities") else "--plot",
                            allowed="--method count or model")
        game = self.state
        fields: dict[str, Any] = {"viewer": game.players[game.viewer] if game.viewer is not None else None}
        counts = None
        result = apply_rules(game, self.observations()) if method in _FACTS else None
        if result is not None:
            sheet = result.sheet
            fields["facts"] = [{"card": game.card(f.card), "place": game.places[f.place],
                                "value": "yes" if f.value else "no", "rule": f.rule, "because": f.because}
                               for f in result.facts]
        elif wants_counts:
            counts = _COUNTS[method](self, backend, opts)
            sheet = counted_sheet(counts)
        elif method in _FALLS_BACK:
            sheet, used = exact_sheet(self.problem(), self.clue_model, opts)
            if used != "count":
                self.doc.note("the counting outgrew the memory budget (SLEUTH_MEMORY_BUDGET / --set max_worlds): "
                              "the sheet is the model's backbone (CP-SAT)", "--method")
                choice = Choice(find_derivation(self.doc.game.methods, "model"), "cpsat")
        else:
            sheet = self.sheet(method, backend, opts.get("time-limit"))
        if not sheet.consistent:
            return Report(self.game, Status.CONTRADICTION, fields, conflict=self.conflict(backend))
        fields.update(choice.fields())
        fields["sheet"] = sheet.table(game)
        fields["envelope"] = sheet.envelope(game)
        probs = None
        if counts is not None:
            probs = probability_table(game, counts)
            fields["deals"] = counts.total
            fields["probabilities"] = {card: {place: p for place, p in row.items()} for card, row in probs.items()}
            fields["envelope_probabilities"] = envelope_table(game, counts)
            if opts.get("plot"):
                from .plot import plot_probabilities

                who = "an outside observer" if game.viewer is None else game.players[game.viewer]
                plot_probabilities(opts["plot"], probs, f"{self.title or 'Clue'}\ncell probabilities seen by "
                                   f"{who}, {counts.total} consistent deals",
                                   tuple(len(c) for c in game.deck.categories))
        text = render_grid(game, sheet, probs)
        if result is not None:
            text += "\n\nRules engine (the source paper's rules; may know less than the exact sheet):\n"
            text += "\n".join("  " + f.text(game) for f in result.facts if f.rule != "observation")
        if counts is not None:
            text += f"\n\nConsistent deals: {counts.total:,}\nMost likely envelopes:\n"
            text += "\n".join(f"  {decimal(row['p']):>8}  {row['suspect']}, {row['weapon']}, {row['room']}"
                              for row in fields["envelope_probabilities"][:5])
            rest = len(fields["envelope_probabilities"]) - 5
            if rest > 0:
                text += f"\n  ... {rest} more envelopes (--json lists them all, with exact probabilities)"
        if others:
            text += "\n\n" + self._others(fields)
        return Report.of(self.game, ClueAnswer(**fields), text)

    def _others(self, fields: dict[str, Any]) -> str:
        """Adds ``others`` (and a note for each player who may already be able to accuse); returns the text."""
        game = self.state
        table = chances_others_know(game)
        fields["others"] = {game.players[p]: row for p, row in table.items()}
        for p, row in table.items():
            if row["envelope"] > 0:
                self.doc.note(f"{game.players[p]} may already be able to accuse: knows the envelope with "
                              f"probability {decimal(row['envelope'])}")
        who = f"{game.players[game.viewer]}'s" if game.viewer is not None else "an outside observer's"
        lines = [f"What the others know (exact probabilities, from {who} side):",
                 f"  {'player':<12} {'envelope':>10} {'suspect':>10} {'weapon':>10} {'room':>10}"]
        for p, row in table.items():
            lines.append(f"  {game.players[p]:<12} " + " ".join(f"{decimal(row[part]):>10}" for part in PARTS))
        return "\n".join(lines)

    # -- verify --------------------------------------------------------------------------------------------
    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        opts = dict(options or {})
        cm = self._claim_model = self.clue_model()
        read = [self.read_claim(spec) for spec in claims]
        engine = cm.engine(backend, opts.get("time-limit"))
        results = []
        known: dict[int, dict[str, Fraction]] = {}
        for spec, claim in zip(claims, read, strict=True):
            if isinstance(claim, Knowing):
                results.append(self._verify_knows(spec, claim, known))
            else:
                lit = claim if isinstance(claim, Lit) else self._holding_lit(claim)
                result = engine.verify(lit, spec.text, spec.expect, world=cm.deal)
                if isinstance(claim, Holding) and spec.expect is None and result.verdict in ANSWERED:
                    result = replace(result, probability=self._holding_probability(claim, opts))
                results.append(result)
        return results

    def _holding_probability(self, claim: Holding, opts: Mapping[str, Any]) -> Fraction | None:
        """The exact chance of a holds/lacks claim over the consistent deals (None past the counting's budget)."""
        try:
            p = self.counts(options=opts).probability(claim.card, claim.place)
        except TooLarge:
            self.doc.note("no probability: the counting outgrew the memory budget (SLEUTH_MEMORY_BUDGET)")
            return None
        return p if claim.positive else 1 - p

    def render_world(self, world: Any) -> str:
        """A deal: each hand in seat order, then the envelope."""
        if not isinstance(world, Mapping):
            return super().render_world(world)
        hands: dict[str, list[str]] = {place: [] for place in (*self.state.players, "envelope")}
        for card, place in world.items():
            hands.setdefault(str(place), []).append(str(card))
        return "\n".join(f"{place}: {', '.join(cards)}" for place, cards in hands.items())

    def _holding_lit(self, claim: Holding) -> Lit:
        """The literal of a holds/lacks claim in the claim model."""
        atom = self._claim_model.lit(claim.card, claim.place)
        return atom if claim.positive else ~atom

    def read_claim(self, spec: ClaimSpec) -> Holding | Knowing | Lit:
        """One claim (sleuth.claims): a single atom as its parsed tuple, a combined claim as a model literal."""
        from sleuth import claims   # the claim language: imported by verify alone (15-20 ms of a command's start)

        def atom(text: str) -> Holding | Knowing:
            one = replace(spec, text=text)
            return self.parse_knows(one) or self.parse_claim(one)

        claim, payload = claims.read(spec.text, atom, claims.normalise_holding, file=self.doc.file,
                                     place=spec.place)
        if isinstance(claim, claims.Atom):
            return payload[claim]
        if any(isinstance(p, Knowing) for p in payload.values()):
            raise PuzzleError("'knows' claims are judged one at a time; 'and', 'or' combine holds/lacks claims",
                              file=self.doc.file, place=spec.place)

        def lit(a: claims.Atom) -> Lit:
            held = payload[a]
            if not isinstance(held, Holding):
                raise InternalError(f"claim atom {a.text!r} is not a holds/lacks claim")
            return self._holding_lit(held)

        return claims.to_lit(self._claim_model.model, claim, lit)

    def parse_knows(self, spec: ClaimSpec) -> Knowing | None:
        """``[not ]<player> knows|may know the envelope|suspect|weapon|room`` as (player, part, may,
        negated); None when the claim has another form."""
        match = _KNOWS.match(spec.text)
        if not match:
            return None
        negated, who, verb, part = match.groups()
        try:
            player = Names("player", self.state.players).index(unquote(who.strip()))
        except PuzzleError as exc:
            raise PuzzleError(exc.message, file=self.doc.file, place=spec.place, allowed=exc.allowed) from None
        return Knowing(player, part.casefold(), verb.casefold() != "knows", bool(negated))

    def _verify_knows(self, spec: ClaimSpec, claim: Knowing,
                      known: dict[int, dict[str, Fraction]]) -> ClaimResult:
        """Knows: in every world of the viewer; may know: in some world (exact probabilities)."""
        player, part, may, negated = claim
        if player not in known:
            known[player] = chances_others_know(self.state, [player])[player]
        p = known[player][part]
        if self.counts().total == 0:
            return ClaimResult(spec.text, Verdict.CONTRADICTION, expect=spec.expect)
        # "may know" holds in every world of the viewer as soon as the player knows in some world
        from sleuth.claims import verdict_of

        verdict = verdict_of(Fraction(p > 0) if may else p, negated=negated)
        name = self.state.players[player]
        return ClaimResult(spec.text, verdict, expect=spec.expect,
                           detail=f"probability that {name} knows the {part}: {p}")

    def parse_claim(self, spec: ClaimSpec) -> Holding:
        """``[not ]<player>|envelope holds|lacks <card>`` as (card, place, positive)."""
        match = _CLAIM.match(spec.text)
        allowed = "'<player> holds <card>', '<player> lacks <card>', 'envelope holds <card>', " \
                  "'envelope lacks <card>', '<player> knows the envelope|suspect|weapon|room', " \
                  "'<player> may know the ...', each optionally prefixed by 'not '; a name with spaces or a " \
                  "word of the claim in \"double quotes\""
        if not match:
            raise PuzzleError(f"cannot read claim {spec.text!r}", file=self.doc.file, place=spec.place,
                              allowed=allowed)
        negated, who, verb, card_name = match.groups()
        who, card_name = unquote(who), unquote(card_name)
        game = self.state
        places = {fold(p): i for i, p in enumerate(game.places)}
        place = places.get(fold(who))
        if place is None:
            raise PuzzleError(f"unknown player {who!r}", file=self.doc.file, place=spec.place,
                              allowed=list(game.places))
        try:
            card = game.card_names.index(card_name)
        except PuzzleError as exc:
            raise PuzzleError(exc.message, file=self.doc.file, place=spec.place, allowed=exc.allowed) from None
        positive = (verb.lower() == "holds") != bool(negated)
        return Holding(card, place, positive)

    # -- suggest ------------------------------------------------------------------------------------------
    def suggest(self, *, method: str | None = None, options: Mapping[str, Any] | None = None) -> Report:
        from .suggest import suggest_report
        opts = dict(options or {})
        chosen = self.doc.game.suggest_method(method).name  # checked by the engine against the declaration
        if "show" in opts:
            from .suggest import show_report
            return show_report(self, opts)
        return suggest_report(self, opts, chosen)


def _model_counts(puzzle: CluePuzzle, backend: str, opts: Mapping[str, Any]) -> Counts:
    places, deck = puzzle.state.places, puzzle.state.deck
    return enumerated_counts(puzzle.clue_model(), backend, limit=max_items(opts, 64 * len(places) * len(deck)),
                             time_limit=opts.get("time-limit"))


# Clue's code for each registered derivation (models/clue/game.py): the sheet; the exact counts (--probabilities,
# --plot: rules and naive derive the sheet only); the facts and their rules; the one that falls back to the
# model's backbone past its memory budget (with a note).
_SHEETS: Mapping[str, Callable[[CluePuzzle, str, float | None], Sheet]] = handlers(GAME.methods, {
    "count": lambda p, backend, time_limit: exact_sheet(p.problem(), p.clue_model)[0],
    "model": lambda p, backend, time_limit: backbone_sheet(p.clue_model(), backend, time_limit),
    "naive": lambda p, backend, time_limit: naive_sheet(p.clue_model(), backend),
    "rules": lambda p, backend, time_limit: apply_rules(p.state, p.observations()).sheet})
_COUNTS: Mapping[str, Callable[[CluePuzzle, str, Mapping[str, Any]], Counts]] = handlers(GAME.methods, {
    "count": lambda p, backend, opts: p.counts(triples=True, options=opts), "model": _model_counts})
_FACTS = handlers(GAME.methods, {"rules": True})
_FALLS_BACK = handlers(GAME.methods, {"count": True})


def probability_table(game: ClueState, counts: Counts) -> dict[str, dict[str, Fraction]]:
    places = game.places
    return {game.card(c): {places[q]: counts.probability(c, q) for q in range(len(places))}
            for c in range(len(game.deck))}


def envelope_table(game: ClueState, counts: Counts) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [{"suspect": game.card(s), "weapon": game.card(w), "room": game.card(r),
                                   "p": Fraction(k, counts.total)}
                                  for (s, w, r), k in (counts.triples or {}).items() if k]
    rows.sort(key=lambda row: (-row["p"], row["suspect"], row["weapon"], row["room"]))
    return rows


SYMBOL = {Mark.YES: "✓", Mark.NO: "✗", Mark.MAYBE: "·"}


def render_grid(game: ClueState, sheet: Sheet, probs: Mapping[str, Mapping[str, Fraction]] | None = None) -> str:
    """The sheet as players draw it: cards by category down, players and the envelope across."""
    name_w = max(len(c) for c in game.deck.cards) + 2
    full = [*game.players, "Envelope"]
    width = min(max(4, *(len(h) for h in full)) + 2, max(6, (PAGE_WIDTH - name_w) // len(full)))
    heads = abbreviations(full, width - 1)
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
                    cell = decimal(probs[game.card(c)][game.places[q]])
                cells.append(f"{cell:>{width}}")
            lines.append(f"{game.card(c):<{name_w}}" + "".join(cells))
    env = sheet.envelope(game)
    lines.append("")
    lines.append("Envelope: " + ", ".join(f"{k} {v if v else '?'}" for k, v in env.items()))
    lines.append("✓ holds   ✗ does not hold   · unknown" + ("   (numbers: probability)" if probs else ""))
    short = [f"{h} = {f}" for h, f in zip(heads, full, strict=True) if h != f]
    if short:
        lines.append("Columns: " + ", ".join(short))
    return "\n".join(lines)


PAGE_WIDTH = 80  # the grid fits a standard terminal: player columns are abbreviated when needed


def abbreviations(names: Sequence[str], room: int) -> list[str]:
    """Distinct column heads of at most ``room`` characters (a name that fits is kept as it is)."""
    heads = [n if len(n) <= room else n[: room - 1] + "." for n in names]
    for i, h in enumerate(heads):
        if heads.count(h) > 1:  # same prefix: keep the start and number them
            heads[i] = f"{names[i][: max(1, room - 2)]}{i + 1}"[-room:] if room > 2 else str(i + 1)
    return heads


def load(doc: PuzzleDoc) -> CluePuzzle:
    game = read_state(doc)
    note_ignored(game, doc)
    return CluePuzzle(doc, game)


def note_ignored(game: ClueState, doc: PuzzleDoc) -> None:
    """Notes for what the viewer's observations leave out: a short own hand, hands and shown cards not seen."""
    v = game.viewer
    if v is None:
        return
    name = game.players[v]
    listed, size = len(game.hands[v]), game.hand_sizes[v]
    if listed < size:
        doc.note(f"the viewer {name}'s own hand lists {listed} of {size} cards; the others are treated as unknown",
                 f"hands.{name}")
    if v != game.file_viewer:
        for p, hand in enumerate(game.hands):
            if hand and p != v:
                doc.note(f"ignored for viewer {name}: these are the cards the file's viewer saw, not {name}'s",
                         f"hands.{game.players[p]}")
    unseen = [k + 1 for k, s in enumerate(game.suggestions)
              if s.card is not None and s.shown_by is not None and v not in (s.by, s.shown_by)]
    if unseen:
        doc.note(f"{len(unseen)} shown card(s) ignored for viewer {name}, who saw neither side of those showings; "
                 "only 'a card was shown' is used", "suggestion[" + ", ".join(map(str, unseen)) + "].card")
    for k in unseen:
        card = game.suggestions[k - 1].card
        if card in game.hands[v]:
            doc.note(f"the ignored shown card {game.card(card)} is in {name}'s own hand: the file contradicts "
                     "itself", f"suggestion[{k}].card")
