"""Benchmark of the table companion: simulated classic 6-player Clue games recorded event by event through
the HTTP API of a real server on 127.0.0.1; each request appends one suggestion and answers with the exact sheet
and probabilities.  Prints the median, p90, p99 and maximum round trip, and beside them the same solve run
in-process on the same files (the engine alone), so the server's share can be read off on a noisy machine.

    python tests/bench/bench_serve.py [--games 8] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.serve_util import call, thread_server  # noqa: E402


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    from sleuth.models.clue.simulate import simulate
    from sleuth.models.clue.state import Suggestion
    from sleuth.loading import load_data
    from sleuth.notes import NOTES

    NOTES.disabled = True
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    http: list[float] = []
    engine: list[float] = []
    with tempfile.TemporaryDirectory() as folder, thread_server(Path(folder)) as base:
        for g in range(args.games):
            sim = simulate(6, rng)
            start = sim.view(0, 0).to_doc()
            start.pop("suggestion"), start.pop("accusation")
            status, game = call(base, "POST", "/api/games", {"data": start, "name": f"bench-{g}"})
            assert status == 201, game
            for s in sim.suggestions:
                seen = s.card if 0 in (s.by, s.shown_by) else None
                row = Suggestion(s.by, s.cards, s.shown_by, seen)
                value = {"by": sim.players[row.by], "cards": [sim.deck.cards[c] for c in row.cards]}
                if row.shown_by is not None:
                    value["shown_by"] = sim.players[row.shown_by]
                if row.card is not None:
                    value["card"] = sim.deck.cards[row.card]
                t0 = time.perf_counter()
                status, answer = call(base, "POST", f"/api/games/bench-{g}/edit",
                                      {"ops": [{"op": "append", "key": "suggestion", "value": value}],
                                       "solve": {"options": {"probabilities": True}}})
                http.append(time.perf_counter() - t0)
                assert status == 200 and answer["solve"]["status"] == "ok", answer
                t0 = time.perf_counter()
                load_data(answer["data"]).solve(options={"probabilities": True})
                engine.append(time.perf_counter() - t0)
    load = os.getloadavg()
    print(f"bench_serve: {args.games} simulated classic 6-player games, {len(http)} events, viewer P1, "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'':<34} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8}  (ms)")
    for label, xs in (("HTTP event + sheet + probabilities", http), ("engine alone (same file, in-process)", engine)):
        print(f"{label:<34} " + " ".join(f"{1000 * v:8.1f}" for v in (statistics.median(xs), quantile(xs, .9),
                                                                          quantile(xs, .99), max(xs))))
    print(f"server share of the median: {1000 * (statistics.median(http) - statistics.median(engine)):.1f} ms; "
          f"targets: median < 150 ms, p99 < 1000 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
