"""The Motus / Lingo, Wordle and Mastermind puzzle: possible secrets, claims and suggestions.

The possible secrets are defined by the constraint model of :mod:`.model` (``--method model``); for whole
dictionaries the same set comes faster from the vectorised feedback rule (``--method table``, the default).
Answer claims are judged over the answers the proposals leave (the model judges them when none is left, and
on another backend); an entailed or refuted claim names a minimal set of proposals that forces it.
"""

from __future__ import annotations

from fractions import Fraction
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from sleuth.claims import And, Atom, Implies, Not, Or, to_lit
from sleuth.claims import read as read_claim
from sleuth.derive import find_derivation, handlers
from sleuth.engine import Engine
from sleuth.errors import PuzzleError
from sleuth.explain import minimal_subset
from sleuth.formula import Node
from sleuth.model import Constraint, Lit
from sleuth.puzzle import Puzzle, PuzzleDoc, emit_notes
from sleuth.results import Labelled, ClaimResult, ClaimSpec, Report, Status, Verdict, contradiction_text, decimal

from . import strategy as st
from .emi import GameTree, SearchTimeout, one_search_kernel
from .game import MOTUS
from .model import MotusModel, model_for
from .space import WordSpace
from .state import MotusState, read_item, read_state

HARD_SOLVE = " (hard mode is on: it limits the guesses, not the answers left)"
HARD_SUGGEST = "Hard mode (hard = true): only guesses that keep every hint so far are considered"
MINIMAX_NOTE_AT = 200  # possible words from which an exact minimax search is announced up front
SHOW_LIMIT = 60
TIE_SHOWN = 10
METHOD_WORDS = {  # what a scoring method prefers, in words (the others: their line in sleuth games GAME)
    "sum": "fewest possible answers left on average",
    "sumgini": "fewest possible answers left on average, then the most even split",
    "max": "fewest possible answers left in the worst case",
    "minimax": "fewest guesses in the worst case (exact game tree)",
    "information": "the most information (bits) about the answer",
}


@dataclass(frozen=True)
class SecretAnswer(Labelled):
    """Motus, Wordle and Mastermind's answer: the secrets still possible (sorted)."""

    possible: Sequence[str]
    count: int


class SecretPuzzle(Puzzle):
    """A Motus, Wordle or Mastermind grid."""

    def __init__(self, doc: PuzzleDoc, state: MotusState) -> None:
        super().__init__(doc)
        self.state = state
        self.space = state.space
        self.proposals = state.proposals

    # -- possible secrets -------------------------------------------------------------------------------
    def possible_mask(self) -> np.ndarray:
        """Answers consistent with every proposal (vectorised feedback rule)."""
        mask = np.ones(len(self.space.answers), dtype=bool)
        if self.state.rows:  # a shared grid without its words: reverse solving
            from .grid import reverse_mask

            mask = reverse_mask(self.space.matrix(), list(self.state.rows), self.space.found)
        if self.state.answer is not None:
            mask &= np.array([w == self.state.answer for w in self.space.answers])
        for p in self.proposals:
            if not p.canonical:
                return np.zeros_like(mask)
            mask &= self.space.row_codes(p.text) == p.code
        return mask

    def possible(self, *, backend: str = "cpsat", method: str = "table") -> list[str]:
        """The possible answers, by the vectorised table or by enumerating the model on ``backend``."""
        if self.state.rows:  # a shared grid: its rows are read on the table only
            return self._tabled(backend)
        return _POSSIBLE[find_derivation(self.doc.game.methods, method).name](self, backend)

    def _tabled(self, backend: str) -> list[str]:
        return [w for w, ok in zip(self.space.answers, self.possible_mask(), strict=True) if ok]

    def _enumerated(self, backend: str) -> list[str]:
        sm = model_for(self.state, backend)
        return sorted(sm.decode(values) for values in Engine(sm.model, backend).valids(sm.variables))

    def _engine(self, backend: str) -> tuple[Engine, MotusModel]:
        sm = model_for(self.state, backend)
        return Engine(sm.model, backend), sm

    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        opts = dict(options or {})
        choice = self.derivation(opts, backend)
        words = self.possible(backend=backend, method=choice.name)
        if not words:
            conflict = self._engine(backend)[0].conflict() or ()
            return Report(self.game, Status.CONTRADICTION, {"possible": [], "count": 0},
                          contradiction_text(conflict), tuple(conflict))
        noun = self.space.noun
        shown = ", ".join(words[:SHOW_LIMIT]) + (f", ... ({len(words) - SHOW_LIMIT} more: --json lists them all)"
                                                 if len(words) > SHOW_LIMIT else "")
        text = (f"{self.space.label}: {len(words)} possible {noun}{'s' if len(words) != 1 else ''} "
                f"after {len(self.proposals)} proposal{'s' if len(self.proposals) != 1 else ''}"
                f"{HARD_SOLVE if self.state.hard else ''}\n{shown}")
        if self.state.rows:
            text = (f"{self.space.label}: {len(words)} answer{'s' if len(words) != 1 else ''} consistent with the "
                    f"colours of the grid's {len(self.state.rows)} rows alone (some allowed guess gives each row"
                    f"{'; hard mode not applied' if self.state.hard else ''})\n{shown}")
        return Report.of(self.game, SecretAnswer(words, len(words), **choice.fields()), text)

    # -- claims -----------------------------------------------------------------------------------------
    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        opts = dict(options or {})
        if self.state.rows or self.state.answer is not None:
            raise PuzzleError("claims are judged on [[guess]] tables, not on a shared grid", file=self.doc.file,
                              place="grid", allowed="sleuth solve on the grid; [[guess]] tables for claims")
        masks = self._proposal_masks()
        if backend == "cpsat" and _all_of(masks, len(self.space.answers)).any():
            return [self._verify_best(claim, target, opts) if isinstance(target, str)
                    else self._verify_on_table(claim, target, masks)
                    for claim, target in ((c, self._read_claim_tree(c)) for c in claims)]
        return self.verify_on_model(claims, backend=backend, options=opts)

    def verify_on_model(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
                        options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        """Every claim judged on the constraint model (what :meth:`verify` does with no world left or on
        another backend; the tests hold the two paths equal)."""
        opts = dict(options or {})
        sm = model_for(self.state, backend)
        read = [self._read_claim(claim, sm) for claim in claims]
        engine = Engine(sm.model, backend)
        results = []
        for claim, target in zip(claims, read, strict=True):
            if isinstance(target, str):
                results.append(self._verify_best(claim, target, opts))
                continue
            results.append(engine.verify(target, claim.text, claim.expect,
                                         world=lambda values: sm.decode([values[v] for v in sm.variables])))
        return results

    def _proposal_masks(self) -> list[np.ndarray]:
        """Per proposal, the answers its feedback admits (none for a feedback no secret gives)."""
        n = len(self.space.answers)
        return [self.space.row_codes(p.text) == p.code if p.canonical else np.zeros(n, dtype=bool)
                for p in self.proposals]

    def _read_claim_tree(self, claim: ClaimSpec) -> str | tuple[Node, dict[Atom, tuple[str, str]]]:
        """A ``best guess`` claim as its word; an answer claim as its statements (and, or, not) and theirs."""
        def atom(text: str) -> tuple[str, str]:
            return self._parse_claim(replace(claim, text=text))

        tree, payload = read_claim(claim.text, atom, file=self.doc.file, place=claim.place)
        if isinstance(tree, Atom) and payload[tree][0] == "best":
            return payload[tree][1]
        if any(kind == "best" for kind, _ in payload.values()):
            raise PuzzleError("'best guess' claims are judged one at a time; 'and', 'or' combine answer claims",
                              file=self.doc.file, place=claim.place)
        return tree, payload

    def _verify_on_table(self, claim: ClaimSpec, target: tuple[Node, dict[Atom, tuple[str, str]]],
                         masks: list[np.ndarray]) -> ClaimResult:
        """An answer claim judged over the answers the proposals admit (the same verdict as on the model; the
        observations that force it are a minimal subset found by deletion, the later guesses tried first, so the
        earliest that suffice; a witness is the first answer in the list's order where the claim is true, or false)."""
        tree, payload = target
        words = np.asarray(self.space.answers)

        def leaf(a: Atom) -> np.ndarray:
            kind, word = payload[a]
            return (words != word) if kind == "not" else (words == word)

        truth = _truth(tree, leaf)
        names = [p.name for p in self.proposals]
        by_name = dict(zip(names, masks, strict=True))

        def admitted(chosen: list[str]) -> np.ndarray:
            return _all_of([by_name[n] for n in chosen], words.size)

        possible = admitted(names)
        true_at, false_at = np.flatnonzero(possible & truth), np.flatnonzero(possible & ~truth)
        if not false_at.size:
            why = minimal_subset(names, lambda chosen: not (admitted(chosen) & ~truth).any(), last_first=True)
            return ClaimResult(claim.text, Verdict.ENTAILED, tuple(why), expect=claim.expect)
        if not true_at.size:
            why = minimal_subset(names, lambda chosen: not (admitted(chosen) & truth).any(), last_first=True)
            return ClaimResult(claim.text, Verdict.REFUTED, tuple(why), str(words[false_at[0]]), expect=claim.expect)
        return ClaimResult(claim.text, Verdict.OPEN, (), {"true": str(words[true_at[0]]),
                                                           "false": str(words[false_at[0]])}, expect=claim.expect)

    def _read_claim(self, claim: ClaimSpec, sm: MotusModel) -> str | Constraint | Lit:
        """A ``best guess`` claim as its word; answer claims (combined with and/or/not) as a model constraint."""
        def atom(text: str) -> tuple[str, str]:
            return self._parse_claim(replace(claim, text=text))

        tree, payload = read_claim(claim.text, atom, file=self.doc.file, place=claim.place)
        if isinstance(tree, Atom):
            kind, arg = payload[tree]
            return arg if kind == "best" else sm.claim(arg, negated=(kind == "not"))
        if any(kind == "best" for kind, _ in payload.values()):
            raise PuzzleError("'best guess' claims are judged one at a time; 'and', 'or' combine answer claims",
                              file=self.doc.file, place=claim.place)

        def lit(a: Atom) -> Lit:
            kind, arg = payload[a]
            return sm.model.reify(sm.claim(arg, negated=(kind == "not")))

        return to_lit(sm.model, tree, lit)

    def _parse_claim(self, claim: ClaimSpec) -> tuple[str, str]:
        words = claim.text.split()
        low = [w.lower() for w in words]
        allowed = "answer is <WORD>, answer is not <WORD>, best guess is <WORD> (with method = ...)"
        if len(words) == 3 and low[:2] == ["answer", "is"]:
            return "is", self._item(words[2], claim.place)
        if len(words) == 4 and low[:3] == ["answer", "is", "not"]:
            return "not", self._item(words[3], claim.place)
        if len(words) == 4 and low[:3] == ["best", "guess", "is"]:
            return "best", self._item(words[3], claim.place)
        raise PuzzleError(f"cannot read claim {claim.text!r}", file=self.doc.file, place=claim.place,
                          allowed=allowed)

    def _item(self, text: str, place: str) -> str:
        return read_item(self.space, text, self.doc.file, place)

    def _verify_best(self, claim: ClaimSpec, word: str, opts: Mapping[str, Any]) -> ClaimResult:
        method = st.Method(self.doc.game.suggest_method(claim.options.get("method", opts.get("method")),
                                                        file=self.doc.file, place=f"{claim.place}.method").name)
        pick = self.best(method, time_limit=_time_limit(opts))
        if pick is None:
            return ClaimResult(claim.text, Verdict.TIMEOUT, expect=claim.expect, detail="time limit reached")
        tied = pick.tied or (pick.word,)
        # a tie is broken alphabetically, a convention: the claim is open for every tied word
        verdict = Verdict.ENTAILED if tied == (word,) else Verdict.OPEN if word in tied else Verdict.REFUTED
        detail = f"{method.title} proposes {pick.word}" + (f" (tied with {len(tied) - 1} more: "
                                                           f"{', '.join(w for w in tied[:10] if w != pick.word)})"
                                                           if len(tied) > 1 else "")
        return ClaimResult(claim.text, verdict, (f"method {method.title}",), None if verdict is Verdict.ENTAILED
                           else {"best": pick.word}, claim.expect, detail)

    # -- suggestions ------------------------------------------------------------------------------------
    def best(self, method: st.Method, *, time_limit: float | None = None) -> Suggestion | None:
        """The next proposal of ``method`` (None when Minimax ran out of time)."""
        mask = self.possible_mask()
        poss = np.flatnonzero(mask)
        if poss.size == 0:
            return None
        proposed = {p.text for p in self.proposals}
        possible_rows = np.zeros(len(self.space.guesses), dtype=bool)
        possible_rows[self.space.answer_rows[poss]] = True
        # a proposal already made is left out, unless it is still possible (it was the secret: it wins again)
        rows = np.array([i for i, w in enumerate(self.space.guesses) if w not in proposed or possible_rows[i]],
                        dtype=np.int64)
        if self.state.hard:  # hard mode: only guesses that keep every hint so far
            rows = np.intersect1d(rows, self.hard_rows())
        st.check_matrix(rows.size, poss.size, 2)  # refused past the memory budget before it is built
        codes = self.space.codes(self.space.guess_array[rows], self.space.answer_array[poss])
        minimax = None
        if method is st.Method.MINIMAX:
            if poss.size > MINIMAX_NOTE_AT:
                bound = f"stops at the time limit, {time_limit:g} s" if time_limit is not None else "has no time limit"
                self.doc.note(f"exact minimax over {poss.size} possible and {rows.size} proposable words can take "
                              f"long; it {bound} (--time-limit)", "--method minimax")
                emit_notes(self)
            tree = GameTree(codes, self.space.found, time_limit=time_limit, kernel=one_search_kernel())

            def minimax(cand: np.ndarray) -> np.ndarray:
                return cand[tree.optimal_rows(cand, np.arange(poss.size))]
            try:
                tied = st.best_rows(codes, possible_rows[rows], method, minimax)
            except SearchTimeout:
                return None
        else:
            tied = st.best_rows(codes, possible_rows[rows], method)
        pick = int(tied.min())
        stats = st.row_stats(codes[[pick]])
        return Suggestion(self.space.guesses[rows[pick]], method, int(poss.size), bool(possible_rows[rows[pick]]),
                          int(stats.sumsq[0]), int(stats.largest[0]), int(stats.classes[0]),
                          st.gini(stats, 0, int(poss.size)), float(stats.detail("entropy")[0]),
                          float(stats.detail("information")[0]),
                          tuple(sorted(self.space.guesses[rows[i]] for i in tied.tolist())))

    def hard_rows(self) -> np.ndarray:
        """The guess rows hard mode allows after the proposals (every green letter in its place, every revealed
        letter used at least as often): what ``suggest`` picks from when the file says ``hard = true``."""
        from .optimal import hard_rows

        assert isinstance(self.space, WordSpace)
        return hard_rows(self.space, [(p.text, p.code) for p in self.proposals])

    def suggest(self, *, method: str | None = None, options: Mapping[str, Any] | None = None) -> Report:
        opts = dict(options or {})
        chosen = st.Method(self.doc.game.suggest_method(method).name)  # checked by the engine (the declaration)
        mask = self.possible_mask()
        if not mask.any():
            conflict = self._engine("cpsat")[0].conflict() or ()
            return Report(self.game, Status.CONTRADICTION, {"possible": [], "count": 0},
                          contradiction_text(conflict), tuple(conflict))
        if opts.get("top") is not None:
            return self._top(np.flatnonzero(mask), self.integer(opts, "top", 1, 1, len(self.space.guesses)))
        pick = self.best(chosen, time_limit=_time_limit(opts))
        if pick is None:
            return Report(self.game, Status.TIMEOUT, {"method": chosen.value},
                          f"{chosen.title}: time limit reached before the game value was proven")
        fields = {"method": chosen.value, "suggestion": pick.word, "possible_word": pick.possible,
                  "count": pick.count, "scores": pick.scores(), "tied": list(pick.tied)}
        if self.state.hard:
            fields["hard"] = True
        return Report(self.game, Status.OK, fields, self._advice_text(pick, chosen))

    def _advice_text(self, pick: Suggestion, method: st.Method) -> str:
        """The suggestion in plain words: what the guess leaves on average and at worst, and the ties."""
        noun = self.space.noun
        nouns = noun + ("s" if pick.count != 1 else "")
        average = Fraction(pick.sumsq, pick.count)
        lines = [f"Next guess: {pick.word} ({'it could be the answer' if pick.possible else f'not a possible {noun}'}"
                 f"; {pick.count} {nouns} still possible).",
                 f"After it, on average {decimal(average)} of them {'stays' if average == 1 else 'stay'} possible, "
                 f"at worst {pick.largest}; its "
                 f"{self.space.marks} split them into {pick.classes} group"
                 f"{'s' if pick.classes != 1 else ''}.",
                 f"Chosen by {method.title}: "
                 f"{METHOD_WORDS.get(method.value, self.doc.game.suggest_method(method.value).meaning)} "
                 "(the technical scores are in --json)."]
        others = [w for w in pick.tied if w != pick.word]
        if others:
            shown = ", ".join(others[:TIE_SHOWN])
            more = f" and {len(others) - TIE_SHOWN} more (--json lists them all)" if len(others) > TIE_SHOWN else ""
            lines.append(f"Equally good by this method ({len(pick.tied)} tie; the first in alphabetical order is "
                         f"shown): {shown}{more}.")
        if self.state.hard:
            lines.append(HARD_SUGGEST + ".")
        return "\n".join(lines)

    def _top(self, poss: np.ndarray, top: int) -> Report:
        """The ``top`` guesses of least exact expected number of guesses (this one included), or, when the
        exact search would take too long, the ``top`` of highest information, labelled heuristic."""
        from .optimal import Optimal, SearchTimeout

        proposed = {self.space.guess_index[p.text] for p in self.proposals}
        allowed = np.array([g for g in range(len(self.space.guesses)) if g not in proposed], dtype=np.int64)
        if self.state.hard:  # the exact search in hard mode: the guesses allowed now, and after each feedback
            allowed = np.intersect1d(allowed, self.hard_rows())
        rows: list[dict[str, Any]] = []
        pairs = poss.size * allowed.size
        exact = pairs <= EXACT_PAIRS
        if exact:
            kernel = "python" if pairs <= PYTHON_PAIRS else "auto"   # auto: compiled where available (OPTIMAL_KERNEL)
            search = Optimal(self.space, kernel=kernel, node_limit=EXACT_NODES, hard=self.state.hard)
            try:
                ranked = search.rank(poss, allowed, top, used=len(self.proposals))
                rows = [{"guess": self.space.guesses[g], "expected": round(t / poss.size, 6), "total": t}
                        for g, t in ranked]
            except SearchTimeout:
                exact = False
        if not exact:
            codes = self.space.codes(self.space.guess_array[allowed], self.space.answer_array[poss])
            info = st.row_stats(codes).detail("information")
            order = np.lexsort((allowed, -np.round(info, 12)))[:top]
            rows = [{"guess": self.space.guesses[allowed[j]], "information": round(float(info[j]), 6)}
                    for j in order]
        kind = "exact" if exact else "heuristic"
        head = (f"{poss.size} possible; top {len(rows)} by exact expected number of guesses (this one included)"
                if exact else f"{poss.size} possible; the exact search would take too long: top {len(rows)} by "
                              f"information (heuristic, bits)")
        lines = [f"  {r['guess']:<8} " + (f"{r['expected']:.4f} ({r['total']} guesses over {poss.size})" if exact
                                          else f"{r['information']:.4f} bits") for r in rows]
        if self.state.hard:
            lines.append(HARD_SUGGEST + (", this one and every one after it" if exact else "") + ".")
        fields: dict[str, Any] = {"ranking": kind, "count": int(poss.size), "top": rows}
        if self.state.hard:
            fields["hard"] = True
        return Report(self.game, Status.OK, fields,
                      "\n".join([head] + lines))


EXACT_PAIRS = 2_000_000  # possible answers x allowed guesses above which suggest does not try the exact search
PYTHON_PAIRS = 60_000    # up to this many the plain Python kernel; beyond, numba (compiled once, ~20 s) if present
EXACT_NODES = 20_000     # nodes the exact search of suggest may visit before it falls back to the heuristic


@dataclass(frozen=True)
class Suggestion:
    word: str
    method: st.Method
    count: int
    possible: bool
    sumsq: int
    largest: int
    classes: int
    gini: Any
    entropy: float
    information: float
    tied: tuple[str, ...] = ()   # every proposal the method ranks as good (``word`` is the first)

    def scores(self) -> dict[str, Any]:
        return {"sum": self.sumsq, "max": self.largest, "classes": self.classes, "gini": self.gini,
                "entropy": round(self.entropy, 12), "information": round(self.information, 12)}


def _all_of(masks: Sequence[np.ndarray], n: int) -> np.ndarray:
    """The answers every mask admits (all ``n`` for no mask)."""
    out = np.ones(n, dtype=bool)
    for m in masks:
        out &= m
    return out


def _truth(tree: Node, leaf: Callable[[Atom], np.ndarray]) -> np.ndarray:
    """A claim's truth at every answer (vectorised :func:`sleuth.claims.evaluate`)."""
    if isinstance(tree, Atom):
        return leaf(tree)
    if isinstance(tree, Not):
        return ~_truth(tree.operand, leaf)
    if isinstance(tree, Implies):
        return ~_truth(tree.left, leaf) | _truth(tree.right, leaf)
    if not isinstance(tree, (And, Or)):
        raise TypeError(tree)
    parts = [_truth(item, leaf) for item in tree.args]
    return np.logical_and.reduce(parts) if isinstance(tree, And) else np.logical_or.reduce(parts)


def _time_limit(opts: Mapping[str, Any]) -> float | None:
    value = opts.get("time-limit")
    return float(value) if value is not None else 60.0


def load(doc: PuzzleDoc) -> SecretPuzzle:
    """Read a ``motus``, ``wordle`` or ``mastermind`` puzzle."""
    return SecretPuzzle(doc, read_state(doc))


# Motus's code for each registered derivation (models/motus/game.py): the possible answers.
_POSSIBLE = handlers(MOTUS.methods, {"table": SecretPuzzle._tabled, "model": SecretPuzzle._enumerated})
