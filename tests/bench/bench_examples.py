"""Every bundled example as a user runs it (prints figures; not a timed test).

    python tests/bench/bench_examples.py [--repeats 3] [--cold] [--only TEXT] [--top 10]

Each bundled example (``sleuth examples``) with each command that applies to its game (``solve``; ``verify``;
``suggest`` where the game has it; a Clue example without a viewer with ``--viewer`` its first player, as its
refusal asks), and on every bundled Clue example ``suggest --set show=...`` (the player
after the viewer suggests a suspect, a weapon and a room, the viewer's own cards first, one the viewer can be
the one to answer: :func:`show_option`), each run
as a whole process.  Figures: median CPU seconds (user + system, the child's rusage) and median wall seconds
over ``--repeats`` runs after one warm-up run (the cache warm: derived data and compiled kernels in a cache
folder of the benchmark's own, ``$SLEUTH_CACHE``).  ``--cold``: the first run after an install instead, a
fresh cache folder each run holding only the compiled kernels (compiling them once per machine is not counted:
``sleuth cache compile``).  The table is sorted by CPU time, slowest first; the slowest and the count over 1 s
close it.  Target (issue 48): every command under 1 s CPU warm, under 1.5 s cold.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = ("solve", "verify", "suggest")


def show_option(ref: str) -> str | None:
    """The ``show=`` value for a Clue example: the player after the viewer suggests one card of each category,
    the viewer's where they hold one, a suggestion the viewer can be the one to answer (some deal has every
    player between them lacking its three cards); the first such in the deck's order, cards the viewer holds
    first (None when there is none)."""
    import itertools

    from sleuth.loading import load_puzzle
    from sleuth.models.clue.counting import Problem, count_deals
    from sleuth.models.clue.state import ClueState, Suggestion

    game = load_puzzle("example:" + ref).state
    if game.viewer is None:
        return None
    by = (game.viewer + 1) % len(game.players)
    hand = set(game.hands[game.viewer])
    members = [sorted(game.deck.members(cat), key=lambda c: (c not in hand, c)) for cat in range(3)]
    for picks in sorted(itertools.product(*members), key=lambda t: -len(hand.intersection(t))):
        shown = min(c for c in picks if c in hand) if hand.intersection(picks) else None
        if shown is None:
            break
        after = ClueState(game.deck, game.players, game.hand_sizes, game.hands,
                          (*game.suggestions, Suggestion(by, picks, game.viewer, shown)), game.accusations,
                          game.file_viewer, game.viewer, game.card_names)
        if count_deals(Problem.from_observations(after, after.observations())).total:
            return f"{game.players[by]}: " + ", ".join(game.card(c) for c in picks)
    return None


def cases(only: str) -> list[tuple[str, list[str]]]:
    from sleuth.loading import load_puzzle
    from sleuth.puzzle import Puzzle
    from sleuth.resources import examples

    out: list[tuple[str, list[str]]] = []
    for ex in examples():
        if only and ex.ref not in only and only not in ex.ref:
            continue
        puzzle = load_puzzle("example:" + ex.ref)
        has_suggest = type(puzzle).suggest is not Puzzle.suggest
        for cmd in COMMANDS:
            if cmd != "suggest" or has_suggest:
                out.append((f"{cmd} {ex.ref}", [cmd, "example:" + ex.ref]))
        if puzzle.game == "clue" and puzzle.state.viewer is None and has_suggest:
            # an example without a viewer refuses a plain suggest (no suggester): the first player suggests
            viewer = ["--viewer", puzzle.state.players[0]]
            out[-1] = (f"{out[-1][0]} {' '.join(viewer)}", [*out[-1][1], *viewer])
        if puzzle.game == "clue":
            show = show_option(ex.ref)
            if show is not None:
                out.append((f'suggest {ex.ref} --set "show={show}"', ["suggest", "example:" + ex.ref,
                                                                      "--set", f"show={show}"]))
    return [c for c in out if only in c[0]]


def run(args: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, exit status) of one whole ``sleuth`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(["sleuth", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                          check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, proc.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="a fresh cache (compiled kernels only) each run")
    parser.add_argument("--only", default="", help="only the commands whose label holds this text")
    parser.add_argument("--top", type=int, default=0, help="print only the N slowest (default: all)")
    args = parser.parse_args(argv)
    if shutil.which("sleuth") is None:
        print("sleuth is not on PATH: install the package first", file=sys.stderr)
        return 2
    todo = cases(args.only)
    base = Path(tempfile.mkdtemp(prefix="sleuth-bench-examples-"))
    warm = base / "warm"
    env = dict(os.environ, SLEUTH_CACHE=str(warm))
    rows = []
    try:
        for label, cmd in todo:
            run(cmd, env)                          # warm-up: fills the cache, compiles kernels once
            cpus, walls, codes = [], [], set()
            for _ in range(args.repeats):
                run_env = env
                if args.cold:
                    cold = base / "cold"
                    shutil.rmtree(cold, ignore_errors=True)
                    cold.mkdir(mode=0o700)
                    if (warm / "numba").is_dir():
                        shutil.copytree(warm / "numba", cold / "numba")
                        (cold / "numba").chmod(0o700)
                    run_env = dict(os.environ, SLEUTH_CACHE=str(cold))
                cpu, wall, code = run(cmd, run_env)
                cpus.append(cpu)
                walls.append(wall)
                codes.add(code)
            rows.append((statistics.median(cpus), statistics.median(walls), sorted(codes), label))
            print(f"  {rows[-1][0]:6.2f} {rows[-1][1]:6.2f}  {label}", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    rows.sort(key=lambda r: -r[0])
    shown = rows[:args.top] if args.top else rows
    mode = "cold (first run after an install)" if args.cold else "warm cache"
    print(f"{len(rows)} commands, {mode}, median of {args.repeats}")
    print(f"{'cpu s':>6} {'wall s':>6} {'exit':>5}  command")
    for cpu, wall, codes, label in shown:
        print(f"{cpu:6.2f} {wall:6.2f} {','.join(map(str, codes)):>5}  sleuth {label}")
    if rows:
        cpu, wall, _, label = rows[0]
        limit = 1.5 if args.cold else 1.0
        over = sum(r[0] >= limit for r in rows)
        print(f"slowest: sleuth {label}: {cpu:.2f} s CPU, {wall:.2f} s wall; {over} of {len(rows)} at or over "
              f"{limit} s CPU; total {sum(r[0] for r in rows):.1f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
