"""Benchmark (prints figures; not a test): every interactive answer, in one run, against a reference.

The whole of "every interactive answer under a second" at once: Clue per state (what
``bench_clue_interactive.py`` measures: the sheet, probabilities, what the others know, the advice and another
player's beliefs over every prefix of simulated games, player 1's view and an outside observer's; median, p95
and max CPU ms per state), then Egghead's rounds and the word games' optimal trees (what
``bench_words_egghead.py`` measures).  Each interpreter given with ``--python`` (a checkout of an older commit,
with its own environment) runs the same games right after this one's, so the two columns see the same load.

    python tests/bench/bench_interactive.py --python BASE/.venv/bin/python --games 50

``--retime K`` times the slowest Clue states K more times each (``bench_clue_interactive.py --retime``: on a
host whose speed drifts, the largest of their medians beside the max of single timings).  The Clue part can
take hours with 50 games per player count; ``--games``/``--first`` pick a slice, and
``--clue-parts``/``--words-parts`` (empty to skip) pick what runs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def clue_rows(python: str, args: argparse.Namespace, players: int) -> list[dict[str, object]]:
    """One player count's Clue table (``bench_clue_interactive.py --json``) run by ``python``."""
    out = subprocess.run([python, str(HERE / "bench_clue_interactive.py"), "--json", "--players", str(players),
                          "--games", str(args.games), "--first", str(args.first), "--seed", str(args.seed),
                          "--parts", args.clue_parts, "--views", args.views, "--retime", str(args.retime)],
                         capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{python} failed on the Clue part:\n{out.stderr}")
    return json.loads(out.stdout)["results"]  # type: ignore[no-any-return]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", action="append", default=[], help="a reference interpreter (e.g. the base's)")
    ap.add_argument("--games", type=int, default=50, help="Clue: simulated games per player count (default 50)")
    ap.add_argument("--first", type=int, default=0, help="Clue: index of the first game")
    ap.add_argument("--players", default="3,4,5,6", help="Clue: player counts (default 3,4,5,6)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--views", default="player,observer")
    ap.add_argument("--clue-parts", default="sheet,probabilities,others,advice,beliefs")
    ap.add_argument("--retime", type=int, default=0, metavar="K",
                    help="Clue: time the 5 slowest states of each part K more times (the largest median beside max)")
    ap.add_argument("--words-parts", default="egghead,salet,hard")
    ap.add_argument("--five-rounds", type=int, default=40, help="Egghead rounds with 5 players (default 40)")
    ap.add_argument("--repeat", type=int, default=1, help="Egghead: children per figure")
    args = ap.parse_args()
    pythons = [sys.executable, *args.python]
    print(f"load average {os.getloadavg()[0]:.1f} at the start; columns: " + " | ".join(pythons), flush=True)
    parts = [p for p in args.clue_parts.split(",") if p]
    for n in map(int, args.players.split(",")) if parts else []:
        tables = [clue_rows(py, args, n) for py in pythons]
        for rows in zip(*tables, strict=True):
            first = rows[0]
            print(f"Clue {n} players, {first['view']} ({first['games']} games, "
                  f"{first[parts[0]]['states']} states), CPU ms median / p95 / max per state, load "  # type: ignore[index]
                  f"{os.getloadavg()[0]:.1f}:", flush=True)
            for part in parts:
                cells = [f"{r[part]['median_ms']:.1f} / {r[part]['p95_ms']:.0f} / {r[part]['max_ms']:.0f}"  # type: ignore[index]
                         + (f" (exact at {r[part]['exact_states']})" if part == "advice" else "")  # type: ignore[index]
                         + (f", slowest re-timed {r[part]['retimed_max_ms']:.0f}"  # type: ignore[index]
                            if "retimed_max_ms" in r[part] else "")  # type: ignore[operator]
                         for r in rows]
                print(f"  {part:<13} " + " | ".join(cells), flush=True)
    if args.words_parts:
        subprocess.run([sys.executable, str(HERE / "bench_words_egghead.py"), "--parts", args.words_parts,
                        "--five-rounds", str(args.five_rounds), "--repeat", str(args.repeat),
                        *(x for py in args.python for x in ("--python", py))], check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
