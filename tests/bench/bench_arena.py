"""Benchmark (prints figures; not a test): the Clue arena's targets of issue 50.

Rows: 6 players, one ``sleuth`` against five ``clauses``, and against five ``rules``; then 4 and 3 players,
one ``sleuth`` against ``clauses``.  Per row: sleuth's win share with its 95% Wilson interval (par 1/N), the
opponents' share, wrong accusations, sleuth's mean and maximum decision time (wall, and the maximum's CPU
seconds, which a shared machine does not inflate), the row's wall and CPU seconds, and the time 2,000 games
would take at the measured CPU rate on two cores.  Every game replays from ``--seed`` (the arena's own rule).

    python tests/bench/bench_arena.py --games 200 --workers 2

Targets (the issue): 2,000 games per 6-player row in under 15 minutes on two cores; sleuth's win share at
least 35%; every sleuth decision under 1 s.
"""

from __future__ import annotations

import argparse
import time

from sleuth.executor import Executor
from sleuth.models.clue.arena import play_one, summarise, warm

ROWS = [(6, "clauses"), (6, "rules"), (4, "clauses"), (3, "clauses")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--rows", default="all", help="comma-separated row numbers (1-4), default all")
    args = ap.parse_args()
    rows = ROWS if args.rows == "all" else [ROWS[int(i) - 1] for i in args.rows.split(",")]
    warm()
    print(f"Clue arena benchmark: {args.games} games per row, seed {args.seed}, {args.workers} worker(s)")
    print(f"{'row':<22} {'sleuth win share (95% CI)':<27} {'opponents':>9} {'wrong':>5} "
          f"{'sleuth ms: mean / max (CPU max)':>31} {'wall s':>7} {'CPU s':>7} {'2,000 games, 2 cores':>21}")
    for players, other in rows:
        entries = ("sleuth",) + (other,) * (players - 1)
        jobs = [("classic", entries, args.seed, g, 10.0, False) for g in range(args.games)]
        c0, t0 = time.process_time(), time.perf_counter()
        with Executor(args.workers, quiet=True, name="bench-arena") as ex:
            games = ex.map_tasks(play_one, jobs)
            cpu = ex.stats.task_cpu if args.workers > 1 else time.process_time() - c0
        wall = time.perf_counter() - t0
        by = {r["bot"]: r for r in summarise(entries, games)}
        s, o = by["sleuth"], by[other]
        lo, hi = s["interval"]
        share = f"{100 * s['win_share']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"
        times = f"{s['mean_decision_ms']:.0f} / {s['max_decision_ms']:.0f} ({s['max_decision_cpu_ms']:.0f})"
        full = cpu / args.games * 2000 / 2 / 60
        print(f"{f'{players}p: 1 sleuth v {players - 1} {other}':<22} {share:<27} {100 * o['win_share']:>8.1f}% "
              f"{s['wrong_accusations']:>5} {times:>31} {wall:>7.0f} {cpu:>7.0f} {f'~{full:.1f} min':>21}")


if __name__ == "__main__":
    main()
