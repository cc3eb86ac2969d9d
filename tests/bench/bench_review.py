"""Benchmark of ``sleuth review`` (prints figures; not a test).

    python tests/bench/bench_review.py [--repeat 3] [--parts wordle,mastermind,clue] [--budget NODES]

``wordle``: a 6-guess game on the official lists (SALET, then a possible answer at random each move until
found: the first seed whose game takes 6 guesses), reviewed from a fresh search each run; printed: the CPU of
the first move (SALET's played value: the search of its whole tree; the opening's best is the published
optimum) and of the five moves after it.  ``mastermind``: 4 pegs, 6 colours, Knuth's game against 3456 (1122,
then Knuth's proposals), the first move and the rest apart (past the budget the first move is labelled with
proven bounds).  ``clue``: the bundled six-player game, each of the viewer's suggestions and shown cards judged
alone, the first (cold: loads the counting kernels) and the median of the rest.  CPU seconds, medians over
``--repeat`` runs; the kernels are loaded once before the clock.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sleuth.models.motus.review import REVIEW_NODES, review_state  # noqa: E402
from sleuth.models.motus.space import CodeSpace, Space, game_space  # noqa: E402
from sleuth.models.motus.state import MotusState, Proposal  # noqa: E402


def state(space: Space, played: list[str], secret: str) -> MotusState:
    props = []
    for i, g in enumerate(played, 1):
        code = int(space.codes(space.encode([g]), space.encode([secret]))[0, 0])
        props.append(Proposal(i, g, code, space.show(code), True))
    return MotusState(space, tuple(props))


def six_guess_game(space: Space) -> tuple[list[str], str]:
    """SALET, then a random possible answer each move, for the first seed that takes exactly 6 guesses."""
    m = space.matrix()
    rows = space.answer_rows
    for seed in range(1000):
        rng = random.Random(seed)
        secret = rng.randrange(len(space.answers))
        poss = list(range(len(space.answers)))
        played, g = [], space.guess_index["SALET"]
        while True:
            played.append(space.guesses[g])
            if g == rows[secret]:
                break
            poss = [a for a in poss if m[g, a] == m[g, secret]]
            g = int(rows[rng.choice(poss)])
        if len(played) == 6:
            return played, space.answers[secret]
    raise RuntimeError("no 6-guess game in 1000 seeds")


def wordle(repeat: int, budget: int) -> None:
    space = game_space("wordle")
    played, secret = six_guess_game(space)
    review_state(state(space, ["SALET"], "SALET"), node_limit=budget)   # loads the compiled kernel before the clock
    first, rest, exact = [], [], True
    for _ in range(repeat):
        r = review_state(state(space, played, secret), node_limit=budget)
        first.append(r.cpu_seconds[0])
        rest.append(sum(r.cpu_seconds[1:]))
        exact = exact and r.exact
    print(f"wordle: {' '.join(played)} (answer {secret}); regret {float(r.regret or 0):.4f}, exact {exact}")
    print(f"  first move {statistics.median(first):.2f} s CPU; the 5 moves after it {statistics.median(rest):.2f} s "
          f"CPU (medians of {repeat}; budget {budget:,} nodes per search)")


def mastermind(repeat: int, budget: int) -> None:
    space = CodeSpace(pegs=4, colours=6, tries=10)
    secret = "3456"
    review_state(state(space, ["1123"], "1123"), node_limit=1000)
    first, rest = [], []
    for _ in range(repeat):
        r = review_state(state(space, _knuth(space, secret), secret), node_limit=budget)
        first.append(r.cpu_seconds[0])
        rest.append(sum(r.cpu_seconds[1:]))
    print(f"mastermind 4x6: {' '.join(m.guess for m in r.moves)} (answer {secret}); first move exact "
          f"{r.moves[0].exact}, the rest exact {all(m.exact for m in r.moves[1:])}")
    print(f"  first move {statistics.median(first):.2f} s CPU; the {len(r.moves) - 1} moves after it "
          f"{statistics.median(rest):.2f} s CPU (medians of {repeat}; budget {budget:,} nodes)")


def _knuth(space: CodeSpace, secret: str) -> list[str]:
    """Knuth's game: 1122, then the Max method's proposal (sleuth suggest --method max) each move."""
    from sleuth.models.motus import strategy as st

    m = space.matrix()
    poss = list(range(len(space.answers)))
    s = space.guess_index[secret]
    g = space.guess_index["1122"]
    out = []
    while True:
        out.append(space.guesses[g])
        if g == s:
            return out
        poss = [a for a in poss if m[g, a] == m[g, s]]
        possible = np.zeros(len(space.guesses), dtype=bool)
        possible[poss] = True
        g = st.choose(m[:, poss], possible, st.Method.MAX)


def clue(repeat: int) -> None:
    from sleuth.models.clue import review as cr
    from sleuth.loading import load_puzzle

    puzzle = load_puzzle("example:clue/six-players")
    game = puzzle.state
    jobs = [(k, s.by == game.viewer) for k, s in enumerate(game.suggestions)
            if s.by == game.viewer or (s.shown_by == game.viewer and s.card is not None)]
    cold: float | None = None
    times: dict[int, list[float]] = {k: [] for k, _ in jobs}
    for _ in range(repeat):
        for k, ask in jobs:
            c0 = time.process_time()
            cr.suggestion_review(game, k) if ask else cr.show_review(game, k)
            took = time.process_time() - c0
            if cold is None:
                cold = took
            else:
                times[k].append(took)
    print(f"clue, six players ({len(jobs)} moves of the viewer): first call {cold:.2f} s CPU (loads the kernels)")
    for k, ask in jobs:
        print(f"  suggestion {k + 1} ({'the viewer asks' if ask else 'the viewer shows'}): "
              f"{statistics.median(times[k]):.3f} s CPU (median of {len(times[k])})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--parts", default="wordle,mastermind,clue")
    ap.add_argument("--budget", type=int, default=REVIEW_NODES)
    args = ap.parse_args()
    parts = args.parts.split(",")
    if "wordle" in parts:
        wordle(args.repeat, args.budget)
    if "mastermind" in parts:
        mastermind(args.repeat, args.budget)
    if "clue" in parts:
        clue(args.repeat)


if __name__ == "__main__":
    main()
