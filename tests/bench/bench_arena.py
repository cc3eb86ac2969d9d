"""Benchmark (prints figures; not a test): the Clue arena's targets of issue 50.

Rows: 6 players, one ``sleuth`` against five ``clauses``, and against five ``rules``; then 4 and 3 players,
one ``sleuth`` against ``clauses``.  Per row: sleuth's win share with its 95% Wilson interval (par 1/N), the
opponents' share, sleuth's wrong accusations, its mean and maximum decision time (wall, and the largest CPU
time of one decision, which a shared machine does not inflate), the row's wall and CPU seconds, and the time
2,000 games take at the measured CPU rate on two cores.  Every game replays from ``--seed`` (the arena's own
rule), whatever ``--workers``.

    python tests/bench/bench_arena.py --games 400 --workers 2
    python tests/bench/bench_arena.py --games 2000 --rows 1,2 --workers 2 --resume arena-bench   # the issue's rows

``--resume PREFIX`` appends every finished game to ``PREFIX-<row>.jsonl`` (one file per row) and, run again,
skips the games already there: an interrupted run goes on where it stopped, and a larger ``--games`` is a new
run.  ``--json`` prints the rows as one JSON object.

Targets (the issue): 2,000 games per 6-player row in under 15 minutes on two cores; sleuth's win share at
least 35%; every sleuth decision under 1 s.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from sleuth.executor import Executor
from sleuth.models.clue.arena import play_one, summarise, warm

ROWS = [(6, "clauses"), (6, "rules"), (4, "clauses"), (3, "clauses")]


def timed_game(job: tuple[str, tuple[str, ...], int, int, float, bool]) -> dict[str, Any]:
    """One arena game, with the CPU seconds it took (kept in the resume file with the game)."""
    c0 = time.process_time()
    game = play_one(job)
    game["cpu"] = time.process_time() - c0
    return game


def row(players: int, other: str, args: argparse.Namespace) -> dict[str, Any]:
    entries = ("sleuth",) + (other,) * (players - 1)
    jobs = [("classic", entries, args.seed, g, 10.0, False) for g in range(args.games)]
    resume = f"{args.resume}-{players}p-{other}.jsonl" if args.resume else None
    t0 = time.perf_counter()
    with Executor(args.workers, resume=resume, quiet=args.quiet, name="bench-arena") as ex:
        games = ex.map_tasks(timed_game, jobs, label=f"{players}p v {other}", unit="game")
        resumed = ex.stats.resumed
    wall = time.perf_counter() - t0
    by = {r["bot"]: r for r in summarise(entries, games)}
    s, o = by["sleuth"], by[other]
    cpu = sum(g["cpu"] for g in games)
    return {"row": f"{players}p: 1 sleuth v {players - 1} {other}", "players": players, "opponent": other,
            "games": args.games, "seed": args.seed, "resumed": resumed, "sleuth": s, "opponent_row": o,
            "wall_s": wall, "cpu_s": cpu, "minutes_2000_on_2_cores": cpu / args.games * 2000 / 2 / 60}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per row (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--rows", default="all", help="comma-separated row numbers (1-4), default all")
    ap.add_argument("--resume", metavar="PREFIX", help="keep each row's finished games in PREFIX-<row>.jsonl")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    args = ap.parse_args()
    rows = ROWS if args.rows == "all" else [ROWS[int(i) - 1] for i in args.rows.split(",")]
    warm()
    out = []
    if not args.json:
        print(f"Clue arena benchmark: {args.games} games per row, seed {args.seed}, {args.workers} worker(s)")
        print(f"{'row':<25} {'sleuth win share (95% CI)':<27} {'opponents':>9} {'wrong':>5} "
              f"{'sleuth ms: mean / max (CPU max)':>31} {'wall s':>7} {'CPU s':>7} {'2,000 games, 2 cores':>21}")
    for players, other in rows:
        r = row(players, other, args)
        out.append(r)
        if args.json:
            continue
        s, o = r["sleuth"], r["opponent_row"]
        lo, hi = s["interval"]
        share = f"{100 * s['win_share']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"
        times = f"{s['mean_decision_ms']:.0f} / {s['max_decision_ms']:.0f} ({s['max_decision_cpu_ms']:.0f})"
        full = f"~{r['minutes_2000_on_2_cores']:.1f} min"
        print(f"{r['row']:<25} {share:<27} {100 * o['win_share']:>8.1f}% {s['wrong_accusations']:>5} {times:>31} "
              f"{r['wall_s']:>7.0f} {r['cpu_s']:>7.0f} {full:>21}", flush=True)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        cpu = sum(r["cpu_s"] for r in out)
        print(f"all rows: {cpu:.0f} s of CPU; at 2,000 games per row on two cores, about "
              f"{sum(r['minutes_2000_on_2_cores'] for r in out):.1f} min")


if __name__ == "__main__":
    main()
