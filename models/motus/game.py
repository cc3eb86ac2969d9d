"""Puzzle files of Motus / Lingo, Wordle and Mastermind: possible secrets, claims and suggestions.

The possible secrets are the solutions of a constraint model (:func:`build_model`): one variable per
letter (or peg), the dictionary as a table constraint, and each proposal with its feedback as one named
observation.  For whole dictionaries the same set comes faster from the vectorised feedback rule
(``--set engine=table``, the default with CP-SAT); ``--set engine=model`` or the python-constraint backend
enumerate the model instead.  Claims are always judged on the model, so that an entailed claim names the
proposals that force it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from sleuth.claims import Atom, to_lit
from sleuth.claims import read as read_claim
from sleuth.engine import Engine
from sleuth.errors import PuzzleError
from sleuth.model import Constraint, LinearExpr, Lit, Model, Table, Var
from sleuth.puzzle import Puzzle, PuzzleDoc, emit_notes
from sleuth.results import Answer, ClaimResult, ClaimSpec, Report, Status, Verdict, contradiction_text
from sleuth.schema import Section

from . import feedback as fb
from . import strategy as st
from .emi import GameTree, SearchTimeout
from .space import CodeSpace, Space, WordSpace
from .words import ALPHABET, dictionary, is_plain, normalise

MINIMAX_NOTE_AT = 200  # possible words from which an exact minimax search is announced up front
MAX_CODES = 10_000  # the full feedback matrix of suggest and studies stays small (10^8 pairs)
DEFAULT_METHOD = {"motus": "sumgini", "wordle": "sumgini", "mastermind": "max"}
SHOW_LIMIT = 60
EMOJI = str.maketrans({"🟩": "G", "🟨": "Y", "⬛": "B", "⬜": "B", "\ufe0f": None})  # the squares Wordle shares


@dataclass(frozen=True)
class Proposal:
    """One ``[[guess]]``: the proposal and its feedback code (computed from ``secret`` when given)."""

    index: int
    text: str
    code: int
    marks: str          # as shown: GYB string, or "black b, white w"
    canonical: bool     # False: no secret can produce this feedback

    @property
    def name(self) -> str:
        return f"guess {self.index} ({self.text}: {self.marks})"


@dataclass(frozen=True)
class SecretAnswer(Answer):
    """Motus, Wordle and Mastermind's answer: the secrets still possible (sorted)."""

    possible: Sequence[str]
    count: int
    method: str
    exact: bool
    backend: str | None


class SecretPuzzle(Puzzle):
    """A Motus, Wordle or Mastermind grid."""

    def __init__(self, doc: PuzzleDoc, space: Space, proposals: list[Proposal]) -> None:
        super().__init__(doc)
        self.space = space
        self.proposals = proposals

    # -- possible secrets -------------------------------------------------------------------------------
    def possible_mask(self) -> np.ndarray:
        """Answers consistent with every proposal (vectorised feedback rule)."""
        mask = np.ones(len(self.space.answers), dtype=bool)
        for p in self.proposals:
            if not p.canonical:
                return np.zeros_like(mask)
            mask &= self.space.row_codes(p.text) == p.code
        return mask

    def possible(self, *, backend: str = "cpsat", method: str = "table") -> list[str]:
        """The possible answers, by the vectorised table or by enumerating the model on ``backend``."""
        if method == "table":
            return [w for w, ok in zip(self.space.answers, self.possible_mask(), strict=True) if ok]
        sm = build_model(self.space, self.proposals, per_word=_per_word(self.space, backend))
        return sorted(sm.decode(values) for values in Engine(sm.model, backend).valids(sm.variables))

    def _engine(self, backend: str) -> tuple[Engine, SecretModel]:
        sm = build_model(self.space, self.proposals, per_word=_per_word(self.space, backend))
        return Engine(sm.model, backend), sm

    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        opts = self.reject_options(options, ("method",))
        choice = self.derivation(opts, backend)
        words = self.possible(backend=backend, method=choice.name)
        if not words:
            conflict = self._engine(backend)[0].conflict() or ()
            return Report(self.game, Status.CONTRADICTION, {"possible": [], "count": 0},
                          contradiction_text(conflict), tuple(conflict))
        noun = "code" if isinstance(self.space, CodeSpace) else "word"
        shown = ", ".join(words[:SHOW_LIMIT]) + (", ..." if len(words) > SHOW_LIMIT else "")
        text = (f"{self.space.label}: {len(words)} possible {noun}{'s' if len(words) != 1 else ''} "
                f"after {len(self.proposals)} proposal{'s' if len(self.proposals) != 1 else ''}\n{shown}")
        return Report.of(self.game, SecretAnswer(words, len(words), **choice.fields()), text)

    # -- claims -----------------------------------------------------------------------------------------
    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        opts = self.reject_options(options, ("time-limit", "method"))
        sm = build_model(self.space, self.proposals, per_word=_per_word(self.space, backend))
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

    def _read_claim(self, claim: ClaimSpec, sm: SecretModel) -> str | Constraint | Lit:
        """A ``best guess`` claim as its word; answer claims (combined with and/or/not) as a model constraint."""
        def atom(text: str) -> tuple[str, str]:
            return self._parse_claim(replace(claim, text=text))

        tree, payload = read_claim(claim.text, atom, file=self.doc.file, place=claim.place)
        if isinstance(tree, Atom):
            kind, arg = payload[tree]  # type: ignore[misc]
            return arg if kind == "best" else sm.claim(arg, negated=(kind == "not"))
        if any(kind == "best" for kind, _ in payload.values()):  # type: ignore[misc]
            raise PuzzleError("'best guess' claims are judged one at a time; 'and', 'or' combine answer claims",
                              file=self.doc.file, place=claim.place)

        def lit(a: Atom) -> Lit:
            kind, arg = payload[a]  # type: ignore[misc]
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
        method = st.parse_method(str(claim.options.get("method", opts.get("method", DEFAULT_METHOD[self.game]))),
                                 place=f"{claim.place}.method")
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
        codes = self.space.codes(self.space.guess_array[rows], self.space.answer_array[poss])
        minimax = None
        if method is st.Method.MINIMAX:
            if poss.size > MINIMAX_NOTE_AT:
                bound = f"stops at the time limit, {time_limit:g} s" if time_limit is not None else "has no time limit"
                self.doc.note(f"exact minimax over {poss.size} possible and {rows.size} proposable words can take "
                              f"long; it {bound} (--time-limit)", "--method minimax")
                emit_notes(self)
            tree = GameTree(codes, self.space.found, time_limit=time_limit)

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
                          st.gini(stats, 0, int(poss.size)), float(stats.entropy[0]), float(stats.information[0]),
                          tuple(sorted(self.space.guesses[rows[i]] for i in tied.tolist())))

    def suggest(self, *, method: str | None = None, options: Mapping[str, Any] | None = None) -> Report:
        opts = self.reject_options(options, ("time-limit", "top"))
        chosen = st.parse_method(method or DEFAULT_METHOD[self.game])
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
                  "count": pick.count, "scores": pick.scores()}
        noun = "code" if self.game == "mastermind" else "word"
        text = (f"{chosen.title} proposes {pick.word} "
                f"({'a possible' if pick.possible else 'not a possible'} {noun}; "
                f"{pick.count} possible; sum {pick.sumsq}, max {pick.largest}, {pick.classes} classes, "
                f"gini {float(pick.gini):.3f}, entropy {pick.entropy:.3f}, information {pick.information:.3f})")
        return Report(self.game, Status.OK, fields, text)


    def _top(self, poss: np.ndarray, top: int) -> Report:
        """The ``top`` guesses of least exact expected number of guesses (this one included), or, when the
        exact search would take too long, the ``top`` of highest information, labelled heuristic."""
        from .optimal import Optimal, SearchTimeout

        proposed = {self.space.guess_index[p.text] for p in self.proposals}
        allowed = np.array([g for g in range(len(self.space.guesses)) if g not in proposed], dtype=np.int64)
        rows: list[dict[str, Any]] = []
        pairs = poss.size * allowed.size
        exact = pairs <= EXACT_PAIRS
        if exact:
            kernel = "python" if pairs <= PYTHON_PAIRS or importlib.util.find_spec("numba") is None else "numba"
            search = Optimal(self.space, kernel=kernel, node_limit=EXACT_NODES)
            try:
                ranked = search.rank(poss, allowed, top, used=len(self.proposals))
                rows = [{"guess": self.space.guesses[g], "expected": round(t / poss.size, 6), "total": t}
                        for g, t in ranked]
            except SearchTimeout:
                exact = False
        if not exact:
            codes = self.space.codes(self.space.guess_array[allowed], self.space.answer_array[poss])
            info = st.row_stats(codes).information
            order = np.lexsort((allowed, -np.round(info, 12)))[:top]
            rows = [{"guess": self.space.guesses[allowed[j]], "information": round(float(info[j]), 6)}
                    for j in order]
        kind = "exact" if exact else "heuristic"
        head = (f"{poss.size} possible; top {len(rows)} by exact expected number of guesses (this one included)"
                if exact else f"{poss.size} possible; the exact search would take too long: top {len(rows)} by "
                              f"information (heuristic, bits)")
        lines = [f"  {r['guess']:<8} " + (f"{r['expected']:.4f} ({r['total']} guesses over {poss.size})" if exact
                                          else f"{r['information']:.4f} bits") for r in rows]
        return Report(self.game, Status.OK, {"ranking": kind, "count": int(poss.size), "top": rows},
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


def _time_limit(opts: Mapping[str, Any]) -> float | None:
    value = opts.get("time-limit")
    return float(value) if value is not None else 60.0


# -- the constraint model ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class SecretModel:
    """A constraint model of the secret: its variables, how to read a solution, how to state a claim."""

    space: Space
    model: Model
    variables: list[Var]
    per_word: bool

    def decode(self, values: Sequence[int]) -> str:
        if self.per_word:
            return self.space.answers[values[0]]
        return decode(self.space, values)

    def claim(self, item: str, *, negated: bool = False) -> Table:
        """``answer is ITEM`` (or its negation) as a constraint on the variables."""
        if self.per_word:
            rows = [(i,) for i, w in enumerate(self.space.answers) if w == item]
        else:
            rows = [tuple(map(int, self.space.encode([item])[0]))]
        return Table(tuple(self.variables), tuple(rows), forbidden=negated)


def _per_word(space: Space, backend: str) -> bool:
    return isinstance(space, WordSpace) and backend.lower() not in ("cpsat", "cp-sat", "ortools", "or-tools")


def build_model(space: Space, proposals: Sequence[Proposal], *, per_word: bool = False) -> SecretModel:
    """Variables per position; the secrets as a table; one observation per proposal.

    Word feedback (the seed's rule, exactly): ``G`` at ``i`` iff the secret has the letter there; for each
    letter ``a`` of the proposal with ``g`` right-place and ``y`` misplaced marks, the secret has exactly
    ``g + y`` copies of ``a`` when some ``a`` is marked absent, at least ``g + y`` otherwise.  A feedback no
    secret can produce (a misplaced mark after an absent one for the same letter) is unsatisfiable.
    Mastermind: ``black = sum [c_i = g_i]`` and ``black + white = sum_a min(count_a, copies of a in g)``.

    ``per_word``: one variable, the index of the secret among the answers, and each proposal as the table
    of the answers that :func:`feedback.feedback` (the pair-by-pair rule) agrees with.  The letter model's
    counting constraints need many helper booleans, on which python-constraint's plain backtracking cannot
    prove infeasibility in reasonable time; this form is what that backend gets for words.
    """
    model = Model()
    if per_word:
        word = model.int_var(0, len(space.answers) - 1, "word")
        for p in proposals:
            with model.observation(p.name):
                model.add_table([word], [(i,) for i, w in enumerate(space.answers)
                                         if p.canonical and fb.feedback(p.text, w) == p.marks])
        return SecretModel(space, model, [word], True)
    if isinstance(space, CodeSpace):
        variables = [model.int_var(0, space.colours - 1, f"peg {i + 1}") for i in range(space.pegs)]
    else:
        variables = [model.int_var(0, 25, f"letter {i + 1}") for i in range(len(space.answers[0]))]
        model.add_table(variables, (tuple(map(int, row)) for row in space.answer_array), name="dictionary")
    for p in proposals:
        with model.observation(p.name):
            if isinstance(space, CodeSpace):
                _mastermind_constraints(model, space, variables, p)
            else:
                _word_constraints(model, variables, p)
    return SecretModel(space, model, variables, False)


def _word_constraints(model: Model, variables: list[Var], p: Proposal) -> None:
    if not p.canonical:
        lit = model.indicator(variables[0], 0)
        model.add_all([lit, ~lit])
        return
    letters = [ALPHABET.index(c) for c in p.text]
    for var, letter, mark in zip(variables, letters, p.marks, strict=True):
        model.add(var == letter if mark == "G" else var != letter)
    for letter in sorted(set(letters)):
        marks = [m for lt, m in zip(letters, p.marks, strict=True) if lt == letter]
        shown = sum(m != "B" for m in marks)
        count = LinearExpr.sum(model.indicator(v, letter) for v in variables)
        model.add(count == shown if "B" in marks else count >= shown)


def _mastermind_constraints(model: Model, space: CodeSpace, variables: list[Var], p: Proposal) -> None:
    guess = [int(c) - 1 for c in p.text]
    black, white = divmod(p.code, space.pegs + 1)
    model.add_exactly(black, [model.indicator(v, c) for v, c in zip(variables, guess, strict=True)])
    common = []
    for colour in sorted(set(guess)):
        copies = guess.count(colour)
        count = LinearExpr.sum(model.indicator(v, colour) for v in variables)
        low = model.int_var(0, copies, f"min(count {colour + 1}, {copies}) in guess {p.index}", aux=True)
        with model.unguarded():
            enough = model.reify(count >= copies, f"count {colour + 1} >= {copies} in guess {p.index}")
            model.add(low == copies, when=enough)
            model.add(low == count, when=~enough)
        common.append(low)
    model.add(LinearExpr.sum(common) == black + white)


def decode(space: Space, values: Sequence[int]) -> str:
    if isinstance(space, CodeSpace):
        return "".join(str(v + 1) for v in values)
    return "".join(ALPHABET[v] for v in values)


# -- reading files ---------------------------------------------------------------------------------------

def read_item(space: Space, value: object, file: str | None, place: str) -> str:
    """A word or code as the user wrote it, checked against the space's shape."""
    if isinstance(space, CodeSpace):
        if isinstance(value, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            text = "".join(str(x) for x in value)
        elif isinstance(value, str):
            text = "".join(value.split())
        else:
            raise PuzzleError("expected a code such as \"1122\" or [1, 1, 2, 2]", file=file, place=place)
        symbols = "123456789"[: space.colours]
        if len(text) != space.pegs or any(c not in symbols for c in text):
            raise PuzzleError(f"{text!r} is not a code of {space.pegs} pegs", file=file, place=place,
                              allowed=f"{space.pegs} digits from 1 to {space.colours}")
        return text
    if not isinstance(value, str):
        raise PuzzleError("expected a word", file=file, place=place)
    word = normalise(value)
    length = len(space.answers[0]) if space.answers else 0
    first = getattr(getattr(space, "cell", None), "first", None)
    if not is_plain(word) or len(word) != length:
        raise PuzzleError(f"{value!r} is not a word of {length} letters", file=file, place=place,
                          allowed=f"{length} letters A-Z (accents are removed)")
    if first and word[0] != first:
        raise PuzzleError(f"{value!r} does not start with {first}", file=file, place=place,
                          allowed=f"words starting with {first}")
    return word


def _read_marks(section: Section, word: str) -> str:
    value = section.raw("feedback")
    if not isinstance(value, str):
        raise section.error("expected a feedback string", "feedback", allowed="G, Y and B, one per letter")
    marks = "".join(value.split()).upper().translate(EMOJI)
    if len(marks) != len(word) or any(c not in "GYB" for c in marks):
        raise section.error(f"{value!r} is not a feedback for {word}", "feedback",
                            allowed=f"{len(word)} marks among G (right place), Y (elsewhere), B (absent), "
                                    "or the squares 🟩 🟨 ⬛ ⬜")
    return marks


def _read_proposals(section: Section, space: Space) -> list[Proposal]:
    proposals = []
    mastermind = isinstance(space, CodeSpace)
    key = "code" if mastermind else "word"
    for i, g in enumerate(section.sections("guess"), 1):
        text = read_item(space, g.raw(key), g.file, g.path(key))
        if g.has("feedback") == g.has("secret"):
            raise g.error("give exactly one of 'feedback' and 'secret'", allowed="feedback, secret")
        if g.has("secret"):
            secret = read_item(space, g.raw("secret"), g.file, g.path("secret"))
            code = int(space.codes(space.encode([text]), space.encode([secret]))[0, 0])
            proposals.append(Proposal(i, text, code, space.show(code), True))
        elif mastermind:
            fsec = g.section("feedback")
            black = fsec.int("black", lo=0, hi=space.pegs)
            white = fsec.int("white", 0, lo=0, hi=space.pegs)
            fsec.finish()
            if black + white > space.pegs:
                raise fsec.error(f"black + white = {black + white} is more than {space.pegs} pegs",
                                 allowed=f"black + white <= {space.pegs}")
            code = space.code_of(black, white)
            proposals.append(Proposal(i, text, code, space.show(code), True))
        else:
            marks = _read_marks(g, text)
            proposals.append(Proposal(i, text, fb.to_code(marks), marks, fb.is_canonical(marks, text)))
        g.finish()
    return proposals


def load(doc: PuzzleDoc) -> SecretPuzzle:
    """Read a ``motus``, ``wordle`` or ``mastermind`` puzzle."""
    s = doc.section
    game = doc.game.name
    if game == "mastermind":
        pegs = s.int("pegs", 4, lo=1, hi=8)
        colours = s.int("colours", 6, lo=2, hi=9)
        if colours ** pegs > MAX_CODES:
            raise s.error(f"{colours}**{pegs} = {colours ** pegs} codes is too many", "pegs",
                          allowed=f"at most {MAX_CODES} codes")
        space: Space = CodeSpace(pegs=pegs, colours=colours, tries=s.int("tries", 10, lo=1, hi=100))
    else:
        spec = s.str("dictionary", "fr" if game == "motus" else "wordle")
        words = dictionary(spec, file=doc.file)
        if game == "motus":
            length = s.int("length", lo=2, hi=30)
            first_raw = s.raw("first", None)
            if first_raw is None:
                guesses = s.data.get("guess")
                word = guesses[0].get("word") if isinstance(guesses, list) and guesses and \
                    isinstance(guesses[0], dict) else None
                if not isinstance(word, str) or not normalise(word):
                    raise s.error("is required (or give a [[guess]] to read it from)", "first",
                                  allowed="one letter A-Z")
                first_raw = word
                first = normalise(word)[0]
            else:
                first = normalise(first_raw) if isinstance(first_raw, str) else ""
                if len(first) != 1 or first not in ALPHABET:
                    raise s.error(f"{first_raw!r} is not a letter", "first", allowed="one letter A-Z")
            tries = s.int("tries", 5 if length == 5 else 6, lo=1, hi=100)
        else:
            length = s.int("length", 5, lo=2, hi=30)
            first, tries = None, s.int("tries", 6, lo=1, hi=100)
        cell = words.cell(length, first)
        if not cell.answers:
            where = f"{length} letters" + (f" starting with {first}" if first else "")
            raise s.error(f"the dictionary {words.name!r} has no word of {where}", "length")
        space = WordSpace(cell, tries)
    return SecretPuzzle(doc, space, _read_proposals(s, space))
