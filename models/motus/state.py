"""A Motus, Wordle or Mastermind grid as written in a puzzle file: the space played over and the proposals.

:func:`read_state` reads the file into a :class:`SecretState`: the secrets and allowed proposals
(:mod:`.space`, from the dictionary or the code shape) and each ``[[guess]]`` with its feedback.
"""

from __future__ import annotations

from dataclasses import dataclass

from sleuth.errors import PuzzleError
from sleuth.puzzle import PuzzleDoc
from sleuth.schema import Section

from . import feedback as fb
from .space import CodeSpace, Space, WordSpace
from .words import ALPHABET, dictionary, is_plain, normalise

MAX_CODES = 10_000  # the full feedback matrix of suggest and studies stays small (10^8 pairs)
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
class SecretState:
    """The grid: what the secret is drawn from and the proposals made so far."""

    space: Space
    proposals: tuple[Proposal, ...]


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
    key = "code" if isinstance(space, CodeSpace) else "word"
    for i, g in enumerate(section.sections("guess"), 1):
        text = read_item(space, g.raw(key), g.file, g.path(key))
        if g.has("feedback") == g.has("secret"):
            raise g.error("give exactly one of 'feedback' and 'secret'", allowed="feedback, secret")
        if g.has("secret"):
            secret = read_item(space, g.raw("secret"), g.file, g.path("secret"))
            code = int(space.codes(space.encode([text]), space.encode([secret]))[0, 0])
            proposals.append(Proposal(i, text, code, space.show(code), True))
        elif isinstance(space, CodeSpace):
            fsec = g.section("feedback")
            black = fsec.integer("black", lo=0, hi=space.pegs)
            white = fsec.integer("white", 0, lo=0, hi=space.pegs)
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


def read_state(doc: PuzzleDoc) -> SecretState:
    """Read a ``motus``, ``wordle`` or ``mastermind`` puzzle file."""
    s = doc.section
    game = doc.game.name
    if game == "mastermind":
        pegs = s.integer("pegs", 4, lo=1, hi=8)
        colours = s.integer("colours", 6, lo=2, hi=9)
        if colours ** pegs > MAX_CODES:
            raise s.error(f"{colours}**{pegs} = {colours ** pegs} codes is too many", "pegs",
                          allowed=f"at most {MAX_CODES} codes")
        space: Space = CodeSpace(pegs=pegs, colours=colours, tries=s.integer("tries", 10, lo=1, hi=100))
    else:
        spec = s.string("dictionary", "fr" if game == "motus" else "wordle")
        words = dictionary(spec, file=doc.file)
        if game == "motus":
            length = s.integer("length", lo=2, hi=30)
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
            tries = s.integer("tries", 5 if length == 5 else 6, lo=1, hi=100)
        else:
            length = s.integer("length", 5, lo=2, hi=30)
            first, tries = None, s.integer("tries", 6, lo=1, hi=100)
        cell = words.cell(length, first)
        if not cell.answers:
            where = f"{length} letters" + (f" starting with {first}" if first else "")
            raise s.error(f"the dictionary {words.name!r} has no word of {where}", "length")
        space = WordSpace(cell, tries)
    proposals = tuple(_read_proposals(s, space))
    if isinstance(space, WordSpace):
        for p in proposals:
            if p.text not in space.guess_index:
                doc.note(f"{p.text} is not in the word list (the game would refuse it); its marks are used as "
                         "given", f"guess[{p.index}].word")
    return SecretState(space, proposals)

