"""One claim language for every game: a game's atoms, combined with ``not``, ``and``, ``or`` and parentheses.

A game reads its *atoms* ("Bob holds Rope", "answer is CRANE", "P(next is Q) = 1/4"); this module gives
them one shared grammar around them and one set of natural phrasings:

- ``not A``, ``A and B``, ``A or B``, ``( ... )`` (``and`` binds tighter than ``or``).  A claim that reads as
  one atom as a whole is that atom, so a name containing "and" keeps working; quote such a name
  (``"Salt and Pepper" holds Rope``) to combine it with others.
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
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from .errors import PuzzleError
from .names import NAME
from .results import Verdict

if TYPE_CHECKING:
    from .model import Lit, Model

T = TypeVar("T")


@dataclass(frozen=True)
class Atom:
    text: str


@dataclass(frozen=True)
class Not:
    item: Claim


@dataclass(frozen=True)
class And:
    items: tuple[Claim, ...]


@dataclass(frozen=True)
class Or:
    items: tuple[Claim, ...]


Claim = Atom | Not | And | Or

COMBINATORS = "statements joined by and, or, not and parentheses"
_TOKEN = re.compile(r'"[^"]*"|`(?:[^`]|``)*`|\(|\)|[^\s()"`]+')
_KEYWORDS = ("and", "or", "not")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def is_compound(text: str) -> bool:
    """Whether the text uses the claim combinators ``and``, ``or``, ``not`` at all (outside quotes)."""
    return any(t.casefold() in _KEYWORDS for t in _tokens(text))


def parse(text: str, normalise: Callable[[str], str] = lambda s: s) -> Claim:
    """The claim as a tree of atoms (their text normalised), or PuzzleError naming what is wrong."""
    tokens = _tokens(text)
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def expr() -> Claim:
        items = [term()]
        while (t := peek()) is not None and t.casefold() == "or":
            take()
            items.append(term())
        return items[0] if len(items) == 1 else Or(tuple(items))

    def term() -> Claim:
        items = [factor()]
        while (t := peek()) is not None and t.casefold() == "and":
            take()
            items.append(factor())
        return items[0] if len(items) == 1 else And(tuple(items))

    def factor() -> Claim:
        t = peek()
        if t is None:
            raise PuzzleError("the claim ends where a statement should follow")
        if t.casefold() == "not":
            take()
            return Not(factor())
        if t == "(":
            take()
            inner = expr()
            if peek() != ")":
                raise PuzzleError("a '(' is not closed")
            take()
            return inner
        words = []
        while (t := peek()) is not None and t.casefold() not in ("and", "or") and t not in "()":
            words.append(take())
        if not words:
            raise PuzzleError(f"expected a statement, found {t!r}")
        return Atom(normalise(" ".join(words)))

    result = expr()
    if pos != len(tokens):
        raise PuzzleError(f"unexpected {tokens[pos]!r}")
    return result


def atoms(claim: Claim) -> list[Atom]:
    """The claim's atoms, left to right."""
    if isinstance(claim, Atom):
        return [claim]
    if isinstance(claim, Not):
        return atoms(claim.item)
    return [a for item in claim.items for a in atoms(item)]


def to_lit(model: Model, claim: Claim, leaf: Callable[[Atom], Lit]) -> Lit:
    """A literal of ``model`` equivalent to the claim: its atoms' literals (``leaf``), combined by reification."""
    from .model import Clause

    if isinstance(claim, Atom):
        return leaf(claim)
    if isinstance(claim, Not):
        return ~to_lit(model, claim.item, leaf)
    lits = tuple(to_lit(model, item, leaf) for item in claim.items)
    with model.unguarded():
        return model.reify(Clause(lits, all_of=isinstance(claim, And)))


def evaluate(claim: Claim, leaf: Callable[[Atom], bool]) -> bool:
    """The claim's truth from its atoms' truths (in one world)."""
    if isinstance(claim, Atom):
        return leaf(claim)
    if isinstance(claim, Not):
        return not evaluate(claim.item, leaf)
    values = (evaluate(item, leaf) for item in claim.items)
    return all(values) if isinstance(claim, And) else any(values)


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
        if not is_compound(text):
            raise located(single) from None
    try:
        claim = parse(text)
    except PuzzleError as exc:
        raise PuzzleError(f"cannot read claim {text!r}: {exc.message}", allowed=COMBINATORS, **where) from None
    payloads: dict[Atom, T] = {}
    for atom in atoms(claim):
        try:
            payloads[atom] = one(atom.text)
        except PuzzleError as exc:
            raise located(exc) from None
    return claim, payloads


__all__: Sequence[str] = ["And", "Atom", "Claim", "Not", "Or", "atoms", "evaluate", "is_compound",
                          "normalise_holding", "parse", "read", "to_lit", "verdict_of"]
