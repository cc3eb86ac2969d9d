"""``sleuth review`` for the word and code games against a brute force written here: a plain recursive expectimax
over tiny word lists and Mastermind sizes (its own feedback rules, every guess at every node, no bound, no cache
but memoisation), every field of every move compared exactly."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Hashable
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from sleuth.cli import main
from sleuth.models.motus.review import SHOWN_BEST, review_state
from sleuth.models.motus.space import CodeSpace, Space, WordSpace
from sleuth.models.motus.state import MotusState, Proposal
from sleuth.models.motus.words import from_words

from tests.helpers.motus_brute import word_feedback as word_marks

BIG = float("inf")


def peg_marks(guess: str, secret: str) -> str:
    black = sum(a == b for a, b in zip(guess, secret, strict=True))
    white = sum((Counter(guess) & Counter(secret)).values()) - black
    return "B" * black + "W" * white or "-"


def hint_kept(word: str, guess: str, marks: str) -> bool:
    if any(m == "G" and word[i] != guess[i] for i, m in enumerate(marks)):
        return False
    need = Counter(c for c, m in zip(guess, marks, strict=True) if m != "B")
    return all(word.count(c) >= k for c, k in need.items())


class Brute:
    """Expectimax over every guess: ``total(S, allowed, tries)`` is the least total number of guesses that finds
    every secret of S with at most ``tries`` guesses (inf when impossible)."""

    def __init__(self, guesses: tuple[str, ...], marks: Callable[[str, str], str], hard: bool) -> None:
        self.guesses, self.marks, self.hard = guesses, marks, hard
        self.win = marks(guesses[0], guesses[0])
        self.total = cache(self._total)
        self.with_guess = cache(self._with_guess)

    def split(self, g: str, left: frozenset[str]) -> dict[Hashable, frozenset[str]]:
        parts: dict[str, set[str]] = {}
        for s in left:
            parts.setdefault(self.marks(g, s), set()).add(s)
        return {k: frozenset(v) for k, v in parts.items()}

    def next_allowed(self, allowed: tuple[str, ...], g: str, marks: str) -> tuple[str, ...]:
        return tuple(w for w in allowed if hint_kept(w, g, marks)) if self.hard else allowed

    def _total(self, left: frozenset[str], allowed: tuple[str, ...], tries: int) -> float:
        if not left:
            return 0
        if tries <= 0:
            return BIG
        return min(self.with_guess(g, left, allowed, tries) for g in allowed)

    def _with_guess(self, g: str, left: frozenset[str], allowed: tuple[str, ...], tries: int) -> float:
        if tries <= 0:
            return BIG
        out: float = len(left)
        for marks, part in self.split(g, left).items():
            if marks != self.win:
                out += self.total(part, self.next_allowed(allowed, g, str(marks)), tries - 1)
        return out


def expected_moves(answers: tuple[str, ...], guesses: tuple[str, ...], played: list[str], secret: str,
                   marks: Callable[[str, str], str], hard: bool, cap: int) -> list[dict[str, object]]:
    brute = Brute(guesses, marks, hard)
    left, allowed = frozenset(answers), guesses
    out: list[dict[str, object]] = []
    for i, g in enumerate(played):
        n, tries = len(left), cap - i
        best = brute.total(left, allowed, tries)
        mine = brute.with_guess(g, left, allowed, tries)
        ties = sorted(w for w in allowed if best != BIG and brute.with_guess(w, left, allowed, tries) == best)
        m = marks(g, secret)
        nxt = left if m == brute.win else frozenset(s for s in left if marks(g, s) == m)
        allowed = brute.next_allowed(allowed, g, m)
        after: float = 0 if m == brute.win else brute.total(nxt, allowed, tries - 1)
        n_after = max(len(nxt), 1)
        f = (lambda v, k: None if v == BIG else Fraction(int(v), k))
        b, p, a = f(best, n), f(mine, n), f(after, n_after)
        out.append({"left": n, "best": b, "played": p, "regret": None if b is None or p is None else p - b,
                    "best_guesses": tuple(ties[:SHOWN_BEST]), "best_count": len(ties) if b is not None else None,
                    "after": a, "luck": None if p is None or a is None else p - 1 - a, "feedback": m})
        left = nxt
    return out


def _word_space(rng: random.Random, tries: int) -> tuple[WordSpace, tuple[str, ...], tuple[str, ...]]:
    words: set[str] = set()
    while len(words) < rng.randint(9, 13):
        words.add("".join(rng.choice("ABCDE") for _ in range(4)))
    guesses = tuple(sorted(words))
    answers = tuple(sorted(rng.sample(guesses, rng.randint(4, 8))))
    base = from_words(list(guesses))
    wl = type(base)(base.name, base.key + f"-review-{rng.random()}", answers, guesses, "test")
    return WordSpace(wl.cell(4), tries), answers, guesses


def _play(rng: random.Random, space: Space, answers: tuple[str, ...], guesses: tuple[str, ...],
          marks: Callable[[str, str], str], hard: bool, moves: int) -> tuple[str, list[str]]:
    """A random game: a secret, then random guesses (keeping the hints in hard mode) until found."""
    secret = rng.choice(answers)
    played: list[str] = []
    allowed = list(guesses)
    for _ in range(moves):
        g = rng.choice(allowed) if played or rng.random() < 0.8 else secret
        played.append(g)
        m = marks(g, secret)
        if g == secret:
            break
        if hard:
            allowed = [w for w in allowed if hint_kept(w, g, m)]
    return secret, played


def _state(space: Space, played: list[str], secret: str, hard: bool) -> MotusState:
    props = []
    for i, g in enumerate(played, 1):
        code = int(space.codes(space.encode([g]), space.encode([secret]))[0, 0])
        props.append(Proposal(i, g, code, space.show(code), True))
    return MotusState(space, tuple(props), hard)


def _check(space: Space, answers: tuple[str, ...], guesses: tuple[str, ...], played: list[str], secret: str,
           marks: Callable[[str, str], str], hard: bool, kernel: str) -> None:
    r = review_state(_state(space, played, secret, hard), kernel=kernel)
    want = expected_moves(answers, guesses, played, secret, marks, hard, space.tries)
    assert len(r.moves) == len(want)
    for got, exp in zip(r.moves, want, strict=True):
        seen = {k: getattr(got, k) for k in exp}
        assert seen == exp, (played, secret, got.move)
        assert got.exact == (exp["best"] is not None and exp["played"] is not None and exp["after"] is not None)
    assert r.solved == (played[-1] == secret)


@pytest.mark.parametrize("seed", range(12))
def test_word_games_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    hard = seed % 3 == 2
    space, answers, guesses = _word_space(rng, rng.choice([3, 4, 6]))
    secret, played = _play(rng, space, answers, guesses, word_marks, hard, rng.randint(1, 5))
    _check(space, answers, guesses, played, secret, word_marks, hard, "python")


@pytest.mark.parametrize("pegs,colours,tries,seed", [(2, 3, 4, 0), (2, 4, 3, 1), (2, 4, 10, 2), (3, 3, 5, 3),
                                                     (3, 3, 3, 4)])
def test_mastermind_matches_brute_force(pegs: int, colours: int, tries: int, seed: int) -> None:
    rng = random.Random(seed)
    space = CodeSpace(pegs=pegs, colours=colours, tries=tries)
    codes = space.guesses
    secret, played = _play(rng, space, codes, codes, peg_marks, False, rng.randint(2, 4))
    _check(space, codes, codes, played, secret, peg_marks, False, "python")


def test_budget_gives_proven_bounds() -> None:
    """A search stopped at its budget: best and regret unknown, the bounds bracket the brute force's value."""
    rng = random.Random(7)
    space = CodeSpace(pegs=3, colours=3, tries=6)
    codes = space.guesses
    played = ["112", "123", "321"]
    r = review_state(_state(space, played, "321", False), node_limit=3, kernel="python")
    want = expected_moves(codes, codes, played, "321", peg_marks, False, 6)
    first = r.moves[0]
    assert not first.exact and first.best is None and first.regret is None and "budget" in first.note
    assert first.best_low is not None and first.best_low <= want[0]["best"]  # type: ignore[operator]
    assert first.best_high is None or first.best_high >= want[0]["best"]  # type: ignore[operator]
    assert rng is not None


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = ["ABCD", "ABDC", "BACD", "CDAB", "DCBA", "ACBD", "BDCA"]
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    f = tmp_path / "g.toml"
    f.write_text('game = "wordle"\nlength = 4\ndictionary = "w.txt"\n'
                 '[[guess]]\nword = "ABCD"\nsecret = "DCBA"\n[[guess]]\nword = "DCBA"\nsecret = "DCBA"\n')
    code, out, _ = _run(["review", str(f), "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    moves = data["moves"]
    assert [m["guess"] for m in moves] == ["ABCD", "DCBA"] and moves[1]["feedback"] == "GGGG"
    assert isinstance(moves[0]["left"], int) and moves[0]["left"] == 7
    want = expected_moves(tuple(sorted(words)), tuple(sorted(words)), ["ABCD", "DCBA"], "DCBA", word_marks, False, 6)
    for m, w in zip(moves, want, strict=True):
        for k in ("best", "played", "regret", "after", "luck"):
            assert m[k] == str(w[k])
        assert m["best_guesses"] == list(w["best_guesses"]) and m["best_count"] == w["best_count"]
    assert data["regret"] == str(sum(Fraction(m["regret"]) for m in moves))
    assert data["luck"] == str(sum(Fraction(m["luck"]) for m in moves))
    code, out, _ = _run(["review", str(f)], capsys)
    assert code == 0 and "regret" in out and "ABCD" in out


def test_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = ["ABCD", "ABDC", "BACD", "CDAB"]
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    f = tmp_path / "g.toml"
    f.write_text('game = "wordle"\nlength = 4\ndictionary = "w.txt"\n[[guess]]\nword = "ZZZZ"\nfeedback = "BBBB"\n')
    before = f.read_bytes()
    code, _, err = _run(["review", str(f)], capsys)
    assert code == 2 and "not in the word list" in err and err.count("\n") == 1
    f.write_text('game = "wordle"\nlength = 4\ndictionary = "w.txt"\n[[guess]]\nword = "ABCD"\nfeedback = "GGGB"\n')
    code, _, err = _run(["review", str(f)], capsys)
    assert code == 2 and "leaves no possible answer" in err
    f.write_text(before.decode())
    code, _, err = _run(["review", str(f), "--budget", "0"], capsys)
    assert code == 2 and "--budget" in err
    for seconds in ("0", "-1", "inf", "abc"):
        with pytest.raises(SystemExit) as exit_:
            _run(["review", str(f), "--time-limit", seconds], capsys)
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and "--time-limit" in err and "Traceback" not in err
    g = tmp_path / "m.toml"
    g.write_text('game = "cardguess"\ndeck = { J = 1, Q = 1 }\n')
    code, _, err = _run(["review", str(g)], capsys)
    assert code == 2 and "has no review" in err
    assert f.read_bytes() == before


def test_hard_mode_refuses_a_guess_that_breaks_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = ["ABCD", "ABDC", "BACD", "CDAB", "EEEE"]
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    f = tmp_path / "g.toml"
    f.write_text('game = "wordle"\nlength = 4\ndictionary = "w.txt"\nhard = true\n'
                 '[[guess]]\nword = "ABCD"\nsecret = "ABDC"\n[[guess]]\nword = "EEEE"\nsecret = "ABDC"\n')
    code, _, err = _run(["review", str(f)], capsys)
    assert code == 2 and "breaks hard mode" in err


@pytest.mark.slow
def test_default_lists_optimal_tree_has_no_regret() -> None:
    """The optimal tree's own moves on the official lists: regret 0 each, SALET's best 7920/2315 (published) and
    its played value found by the search."""
    from sleuth.models.motus.optimal import Optimal
    from sleuth.models.motus.space import game_space

    space = game_space("wordle")
    tree = Optimal(space, cap=6).tree("SALET")
    for secret in ("GHOST", "ZESTY", "CRANE"):
        node, played = tree, []
        while True:
            played.append(node.guess)
            key = word_marks(node.guess, secret)
            if key == "GGGGG":
                break
            node = node.children[key]
        r = review_state(_state(space, played, secret, False))
        assert r.moves[0].best == Fraction(7920, 2315) and r.moves[0].best_guesses == ("SALET",)
        assert all(m.exact and m.regret == 0 for m in r.moves), secret
        assert r.solved and r.regret == 0


def test_plot_and_games_listing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = ["ABCD", "ABDC", "BACD", "CDAB", "DCBA"]
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    f = tmp_path / "g.toml"
    f.write_text('game = "wordle"\nlength = 4\ndictionary = "w.txt"\n[[guess]]\nword = "ABCD"\nsecret = "BACD"\n')
    png = tmp_path / "r.png"
    code, _, _ = _run(["review", str(f), "--plot", str(png)], capsys)
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, err = _run(["review", str(f), "--plot", str(tmp_path / "r.txt")], capsys)
    assert code == 2 and "--plot" in err
    for game, offered in (("wordle", True), ("clue", True), ("cardguess", False)):
        code, out, _ = _run(["games", game], capsys)
        assert code == 0 and ("sleuth review FILE" in out) == offered


def test_motus_first_letter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Motus plays within the cell of the shown first letter: the brute force over those words alone."""
    words = ["ABCD", "ABDC", "ACBD", "ADCB", "ACDB", "BACD", "CDAB", "DCBA", "ADBC"]
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    f = tmp_path / "g.toml"
    f.write_text('game = "motus"\nlength = 4\nfirst = "A"\ndictionary = "w.txt"\n'
                 '[[guess]]\nword = "ABCD"\nsecret = "ADBC"\n[[guess]]\nword = "ADBC"\nsecret = "ADBC"\n')
    code, out, _ = _run(["review", str(f), "--json"], capsys)
    assert code == 0
    cell = tuple(sorted(w for w in words if w[0] == "A"))
    want = expected_moves(cell, cell, ["ABCD", "ADBC"], "ADBC", word_marks, False, 6)
    for m, w in zip(json.loads(out)["moves"], want, strict=True):
        assert m["left"] == w["left"] and m["best"] == str(w["best"]) and m["luck"] == str(w["luck"])
        assert m["best_guesses"] == list(w["best_guesses"]) and m["best_count"] == w["best_count"]


def test_published_openings_apply_only_to_their_rules() -> None:
    from sleuth.models.motus.review import published_opening
    from sleuth.models.motus.space import game_space

    wordle = game_space("wordle")
    o = published_opening(wordle, False)
    assert o is not None and o.total == 7920 and o.best == ("SALET",)
    assert published_opening(wordle, True) is None
    assert published_opening(WordSpace(wordle.cell, 4), False) is None   # SALET's tree needs 5 guesses
    mm = published_opening(CodeSpace(pegs=4, colours=6, tries=10), False)
    assert mm is not None and mm.total == 5625 and mm.count == len(mm.best) == 720 and "1123" in mm.best
    assert all(sorted(Counter(c).values()) == [1, 1, 2] for c in mm.best)
    assert published_opening(CodeSpace(pegs=4, colours=6, tries=5), False) is None
    assert published_opening(CodeSpace(pegs=3, colours=6, tries=10), False) is None


@pytest.mark.slow
def test_mastermind_opening_1123_is_the_published_optimum() -> None:
    space = CodeSpace(pegs=4, colours=6, tries=10)
    r = review_state(_state(space, ["1123"], "3456", False), opening_limit=10**7)
    first = r.moves[0]
    assert first.best == first.played == Fraction(5625, 1296) and first.regret == 0   # the search agrees


NO_NUMBA = "import sys; sys.modules['numba'] = None\nfrom sleuth.cli import main\nraise SystemExit(main(sys.argv[1:]))"


def _review_without_numba(args: list[str]) -> dict[str, object]:
    """``sleuth review ARGS --json`` in a process where numba cannot be imported (a plain install)."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    res = subprocess.run([sys.executable, "-c", NO_NUMBA, "review", *args, "--json"], capture_output=True, text=True,
                         timeout=900, check=False, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    data: dict[str, object] = json.loads(res.stdout)
    assert data["kernel"] == "python"  # the plain-Python search: numba was out of reach
    return data


def _within(move: dict[str, object], key: str, value: Fraction | None) -> None:
    """The move's ``key`` is the exact ``value``, or (unknown) proven bounds that contain it."""
    if move[key] is not None:
        assert Fraction(str(move[key])) == value, (move["move"], key)
        return
    assert not move["exact"]
    low, high = move[f"{key}_low"], move[f"{key}_high"]
    assert low is not None and value is not None and Fraction(str(low)) <= value, (move["move"], key)
    assert high is None or value <= Fraction(str(high)), (move["move"], key)


def test_time_limit_without_numba_gives_proven_bounds(tmp_path: Path) -> None:
    """Without numba, past the time limit (here: spent by the first slice of the first search), every position
    left is labelled with proven bounds containing the exact values (the same review without a time limit, whose
    search the brute-force tests above check), and the note names the time limit."""
    f = tmp_path / "m.toml"
    played = ["112", "123", "341"]
    f.write_text('game = "mastermind"\npegs = 3\ncolours = 4\ntries = 6\n'
                 + "".join(f'[[guess]]\ncode = "{g}"\nsecret = "341"\n' for g in played))
    data = _review_without_numba([str(f), "--time-limit", "0.000001", "--budget", "100000"])
    space = CodeSpace(pegs=3, colours=4, tries=6)
    exact = review_state(_state(space, played, "341", False), kernel="python", time_limit=10**6)
    assert exact.exact
    moves = data["moves"]
    assert isinstance(moves, list) and not data["exact"] and data["time_limit"] == 0.000001
    assert not moves[0]["exact"] and "time limit" in moves[0]["note"]
    for m, e in zip(moves, exact.moves, strict=True):
        for key in ("best", "played", "after"):
            _within(m, key, getattr(e, key))


@pytest.mark.slow
def test_wordle_example_without_numba_answers_with_labelled_bounds() -> None:
    """The bundled Wordle example on a plain install (no numba): within the default time limit (minutes before),
    every unknown value labelled with proven bounds that contain the exact values (reviewed here with the default
    kernel and no time limit to speak of)."""
    from sleuth.loading import load_puzzle
    from sleuth.models.motus.review import review

    data = _review_without_numba(["example:wordle/example"])
    exact = review(load_puzzle("example:wordle/example"), time_limit=10**6)
    assert exact.exact
    moves = data["moves"]
    assert isinstance(moves, list) and not data["exact"]
    assert any("time limit" in m.get("note", "") for m in moves)
    for m, e in zip(moves, exact.moves, strict=True):
        for key in ("best", "played", "after"):
            _within(m, key, getattr(e, key))
