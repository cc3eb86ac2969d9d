"""A Motus, Wordle or Mastermind grid as written in a puzzle file: the space played over and the proposals.

:func:`read_state` reads the file into a :class:`MotusState`: the secrets and allowed proposals
(:mod:`.space`, from the dictionary or the code shape) and each ``[[guess]]`` with its feedback.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sleuth.errors import PuzzleError
from sleuth.names import unique_names
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
class MotusState:
    """The grid: what the secret is drawn from and the proposals made so far."""

    space: Space
    proposals: tuple[Proposal, ...]
    hard: bool = False  # word games' hard mode (``hard = true``): every guess keeps the hints so far
    rows: tuple[int, ...] = ()  # a shared grid's colour rows whose words are unknown (reverse solving, :mod:`.grid`)
    answer: str | None = None   # a shared grid's answer, when given


def read_item(space: Space, value: object, file: str | None, place: str) -> str:
    """A word or code as the user wrote it, checked against the space's shape."""
    if isinstance(space, CodeSpace):
        if isinstance(value, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            text = "".join(str(x) for x in value)
        elif isinstance(value, list) and space.names and all(isinstance(x, str) for x in value):
            text = _named_code(space, value)
        elif isinstance(value, str):
            text = "".join(value.split())
        else:
            raise PuzzleError("expected a code such as \"1122\" or [1, 1, 2, 2]", file=file, place=place)
        symbols = space.symbols
        if space.distinct:
            text = text.upper() if symbols.isupper() else text
            if len(text) != space.pegs or any(c not in symbols for c in text) or len(set(text)) != len(text):
                raise PuzzleError(f"{text!r} is not a code of {space.pegs} different symbols", file=file,
                                  place=place, allowed=f"{space.pegs} different symbols among {symbols}")
            return text
        if space.names and not all(c in symbols for c in text):
            text = _named_code(space, value)
        if len(text) != space.pegs or any(c not in symbols for c in text):
            distinct = len({n[0].casefold() for n in space.names}) == len(space.names)
            named = (f", or {space.pegs} colour names{' or first letters' if distinct else ''} "
                     f"({', '.join(space.names)}{'' if distinct else '; first letters repeat, so names only'})"
                     if space.names else " (name the colours with colours = [\"red\", \"green\", ...] to write "
                     "them by name)")
            raise PuzzleError(f"{text!r} is not a code of {space.pegs} pegs", file=file, place=place,
                              allowed=f"{space.pegs} digits from 1 to {space.colours}{named}")
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


def _named_code(space: CodeSpace, value: object) -> str:
    """A code written with the colours' names (a list, or words in a string) or first letters ("RRGG"), as
    digits; the text unchanged when it is neither (the caller then names what is allowed)."""
    folded = [n.casefold() for n in space.names]
    letters = [n[0] for n in folded]
    parts = value if isinstance(value, list) else str(value).replace(",", " ").split()
    if len(parts) == space.pegs and all(str(p).strip().casefold() in folded for p in parts):
        return "".join(str(folded.index(str(p).strip().casefold()) + 1) for p in parts)
    text = "".join(str(value).split()).casefold() if isinstance(value, str) else ""
    if len(set(letters)) == len(letters) and text and all(c in letters for c in text):
        return "".join(str(letters.index(c) + 1) for c in text)
    return text


# per game: the two counts' keys, their letters, what is counted, the string form, an example of each form
_COUNTS = {False: ("black", "white", "BW", "peg", "a B per black peg and a W per white", '"BBW"',
                   "{ black = 2, white = 1 }"),
           True: ("bulls", "cows", "BC", "symbol", "a B per bull and a C per cow", '"BCC"', "{ bulls = 1, cows = 2 }")}


def _pegs(section: Section, space: CodeSpace) -> tuple[int, int]:
    """Black and white pegs (Bulls and Cows: bulls and cows): a table { black, white } or a string with a B per
    black and a W per white ({ bulls, cows }, a B per bull and a C per cow)."""
    right, elsewhere, letters, unit, how, example, table = _COUNTS[space.distinct]
    value = section.raw("feedback")
    if isinstance(value, str):
        marks = "".join(value.split()).upper().replace("-", "").replace(".", "")
        if any(c not in letters for c in marks):
            raise section.error(f"{value!r} is not a feedback", "feedback",
                                allowed=f"{how} ({example}; \"\" or \"-\" for none), or {table}")
        a, b = marks.count(letters[0]), marks.count(letters[1])
        if a + b > space.pegs:
            raise section.error(f"{value!r} has {a + b} {unit}s", "feedback",
                                allowed=f"at most {space.pegs} {unit}s in all")
        return a, b
    if not isinstance(value, dict):
        raise section.error(f"expected a feedback, got {value!r}", "feedback",
                            allowed=f"{example} ({how.replace(' and ', ', ')}) or {table}")
    fsec = section.section("feedback")
    a = fsec.integer(right, lo=0, hi=space.pegs)
    b = fsec.integer(elsewhere, 0, lo=0, hi=space.pegs)
    fsec.finish()
    if a + b > space.pegs:
        raise fsec.error(f"{right} + {elsewhere} = {a + b} is more than {space.pegs} {unit}s",
                         allowed=f"{right} + {elsewhere} <= {space.pegs}")
    return a, b


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
            black, white = _pegs(g, space)
            code = space.code_of(black, white)
            proposals.append(Proposal(i, text, code, space.show(code), True))
        else:
            marks = _read_marks(g, text)
            proposals.append(Proposal(i, text, fb.to_code(marks), marks, fb.is_canonical(marks, text)))
        g.finish()
    return proposals


def _grid_state(doc: PuzzleDoc, space: Space) -> MotusState:
    """A wordle file with ``grid`` (a shared grid, :mod:`.grid`), ``answer`` and ``words``: the guesses when every
    row's word is known (each row checked against the answer), else the colour rows alone."""
    from .grid import parse_grid

    s = doc.section
    if s.has("guess"):
        raise s.error("give either a grid or [[guess]] tables, not both", "grid", allowed="grid, guess")
    grid = parse_grid(s.string("grid"), file=s.file)
    given = s.array("words", str, None)
    words = [normalise(w) for w in given] if given is not None else list(grid.words)
    if given is not None and len(words) != len(grid.rows):
        raise s.error(f"{len(words)} words for {len(grid.rows)} rows", "words", allowed="one word per row")
    answer_raw = s.string("answer", grid.answer)
    answer = read_item(space, answer_raw, s.file, s.path("answer")) if answer_raw is not None else None
    if answer is not None and answer not in space.answers:
        doc.note(f"{answer} is not in the answer list", "answer")
    hard = bool(s.boolean("hard", grid.hard))
    codes = [fb.to_code(m) for m in grid.rows]
    if any(w is None for w in words):
        if any(w is not None for w in words):
            raise s.error("some rows have a word and some do not", "grid", allowed="a word after every row, or none")
        return MotusState(space, (), hard, tuple(codes), answer)
    proposals = []
    for i, (word, marks) in enumerate(zip(words, grid.rows, strict=True), 1):
        text = read_item(space, word, s.file, f"grid row {i}")
        if answer is not None and fb.feedback(text, answer) != marks:
            raise s.error(f"row {i}: {text} against {answer} gives {fb.feedback(text, answer)}, the grid shows "
                          f"{marks}", "grid", allowed="the colours Wordle showed")
        proposals.append(Proposal(i, text, fb.to_code(marks), marks, fb.is_canonical(marks, text)))
        if text not in space.guess_index:
            doc.note(f"{text} is not in the word list (the game would refuse it); its marks are used as given",
                     f"grid row {i}")
    return MotusState(space, tuple(proposals), hard, (), answer)


def read_state(doc: PuzzleDoc) -> MotusState:
    """Read a ``motus``, ``wordle`` or ``mastermind`` puzzle file."""
    s = doc.section
    game = doc.game.name
    if game == "mastermind":
        pegs = s.integer("pegs", 4, lo=1, hi=8)
        names: tuple[str, ...] = ()
        if isinstance(s.raw("colours", 6), list):
            names = tuple(unique_names("colour", s.array("colours", str, min_len=2, max_len=9), "colours",
                                       file=s.file))
            colours = len(names)
        else:
            colours = s.integer("colours", 6, lo=2, hi=9)
        if colours ** pegs > MAX_CODES:
            raise s.error(f"{colours}**{pegs} = {colours ** pegs} codes is too many", "pegs",
                          allowed=f"at most {MAX_CODES} codes")
        space: Space = CodeSpace(pegs=pegs, colours=colours, tries=s.integer("tries", 10, lo=1, hi=100),
                                 names=names)
    elif game == "bulls":
        pegs = s.integer("length", 4, lo=1, hi=10)
        raw = s.raw("symbols", 10)
        if isinstance(raw, str):
            symbols = "".join(raw.split())
            if not 2 <= len(symbols) <= 16 or len(set(symbols)) != len(symbols) or not symbols.isascii() \
                    or not symbols.isalnum():
                raise s.error(f"{raw!r} is not a set of symbols", "symbols",
                              allowed="2 to 16 different letters or digits, e.g. \"0123456789\", or a count")
        else:
            symbols = "0123456789ABCDEF"[: s.integer("symbols", 10, lo=2, hi=16)]
        if pegs > len(symbols) or math.perm(len(symbols), pegs) > MAX_CODES:
            raise s.error(f"{pegs} of {len(symbols)} symbols: "
                          + ("more positions than symbols" if pegs > len(symbols) else
                             f"{math.perm(len(symbols), pegs)} codes is too many"), "length",
                          allowed=f"at most as many positions as symbols, and at most {MAX_CODES} codes")
        space = CodeSpace(pegs=pegs, colours=len(symbols), tries=s.integer("tries", 10, lo=1, hi=100),
                          distinct=True, symbols=symbols)
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
    hard = game not in ("mastermind", "bulls") and bool(s.boolean("hard", False))
    if game == "wordle" and s.has("grid"):
        return _grid_state(doc, space)
    proposals = tuple(_read_proposals(s, space))
    if isinstance(space, WordSpace):
        for p in proposals:
            if p.text not in space.guess_index:
                doc.note(f"{p.text} is not in the word list (the game would refuse it); its marks are used as "
                         "given", f"guess[{p.index}].word")
    return MotusState(space, proposals, hard)

