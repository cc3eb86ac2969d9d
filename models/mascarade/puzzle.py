"""The Mascarade puzzle: ``sleuth solve`` (a viewer's belief, knowledge of others) and ``sleuth verify``."""

from __future__ import annotations

import dataclasses
from dataclasses import replace
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sleuth.names import NAME, unquote
from sleuth.backends import backend_class
from sleuth.engine import Engine
from sleuth.model import Lit
from sleuth.limits import MAX_WORLDS_KEY, LimitReached
from sleuth.claims import Atom, Claim, is_compound, normalise_holding, to_lit, verdict_of
from sleuth.claims import read as read_claim
from sleuth.derive import Choice
from sleuth.errors import InternalError, PuzzleError
from sleuth.puzzle import Puzzle, PuzzleDoc
from sleuth.results import Labelled, optional, ClaimResult, ClaimSpec, Report, Status, Verdict, decimal
from sleuth.schema import Names, Section, parse_fraction

from .analysis import (DEFAULT_CPSAT_LIMIT, BeliefResult, OwnCard, belief, minimal_observations, own_card_beliefs,
                       own_card, replay)
from .components import DEFAULT_TREE_CAP, ComponentBelief, Method, ComponentLimit
from .model import MascaradeModel, build_model, holds_lit
from .state import MascaradeState, format_placement, read_state
from .nested import nested

DEFAULT_MAX_STATES = 6_000_000           # measured peak: 624 MB for a component of this size
_P_CLAIM = re.compile(rf"^\s*P\s*\(\s*(?P<who>{NAME})\s+holds\s+(?P<card>{NAME})\s*\)\s*(?P<op>==|=|!=|<=|>=|<|>)"
                      r"\s*(?P<value>\S+)\s*$", re.IGNORECASE)
_HOLDS = re.compile(rf"^\s*(?P<neg>not\s+)?(?P<who>{NAME})\s+(?P<verb>holds|lacks)\s+(?P<card>{NAME})\s*$",
                    re.IGNORECASE)
_KNOWS = re.compile(rf"^\s*(?P<neg>not\s+)?(?P<who>{NAME})\s+knows\s+(?:their|own|his|her)\s+(?:own\s+)?card\s*$",
                    re.IGNORECASE)
_NESTED = re.compile(r"^\s*P\s*\(\s*(?P<who>.+?)\s+(?:(?P<knows>knows\s+(?:their|own|his|her)\s+(?:own\s+)?card)"
                     r"|believes\s+(?P<pos>.+?)\s+holds\s+(?P<card>.+?))\s*\)\s*(?P<op>==|=|!=|<=|>=|<|>)"
                     r"\s*(?P<value>\S+)\s*$", re.IGNORECASE)
_MAY = re.compile(r"^\s*(?P<neg>not\s+)?(?P<who>.+?)\s+may\s+know\s+(?:their|own|his|her)\s+(?:own\s+)?card\s*$",
                  re.IGNORECASE)
_OPS = {"=": Fraction.__eq__, "==": Fraction.__eq__, "!=": Fraction.__ne__, "<": Fraction.__lt__,
        "<=": Fraction.__le__, ">": Fraction.__gt__, ">=": Fraction.__ge__}


@dataclass(frozen=True)
class Settings:
    method: Method
    prior: Fraction
    max_states: int
    tree_cap: int
    cpsat_limit: int
    knowledge: bool
    others: bool
    choice: Choice  # the derivation --method picked


@dataclass(frozen=True)
class MascaradeAnswer(Labelled):
    """Mascarade's answer: the viewer's exact belief over the placements, and what it implies."""

    viewer: str
    marginals: Mapping[str, Mapping[str, Fraction]]      # position -> card -> P
    support: int | None                                  # placements with P > 0 (None: the matrix)
    certain: Mapping[str, str]                           # positions whose card is sure
    components: Sequence[Sequence[str]]                  # positions mixed together
    note: str | None = optional()
    swaps: Mapping[str, Fraction] | None = optional()    # tree: P(each unknown swap happened)
    histories: int | None = optional()                   # model: consistent histories
    knowledge: Mapping[str, Any] | None = optional()     # each player's belief about their own card
    knows_own_card: Sequence[str] | None = optional()
    others: Mapping[str, Any] | None = optional()        # --others: the viewer's view of each player's beliefs
    others_reason: str | None = optional()               # --others: why it was not computed
    safe_claims: Sequence[str] | None = optional()


class MascaradePuzzle(Puzzle):

    def __init__(self, doc: PuzzleDoc, game: MascaradeState) -> None:
        super().__init__(doc)
        self.state = game
        self.viewer: int | None = None
        if doc.viewer is not None:
            self.viewer = Names("player", game.players).index(doc.viewer, doc.section, "viewer")

    # -- options -------------------------------------------------------------------------------------
    def settings(self, options: Mapping[str, Any] | None, backend: str = "cpsat") -> Settings:
        opts = dict(options or {})
        choice = self.derivation(opts, backend)
        method = _METHOD_OF.get(choice.name) or Method(choice.name)
        prior = self.fraction(opts, "swap_probability", self.state.swap_probability, 0, 1)
        most = 10 ** 9
        states = self.integer(opts, "max_states", self.integer(opts, MAX_WORLDS_KEY, DEFAULT_MAX_STATES, 1, most), 1,
                              most)  # max_worlds: the one name every game takes
        return Settings(method, prior, states, self.integer(opts, "tree_cap", DEFAULT_TREE_CAP, 1, most),
                        self.integer(opts, "cpsat_limit", DEFAULT_CPSAT_LIMIT, 1, most),
                        self.flag(opts.get("knowledge", True), "--set knowledge"),
                        self.flag(opts.get("others", False), "--set others"), choice)

    def _game(self, s: Settings) -> MascaradeState:
        if s.prior == self.state.swap_probability:
            return self.state
        return dataclasses.replace(self.state, swap_probability=s.prior)

    def _belief(self, s: Settings, viewer: int | None, backend: str = "cpsat") -> BeliefResult:
        return belief(self._game(s), viewer, s.method, backend=backend, tree_cap=s.tree_cap,
                      max_rows=s.max_states, cpsat_limit=s.cpsat_limit)

    def _conflict(self, s: Settings, backend: str) -> tuple[str, ...]:
        """A minimal set of the viewer's observations that admit no placement."""
        g = self._game(s)
        steps = g.steps_for(self.viewer)
        if _uses_cpsat(backend):
            return Engine(build_model(g.initial, steps, s.prior, g.positions).model, backend).conflict() or ()
        return minimal_observations(g.initial, steps, s.prior, lambda b: not b.consistent).names

    # -- solve ---------------------------------------------------------------------------------------
    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        s = self.settings(options, backend)
        g = self._game(s)
        viewer_name = g.players[self.viewer] if self.viewer is not None else "observer"
        try:
            result = self._belief(s, self.viewer, backend)
        except LimitReached as exc:
            text = f"{viewer_name}'s belief was not computed: {exc}. Raise --set max_worlds (alias max_states) / " \
                   "cpsat_limit, or use --method auto."
            return Report(self.game_name, Status.TIMEOUT, {"viewer": viewer_name, **s.choice.fields(),
                                                           "reason": str(exc)}, text)
        if not result.consistent:
            return Report(self.game_name, Status.CONTRADICTION, {"viewer": viewer_name}, "",
                          self._conflict(s, backend))
        C = g.identities
        marginals = {pos: {card: result.p(i, c) for c, card in enumerate(C)} for i, pos in enumerate(g.positions)}
        fields: dict[str, Any] = {
            "viewer": viewer_name, **s.choice.fields(), "exact": result.exact,
            "marginals": marginals, "support": result.support,
            "certain": {pos: C[c] for i, pos in enumerate(g.positions) if (c := result.certain(i)) is not None},
            "components": [[g.positions[p] for p in comp] for comp in result.components],
        }
        if result.note:
            fields["note"] = result.note
        if result.swap_posteriors is not None:
            fields["swaps"] = {f"event {e}": p for e, p in result.swap_posteriors.items()}
        if result.histories is not None:
            fields["histories"] = result.histories
        own: list[OwnCard] = []
        if s.knowledge:
            own = own_card_beliefs(g, tree_cap=s.tree_cap, max_rows=s.max_states)
            fields["knowledge"] = {g.players[o.player]: self._own_json(o) for o in own}
            fields["knows_own_card"] = [g.players[o.player] for o in own if o.available and o.certain]
        text = self._text(result, viewer_name, s, own)
        if s.others:
            text += "\n" + self._others(g, viewer_name, fields)
        return Report.of(self.game_name, MascaradeAnswer(**fields), text)

    def _others(self, g: MascaradeState, viewer_name: str, fields: dict[str, Any]) -> str:
        """Adds ``others`` and ``safe_claims`` (the viewer's view of every other player's beliefs)."""
        try:
            table = nested(g, self.viewer)
        except ComponentLimit as exc:
            fields["others"] = None
            fields["others_reason"] = str(exc)
            return f"What the others believe: not computed ({exc})."
        C, v = g.identities, self.viewer
        fields["others"] = {g.players[n.player]: {
            "knows_own_card": n.knows_own, "own": {C[c]: p for c, p in n.own.items()},
            **({"about_viewer": {C[c]: p for c, p in n.about.get(v, {}).items()}} if v is not None else {})}
            for n in table}
        fields["safe_claims"] = [g.players[n.player] for n in table if n.knows_own == 1]
        lines = [f"What the others believe, from {viewer_name}'s side (exact; expected beliefs over "
                 f"{viewer_name}'s worlds):"]
        for n in table:
            own = ", ".join(f"{C[c]} {p}" for c, p in sorted(n.own.items(), key=lambda kv: -kv[1]))
            line = f"  {g.players[n.player]}: sure of own card with P = {n.knows_own}; own card: {own}"
            if v is not None:
                line += "; about " + g.players[v] + ": " + ", ".join(
                    f"{C[c]} {p}" for c, p in sorted(n.about.get(v, {}).items(), key=lambda kv: -kv[1]))
            lines.append(line)
        safe = fields["safe_claims"]
        lines.append("can claim safely (sure of their card in every world): " + (", ".join(safe) if safe else "nobody"))
        return "\n".join(lines)

    @property
    def game_name(self) -> str:
        return self.doc.game.name

    def _own_json(self, o: OwnCard) -> dict[str, Any]:
        if not o.available:
            return {"available": False, "reason": o.reason}
        C = self.state.identities
        best = o.best
        if best is None:
            raise InternalError("an available own-card answer has no best card")
        return {"available": True, "card": C[best[0]], "p": best[1], "certain": o.certain,
                "own": {C[c]: p for c, p in sorted(o.row.items(), key=lambda kv: (-kv[1], kv[0]))}}

    def _text(self, r: BeliefResult, viewer_name: str, s: Settings, own: Sequence[OwnCard]) -> str:
        g = self.state
        lines = [f"Mascarade: {len(g.players)} players" + (f", {len(g.middle)} middle cards" if g.middle else "")
                 + f", {len(g.events)} events; belief of {viewer_name} (method {s.choice.name}, "
                 + ("exact" if r.exact else "APPROXIMATE") + ")"]
        if r.note:
            lines.append(r.note)
        support = "unknown (the matrix method keeps marginals only)" if r.support is None else str(r.support)
        lines.append(f"support: {support} placements")
        if r.components:
            lines.append("mixed together: " + "; ".join("{" + ", ".join(g.positions[p] for p in c) + "}"
                                                        for c in r.components))
        width = max(len(p) for p in g.positions) + 2
        cells = [[decimal(r.p(i, c)) if r.p(i, c) else "." for c in range(len(g.identities))]
                 for i in range(g.n_positions)]
        colw = [max(len(g.identities[c]), *(len(row[c]) for row in cells)) + 2 for c in range(len(g.identities))]
        lines.append(" " * width + "".join(name.rjust(w) for name, w in zip(g.identities, colw, strict=True)))
        for pos, row in zip(g.positions, cells, strict=True):
            lines.append(pos.ljust(width) + "".join(x.rjust(w) for x, w in zip(row, colw, strict=True)))
        if r.swap_posteriors:
            lines.append("P(swap happened): " + ", ".join(f"event {e}: {decimal(p)}"
                                                          for e, p in r.swap_posteriors.items()))
        if own:
            lines.append("Each player's own card, from their own information:")
            for o in own:
                name = g.players[o.player].ljust(width)
                if not o.available:
                    lines.append(f"  {name}unknown: {o.reason}")
                else:
                    card, p = o.best  # type: ignore[misc]
                    lines.append(f"  {name}" + (f"knows: {g.identities[card]}" if o.certain
                                                else f"most likely {g.identities[card]} ({decimal(p)})"))
            sure = [g.players[o.player] for o in own if o.available and o.certain]
            lines.append("know their own card for certain: " + (", ".join(sure) if sure else "nobody"))
        return "\n".join(lines)

    # -- verify --------------------------------------------------------------------------------------
    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        s = self.settings(options, backend)
        if s.method is Method.MATRIX:
            raise PuzzleError("verify needs an exact method; the matrix is an estimate after a reveal",
                              file=self.doc.file, place="--method", allowed="auto, hybrid, tree, states, model")
        combined = {i: self._combined(c) for i, c in enumerate(claims) if is_compound(c.text)}
        parsed = [self._parse_claim(c) if i not in combined or combined[i] is None else ("combined", i, 0, "",
                                                                                            Fraction(0), False)
                  for i, c in enumerate(claims)]
        g = self._game(s)
        try:
            result = self._belief(s, self.viewer, backend)
        except LimitReached as exc:
            return [ClaimResult(c.text, Verdict.TIMEOUT, expect=c.expect, detail=str(exc)) for c in claims]
        if not result.consistent:
            conflict = self._conflict(s, backend)
            return [ClaimResult(c.text, Verdict.CONTRADICTION, conflict, expect=c.expect,
                                detail="the observations admit no world") for c in claims]
        own: dict[int, OwnCard] = {}
        cache: dict[str, Any] = {}
        out = []
        for spec, (kind, pos, card, op, value, negate) in zip(claims, parsed, strict=True):
            if kind == "combined":
                out.append(self._verify_combined(spec, combined[pos], g, s, backend, cache))  # type: ignore[arg-type]
            elif kind in ("nested-knows", "nested-believes", "may-know"):
                out.append(self._nested_claim(spec, kind, pos, card, op, value, negate, g, cache))
            elif kind == "p":
                p = result.p(pos, card)
                ok = _OPS[op](p, value)
                out.append(ClaimResult(spec.text, Verdict.ENTAILED if ok else Verdict.REFUTED, (), None, spec.expect,
                                       f"P = {p} (exact, method {s.choice.name})"))
            elif kind == "knows":
                if pos not in own:
                    own[pos] = own_card(g, pos, tree_cap=s.tree_cap, max_rows=s.max_states)
                o = own[pos]
                if not o.available:
                    raise PuzzleError(f"cannot judge: {o.reason}", file=self.doc.file, place=spec.place)
                best = o.best
                if best is None:
                    raise InternalError("an available own-card answer has no best card")
                truth = o.certain != negate
                detail = f"{g.players[pos]} is sure of {g.identities[best[0]]}" if o.certain else \
                    f"{g.players[pos]}'s best guess is {g.identities[best[0]]} with P = {best[1]}"
                out.append(ClaimResult(spec.text, Verdict.ENTAILED if truth else Verdict.REFUTED, (), None,
                                       spec.expect, detail))
            else:
                out.append(self._holds(spec, pos, card, negate, g, s, backend, cache))
        return out

    def _combined(self, spec: ClaimSpec) -> tuple[Claim, dict[Atom, Any]] | None:
        """A claim combining holds atoms with and/or/not (None: the text reads as one claim of another form)."""
        try:
            self._parse_claim(spec)
            return None
        except PuzzleError:
            pass

        def atom(text: str) -> tuple[int, int, bool]:
            kind, pos, card, _, _, negate = self._parse_claim(replace(spec, text=text))
            if kind != "holds":
                raise PuzzleError(f"{text!r}: only 'holds' claims combine with and, or, not",
                                  file=self.doc.file, place=spec.place)
            return pos, card, negate

        return read_claim(spec.text, atom, normalise_holding, file=self.doc.file, place=spec.place)

    def _verify_combined(self, spec: ClaimSpec, read: tuple[Claim, dict[Atom, Any]], g: MascaradeState, s: Settings,
                         backend: str, cache: dict[str, Any]) -> ClaimResult:
        """Holds atoms combined: judged on the history model (the engine's verdict and explanation)."""
        tree, payload = read
        gm = build_model(g.initial, g.steps_for(self.viewer), s.prior, g.positions)

        def lit(a: Atom) -> Lit:
            pos, card, negate = payload[a]
            x = holds_lit(gm, pos, card)
            return ~x if negate else x

        target = to_lit(gm.model, tree, lit)
        return Engine(gm.model, backend).verify(target, spec.text, spec.expect,
                                                world=lambda values: format_placement(g, [values[v] for v in gm.final]))

    def _nested_claim(self, spec: ClaimSpec, kind: str, who: int, packed: int, op: str, value: Fraction,
                      negate: bool, g: MascaradeState, cache: dict[str, Any]) -> ClaimResult:
        """A claim on another player's belief, judged over the viewer's worlds (exact)."""
        if "nested" not in cache:
            try:
                cache["nested"] = {n.player: n for n in nested(g, self.viewer, range(len(g.players)))}
            except ComponentLimit as exc:
                cache["nested"] = str(exc)
        if isinstance(cache["nested"], str):
            return ClaimResult(spec.text, Verdict.TIMEOUT, expect=spec.expect, detail=cache["nested"])
        n = cache["nested"][who]
        name = g.players[who]
        if kind == "may-know":
            truth = (n.knows_own > 0) != negate
            return ClaimResult(spec.text, Verdict.ENTAILED if truth else Verdict.REFUTED, expect=spec.expect,
                               detail=f"P({name} is sure of their card) = {n.knows_own}")
        if kind == "nested-knows":
            p, what = n.knows_own, f"P({name} knows their card)"
        else:
            pos, card = divmod(packed, len(g.identities))
            p = n.about.get(pos, {}).get(card, Fraction(0))
            what = f"E[{name}'s P({g.positions[pos]} holds {g.identities[card]})]"
        ok = _OPS[op](p, value)
        return ClaimResult(spec.text, Verdict.ENTAILED if ok else Verdict.REFUTED, expect=spec.expect,
                           detail=f"{what} = {p} (exact, over the viewer's worlds)")

    def _holds(self, spec: ClaimSpec, pos: int, card: int, negate: bool, g: MascaradeState, s: Settings,
               backend: str, cache: dict[str, Any]) -> ClaimResult:
        """``[not] <pos> holds <card>``: the verdict from the exact belief, the observations that force it.

        With CP-SAT the explanation is the engine's (a minimal core of observation literals, checked against
        the exact verdict); with another backend it is found by deletion over exact beliefs.
        """
        steps = g.steps_for(self.viewer)
        if "tracker" not in cache:
            cache["tracker"] = replay(ComponentBelief(g.initial, s.prior, max_rows=s.max_states), steps)
        tracker: ComponentBelief = cache["tracker"]

        def p_true(b: ComponentBelief) -> Fraction:
            p = b.marginals()[pos].get(card, Fraction(0))
            return 1 - p if negate else p

        p = p_true(tracker)
        verdict = verdict_of(p)
        detail = f"P({g.positions[pos]} holds {g.identities[card]}) = {1 - p if negate else p}"

        def show(placement: Sequence[int] | None) -> dict[str, str] | None:
            return None if placement is None else format_placement(g, placement)

        if _uses_cpsat(backend):
            if "engine" not in cache:
                cache["model"] = build_model(g.initial, steps, s.prior, g.positions)
                cache["engine"] = Engine(cache["model"].model, backend)
            gm: MascaradeModel = cache["model"]
            lit = holds_lit(gm, pos, card)
            res = cache["engine"].verify(~lit if negate else lit, spec.text, spec.expect,
                                         world=lambda values: show([values[v] for v in gm.final]))
            if res.verdict is not verdict and res.verdict is not Verdict.TIMEOUT:
                raise InternalError(f"CP-SAT and the exact belief disagree on {spec.text!r}")
            return ClaimResult(res.text, res.verdict, res.because, res.witness, spec.expect, detail, p)
        if verdict is Verdict.OPEN:
            yes, no = tracker.witness(pos, card, not negate), tracker.witness(pos, card, negate)
            return ClaimResult(spec.text, verdict, (), {"true": show(yes), "false": show(no)}, spec.expect, detail,
                               p)
        because = minimal_observations(g.initial, steps, s.prior, lambda b: b.consistent and p_true(b) == p)
        if not because.minimal:
            detail += "; these observations suffice (a smaller set was not searched: beliefs grew too large)"
        witness = show(tracker.witness(pos, card, negate)) if verdict is Verdict.REFUTED else None
        return ClaimResult(spec.text, verdict, because.names, witness, spec.expect, detail, p)

    def _parse_claim(self, spec: ClaimSpec) -> tuple[str, int, int, str, Fraction, bool]:
        g = self.state
        sec = Section({}, file=self.doc.file, place=spec.place)
        positions, cards = g.position_names(), g.card_names()
        if spec.options:
            raise sec.error(f"unknown key {next(iter(spec.options))!r}", allowed="text, expect")
        m = _NESTED.match(spec.text)
        if m:
            who = Names("player", g.players).index(m["who"], sec)
            value = parse_fraction(m["value"], sec, None)
            if m["knows"]:
                return ("nested-knows", who, 0, m["op"], value, False)
            packed = positions.index(m["pos"], sec) * len(g.identities) + cards.index(m["card"], sec)
            return ("nested-believes", who, packed, m["op"], value, False)
        m = _MAY.match(spec.text)
        if m:
            return ("may-know", Names("player", g.players).index(m["who"], sec), 0, "", Fraction(0), bool(m["neg"]))
        m = _P_CLAIM.match(spec.text)
        if m:
            value = parse_fraction(m["value"], sec, None)
            return ("p", positions.index(unquote(m["who"]), sec), cards.index(unquote(m["card"]), sec), m["op"], value,
                    False)
        m = _KNOWS.match(spec.text)
        if m:
            return ("knows", Names("player", g.players).index(unquote(m["who"]), sec), 0, "", Fraction(0),
                    bool(m["neg"]))
        m = _HOLDS.match(spec.text) or _HOLDS.match(normalise_holding(spec.text))  # "Ann has the King"
        if m:
            return ("holds", positions.index(unquote(m["who"]), sec), cards.index(unquote(m["card"]), sec), "",
                    Fraction(0), bool(m["neg"]) != (m["verb"].lower() == "lacks"))
        raise PuzzleError(f"cannot read claim {spec.text!r}", file=self.doc.file, place=spec.place,
                          allowed="'<player> holds <card>', '<player> lacks <card>', "
                                  "'P(<player> holds <card>) = p/q' (also != < <= > >=), "
                                  "'<player> knows their card', '<player> may know their card', "
                                  "'P(<player> knows their card) >= p/q', "
                                  "'P(<player> believes <position> holds <card>) >= p/q'")


_METHOD_OF = {"hybrid": Method.AUTO, "model": Method.CPSAT}  # derivation name -> the belief module's method


def _uses_cpsat(backend: str) -> bool:
    return backend_class(backend).name == "cpsat"


def load(doc: PuzzleDoc) -> MascaradePuzzle:
    game = read_state(doc)
    puzzle = MascaradePuzzle(doc, game)
    game.steps_for(puzzle.viewer)  # what the viewer saw and the file lacks is refused here, as every command would
    who = "an observer of public events" if puzzle.viewer is None else f"the viewer {game.players[puzzle.viewer]}"
    unseen = [e.index for e in game.events
              if e.pair is not None and e.swapped is not None and not e.public and e.actor != puzzle.viewer]
    if unseen:
        doc.note(f"{len(unseen)} swap outcome(s) not used for the belief of {who}, since only the swapper saw "
                 "them (write public = true where everyone did); each swapper's own knowledge uses them",
                 "event[" + ", ".join(map(str, unseen)) + "].swapped")
    return puzzle
