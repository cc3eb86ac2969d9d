"""The constraint model of the secret (:func:`build_model`): one variable per letter (or peg), the dictionary as a
table constraint, and each proposal with its feedback as one named observation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sleuth.model import LinearExpr, Model, Table, Var

from . import feedback as fb
from .space import CodeSpace, Space, WordSpace
from .state import Proposal, MotusState
from .words import ALPHABET


@dataclass(frozen=True)
class MotusModel:
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
        rows: list[tuple[int, ...]]
        if self.per_word:
            rows = [(i,) for i, w in enumerate(self.space.answers) if w == item]
        else:
            rows = [tuple(map(int, self.space.encode([item])[0]))]
        return Table(tuple(self.variables), tuple(rows), forbidden=negated)


def model_for(state: MotusState, backend: str) -> MotusModel:
    """The model ``backend`` gets: per letter on CP-SAT, per word (see :func:`build_model`) elsewhere."""
    per_word = isinstance(state.space, WordSpace) and backend.lower() not in ("cpsat", "cp-sat", "ortools",
                                                                              "or-tools")
    return build_model(state.space, state.proposals, per_word=per_word)


def build_model(space: Space, proposals: Sequence[Proposal], *, per_word: bool = False) -> MotusModel:
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
        return MotusModel(space, model, [word], True)
    if isinstance(space, CodeSpace):
        variables = [model.int_var(0, space.colours - 1, f"peg {i + 1}") for i in range(space.pegs)]
        if space.distinct:
            model.add_all_different(variables, name="no repeated symbol")
    else:
        variables = [model.int_var(0, 25, f"letter {i + 1}") for i in range(len(space.answers[0]))]
        model.add_table(variables, (tuple(map(int, row)) for row in space.answer_array), name="dictionary")
    for p in proposals:
        with model.observation(p.name):
            if isinstance(space, CodeSpace):
                _mastermind_constraints(model, space, variables, p)
            else:
                _word_constraints(model, variables, p)
    return MotusModel(space, model, variables, False)


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
        count = LinearExpr.sum_of(model.indicator(v, letter) for v in variables)
        model.add(count == shown if "B" in marks else count >= shown)


def _mastermind_constraints(model: Model, space: CodeSpace, variables: list[Var], p: Proposal) -> None:
    guess = [space.symbols.index(c) for c in p.text]
    black, white = divmod(p.code, space.pegs + 1)
    model.add_exactly(black, [model.indicator(v, c) for v, c in zip(variables, guess, strict=True)])
    common = []
    for colour in sorted(set(guess)):
        copies = guess.count(colour)
        count = LinearExpr.sum_of(model.indicator(v, colour) for v in variables)
        low = model.int_var(0, copies, f"min(count {space.symbols[colour]}, {copies}) in guess {p.index}", aux=True)
        with model.unguarded():
            enough = model.reify(count >= copies, f"count {space.symbols[colour]} >= {copies} in guess {p.index}")
            model.add(low == copies, when=enough)
            model.add(low == count, when=~enough)
        common.append(low)
    model.add(LinearExpr.sum_of(common) == black + white)


def decode(space: Space, values: Sequence[int]) -> str:
    if isinstance(space, CodeSpace):
        return "".join(space.symbols[v] for v in values)
    return "".join(ALPHABET[v] for v in values)
