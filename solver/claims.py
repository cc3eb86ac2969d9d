"""One claim language for every game: the engine's formula parser (:mod:`sleuth.formula`) with each game's
statements as its atoms.

A game reads its *statements* ("Bob holds Rope", "answer is CRANE", "P(next is Q) = 1/4");
:func:`sleuth.formula.parse_claim` combines them as it combines formulas, so every game has the same
grammar around them, and this module adds one set of natural phrasings:

- ``not A``, ``A and B``, ``A or B``, ``A implies B``, ``( ... )`` (``and`` binds tighter than ``or``, which
  binds tighter than ``implies``).  A claim that reads as one statement as a whole is that statement, so a
  name containing "and" keeps working; quote such a name (``"Salt and Pepper" holds Rope``) to combine it
  with others.  Epistemic puzzles use the full formula language (comparisons, ``knows``, ...), of which
  this is the propositional part.
- Holding phrasings (Clue, Mascarade): "Bob has the Rope", "Bob has Rope", "Bob holds the Rope" mean
  "Bob holds Rope"; "Bob does not have the Rope", "Bob doesn't hold Rope", "Bob has no Rope" mean
  "Bob lacks Rope"; "the Rope is in the envelope" means "envelope holds Rope" (and "is not in" lacks).

One verdict function: a claim is *entailed* when it holds in every world left, *refuted* when in none, and
*open* otherwise; games with a model judge combined claims on it (:func:`to_lit`, then
:meth:`sleuth.engine.Engine.verify`), games with exact probabilities by :func:`verdict_of`.

>>> claim = parse("Bob has the Rope and not (Ann holds Knife or the Rope is in the envelope)", normalise_holding)
>>> [a.text for a in atoms(claim)]
['Bob holds Rope', 'Ann holds Knife', 'envelope holds Rope']
>>> evaluate(claim, lambda atom: atom.text == "Bob holds Rope")
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from .errors import PuzzleError
from .formula import And, Atom, FormulaError, Implies, Node, Not, Or, combines, parse_claim, transform, walk
from .names import NAME
from .results import ClaimSpec, Verdict

if TYPE_CHECKING:
    from .model import Lit, Model

T = TypeVar("T")
Claim = Node   # a claim: statements (Atom) under Not, And, Or, Implies

COMBINATORS = "statements joined by and, or, not, implies and parentheses"
is_compound = combines   # whether a claim text combines statements (outside quotes)


def parse(text: str, normalise: Callable[[str], str] = lambda s: s) -> Claim:
    """The claim as a tree of statements (their text normalised), or PuzzleError naming what is wrong."""
    def one(node: Node) -> Node:
        return Atom(normalise(node.text)) if isinstance(node, Atom) else node
    return transform(parse_claim(text), one)


def atoms(claim: Claim) -> list[Atom]:
    """The claim's statements, left to right."""
    return [n for n in walk(claim) if isinstance(n, Atom)]


def to_lit(model: Model, claim: Claim, leaf: Callable[[Atom], Lit]) -> Lit:
    """A literal of ``model`` equivalent to the claim: its atoms' literals (``leaf``), combined by reification."""
    from .model import Clause

    if isinstance(claim, Atom):
        return leaf(claim)
    if isinstance(claim, Not):
        return ~to_lit(model, claim.operand, leaf)
    if isinstance(claim, Implies):
        claim = Or((Not(claim.left), claim.right))
    if not isinstance(claim, (And, Or)):
        raise TypeError(claim)
    lits = tuple(to_lit(model, item, leaf) for item in claim.args)
    with model.unguarded():
        return model.reify(Clause(lits, all_of=isinstance(claim, And)))


def evaluate(claim: Claim, leaf: Callable[[Atom], bool]) -> bool:
    """The claim's truth from its atoms' truths (in one world)."""
    if isinstance(claim, Atom):
        return leaf(claim)
    if isinstance(claim, Not):
        return not evaluate(claim.operand, leaf)
    if isinstance(claim, Implies):
        return not evaluate(claim.left, leaf) or evaluate(claim.right, leaf)
    if not isinstance(claim, (And, Or)):
        raise TypeError(claim)
    values = (evaluate(item, leaf) for item in claim.args)
    return all(values) if isinstance(claim, And) else any(values)


def combine(claim: Claim, leaf: Callable[[Atom], Verdict]) -> Verdict:
    """The verdict on a claim from its statements' verdicts, in three-valued logic (open = unknown).

    Exact when every statement is entailed or refuted (statements about one known quantity, such as card
    guessing's exact probabilities); with open statements the result is open unless the known ones decide it.
    Games that judge over worlds use :func:`to_lit` instead (``A or not A`` is entailed there).
    """
    def value(node: Claim) -> bool | None:
        if isinstance(node, Atom):
            v = leaf(node)
            return True if v is Verdict.ENTAILED else False if v is Verdict.REFUTED else None
        if isinstance(node, Not):
            inner = value(node.operand)
            return None if inner is None else not inner
        if isinstance(node, Implies):
            return value(Or((Not(node.left), node.right)))
        if not isinstance(node, (And, Or)):
            raise TypeError(node)
        values = [value(item) for item in node.args]
        decisive = isinstance(node, Or)   # a True decides an Or, a False decides an And
        if decisive in values:
            return decisive
        return None if None in values else not decisive
    result = value(claim)
    return Verdict.OPEN if result is None else Verdict.ENTAILED if result else Verdict.REFUTED


def verdict_of(p: Fraction | float, *, negated: bool = False) -> Verdict:
    """The verdict on a claim true with probability ``p`` over the worlds left (exact): 1, 0, or between."""
    if negated:
        p = 1 - p
    return Verdict.ENTAILED if p == 1 else Verdict.REFUTED if p == 0 else Verdict.OPEN


_HOLDING = [  # (pattern, replacement) over a whole atom; the first that matches wins
    (re.compile(rf"^(?:the\s+)?({NAME})\s+is\s+not\s+in\s+the\s+envelope$", re.I), r"envelope lacks \1"),
    (re.compile(rf"^(?:the\s+)?({NAME})\s+is\s+in\s+the\s+envelope$", re.I), r"envelope holds \1"),
    (re.compile(rf"^({NAME})\s+(?:does\s+not|doesn't)\s+(?:have|hold)\s+(?:the\s+)?({NAME})$", re.I),
     r"\1 lacks \2"),
    (re.compile(rf"^({NAME})\s+has\s+no\s+({NAME})$", re.I), r"\1 lacks \2"),
    (re.compile(rf"^({NAME})\s+(?:has|holds)\s+the\s+({NAME})$", re.I), r"\1 holds \2"),
    (re.compile(rf"^({NAME})\s+has\s+({NAME})$", re.I), r"\1 holds \2"),
]


def normalise_holding(phrase: str) -> str:
    """A holding phrase in its canonical form (``X holds C`` / ``X lacks C``); other phrases unchanged."""
    text = " ".join(phrase.split())
    for pattern, replacement in _HOLDING:
        if pattern.match(text):
            return pattern.sub(replacement, text)
    return text


def read(text: str, read_atom: Callable[[str], T], normalise: Callable[[str], str] = lambda s: s,
         **where: str | None) -> tuple[Claim, dict[Atom, T]]:
    """Parse a claim and read each atom with ``read_atom`` (which raises PuzzleError on one it cannot read).

    Each atom is read as written, else in its normalised phrasing (so a card really named "the Thing" still
    reads).  A text that reads as one atom as a whole is that atom (names may contain ``and``, ``or``).
    Errors carry ``where`` (file, place).
    """
    def one(atom_text: str) -> T:
        try:
            return read_atom(atom_text)
        except PuzzleError:
            other = normalise(atom_text)
            if other == atom_text:
                raise
            return read_atom(other)

    def located(exc: PuzzleError) -> PuzzleError:
        return exc if exc.place else exc.located(**where)

    whole = Atom(" ".join(text.split()))
    try:
        return whole, {whole: one(whole.text)}
    except PuzzleError as single:
        first = single
    try:
        claim = parse(text)
    except FormulaError as exc:
        if not is_compound(text):
            raise with_hint(located(first), text, equals=False) from None
        raise with_hint(PuzzleError(f"cannot read claim: {exc.message}", allowed=COMBINATORS, **where), text,
                        equals=False) from None
    if claim == whole:
        raise with_hint(located(first), text, equals=False) from None
    payloads: dict[Atom, T] = {}
    for atom in atoms(claim):
        try:
            payloads[atom] = one(atom.text)
        except PuzzleError as exc:
            raise located(exc) from None
    return claim, payloads


_SLIPS = [  # (pattern, hint) for the common slips in formulas and claims; the first that matches is named
    (re.compile(r"&&"), "write 'and' for &&"),
    (re.compile(r"\|\|"), "write 'or' for ||"),
    (re.compile(r"<>"), "write '!=' for <>"),
    (re.compile(r"=<"), "write '<=' for =<"),
    (re.compile(r"=>"), "write '>=' to compare, or 'implies' (->) between conditions"),
    (re.compile(r"(?<![=!<>])=(?!=)"), "did you mean '=='? A comparison is written == (m1 == 1); = alone is not one"),
    (re.compile(r"!(?!=)"), "write 'not' for !"),
    (re.compile(r"\b(?:true|false)\b", re.I), "a condition is true or false by itself: write m1 == 1 rather than "
                                               "(m1 == 1) == true, and not (...) for false"),
    (re.compile(r"\bknows\s+[A-Za-z_]", re.I), "knows takes parentheses: knows(A) or knows(A, formula)"),
]


def slip_hint(text: str, *, equals: bool = True) -> str | None:
    """A hint for a common slip in a formula or claim that did not read (``=`` for ``==``, ``&&``...), or None.

    >>> slip_hint("m1 = 1 or m2 = 1")
    "did you mean '=='? A comparison is written == (m1 == 1); = alone is not one"
    >>> slip_hint("m1 == 1") is None
    True
    """
    for pattern, hint in _SLIPS:
        if pattern.search(text) and (equals or "'=='" not in hint):
            return hint
    return None


def with_hint(exc: PuzzleError, text: str, *, equals: bool = True) -> PuzzleError:
    """``exc`` with the slip hint of ``text`` added to its message (unchanged when there is none); ``equals``
    False for games whose claims use ``=`` themselves (``P(...) = 1/2``)."""
    hint = slip_hint(text, equals=equals)
    if hint is None or hint in exc.message:
        return exc
    return PuzzleError(f"{exc.message}; {hint}", file=exc.file, place=exc.place, allowed=exc.allowed)


def question_specs(claims: Sequence[ClaimSpec | str] | ClaimSpec | str) -> list[ClaimSpec]:
    """Claims for ``verify``: a text (``str``) is a question (no expectation, see :class:`ClaimSpec`)."""
    if isinstance(claims, (str, ClaimSpec)):
        claims = [claims]
    out = []
    for i, c in enumerate(claims):
        if isinstance(c, str):
            out.append(ClaimSpec(c, None, place=f"claims[{i + 1}]"))
        elif isinstance(c, ClaimSpec):
            out.append(c)
        else:
            raise PuzzleError(f"claims[{i + 1}] is a {type(c).__name__}", allowed="claim texts (str) or ClaimSpec")
    return out


__all__: Sequence[str] = ["And", "Atom", "Claim", "Implies", "Not", "Or", "atoms", "combine", "evaluate", "is_compound",
                          "normalise_holding", "parse", "question_specs", "read", "to_lit", "verdict_of"]
