"""Start-up benchmark (prints figures; not a timed test): what a plain command costs before it works.

    python tests/bench/bench_startup.py [--repeats 15]

Wall time, median and best of N fresh processes, of ``sleuth --version``, ``sleuth games``, a small Clue solve
and a small epistemic solve, beside a bare ``python -c pass`` (the interpreter's own start, the reference in
the same run).  Targets (issue 12): ``sleuth games`` under 0.15 s and a small Clue solve under 0.4 s.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "sleuth --version": ["sleuth", "--version"],
    "sleuth games": ["sleuth", "games"],
    "sleuth solve clue/small-deck": ["sleuth", "solve", "example:clue/small-deck"],
    "sleuth solve clue/classic-3-players": ["sleuth", "solve", "example:clue/classic-3-players"],
    "sleuth solve epistemic/cheryl": ["sleuth", "solve", "example:epistemic/cheryl"],
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)
    if shutil.which("sleuth") is None:
        print("sleuth is not on PATH: install the package first", file=sys.stderr)
        return 2
    print(f"{'command':<40} {'median s':>9} {'best s':>8} {'-python':>8}")
    base = None
    for label, cmd in COMMANDS.items():
        times = []
        for _ in range(args.repeats):
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            times.append(time.perf_counter() - t)
        med = statistics.median(times)
        base = med if base is None else base
        print(f"{label:<40} {med:9.3f} {min(times):8.3f} {med - base:8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
