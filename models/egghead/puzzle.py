"""Egghead puzzle files: the table, the rounds, and what each player can know at the end.

``analysis = "basic"`` gives every player the valids of eq. 1 (CP-SAT models, see ``model.py``);
``analysis = "behavioural"`` runs Algorithm 1 on the packed master table (``tables.py``) for the players in
``analysts`` (default: everyone), the others keep to eq. 1 but their reactions stay public.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np

from sleuth.names import NAME, unquote
from sleuth.engine import Engine
from sleuth.claims import Atom, evaluate, to_lit
from sleuth.claims import read as read_claim
from sleuth.derive import find_derivation, handlers
from sleuth.explain import minimal_subset
from sleuth.limits import check_size
from sleuth.errors import PuzzleError
from sleuth.model import Clause, Constraint, Lit, Model, Var
from sleuth.puzzle import Puzzle, PuzzleDoc
from sleuth.results import Labelled, ClaimResult, ClaimSpec, Report, Status, Verdict, contradiction_text

from .behaviour_model import ModelTables
from .game import GAME
from .model import EggheadModel
from .hands import format_hand
from .state import read_state
from .questions import hand_variables
from .rounds import Inconsistent, RoundRecord, play_round
from .tables import LayerTables, PackedTables

MAX_EXPLAIN_WORLDS = 2_000_000   # behavioural verdicts name their observations up to this many worlds
CLAIM_FORMS = "<player> holds 1 2 2 | <player> has a <v> | <player> has no <v>"


HandTest = Callable[[tuple[int, ...]], bool]                       # is a claim true of this hand?
ClaimConstraint = Callable[[Model, Sequence[Var]], Lit | Constraint]  # the claim on a hand's variables


class HandAtom(NamedTuple):
    """One claim atom about ``subject``'s hand: as a test of a hand and as a constraint on its variables."""

    subject: int
    test: HandTest
    constraint: Callable[[Model, Sequence[Var]], Constraint]


@dataclass
class Outcome:
    """What running the rounds gives: the records, each player's final valids (None: not determined)."""

    records: list[RoundRecord] = field(default_factory=list)
    valids: dict[int, np.ndarray | None] = field(default_factory=dict)
    hands: list[int | None] = field(default_factory=list)
    tables: Any = None   # what the rounds were played on (a :class:`~.rounds.RoundTables`)
    conflict: tuple[str, ...] = ()


@dataclass(frozen=True)
class EggheadAnswer(Labelled):
    """Egghead's answer: each player's valids after the last round, and what happened in each round."""

    valids: Mapping[str, Sequence[Sequence[int]]]   # player -> the sorted hands still possible for them
    rounds: Sequence[Mapping[str, Any]]
    analysis: str
    moderator: str
    analysts: Sequence[str]                        # the players who use the behavioural analysis
    undetermined: Sequence[str]                    # valids that depend on a hand not on the table


def _layer(p: EggheadPuzzle, backend: str, options: Mapping[str, Any] | None) -> Any:
    n = p.setup.players
    check_size("Egghead worlds (one hand per player, listed)", p.setup.n_hands ** n, options, 8 * (n + 2))
    return LayerTables(p.setup, p.behavioural)


def _model(p: EggheadPuzzle, backend: str, options: Mapping[str, Any] | None) -> Any:
    if p.analysis == "behavioural":
        return ModelTables(p.setup, p.behavioural, backend, options=options)
    return EggheadModel(p.setup, backend)


class EggheadPuzzle(Puzzle):
    def __init__(self, doc: PuzzleDoc) -> None:
        super().__init__(doc)
        self.state = state = read_state(doc)
        self.setup, self.names, self.viewer = state.setup, state.names, state.viewer
        self.moderator, self.analysis, self.behavioural = state.moderator, state.analysis, list(state.behavioural)
        self.hands, self.rounds = list(state.hands), state.rounds

    # -- running the rounds --------------------------------------------------------------------------
    def run(self, backend: str = "cpsat", method: str = "tables", options: Mapping[str, Any] | None = None
            ) -> Outcome:
        """The rounds played out: ``tables`` (the packed master table), ``layer`` (listed worlds) or ``model``
        (the declarative model on ``backend``: one per player and hand for the basic analysis, the worlds of
        the public facts for the behavioural one)."""
        n = self.setup.players
        world: list[int | None] = list(self.hands)
        tables = _TABLES[find_derivation(self.doc.game.methods, method).name](self, backend, options)
        out = Outcome(tables=tables)
        stand_in: set[int] = set()
        dealt: list[list[int | None]] = []
        for k, r in enumerate(self.rounds):
            label = f"round {k + 1}"
            dealt.append(list(world))
            try:
                rec = play_round(tables, world, r.question, k % n if self.moderator == "rotating" else None,
                                 r.new_hands.get, answer=r.answer, stages=r.solves, label=label)
            except Inconsistent as exc:
                out.conflict = self._answer_conflict(dealt, backend) if exc.answer_false else (exc.observation,)
                return out
            except ValueError as exc:
                raise PuzzleError(str(exc).removeprefix(label + ": "), file=self.doc.file, place=r.place) from None
            unused = [p for p in r.new_hands if p not in rec.new_hands]
            if unused:
                raise PuzzleError(f"{self.setup.names[unused[0]]} did not solve in this round", file=self.doc.file,
                                  place=f"{r.place}.new_hands", allowed="the players who solve")
            out.records.append(rec)
            stand_in = {p for p, h in rec.new_hands.items() if h is None}
        # Hands dealt in the last round and not stated change no row (eq. 5): any stand-in will do.
        view = [0 if (w is None and p in stand_in) else w for p, w in enumerate(world)]
        out.hands = [None if p in stand_in else w for p, w in enumerate(world)]
        for p in range(n):
            if any(view[o] is None for o in range(n) if o != p):
                out.valids[p] = None
            else:
                out.valids[p] = tables.valids(p, view)
        return out

    def _answer_conflict(self, dealt: list[list[int | None]], backend: str) -> tuple[str, ...]:
        """A minimal set of stated hands and answers that contradict each other (CP-SAT core).

        ``dealt[k]`` holds the hands at the start of round ``k + 1``; the last round's answer is false on them.
        """
        s, names = self.setup, self.setup.names
        m = Model()
        hands: dict[tuple[int, int], list[Any]] = {}
        for k, world in enumerate(dealt):
            for p, h in enumerate(world):
                if h is None or (p, h) in hands:
                    continue
                xs = hand_variables(m, s, f"{names[p]}#{len(hands)}")
                said = "holds" if k == 0 else f"is dealt (round {k})"
                with m.observation(f"{names[p]} {said} {format_hand(s.hands[h])}"):
                    for x, c in zip(xs, s.hands[h], strict=False):
                        m.add(x == c)
                hands[(p, h)] = xs
        for k, world in enumerate(dealt):
            r = self.rounds[k]
            moderator = k % s.players if self.moderator == "rotating" else None
            seen = [hands[(p, h)] if h is not None else hand_variables(m, s, f"{names[p]}@{k}")
                    for p, h in enumerate(world) if p != moderator]
            answer = r.answer if r.answer is not None else r.question.answer(
                [h or 0 for h in world], [p != moderator for p in range(s.players)])
            with m.observation(f"round {k + 1}: {r.question.qid} = {answer}"):
                m.add(r.question.cpsat(m, seen) == answer)
        return Engine(m, backend).conflict() or (f"round {len(dealt)}: {self.rounds[len(dealt) - 1].question.qid}",)

    # -- explanations under behavioural analysis ----------------------------------------------------
    def _observations(self, out: Outcome) -> list[tuple[str, int, int]]:
        """The public observations: (name, round, stage); stage -1 is the answer."""
        names = self.setup.names
        obs = []
        for k, rec in enumerate(out.records):
            obs.append((f"round {k + 1}: {rec.question} = {rec.answer}", k, -1))
            for j in range(rec.played):
                solvers = rec.stages[j] if j < len(rec.stages) else []
                who = " and ".join(names[p] for p in solvers) + (" solve" if len(solvers) > 1 else " solves")
                obs.append((f"round {k + 1}, stage {j + 1}: {who if solvers else 'nobody solves'}", k, j))
        return obs

    def _replay(self, out: Outcome, kept: set[tuple[int, int]]) -> PackedTables:
        """The tables when only the ``kept`` (round, stage) observations are applied (solves still re-deal)."""
        n = self.setup.players
        tables = PackedTables(self.setup, self.behavioural)
        for k, rec in enumerate(out.records):
            q = self.rounds[k].question
            if (k, -1) in kept:
                tables.apply_answer(q, rec.answer, [p != rec.moderator for p in range(n)])
            for j in range(rec.played):
                solvers = rec.stages[j] if j < len(rec.stages) else []
                if (k, j) in kept:
                    tables.apply_reactions([None if p == rec.moderator else p in solvers for p in range(n)])
                for p in solvers:
                    tables.apply_solve(p, rec.solved_hands[p])
        return tables

    def _ba_because(self, out: Outcome, judge: int, still: Callable[[list[tuple[int, ...]]], bool]) -> tuple[str, ...]:
        """A set of observations under which ``still`` holds of the judge's valids and the real world stays
        possible, such that leaving out any one of them breaks it (deletion-based)."""
        obs = self._observations(out)
        view = [0 if h is None else h for h in out.hands]
        keys = [(k, j) for _, k, j in obs]

        def holds(subset: list[tuple[int, int]]) -> bool:
            # A reaction read without the answers that caused it can wipe out the real world, and then
            # "entails" anything: such subsets do not count.
            row = [int(h) for h in self._replay(out, set(subset)).valids(judge, view)]
            real = out.hands[judge]
            if not row or (real is not None and real not in row):
                return False
            return still([self.setup.hands[h] for h in row])

        kept = minimal_subset(keys, holds)
        return tuple(name for name, k, j in obs if (k, j) in set(kept))

    # -- solve ----------------------------------------------------------------------------------------
    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        opts = dict(options or {})
        choice = self.derivation(opts, backend)
        out = self.run(backend, choice.name, opts)
        names = self.setup.names
        rounds = [self._round_json(rec) for rec in out.records]
        if out.conflict:
            return Report(self.game, Status.CONTRADICTION, {"rounds": rounds}, "", out.conflict)
        valids = {names[p]: [list(self.setup.hands[h]) for h in v] for p, v in out.valids.items() if v is not None}
        fields = {"valids": valids, "rounds": rounds, "analysis": self.analysis, "moderator": self.moderator,
                  "analysts": [names[p] for p in range(self.setup.players) if self.behavioural[p]],
                  "undetermined": [names[p] for p, v in out.valids.items() if v is None], **choice.fields()}
        return Report.of(self.game, EggheadAnswer(**fields), self._text(out, rounds))

    def _round_json(self, rec: RoundRecord) -> dict[str, Any]:
        names = self.setup.names
        q = next(r.question for r in self.rounds if r.question.qid == rec.question)
        return {"question": rec.question, "text": q.text, "answer": rec.answer,
                "moderator": names[rec.moderator] if rec.moderator is not None else "external",
                "solves": [[names[p] for p in stage] for stage in rec.stages],
                "new_hands": {names[p]: (list(self.setup.hands[h]) if h is not None else None)
                              for p, h in rec.new_hands.items()}}

    def _text(self, out: Outcome, rounds: list[dict[str, Any]]) -> str:
        s, names = self.setup, self.setup.names
        who = ", ".join(names[p] for p in range(s.players) if self.behavioural[p]) or "nobody"
        lines = [f"Egghead: {s.players} players, values 1-{s.values}, {s.hand_size} cards, {self.moderator} "
                 f"moderator, {self.analysis} analysis" + (f" (BA: {who})" if self.analysis == "behavioural" else "")]
        for k, r in enumerate(rounds):
            solved = " then ".join(", ".join(stage) or "nobody" for stage in r["solves"]) or "nobody"
            lines.append(f"round {k + 1}: {r['question']} ({r['text']}) = {r['answer']}; solves: {solved}")
        lines.append("valids at the end:")
        for p, v in out.valids.items():
            if v is None:
                lines.append(f"  {names[p]}: depends on a hand that is not on the table")
            elif len(v) == s.n_hands:
                lines.append(f"  {names[p]} ({len(v)}): any hand")
            else:
                more = f" | ... ({len(v) - 40} more: --json lists them all)" if len(v) > 40 else ""
                shown = " | ".join(format_hand(s.hands[h]) for h in v[:40]) + more
                lines.append(f"  {names[p]} ({len(v)}): {shown}")
        return "\n".join(lines)

    # -- claims ----------------------------------------------------------------------------------------
    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        opts = dict(options or {})
        choice = self.derivation(opts, backend)
        parsed = [self._read_claim(c) for c in claims]
        out = self.run(backend, choice.name, opts)
        if out.conflict:
            return [ClaimResult(c.text, Verdict.CONTRADICTION, out.conflict, expect=c.expect,
                                detail=contradiction_text(out.conflict).splitlines()[0]) for c in claims]
        return [self._judge(c, subject, test, constraint, out, backend)
                for c, (subject, test, constraint) in zip(claims, parsed, strict=False)]

    def _read_claim(self, spec: ClaimSpec) -> tuple[int, HandTest, ClaimConstraint]:
        """A claim (sleuth.claims): one atom, or atoms about one player combined with and, or, not."""
        claim, payload = read_claim(spec.text, lambda text: self._parse_claim(replace(spec, text=text)),
                                    file=self.doc.file, place=spec.place)
        if isinstance(claim, Atom):
            return payload[claim]
        subjects = {p.subject for p in payload.values()}
        if len(subjects) != 1:
            raise PuzzleError("combined claims are about one player's hand", file=self.doc.file, place=spec.place,
                              allowed="atoms with the same player")

        def test(hand: tuple[int, ...]) -> bool:
            return evaluate(claim, lambda a: bool(payload[a].test(hand)))

        def constraint(m_: Model, xs: Sequence[Var]) -> Lit:
            return to_lit(m_, claim, lambda a: m_.reify(payload[a].constraint(m_, xs)))

        return subjects.pop(), test, constraint

    def _parse_claim(self, spec: ClaimSpec) -> HandAtom:
        text = " ".join(spec.text.split())
        m = (re.fullmatch(rf"(?P<who>{NAME}) holds (?P<cards>\d+(?:[ ,]+\d+)*)", text, re.I)
             or re.fullmatch(rf"(?P<who>{NAME}) has (?:a|an) (?P<v>\d+)", text, re.I)
             or re.fullmatch(rf"(?P<who>{NAME}) has no (?P<no>\d+)", text, re.I))
        if m is None:
            raise PuzzleError(f"cannot read the claim {spec.text!r}", place=spec.place, file=self.doc.file,
                              allowed=CLAIM_FORMS)
        try:
            p = self.names.index(unquote(m["who"]))
        except PuzzleError as exc:
            raise exc.located(self.doc.file, spec.place) from None
        vmax, h = self.setup.values, self.setup.hand_size
        if m.groupdict().get("cards"):
            cards = tuple(sorted(int(x) for x in re.split(r"[ ,]+", m["cards"])))
            if len(cards) != h or not all(1 <= c <= vmax for c in cards):
                raise PuzzleError(f"{m['cards']!r} is not a hand", file=self.doc.file, place=spec.place,
                                  allowed=f"{h} cards from 1 to {vmax}")
            return HandAtom(p, lambda hand: hand == cards, lambda m_, xs: Clause(
                tuple(m_.indicator(x, c) for x, c in zip(xs, cards, strict=False)), all_of=True))
        v = int(m.groupdict().get("v") or m["no"])
        if not 1 <= v <= vmax:
            raise PuzzleError(f"{v} is not a card value", file=self.doc.file, place=spec.place,
                              allowed=f"1 to {vmax}")
        has = m.groupdict().get("v") is not None

        def has_v(m_: Model, xs: Sequence[Var]) -> Constraint:
            c = Clause(tuple(m_.indicator(x, v) for x in xs))
            return c if has else c.negation()
        return HandAtom(p, lambda hand: (v in hand) == has, has_v)

    def _judge(self, spec: ClaimSpec, subject: int, test: HandTest, constraint: ClaimConstraint, out: Outcome,
               backend: str) -> ClaimResult:
        s, names = self.setup, self.setup.names
        judge = self.viewer if self.viewer is not None else subject
        if judge != subject:
            hand = out.hands[subject]
            if hand is None:
                raise PuzzleError(f"the hand of {names[subject]} is not on the table", file=self.doc.file,
                                  place=spec.place, allowed="claims about hands the judge sees or their own")
            ok = test(s.hands[hand])
            return ClaimResult(spec.text, Verdict.ENTAILED if ok else Verdict.REFUTED,
                               (f"{names[judge]} sees {names[subject]} hold {format_hand(s.hands[hand])}",),
                               None if ok else list(s.hands[hand]), expect=spec.expect)
        valids = out.valids.get(judge)
        if valids is None:
            raise PuzzleError(f"what {names[judge]} knows depends on a hand that is not on the table",
                              file=self.doc.file, place=spec.place)
        if isinstance(out.tables, EggheadModel):
            model, mine = out.tables.model(judge)
            engine = Engine(model, backend)
            return engine.verify(constraint(model, mine), spec.text, spec.expect,
                                 world=lambda vals: [vals[x] for x in mine])
        hands = [s.hands[h] for h in valids]
        true = [h for h in hands if test(h)]
        false = [h for h in hands if not test(h)]
        detail = f"behavioural analysis: {names[judge]} keeps {len(hands)} hand(s)"
        if not false or not true:
            verdict = Verdict.ENTAILED if not false else Verdict.REFUTED
            because: tuple[str, ...] = ()
            if s.n_worlds <= MAX_EXPLAIN_WORLDS:
                because = self._ba_because(out, judge, lambda hs: all(test(h) == (not false) for h in hs))
            else:
                detail += "; too many worlds to search for the observations that force it"
            return ClaimResult(spec.text, verdict, because, None if not false else list(false[0]),
                               expect=spec.expect, detail=detail)
        return ClaimResult(spec.text, Verdict.OPEN, (), {"true": list(true[0]), "false": list(false[0])},
                           expect=spec.expect, detail=detail)


# Egghead's code for each registered derivation (models/egghead/game.py): the tables the rounds are played on.
_TABLES: Mapping[str, Callable[[EggheadPuzzle, str, Mapping[str, Any] | None], Any]] = handlers(GAME.methods, {
    "tables": lambda p, backend, options: PackedTables(p.setup, p.behavioural, options=options),
    "layer": _layer, "model": _model})
