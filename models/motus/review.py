"""Game review for Wordle, Motus and Mastermind: how good each move was, exactly (``sleuth review``).

Every position of a game (the answers still possible, the guesses allowed, the guesses made) is valued with
the exact optimal-average search of :mod:`.optimal`, under the file's rules (its word lists, hard mode, the
cap of guesses ``tries``, Motus's shown first letter): each remaining answer equally likely,

* ``best`` — the least expected number of guesses still to make, this one included;
* ``played`` — the same when the move made is played now and play is optimal afterwards;
* ``regret = played - best`` and ``best_guesses`` (the moves that reach ``best``, up to 10, with their count);
* ``after`` — ``best`` of the position the feedback left (0 when solved);
* ``luck = (played - 1) - after``: positive when the feedback was better than the move's average.

A search that visits more than ``node_limit`` nodes stops: the position gets proven bounds instead (the lower
bound the stopped search proved, :meth:`~.optimal.Optimal.proven_lower`; the upper bound a real tree: the
move played when its value is known, or the Sum strategy's tree when it is valid under the rules), labelled
``exact = False`` with a note.  The searches of one review also share a time limit (CPU seconds, by default
:data:`REVIEW_SECONDS`, or :data:`PLAIN_SECONDS` without numba, where each node costs far more): a search runs
in slices of nodes sized to the time left, and once it is spent the positions left get the same proven bounds
(the note says which limit stopped them).  Two openings are proven optima published elsewhere and taken as they are
(:data:`PUBLISHED`): Wordle's SALET, 7,920 guesses over the 2,315 answers of the original lists (Selby,
2022), and Mastermind's 1123 (and every code of its pattern), 5,625 over 1,296 codes (Koyama and Lai, 1993).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from sleuth.errors import PuzzleError
from sleuth.limits import time_limit as time_limit_option
from sleuth.results import Report, Status, decimal, jsonable

from . import strategy as st
from .emi import SearchTimeout
from .optimal import Optimal
from .space import CodeSpace, Space, WordSpace, game_space
from .state import MotusState
from .stabiliser import SMALL, StabiliserSearch

REVIEW_NODES = 60_000   # nodes each search of a review may visit before it stops with proven bounds
OPENING_NODES = 40_000  # the same for the opener played, on a list of more than OPENING_SIZE answers (a node
OPENING_SIZE = 1000     # there costs most: CRANE takes 22,500 nodes, 4 to 7 s of CPU; hard-mode SALET 32,600)
SHOWN_BEST = 10         # best guesses listed per move (their count is given beside)
TIE_SEARCHES = 2000     # guesses searched per position to count the best ones (past it: not all counted)
REVIEW_SECONDS = 20.0   # CPU seconds a review's searches may take in all (compiled kernel: the node budget governs)
PLAIN_SECONDS = 3.0     # the same with the plain-Python kernel (no numba: a node costs about 100 times more)
PROBE_NODES = 64        # the first search's first slice (it measures the nodes per second of this machine)


@dataclass(frozen=True)
class Opening:
    """A proven optimal opening taken from the literature: its total and the openers that reach it."""

    total: int
    best: tuple[str, ...]
    count: int
    source: str


@dataclass(frozen=True)
class MoveReview:
    """One move of a reviewed game; every expectation is in guesses still to make, this one included.

    ``best``/``played``/``after`` are None where a search stopped at its budget (then ``exact`` is False and
    ``*_low``/``*_high`` hold proven bounds, ``*_high`` None when no tree was at hand) or where no play meets
    the cap (said in ``note``); ``regret`` and ``luck`` are None when a value they need is."""

    move: int
    guess: str
    feedback: str
    left: int
    best: Fraction | None
    played: Fraction | None
    regret: Fraction | None
    best_guesses: tuple[str, ...]
    best_count: int | None
    after: Fraction | None
    luck: Fraction | None
    exact: bool
    best_low: Fraction | None = None
    best_high: Fraction | None = None
    played_low: Fraction | None = None
    played_high: Fraction | None = None
    after_low: Fraction | None = None
    after_high: Fraction | None = None
    source: str = "search"
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        out = {k: jsonable(getattr(self, k)) for k in (
            "move", "guess", "feedback", "left", "best", "played", "regret", "best_guesses", "best_count", "after",
            "luck", "exact")}
        if not self.exact:
            out.update({k: jsonable(getattr(self, k)) for k in (
                "best_low", "best_high", "played_low", "played_high", "after_low", "after_high")})
        out["source"] = self.source
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class GameReview:
    """A reviewed game: one :class:`MoveReview` per move, and the totals (None when a move's is unknown)."""

    game: str
    label: str
    cap: int
    hard: bool
    node_limit: int
    moves: tuple[MoveReview, ...]
    solved: bool
    cpu_seconds: tuple[float, ...] = field(default=())  # per move: the CPU its searches took (the value of the
    # position after the last move counted with the last)
    time_limit: float | None = None  # CPU seconds the searches might take in all
    kernel: str = ""                 # the search's kernel: numba or python

    @property
    def regret(self) -> Fraction | None:
        return _total(m.regret for m in self.moves)

    @property
    def luck(self) -> Fraction | None:
        return _total(m.luck for m in self.moves)

    @property
    def exact(self) -> bool:
        return all(m.exact for m in self.moves)

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "cap": self.cap, "hard": self.hard, "node_limit": self.node_limit,
                "time_limit": self.time_limit, "kernel": self.kernel, "solved": self.solved,
                "moves": [m.to_json() for m in self.moves], "regret": jsonable(self.regret),
                "luck": jsonable(self.luck), "exact": self.exact,
                "cpu_seconds": [round(c, 3) for c in self.cpu_seconds]}

    def text(self) -> str:
        return review_text(self)


def _total(values: Any) -> Fraction | None:
    out = Fraction(0)
    for v in values:
        if v is None:
            return None
        out += v
    return out


def _mastermind_best(pegs: int, colours: int) -> tuple[str, ...]:
    """Every code with the pattern AABC (one colour twice, two more once each): the images of 1123 under the
    symmetries of colours and pegs."""
    space = CodeSpace(pegs=pegs, colours=colours)
    return tuple(c for c in space.guesses if sorted(map(c.count, set(c))) == [1, 1, 2])


PUBLISHED = {
    "wordle": (5, Opening(7920, ("SALET",), 1, "published: Selby 2022, the proven optimum over every opener of "
                          "the original lists (SALET 7,920; sleuth's own search finds SALET's tree of 7,920)")),
    "mastermind": (6, Opening(5625, (), 720, "published: Koyama and Lai 1993, the proven optimum (1123 and the 719 "
                              "codes of its pattern AABC; sleuth experiment wordle --games mastermind --optimal "
                              "proves it again over every opener up to symmetry)")),
}


def published_opening(space: Space, hard: bool) -> Opening | None:
    """The proven optimum of the opening position when it is one of :data:`PUBLISHED`: Wordle's original lists
    in normal mode with at least 5 tries, or Mastermind with 4 pegs, 6 colours and at least 6 tries."""
    if isinstance(space, CodeSpace):
        if (space.pegs, space.colours) != (4, 6) or space.distinct or space.tries < PUBLISHED["mastermind"][0]:
            return None
        o = PUBLISHED["mastermind"][1]
        return Opening(o.total, _mastermind_best(4, 6), o.count, o.source)
    wordle = game_space("wordle")
    if hard or space.tries < PUBLISHED["wordle"][0] or not isinstance(space, WordSpace) or space.length != 5:
        return None
    if space.answers != wordle.answers or space.guesses != wordle.guesses:
        return None
    return PUBLISHED["wordle"][1]


@dataclass
class _Value:
    """A search's outcome in totals: exact ``low == high``, else proven bounds (``high`` None: none known);
    ``lost``: no play meets the cap."""

    low: int
    high: int | None
    lost: bool = False
    why: str = ""  # what stopped a search: "budget" or "time"

    @property
    def exact(self) -> bool:
        return not self.lost and self.high == self.low


class Reviewer:
    """The searches of one review: one :class:`Optimal` over the game's space, its cache shared by every
    position (a position's value makes the next ones' cheap), and one time limit (CPU seconds spent searching,
    None: the default for the kernel at hand) shared by every search."""

    def __init__(self, state: MotusState, *, node_limit: int = REVIEW_NODES, kernel: str = "auto",
                 time_limit: float | None = None) -> None:
        self.state, self.space = state, state.space
        self.search = Optimal(self.space, cap=self.space.tries, hard=state.hard, kernel=kernel, node_limit=node_limit)
        self.inf = int(self.search.k.INF)
        if time_limit is None:
            time_limit = REVIEW_SECONDS if self.search.compiled else PLAIN_SECONDS
        self.time_limit = time_limit
        self.spent = 0.0          # CPU seconds the searches took so far
        self.searched = 0         # nodes they visited
        self.stop = ""            # what stopped the last search that stopped: "budget" or "time"
        # Mastermind: the first plies one guess per orbit of the symmetries a position keeps
        self.sym = StabiliserSearch(self.search) if isinstance(self.space, CodeSpace) else None
        if self.search.compiled:  # compile (or load) the kernel before the clock starts
            self.search.value(np.arange(min(3, len(self.space.answers))))

    def run(self, search: Callable[[], int]) -> int:
        """``search()`` (a call of the :class:`Optimal`) within the node budget and the time left: in slices of
        nodes sized to the time left at the nodes per second measured so far (a stopped slice leaves its proven
        values in the cache, so the next one resumes most of its work); raises :class:`SearchTimeout` once the
        budget or the time is spent (``stop`` says which)."""
        s = self.search
        budget = s.node_limit
        try:
            while True:
                left = self.time_limit - self.spent
                if left <= 0:
                    self.stop = "time"
                    raise SearchTimeout(0, None)
                if self.spent > 0 and self.searched > 0:
                    fits = int(self.searched / self.spent * left / 2)  # half: node costs vary from one to the next
                else:
                    fits = PROBE_NODES
                s.node_limit = max(1, min(budget, fits))
                start, nodes = time.process_time(), s.nodes
                try:
                    return search()
                except SearchTimeout:
                    if s.node_limit >= budget:
                        self.stop = "budget"
                        raise
                finally:
                    self.spent += time.process_time() - start
                    self.searched += s.nodes - nodes
        finally:
            s.node_limit = budget

    def _value(self, answers: np.ndarray, allowed: np.ndarray, used: int, first: int | None = None,
               beta: int | None = None) -> _Value:
        s = self.search
        if used >= self.space.tries:  # past the cap: no guess may be made
            return _Value(self.inf, self.inf, True)
        try:
            v = self.run(lambda: self._search(answers, allowed, used, first, beta))
        except SearchTimeout:
            low = s.proven_lower(answers, allowed, used, first)
            return _Value(low, None, low >= self.inf, self.stop)
        if v >= self.inf:
            return _Value(v, v, True)
        return _Value(v, v if beta is None or v < beta else None)

    def _search(self, answers: np.ndarray, allowed: np.ndarray, used: int, first: int | None,
                beta: int | None) -> int:
        s, sym = self.search, self.sym
        if sym is not None:
            return sym.value(answers, used, beta) if first is None else sym.guess_value(first, answers, used, beta)
        return s.value(answers, allowed, used, beta) if first is None else s.guess_value(first, answers, allowed,
                                                                                          used, beta)

    def value(self, answers: np.ndarray, allowed: np.ndarray, used: int) -> _Value:
        """The least total from a position (bounds past the budget)."""
        out = self._value(answers, allowed, used)
        if not out.exact and not out.lost:
            out.high = self.sum_upper(answers, used)
        return out

    def played(self, guess: int, answers: np.ndarray, allowed: np.ndarray, used: int) -> _Value:
        out = self._value(answers, allowed, used, guess)
        if not out.exact and not out.lost:
            out.high = self.sum_upper(answers, used, guess)
        return out

    def sum_upper(self, answers: np.ndarray, used: int, first: int | None = None) -> int | None:
        """The total of the seed's Sum strategy from this position (a real tree, an upper bound), when it is one
        the rules allow (normal mode, within the cap)."""
        if self.state.hard:
            return None
        m = self.search.matrix[:, answers]
        r = st.play_all(m, self.space.answer_rows[answers], self.space.found, st.Method.SUM, self.space.tries,
                        first=first)
        return r.total if r.worst <= self.space.tries - used else None

    def ties(self, answers: np.ndarray, allowed: np.ndarray, used: int, best: int) -> tuple[list[int], bool]:
        """Every allowed guess whose total from this position is ``best`` (rows, in guess order), and whether
        the count is complete: False when a search stopped at its budget, or when more than :data:`TIE_SEARCHES`
        guesses have a class-size bound that low (the first that many, least bound first, are searched)."""
        s = self.search
        if self.sym is not None and SMALL < len(answers) < len(self.space.answers):
            return self.orbit_ties(answers, used, best)
        bounds = s.guess_bounds(answers, allowed, used)
        cand = np.flatnonzero(bounds <= best)
        cand = cand[np.lexsort((allowed[cand], bounds[cand]))]
        found, complete = [], len(cand) <= TIE_SEARCHES
        for j in cand[:TIE_SEARCHES]:
            g = int(allowed[j])
            try:
                if self.run(lambda: s.guess_value(g, answers, allowed, used, best + 1)) == best:  # noqa: B023
                    found.append(g)
            except SearchTimeout:
                complete = False
                if self.stop == "time":  # no time left for the others either
                    break
        return sorted(found), complete


    def orbit_ties(self, answers: np.ndarray, used: int, best: int) -> tuple[list[int], bool]:
        """:meth:`ties` for Mastermind: one guess searched per orbit of the symmetries the position keeps, the
        guesses tied for best whole orbits."""
        assert self.sym is not None
        s = self.search
        rep, reps = self.sym.orbits(answers)
        bounds = s.guess_bounds(answers, reps, used)
        keep = np.flatnonzero(bounds <= best)
        cand = reps[keep[np.lexsort((reps[keep], bounds[keep]))]]
        found: list[int] = []
        complete = len(cand) <= TIE_SEARCHES
        for g in cand[:TIE_SEARCHES].tolist():
            try:
                if self.run(lambda: self._search(answers, s.pool, used, g, best + 1)) == best:  # noqa: B023
                    found.extend(np.flatnonzero(rep == g).tolist())
            except SearchTimeout:
                complete = False
                if self.stop == "time":
                    break
        return sorted(found), complete


def review_state(state: MotusState, *, node_limit: int = REVIEW_NODES, kernel: str = "auto",
                 file: str | None = None, game: str = "", opening_limit: int | None = None,
                 time_limit: float | None = None) -> GameReview:
    """The review of a game as the file states it (see the module's docstring); the opener played is searched
    within ``opening_limit`` nodes (default: ``node_limit``, at most :data:`OPENING_NODES` on a list of more
    than :data:`OPENING_SIZE` answers); every search within ``time_limit`` CPU seconds in all (None: the
    kernel's default, :data:`REVIEW_SECONDS` or :data:`PLAIN_SECONDS`)."""
    space = state.space
    if state.rows:
        raise PuzzleError(f"the grid's {len(state.rows)} rows have no words: a review needs the guess of each row "
                          "(many guesses give the same colours)", file=file, place="grid",
                          allowed="each row's word after its squares, or words = [...]")
    rev = Reviewer(state, node_limit=node_limit, kernel=kernel, time_limit=time_limit)
    search = rev.search
    n_all = len(space.answers)
    poss = np.arange(n_all)
    allowed = search.pool
    positions: list[tuple[np.ndarray, np.ndarray]] = []
    rows: list[int] = []
    solved = False
    for p in state.proposals:
        place = f"guess[{p.index}]"
        if solved:
            raise PuzzleError(f"guess {p.index} ({p.text}) comes after the answer was found", file=file, place=place,
                              allowed="no guess after an all-found feedback")
        if p.text not in space.guess_index:
            raise PuzzleError(f"{p.text} is not in the word list: a review plays by the game's rules", file=file,
                              place=place, allowed="a word of the guess list")
        g = space.guess_index[p.text]
        if state.hard and g not in set(allowed.tolist()):
            raise PuzzleError(f"{p.text} breaks hard mode (it does not keep the hints so far)", file=file,
                              place=place, allowed="a guess that keeps every hint, or hard = false")
        positions.append((poss, allowed))
        rows.append(g)
        codes = search.matrix[g, poss]
        if p.code == space.found:
            solved = True
            continue
        keep = codes == p.code
        if not keep.any():
            raise PuzzleError(f"the feedback of guess {p.index} ({p.text}: {p.marks}) leaves no possible answer",
                              file=file, place=place, allowed="the feedback the game showed (sleuth solve names "
                              "the conflicting guesses)")
        poss = poss[keep]
        if state.hard:
            allowed = search.k.hard_filter(allowed, g, int(p.code), search.glet, search.gcnt)
    if not state.proposals:
        raise PuzzleError("has no [[guess]] to review", file=file, allowed="one [[guess]] per move")
    opening = published_opening(space, state.hard)
    first_limit = opening_limit or min(node_limit, OPENING_NODES)
    values: list[_Value] = []
    cpu = [0.0] * len(positions)
    for i, (ps, al) in enumerate(positions):
        start = time.process_time()
        if i == 0 and opening is not None:
            values.append(_Value(opening.total, opening.total))
        else:
            search.node_limit = first_limit if i == 0 and len(ps) > OPENING_SIZE else node_limit
            values.append(rev.value(ps, al, i))
            search.node_limit = node_limit
        cpu[i] += time.process_time() - start
    start = time.process_time()
    final = _Value(0, 0) if solved else rev.value(poss, allowed, len(positions))
    cpu[-1] += time.process_time() - start
    moves = []
    for i, ((ps, al), g, p) in enumerate(zip(positions, rows, state.proposals, strict=True)):
        start = time.process_time()
        n = len(ps)
        if i == 0 and n > OPENING_SIZE:
            search.node_limit = first_limit
        best, played = values[i], rev.played(g, ps, al, i)
        search.node_limit = node_limit
        if not best.lost and not played.exact and not played.lost:  # no move beats the best
            played.low = max(played.low, best.low)
        nxt = values[i + 1] if i + 1 < len(values) else final
        n_next = len(positions[i + 1][0]) if i + 1 < len(positions) else (1 if solved else len(poss))
        if best.exact and not best.lost:
            if i == 0 and opening is not None:
                tie_rows = [space.guess_index[w] for w in opening.best]
                count: int | None = opening.count
            else:
                tie_rows, complete = rev.ties(ps, al, i, best.low)
                count = len(tie_rows) if complete else None
            shown = tuple(space.guesses[r] for r in tie_rows[:SHOWN_BEST])
        else:
            shown, count = (), None
            if played.high is not None and not played.lost:  # a real tree's total bounds the position's value
                best.high = played.high if best.high is None else min(best.high, played.high)
        move = _move(i + 1, p.text, _marks(space, p.code), n, best, played, nxt, n_next, shown, count,
                     opening.source if i == 0 and opening is not None else "search", rev)
        if move.best is not None and count is None:
            move = replace(move, note="; ".join(x for x in (move.note, "best guesses: not all counted (some searches "
                                                                    "stopped, or too many to search)") if x))
        moves.append(move)
        cpu[i] += time.process_time() - start
    return GameReview(game, space.label, space.tries, state.hard, node_limit, tuple(moves), solved, tuple(cpu),
                      rev.time_limit, rev.search.kernel)


def _frac(v: int | None, n: int) -> Fraction | None:
    return None if v is None else Fraction(v, n)


def _move(index: int, guess: str, marks: str, n: int, best: _Value, played: _Value, after: _Value, n_after: int,
          shown: tuple[str, ...], count: int | None, source: str, rev: Reviewer) -> MoveReview:
    exact = best.exact and played.exact and after.exact
    notes = []
    b = Fraction(best.low, n) if best.exact else None
    pl = Fraction(played.low, n) if played.exact else None
    af = Fraction(after.low, n_after) if after.exact else None
    why: dict[str, list[str]] = {}
    for what, v in (("this position", best), ("the move played", played), ("the position after it", after)):
        if v.lost:
            notes.append(f"{what}: no play finds every answer left within the cap of {rev.space.tries} guesses")
        elif not v.exact:
            why.setdefault(v.why, []).append(what)
    for stop, whats in why.items():
        if stop == "time":
            notes.append(f"{', '.join(whats)}: the searches' time limit of {rev.time_limit:g} s CPU was spent "
                         "(proven bounds; --time-limit SECONDS"
                         + ("" if rev.search.compiled else "; numba, sleuth[emi], searches about 100 times faster")
                         + ")")
        else:
            notes.append(f"{', '.join(whats)}: the search stopped at its budget (proven bounds; --budget NODES)")
    if exact and b is not None and pl is not None and pl < b:
        raise AssertionError(f"move {index}: played {pl} below best {b}")
    return MoveReview(
        index, guess, marks, n, b, pl, None if b is None or pl is None else pl - b, shown, count, af,
        None if pl is None or af is None else pl - 1 - af, exact,
        best_low=None if best.lost else Fraction(best.low, n), best_high=_frac(best.high, n) if not best.lost else None,
        played_low=None if played.lost else Fraction(played.low, n),
        played_high=_frac(played.high, n) if not played.lost else None,
        after_low=None if after.lost else Fraction(after.low, n_after),
        after_high=_frac(after.high, n_after) if not after.lost else None, source=source, note="; ".join(notes))


def _marks(space: Space, code: int) -> str:
    """A feedback as a puzzle file writes it: G/Y/B marks, or Mastermind's B per black and W per white
    (``-`` for none)."""
    if isinstance(space, CodeSpace):
        black, white = divmod(int(code), space.pegs + 1)
        return "B" * black + ("C" if space.distinct else "W") * white or "-"
    return space.show(code)


def _num(x: Fraction | None, signed: bool = False) -> str:
    if x is None:
        return "?"
    text = decimal(x)
    return ("+" + text if x > 0 else text) if signed else text


def review_text(r: GameReview) -> str:
    """The review as text: a line per move, decimals (the exact fractions are in ``--json``)."""
    mode = ("hard mode, " if r.hard else "") + f"at most {r.cap} guesses"
    lines = [f"Review of a {r.game or 'word'} game ({r.label}, {mode}): expected guesses still to make, this one "
             "included, each answer left equally likely",
             f"{'#':>2}  {'guess':<10} {'marks':<10} {'left':>5} {'best':>7} {'played':>7} {'regret':>7} "
             f"{'after':>7} {'luck':>7}  best guesses"]
    for m in r.moves:
        best = _num(m.best) if m.best is not None or m.best_low is None else \
            f"{decimal(m.best_low)}-{_num(m.best_high)}"
        played = _num(m.played) if m.played is not None or m.played_low is None else \
            f"{decimal(m.played_low)}-{_num(m.played_high)}"
        tie = ", ".join(m.best_guesses)
        if m.best_count is not None and m.best_count > len(m.best_guesses):
            tie += f" (+{m.best_count - len(m.best_guesses)} more)"
        if m.best_count is None and m.best_guesses:
            tie += " (ties not all counted)"
        if m.source != "search":
            tie += " [published]"
        lines.append(f"{m.move:>2}  {m.guess:<10} {m.feedback:<10} {m.left:>5} {best:>7} {played:>7} "
                     f"{_num(m.regret):>7} {_num(m.after):>7} {_num(m.luck, True):>7}  {tie}")
        if m.note:
            lines.append(f"    note: {m.note}")
    lines.append(f"total regret {_num(r.regret)} guesses, luck {_num(r.luck, True)} (regret: expected guesses lost "
                 "to the moves made; luck > 0: the feedback was kinder than the move's average)"
                 + ("" if r.solved else "; the game is unfinished"))
    if any(m.source != "search" for m in r.moves):
        lines.append("[published] " + next(m.source for m in r.moves if m.source != "search"))
    return "\n".join(lines)


def review(puzzle: Any, *, node_limit: int = REVIEW_NODES, kernel: str = "auto",
           opening_limit: int | None = None, time_limit: float | None = None) -> GameReview:
    """The review of a loaded Wordle, Motus or Mastermind puzzle (:func:`sleuth.load_puzzle`)."""
    return review_state(puzzle.state, node_limit=node_limit, kernel=kernel, file=puzzle.doc.file, game=puzzle.game,
                        opening_limit=opening_limit, time_limit=time_limit)


def report(puzzle: Any, options: dict[str, Any]) -> Report:
    """``sleuth review``: the review as a :class:`~sleuth.results.Report` (``--plot FILE.png`` draws it;
    ``budget``: nodes per search; ``time-limit``: CPU seconds of every search in all)."""
    nodes = options.get("budget")
    r = review(puzzle, node_limit=int(nodes) if nodes else REVIEW_NODES, opening_limit=int(nodes) if nodes else None,
               time_limit=time_limit_option(options))
    if options.get("plot"):
        plot_review(r, str(options["plot"]))
    return Report(puzzle.game, Status.OK, r.to_json(), r.text(), notes=tuple(puzzle.notes), answer=None)


def plot_review(r: GameReview, path: str) -> None:
    """A small chart of regret and luck per move (bars; unknown values left out), written to ``path``."""
    from sleuth.figures import pyplot, save

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    x = np.arange(len(r.moves))
    regret = [float(m.regret) if m.regret is not None else np.nan for m in r.moves]
    luck = [float(m.luck) if m.luck is not None else np.nan for m in r.moves]
    ax.bar(x - 0.2, regret, 0.4, label="regret (guesses lost to the move)", color="#c0392b")
    ax.bar(x + 0.2, luck, 0.4, label="luck (feedback vs the move's average)", color="#2e86c1")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, [f"{m.move}. {m.guess}" for m in r.moves], fontsize=8)
    ax.set_ylabel("expected guesses")
    ax.set_title(f"Review of a {r.game} game ({r.label}); total regret {_num(r.regret)}, "
                 f"luck {_num(r.luck, True)}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save(fig, path)


__all__ = ["GameReview", "MoveReview", "OPENING_NODES", "OPENING_SIZE", "Opening", "PLAIN_SECONDS", "PUBLISHED",
           "REVIEW_NODES", "REVIEW_SECONDS", "Reviewer", "plot_review",
           "published_opening", "report", "review", "review_state", "review_text"]
