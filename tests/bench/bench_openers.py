"""Benchmark of ``experiment wordle --optimal --all-openers`` per opener (prints figures; not a test).

    python tests/bench/bench_openers.py [--sample 100] [--hard] [--beta 7921] [--seed 7]

Decides a seeded random sample of Wordle's allowed guesses at the cut-off ``--beta`` (default: SALET's 7,920
plus one, or 8,123 in hard mode: SALET's 8,122 plus one) in one process, as a run's worker would (class bounds
cached across openers), and prints per proof (size, ply, search, exact) how many openers it decided, their
median and total CPU seconds, and the estimate for all 12,972 openers.  CPU rather than wall time: the machine
is shared.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import numpy as np

from sleuth.models.motus.openers import HOW, prover


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=100)
    ap.add_argument("--hard", action="store_true")
    ap.add_argument("--beta", type=int, default=0)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    beta = args.beta or (8123 if args.hard else 7921)
    cpu = time.process_time()
    p = prover("wordle", args.hard, 6)
    p.ply(np.arange(3, dtype=np.int64), p.search.pool)  # the kernel loaded (or compiled) before the clock
    print(f"setup {time.process_time() - cpu:.1f} s CPU")
    names = p.search.space.guesses
    rows = np.random.default_rng(args.seed).choice(len(names), args.sample, replace=False)
    by: dict[str, list[float]] = {h: [] for h in HOW}
    for g in rows:
        r = p.decide(names[int(g)], beta)
        by[r["how"]].append(r["cpu_seconds"])
    total = sum(sum(v) for v in by.values())
    mode = "hard mode" if args.hard else "normal mode"
    print(f"{mode}, cut-off {beta}, {args.sample} openers, {total:.1f} s CPU ({total / args.sample:.3f} s each)")
    for h in HOW:
        if by[h]:
            med = statistics.median(by[h])
            print(f"  {h:<7} {len(by[h]):>5} openers, median {med:.3f} s, total {sum(by[h]):.1f} s")
    print(f"  estimate for all {len(names)}: {total / args.sample * len(names) / 3600:.2f} CPU hours; class-bound "
          f"cache hits {p.hits}; peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
