"""The ``cardguess`` puzzle: solve (posterior), verify (claims), suggest (next guess), plot.

Claims: these statements (exact comparisons, so each is entailed or refuted; ``op`` is one of
``= != < <= > >=``), alone or joined by ``not``, ``and``, ``or``, ``implies`` and parentheses::

    P(next is J) = 1/3
    P(remaining is J=0 Q=1 K=2) = 3/10      (every type listed)
    best guess is Q                         (method: optimal unless the claim sets method = "...")
    E(further correct) = 2383/560           (expected further correct guesses under the method)

``best guess is Q`` is *entailed* when Q is the method's only best guess, *open* when Q ties with others
for best, and *refuted* otherwise.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from sleuth.claims import Atom, combine
from sleuth.claims import read as read_claim
from sleuth.names import NAME, quote, unquote
from sleuth.derive import NotServed, find_derivation, handlers
from sleuth.errors import PuzzleError, SleuthError
from sleuth.limits import max_items
from sleuth.puzzle import Puzzle, PuzzleDoc
from sleuth.results import Labelled, ClaimResult, ClaimSpec, Report, Status, Verdict, decimal
from sleuth.schema import Names, parse_fraction

from .counting import ENTRY_BYTES
from .game import GAME
from .state import CardGuessState, read_parameter, read_state
from .optimal import Feedback
from .model import conflicting_guesses, enumerate_posterior
from .seed import SeedAgent
from .strategies import Optimal, Strategy

OPS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq, "==": operator.eq, "!=": operator.ne, "<=": operator.le, ">=": operator.ge,
    "<": operator.lt, ">": operator.gt}
_OP = r"(==|!=|<=|>=|=|<|>)"
CLAIM_FORMS = ("P(next is <card>) = p/q", "P(remaining is <card>=<n> ...) = p/q", "best guess is <card>",
               "E(further correct) = p/q")
_NEXT = re.compile(rf"^\s*P\s*\(\s*next\s+is\s+({NAME})\s*\)\s*{_OP}\s*(\S+)\s*$", re.I)
_REMAINING = re.compile(rf"^\s*P\s*\(\s*remaining\s+is\s+(.+?)\s*\)\s*{_OP}\s*(\S+)\s*$", re.I)
_ITEM = re.compile(r'\s*("[^"]+"|`(?:[^`]|``)+`|[^\s,="`]+)\s*=\s*(\d+)\s*(?:,|\s|$)\s*')
_BEST = re.compile(rf"^\s*best\s+guess\s+is\s+({NAME})\s*$", re.I)
_EXPECTED = re.compile(rf"^\s*E\s*\(\s*further\s+correct\s*\)\s*{_OP}\s*(\S+)\s*$", re.I)


@dataclass(frozen=True)
class CardGuessAnswer(Labelled):
    """Card guessing's answer: the posterior over the remaining compositions and over the next card."""

    remaining: Sequence[Mapping[str, Any]]     # {"composition": {type: count}, "p": Fraction}
    next: Mapping[str, Fraction]               # type -> P(next card is of that type)
    cards_left: int
    feedback: str
    statistic: Mapping[str, Mapping[str, int]]
    orders: int                                # deck orders consistent with the history


class CardGuessPuzzle(Puzzle):

    def __init__(self, doc: PuzzleDoc) -> None:
        super().__init__(doc)
        self.state: CardGuessState = read_state(doc)
        self.names = Names("card", self.state.types)

    # -- helpers --------------------------------------------------------------------------------------
    def _error(self, message: str, place: str | None = None, allowed: Any = None) -> PuzzleError:
        return PuzzleError(message, file=self.doc.file, place=place, allowed=allowed)

    def _conflict(self, backend: str, time_limit: float | None) -> tuple[str, ...]:
        s = self.state
        return conflicting_guesses(s.types, s.counts, s.history, backend, time_limit)

    def _budget(self, opts: Mapping[str, Any]) -> None:
        """The memo of deck-order counts honours ``--set max_worlds`` (else the memory budget)."""
        self.state.arrangements.max_entries = max_items(opts, ENTRY_BYTES)

    def _header(self) -> str:
        s, know = self.state, self.state.statistic()
        deck = " ".join(f"{t}={k}" for t, k in zip(s.types, s.counts, strict=False))
        right = sum(g.correct for g in s.history)
        return (f"Card guessing, {s.feedback.value} feedback; deck {deck}; {len(s.history)} guesses "
                f"({right} right), {know.cards_left} cards left")

    def _strategy(self, method: str | None, opts: Mapping[str, Any], place: str) -> Strategy:
        name = self.doc.game.suggest_method(method, file=self.doc.file, place=place).name
        params: dict[str, Fraction | float] = {k: read_parameter(opts[k], k, place, self.doc.file)
                                               for k in ("gamma", "step") if k in opts}
        if "gamma" in params:
            params["gamma"] = float(params["gamma"])
        return self.state.strategy(name, **params)

    # -- solve ----------------------------------------------------------------------------------------
    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        opts = dict(options or {})
        self._budget(opts)
        choice = self.derivation(opts, backend)
        method = choice.name
        time_limit = opts.get("time-limit")
        s = self.state
        if not s.consistent:
            return Report(self.game, Status.CONTRADICTION, conflict=self._conflict(backend, time_limit))
        remaining, nxt = self._posterior(method, backend, time_limit)
        if opts.get("plot"):
            from .plot import plot_posteriors
            plot_posteriors(opts["plot"], s, title=self.title)
        know = s.statistic()
        fields = {
            "remaining": [{"composition": s.composition(x), "p": q} for x, q in remaining.items()],
            "next": dict(zip(s.types, nxt, strict=False)),
            "cards_left": know.cards_left,
            "feedback": s.feedback.value,
            "statistic": {"unplaced": s.composition(know.c), "no": s.composition(know.p)},
            "orders": know.count(s.arrangements),
            **choice.fields(),
        }
        return Report.of(self.game, CardGuessAnswer(**fields), self._solve_text(remaining, nxt, fields))

    def _posterior(self, method: str, backend: str, time_limit: float | None
                   ) -> tuple[dict[tuple[int, ...], Fraction], list[Fraction]]:
        return _POSTERIORS[find_derivation(self.doc.game.methods, method).name](self, backend, time_limit)

    def _counted(self, backend: str, time_limit: float | None
                 ) -> tuple[dict[tuple[int, ...], Fraction], list[Fraction]]:
        s = self.state
        know = s.statistic()
        nxt = know.next_probabilities(s.arrangements) if know.cards_left else [Fraction(0)] * len(s.types)
        return s.posterior(), nxt

    def _enumerated(self, backend: str, time_limit: float | None
                    ) -> tuple[dict[tuple[int, ...], Fraction], list[Fraction]]:
        s = self.state
        try:
            e = enumerate_posterior(s.types, s.counts, s.history, backend, time_limit)
        except ValueError as exc:
            raise NotServed(str(exc), file=self.doc.file, place="--method", allowed="auto, count, filter") \
                from None
        return e.remaining, e.next_card

    def _filtered(self, backend: str, time_limit: float | None
                  ) -> tuple[dict[tuple[int, ...], Fraction], list[Fraction]]:
        s = self.state
        know = s.statistic()
        if s.feedback is Feedback.COMPLETE:
            raise NotServed("the source paper's filter follows partial feedback only", file=self.doc.file,
                            place="--method", allowed="auto, count, model")
        agent = SeedAgent(s.counts)
        for g in s.history:
            agent.update_state(g.card, g.correct)
        nxt = agent.group_prob if know.cards_left else [Fraction(0)] * len(s.types)
        return dict(sorted(agent.states.items())), nxt

    def _solve_text(self, remaining: Mapping[tuple[int, ...], Fraction], nxt: Sequence[Fraction],
                    fields: Mapping[str, Any]) -> str:
        s = self.state
        stat = fields["statistic"]
        lines = [self._header()]
        if self.title:
            lines.insert(0, self.title)
        lines.append("Sufficient statistic: unplaced " + _fmt(stat["unplaced"]) + '; "no" answers '
                     + _fmt(stat["no"]) + f"; {fields['orders']} consistent deck orders")
        lines.append("Remaining deck" + " " * 8 + "p")
        width = max((len(_fmt(s.composition(x))) for x in remaining), default=10)
        for x, q in remaining.items():
            lines.append(f"  {_fmt(s.composition(x)):<{width}}  {decimal(q):>6}  " + "#" * round(float(q) * 40))
        if fields["cards_left"]:
            lines.append("Next card: " + ", ".join(f"{t} {decimal(q)}"
                                                   for t, q in zip(s.types, nxt, strict=True)))
        return "\n".join(lines)

    # -- verify ---------------------------------------------------------------------------------------
    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        opts = dict(options or {})
        self._budget(opts)
        parsed = [self._parse_claim(c, opts) for c in claims]  # every claim is checked before any work
        if not self.state.consistent:
            conflict = self._conflict(backend, opts.get("time-limit"))
            return [ClaimResult(c.text, Verdict.CONTRADICTION, conflict, expect=c.expect,
                                detail="no deck order is consistent with the guesses") for c in claims]
        return [judge() for judge in parsed]

    def _parse_claim(self, claim: ClaimSpec, defaults: Mapping[str, Any]) -> Callable[[], ClaimResult]:
        """A claim: statements (the forms above) joined by not, and, or, implies (see :mod:`sleuth.claims`);
        each statement is entailed or refuted (a best guess tied with others is open), and so is the claim
        when its statements decide it."""
        place = claim.place
        tree, judges = read_claim(claim.text, lambda text: self._statement(text, claim, defaults),
                                  file=self.doc.file, place=place)

        def judge() -> ClaimResult:
            results = {atom: j() for atom, j in judges.items()}
            if isinstance(tree, Atom):
                return replace(results[tree], text=claim.text)
            return ClaimResult(claim.text, combine(tree, lambda a: results[a].verdict), expect=claim.expect,
                               detail="; ".join(dict.fromkeys(r.detail for r in results.values() if r.detail)))
        return judge

    def _statement(self, text: str, claim: ClaimSpec, defaults: Mapping[str, Any]) -> Callable[[], ClaimResult]:
        """One statement of a claim, as a judge run after every claim is read."""
        place = claim.place
        opts = {**{k: v for k, v in defaults.items() if k in ("method", "gamma", "step")}, **claim.options}
        s = self.state

        def card(name: str) -> int:
            try:
                return self.names.index(unquote(name))
            except PuzzleError as exc:
                raise self._error(exc.message, place, exc.allowed) from None

        def value(raw: str) -> Fraction:
            try:
                return parse_fraction(raw)
            except PuzzleError as exc:
                raise self._error(f"in claim {text!r}: {exc.message}", place, exc.allowed) from None

        def exact(actual: Callable[[], Fraction], op: str, target: Fraction, what: str) -> Callable[[], ClaimResult]:
            def judge() -> ClaimResult:
                got = actual()
                holds = OPS[op](got, target)
                return ClaimResult(text, Verdict.ENTAILED if holds else Verdict.REFUTED, expect=claim.expect,
                                   detail=f"{what} = {got} ({float(got):.6g})")
            return judge

        if m := _NEXT.match(text):
            a, op, target = card(m.group(1)), m.group(2), value(m.group(3))
            return exact(lambda: s.statistic().next_probabilities(s.arrangements)[a], op, target,
                         f"P(next is {s.types[a]})")
        if m := _REMAINING.match(text):
            x = self._parse_composition(m.group(1), place, text)
            op, target = m.group(2), value(m.group(3))
            return exact(lambda: s.posterior().get(x, Fraction(0)), op, target,
                         f"P(remaining is {_fmt(s.composition(x))})")
        if m := _EXPECTED.match(text):
            strategy = self._strategy(opts.get("method"), opts, place)
            op, target = m.group(1), value(m.group(2))
            return exact(lambda: s.further(strategy).expected, op, target,
                         f"E(further correct) with {strategy.describe()}")
        if m := _BEST.match(text):
            a = card(m.group(1))
            strategy = self._strategy(opts.get("method"), opts, place)

            def judge() -> ClaimResult:
                best, scores = s.best(strategy)
                top = [i for i, sc in enumerate(scores) if sc == scores[best]]
                verdict = (Verdict.ENTAILED if top == [a] else Verdict.OPEN if a in top else Verdict.REFUTED)
                return ClaimResult(text, verdict, expect=claim.expect,
                                   detail=f"best with {strategy.describe()}: "
                                          + ", ".join(s.types[i] for i in top))
            return judge
        raise PuzzleError(f"cannot read claim {text!r}", allowed=CLAIM_FORMS)

    def _parse_composition(self, body: str, place: str, text: str) -> tuple[int, ...]:
        x: dict[int, int] = {}
        pos, body = 0, body.strip()
        while pos < len(body):
            m = _ITEM.match(body, pos)
            if not m:
                item = re.split(r"[\s,]+", body[pos:].strip())[0]
                raise self._error(f"in claim {text!r}: expected <card>=<count>, got {item!r}", place,
                                  allowed=" ".join(f"{quote(t, ['='])}=<n>" for t in self.state.types))
            pos, name, num = m.end(), m.group(1), m.group(2)
            try:
                a = self.names.index(unquote(name))
            except PuzzleError as exc:
                raise self._error(exc.message, place, exc.allowed) from None
            if a in x:
                raise self._error(f"in claim {text!r}: {self.state.types[a]} is given twice", place)
            x[a] = int(num)
        missing = [t for i, t in enumerate(self.state.types) if i not in x]
        if missing:
            raise self._error(f"in claim {text!r}: no count for {', '.join(missing)}", place,
                              allowed="every card type, e.g. " + " ".join(f"{t}=0" for t in self.state.types))
        return tuple(x[i] for i in range(len(self.state.types)))

    # -- suggest --------------------------------------------------------------------------------------
    def suggest(self, *, method: str | None = None, options: Mapping[str, Any] | None = None) -> Report:
        opts = dict(options or {})
        self._budget(opts)
        s = self.state
        strategy = self._strategy(method, opts, "--method")
        if not s.consistent:
            return Report(self.game, Status.CONTRADICTION, conflict=self._conflict("cpsat", None))
        know = s.statistic()
        if know.cards_left == 0:
            raise SleuthError(f"{self.doc.file or 'puzzle'}: every card has been guessed; nothing to suggest")
        guess, scores = s.best(strategy)
        further = s.further(strategy, required=False)
        probs = know.next_probabilities(s.arrangements)
        values = strategy.values(know) if isinstance(strategy, Optimal) else None
        per_card = {}
        for a, t in enumerate(s.types):
            entry: dict[str, Any] = {"p": probs[a], "score": _score(scores[a])}
            if values is not None:
                entry["value"] = values[a]
                entry["score"] = values[a]
            per_card[t] = entry
        fields: dict[str, Any] = {"method": strategy.name, "guess": s.types[guess], "expected": None,
                                  "expected_decimal": None, "distribution": None, "cards": per_card}
        if further is not None:
            fields.update(expected=further.expected, expected_decimal=float(further.expected),
                          distribution={str(k): q for k, q in further.probabilities.items()})
            outlook = f"expected further correct guesses {decimal(further.expected)}"
        else:
            outlook = "expected further correct guesses not computed (the deck is too large for an exact value)"
        label = "E(further correct) if guessed" if values is not None else strategy.label
        lines = [self._header(), f"Guess {s.types[guess]} ({strategy.describe()}): {outlook}",
                 f"  {'card':<8} {'P(next)':>12}  {label}"]
        for a, t in enumerate(s.types):
            sc = per_card[t]["score"]
            shown = decimal(sc)
            lines.append(f"  {t:<8} {decimal(probs[a]):>12}  {shown}" + ("  <- guess" if a == guess else ""))
        return Report(self.game, Status.OK, fields, "\n".join(lines))


def _score(value: Any) -> Any:
    return value if isinstance(value, Fraction) else float(value)


def _fmt(comp: Mapping[str, int]) -> str:
    return " ".join(f"{t}={k}" for t, k in comp.items())


__all__ = ["CardGuessPuzzle"]


# Card guessing's code for each registered derivation (models/cardguess/game.py): the posterior and next card.
_POSTERIORS = handlers(GAME.methods, {"count": CardGuessPuzzle._counted, "model": CardGuessPuzzle._enumerated,
                                      "filter": CardGuessPuzzle._filtered})
