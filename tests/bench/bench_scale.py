"""How far each experiment goes: small measured runs, each in a child process (prints figures; not a test).

    nice -n 19 python tests/bench/bench_scale.py [--only NAME,...] [--timeout 120]

Each probe runs in a fresh child process under a CPU-time limit (``--timeout``); the parent reads the child's
CPU seconds (user + system) and peak resident memory from ``os.wait4``, so the figures hold on a shared
machine (wall time does not).  A probe
prints one JSON line of what it counted (memoised states, rounds, worlds ...).  docs/experiments-scale.md
extrapolates from these figures; a probe past its CPU limit is reported as stopped there, nothing more.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


# -- probes (run in the child) ------------------------------------------------------------------------------

def cardguess(deck: str, feedback: str = "partial") -> dict[str, Any]:
    """The optimal strategy's exact score distribution on one deck: memoised states of the solver and the
    evaluator (the two stores that grow)."""
    from sleuth.models.cardguess.counting import Statistic
    from sleuth.models.cardguess.optimal import Feedback, ensure_recursion
    from sleuth.models.cardguess.scores import Evaluator, ScoreDistribution
    from sleuth.models.cardguess.strategies import make_strategy

    counts = tuple(int(x) for x in deck.split(","))
    strategy = make_strategy("optimal", Feedback(feedback))
    ensure_recursion(sum(counts) * 2)
    ev = Evaluator(strategy)
    dist: ScoreDistribution = ev.distribution(Statistic.initial(counts), strategy.start(counts))
    solver = getattr(strategy, "solver", None)
    return {"deck": deck, "feedback": feedback, "solver_states": len(solver.memo) if solver else None,
            "evaluator_states": len(ev.memo), "expected": round(float(dist.expected), 6)}


def cli(*argv: str) -> dict[str, Any]:
    """``sleuth ARGV`` in this child (serial): its exit status."""
    from sleuth.cli import main

    with open(os.devnull, "w") as sink:
        stdout, sys.stdout = sys.stdout, sink
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
        finally:
            sys.stdout = stdout
    return {"exit": code}


PROBES: dict[str, list[tuple[str, Callable[..., dict[str, Any]], tuple[str, ...]]]] = {
    "cardguess": [(f"cardguess {d} partial", cardguess, (d, "partial"))
                  for d in ("3,3,3,3", "4,4,4,4", "5,5,5,5", "6,6,6,6", "4,4,4", "4,4,4,4,4", "4,4,4,4,4,4")]
    + [(f"cardguess {d} complete", cardguess, (d, "complete"))
       for d in ("5,5,5,5", "8,8,8,8", "13,13,13,13", "4,4,4,4,4,4", "4,4,4,4,4,4,4,4")],
    "egghead": [("egghead 4 players BA, 20 rounds", cli, ("experiment", "egghead", "--players", "4", "--ba", "4",
                                                         "--rounds", "20", "--quiet", "--json")),
                ("egghead 5 players BA, 2 rounds", cli, ("experiment", "egghead", "--players", "5", "--ba", "5",
                                                        "--rounds", "2", "--quiet", "--json"))],
    "clue": [(f"clue {p} players, 2 games", cli, ("experiment", "clue", "--players", p, "--games", "2", "--quiet",
                                                  "--json")) for p in ("3", "6")],
    "mascarade": [(f"mascarade {p} players, 1 game of 30 events", cli,
                   ("experiment", "mascarade", "--players", p, "--events", "30", "--games", "1", "--repeat", "1",
                    "--skip", "crossover", "--quiet", "--json")) for p in ("6", "13")],
    "motus": [(f"motus cell {c}, 9 methods", cli, ("experiment", "motus", "--lengths", c[1:], "--letters", c[0],
                                                   "--quiet", "--json")) for c in ("Z7", "D8", "R8")],
    "emi": [(f"emi cell {c}", cli, ("experiment", "emi", "--lengths", c[1:], "--letters", c[0], "--time-limit", "60",
                                    "--quiet", "--json")) for c in ("Z7", "X8")],
    "wordle": [("wordle, every answer, max", cli, ("experiment", "wordle", "--games", "wordle", "--methods", "max",
                                                    "--quiet", "--json"))],
    "epistemic": [(f"epistemic What Sum {b}, children {c}", cli, ("experiment", "epistemic", "--bounds", b,
                                                                 "--children", c, "--runs", "1", "--no-reference",
                                                                 "--no-events", "--quiet"))
                  for b, c in (("100", "8"), ("400", "20"))],
}


# -- parent -------------------------------------------------------------------------------------------------

def measure(name: str, timeout: float) -> None:
    """Every probe of ``name``, each in a child: CPU seconds, peak RSS and what the probe printed."""
    for i, (label, _, _) in enumerate(PROBES[name]):
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        start = time.perf_counter()
        def cpu_cap() -> None:  # runs in the child: SIGXCPU after ``timeout`` CPU seconds
            resource.setrlimit(resource.RLIMIT_CPU, (int(timeout), int(timeout) + 5))

        proc = subprocess.Popen([sys.executable, __file__, "--child", name, str(i)], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env, text=True, start_new_session=True,
                                preexec_fn=cpu_cap)
        timed_out = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                timed_out = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU
                break
            if time.perf_counter() - start > 20 * timeout:  # a wall-clock backstop on a crowded machine
                os.killpg(proc.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(proc.pid, 0)
                timed_out = True
                break
            time.sleep(0.2)
        out = proc.stdout.read().strip().splitlines() if proc.stdout else []
        proc.returncode = 0  # reaped above
        cpu = usage.ru_utime + usage.ru_stime
        rss = usage.ru_maxrss / 1024
        what = f"stopped at the CPU limit of {timeout:g} s" if timed_out else (out[-1] if out else f"status {status}")
        print(f"{label}: {cpu:.1f} s CPU, peak {rss:.0f} MB, wall {time.perf_counter() - start:.0f} s; {what}",
              flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(PROBES), help="comma-separated probe families")
    ap.add_argument("--timeout", type=float, default=120.0, help="CPU seconds per probe")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _, fn, fn_args = PROBES[args.child[0]][int(args.child[1])]
        print(json.dumps(fn(*fn_args)), flush=True)
        return 0
    print(f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}; RLIMIT_AS "
          f"{resource.getrlimit(resource.RLIMIT_AS)[0]}", flush=True)
    for name in args.only.split(","):
        measure(name.strip(), args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
