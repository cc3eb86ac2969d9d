"""``sleuth experiment cardguess``: exact expected scores, the seed's comparisons, bounds and the benchmark.

Modes (one per run)::

    --deck 3,3,3 --strategy NAME|all --feedback partial|complete [--gamma G] [--step S]
                                    exact expected score (fraction and decimal) and score distribution
    --bounds --deck 3,3,3           section 4: Fano / Feder-Merhav bounds with complete feedback
    --gamma-sweep --deck 3,3,3      Figure 3: the entropy heuristic's exact score against gamma
    --records --deck 5,5,5,5,5      exact optimal and greedy score distributions with p-values (yes/no
                                    feedback; :mod:`.zener`)
    --records-table [--max-cards 30]
                                    the same for every deck of m types x n copies, a table and a figure
    --benchmark [--decks ...] [--timeout 600] [--reference-timeout 300] [--repeats 3]
                                    exact optimal score for growing decks, fast recursion vs the seed's
                                    approach, each deck in a child process with a time and memory limit

Tasks of :mod:`sleuth.executor` (``--workers``, ``--cluster``, ``--resume``): one strategy, one gamma, one deck
(the benchmark's decks run in order of size per number of types; a deck that does not finish cancels the
larger ones of its family).  ``--plot FILE.png`` draws the score distributions, the gamma sweep (the seed's
Figure 3), the bounds per step, or the benchmark's times.  Benchmark times are only comparable with one
worker on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from sleuth.errors import PuzzleError, SleuthError
from sleuth.executor import Executor, ExperimentParser, add_run_options, bounded, ints
from sleuth.figures import check_target

from .bounds import complete_feedback_bounds
from .counting import Statistic
from .state import MAX_CARDS, MAX_COUNT, MAX_STATES, MAX_TYPES, read_method
from .optimal import Feedback, OptimalSolver, StateBudgetExceeded, ensure_recursion
from .scores import ScoreDistribution, score_distribution
from .seed import SeedOptimalAgent
from .strategies import STRATEGIES, make_strategy

PLACE = "experiment cardguess"

# What the seed reports on (3,3,3): exact values for greedy and optimal (section 5), simulated values for
# the playable strategies (section 6), the complete-feedback greedy value of section 4.
SEED_VALUES: dict[tuple[str, str], str] = {
    ("partial", "greedy"): "475/112 (exact)",
    ("partial", "optimal"): "2383/560 (exact)",
    ("partial", "entropy"): "2383/560 (exact, gamma 0.15)",
    ("partial", "expected-counts"): "4.2387 (simulated)",
    ("partial", "constant-step"): "4.2482 (simulated)",
    ("complete", "greedy"): "4.78 (section 4)",
}

DEFAULT_DECKS = ("3,3,3", "4,4,4", "5,5,5", "3,3,3,3", "4,4,4,4", "2,2,2,2,2",
                 "6,6,6", "8,8,8", "5,5,5,5", "3,3,3,3,3", "10,10,10", "6,6,6,6", "4,4,4,4,4",
                 "13,13,13", "8,8,8,8", "5,5,5,5,5", "16,16,16", "10,10,10,10", "6,6,6,6,6",
                 "20,20,20", "13,13,13,13", "8,8,8,8,8", "25,25,25")


def parse_deck(text: str, place: str = "--deck") -> tuple[int, ...]:
    allowed = f"1 to {MAX_TYPES} counts of 1 to {MAX_COUNT}, at most {MAX_CARDS} cards, e.g. 3,3,3"
    counts = tuple(ints(text, 1, MAX_COUNT, place, allowed=allowed))
    if len(counts) > MAX_TYPES or sum(counts) > MAX_CARDS:
        raise PuzzleError(f"{text!r} is out of range", place=place, allowed=allowed)
    return counts


def build_parser() -> argparse.ArgumentParser:
    p = ExperimentParser(prog=PLACE, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deck", default="3,3,3", help="counts per type, e.g. 3,3,3 (default)")
    p.add_argument("--strategy", default="all", help="one of " + ", ".join(STRATEGIES) + ", or all")
    p.add_argument("--feedback", default="partial", choices=[f.value for f in Feedback])
    p.add_argument("--gamma", default="0.15", help="entropy weight of the entropy strategy (default 0.15)")
    p.add_argument("--step", default="11/20", help="constant of constant-step (default 0.55)")
    p.add_argument("--json", action="store_true")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--bounds", action="store_true", help="entropy bounds, complete feedback (section 4)")
    mode.add_argument("--gamma-sweep", action="store_true", help="entropy heuristic against gamma (Fig. 3)")
    mode.add_argument("--benchmark", action="store_true", help="optimal score for growing decks, timed")
    mode.add_argument("--child", metavar="DECK", help=argparse.SUPPRESS)
    mode.add_argument("--records", action="store_true",
                      help="--deck's exact optimal and greedy score distributions and p-values (yes/no feedback)")
    mode.add_argument("--records-table", action="store_true",
                      help="every deck of m types x n copies up to --max-cards, exact (yes/no feedback)")
    p.add_argument("--max-cards", type=bounded(int, 2, 60), default=30, help="--records-table: most cards (30)")
    p.add_argument("--memory-gb", type=bounded(float, 0.01, 1024), default=8.0,
                   help="--records, --records-table: memory a deck may use (GB, default 8)")
    p.add_argument("--decks", nargs="+", default=list(DEFAULT_DECKS), help="benchmark decks, in order")
    p.add_argument("--timeout", type=bounded(float, 0, 10**6, above=True), default=600.0,
                   help="seconds per deck, fast recursion")
    p.add_argument("--reference-timeout", type=bounded(float, 0, 10**6, above=True), default=300.0,
                   help="seconds per deck, the source paper's approach")
    p.add_argument("--repeats", type=bounded(int, 1, 100), default=3,
                   help="timed runs per deck when quick (median reported)")
    p.add_argument("--memory-limit", type=bounded(float, 0.1, 1024), default=6.0,
                   help="GB per child process (benchmark)")
    p.add_argument("--impl", choices=("fast", "seed"), default="fast", help=argparse.SUPPRESS)
    add_run_options(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(argv or []))
    if args.child:
        return child(args)
    check_target(args.plot)
    if args.records:
        from .zener import main_records
        return main_records(parse_deck(args.deck), args.json, args.memory_gb)
    with Executor.from_args(args, "cardguess") as ex:
        if args.records_table:
            from .zener import main_table
            return main_table(args.max_cards, args.memory_gb, args.json, ex, args.plot)
        if args.benchmark:
            return benchmark(args, ex)
        deck = parse_deck(args.deck)
        if args.bounds:
            return bounds(deck, args.json, args.plot)
        gamma = float(_fraction(args.gamma, "--gamma"))
        step = _fraction(args.step, "--step")
        if args.gamma_sweep:
            return gamma_sweep(deck, args.json, ex, args.plot)
        feedback = Feedback(args.feedback)
        names = list(STRATEGIES) if args.strategy.lower() == "all" else [read_method(args.strategy, "--strategy")]
        jobs = [(name, feedback.value, gamma, step, deck) for name in names]
        results = dict(zip(names, ex.map_tasks(strategy_score, jobs, label="strategies", unit="strategy"), strict=True))
    if args.plot:
        from .plot import plot_scores

        plot_scores(args.plot, results, f"deck {','.join(map(str, deck))}, {feedback.value} feedback: "
                                        "number of correct guesses per strategy")
    if args.json:
        print(json.dumps({"deck": list(deck), "feedback": feedback.value,
                          "strategies": {n: d.to_json() for n, d in results.items()}}, indent=2))
        return 0
    seed_deck = deck == (3, 3, 3)
    print(f"deck {','.join(map(str, deck))}, {feedback.value} feedback: exact expected number of correct "
          f"guesses (gamma={gamma:g}, step={step})")
    print(f"  {'strategy':<16} {'exact':>22} {'decimal':>10}" + (f"  {'seed':<28}" if seed_deck else ""))
    for name, dist in results.items():
        seed = SEED_VALUES.get((feedback.value, name), "") if seed_deck else ""
        print(f"  {name:<16} {str(dist.expected):>22} {float(dist.expected):>10.6f}" + (f"  {seed}" if seed else ""))
    for name, dist in results.items():
        print(f"score distribution, {name}:")
        for k, q in dist.probabilities.items():
            print(f"  {k:>3} correct  {str(q):>14}  {float(q):.6f}")
    return 0


def strategy_score(job: tuple[str, str, float, Fraction, tuple[int, ...]]) -> ScoreDistribution:
    """One task: the exact score distribution of one strategy on one deck."""
    name, feedback, gamma, step, deck = job
    strategy = make_strategy(name, Feedback(feedback), gamma=gamma, step=step)
    ensure_recursion(sum(deck) * 2)
    try:
        return score_distribution(strategy, deck, max_states=MAX_STATES)
    except StateBudgetExceeded:
        raise SleuthError(f"deck {','.join(map(str, deck))} is too large for an exact evaluation of {name!r}") \
            from None


def _sweep_task(job: tuple[str, Fraction, tuple[int, ...]]) -> Fraction:
    """One task of the gamma sweep: greedy, optimal, or the entropy strategy at one gamma."""
    what, gamma, deck = job
    ensure_recursion(sum(deck) * 2)
    if what == "optimal":
        return OptimalSolver().expected(Statistic.initial(deck))
    strategy = make_strategy("greedy") if what == "greedy" else make_strategy("entropy", gamma=float(gamma))
    return score_distribution(strategy, deck, max_states=MAX_STATES).expected


def _fraction(text: str, place: str) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise PuzzleError(f"{text!r} is not a number", place=place, allowed="p/q or a decimal") from None
    if value < 0:
        raise PuzzleError(f"{text} is negative", place=place, allowed="0 or more")
    return value


def bounds(deck: tuple[int, ...], as_json: bool, plot: str | None = None) -> int:
    b = complete_feedback_bounds(deck)
    if plot:
        from .plot import plot_bounds

        plot_bounds(plot, b, f"complete feedback, deck {','.join(map(str, deck))}: P(right) per step and "
                             "entropy bounds (seed Fig. 2)")
    totals = {k: b.total(k) for k in ("lower_avg", "upper_avg", "lower_state", "upper_state")}
    if as_json:
        print(json.dumps({"deck": list(deck), "greedy": str(b.greedy), "greedy_decimal": float(b.greedy),
                          **totals, "steps": [s.__dict__ | {"greedy": str(s.greedy)} for s in b.steps]},
                         indent=2))
        return 0
    print(f"complete feedback, deck {','.join(map(str, deck))}: P(greedy right) per step and entropy bounds")
    print(f"  {'step':>4} {'H (bits)':>9} {'greedy':>9} {'FM avg':>8} {'Fano avg':>9} {'FM state':>9} "
          f"{'Fano state':>10}")
    for s in b.steps:
        print(f"  {s.step:>4} {s.entropy:>9.4f} {float(s.greedy):>9.4f} {s.lower_avg:>8.4f} {s.upper_avg:>9.4f} "
              f"{s.lower_state:>9.4f} {s.upper_state:>10.4f}")
    print(f"  expected score: greedy {b.greedy} = {float(b.greedy):.4f}")
    print(f"  the source paper's way (invert the step's average entropy): lower {totals['lower_avg']:.2f}, "
          f"upper {totals['upper_avg']:.2f}   (seed: lower 4.70, greedy 4.78 on 3,3,3)")
    print(f"  per state (proven bounds):                     lower {totals['lower_state']:.2f}, "
          f"upper {totals['upper_state']:.2f}")
    return 0


def gamma_sweep(deck: tuple[int, ...], as_json: bool, ex: Executor, plot: str | None = None) -> int:
    gammas = [Fraction(k, 100) for k in range(0, 51, 5)]
    jobs = [("greedy", Fraction(0), deck), ("optimal", Fraction(0), deck), *(("entropy", g, deck) for g in gammas)]
    greedy, optimal, *values = ex.map_tasks(_sweep_task, jobs, label="gamma sweep", unit="run")
    rows = list(zip(gammas, values, strict=True))
    if plot:
        from .plot import plot_sweep

        plot_sweep(plot, rows, greedy, optimal, f"entropy heuristic on {','.join(map(str, deck))}, partial "
                                                "feedback (seed Fig. 3)")
    if as_json:
        print(json.dumps({"deck": list(deck), "greedy": str(greedy), "optimal": str(optimal),
                          "entropy": {str(float(g)): str(v) for g, v in rows}}, indent=2))
        return 0
    print(f"entropy heuristic on {','.join(map(str, deck))} (partial feedback): greedy {float(greedy):.6f}, "
          f"optimal {float(optimal):.6f}")
    for g, v in rows:
        mark = " = optimal" if v == optimal else (" = greedy" if v == greedy else "")
        print(f"  gamma {float(g):.2f}  {str(v):>16}  {float(v):.6f}{mark}")
    return 0


# -- benchmark --------------------------------------------------------------------------------------------

def child(args: argparse.Namespace) -> int:
    """One deck, one implementation, ``repeats`` fresh runs; prints one JSON line."""
    deck = parse_deck(args.child)
    ensure_recursion(sum(deck) * 2)
    times, cpu, value, states, counts = [], [], Fraction(0), 0, 0
    for _ in range(max(1, args.repeats)):
        start, start_cpu = time.perf_counter(), time.process_time()
        if args.impl == "fast":
            solver = OptimalSolver()
            value = solver.expected(Statistic.initial(deck))
            states, counts = len(solver.memo), len(solver.n.memo)
        else:
            memo: dict[Any, Fraction] = {}
            value = SeedOptimalAgent(deck).ev(memo)
            states = len(memo)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kB
    print(json.dumps({"value": str(value), "times": times, "cpu": cpu, "states": states, "counts": counts,
                      "peak_mb": peak}))
    return 0


def _run_child(deck: str, impl: str, repeats: int, timeout: float, memory_gb: float) -> dict[str, Any]:
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    limit = int(memory_gb * 2**30)

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    cmd = [sys.executable, "-c", "import sys; from sleuth.models.cardguess.experiment import main; "
           "sys.exit(main(sys.argv[1:]))", "--child", deck, "--impl", impl, "--repeats", str(repeats)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, preexec_fn=cap)
    except subprocess.TimeoutExpired:
        return {"status": f"timeout ({timeout:g} s)"}
    except (OSError, subprocess.SubprocessError) as exc:
        return {"status": f"failed to start ({exc})"}
    if done.returncode != 0:
        reason = "out of memory" if "MemoryError" in done.stderr else f"failed ({done.stderr.strip()[-200:]})"
        return {"status": reason}
    return {"status": "ok", **json.loads(done.stdout.strip().splitlines()[-1])}


def _bench_task(job: tuple[str, str, float, int, float]) -> dict[str, Any]:
    """One task of the benchmark: one deck by one implementation, in a child process: one probing run, and the
    median of ``repeats`` further runs when it is quick."""
    deck, impl, timeout, repeats, memory_gb = job
    first = _run_child(deck, impl, 1, timeout, memory_gb)
    if first["status"] != "ok" or first["times"][0] >= 20 or repeats <= 1:
        return first
    again = _run_child(deck, impl, repeats, timeout, memory_gb)
    return again if again["status"] == "ok" else first


def _in_families(ex: Executor, decks: list[str], impl: str, timeout: float, args: argparse.Namespace,
                 ) -> dict[str, dict[str, Any]]:
    """Every deck by ``impl``; a deck that does not finish cancels the larger decks with as many types."""
    jobs = [(d, impl, timeout, args.repeats, args.memory_limit) for d in decks]
    out: dict[str, dict[str, Any]] = {}
    label = "decks" if impl == "fast" else "decks, the source paper's approach"
    for i, result in ex.completed(_bench_task, jobs, label=label, unit="deck"):
        out[decks[i]] = result
        if result["status"] != "ok":
            family, size = len(parse_deck(decks[i])), sum(parse_deck(decks[i]))
            ex.cancel([j for j, d in enumerate(decks) if len(parse_deck(d)) == family and sum(parse_deck(d)) > size])
    return out


def benchmark(args: argparse.Namespace, ex: Executor) -> int:
    decks = [",".join(map(str, parse_deck(d, "--decks"))) for d in args.decks]
    print(f"exact optimal expected score, partial feedback; each deck in a child process "
          f"(timeout {args.timeout:g} s fast / {args.reference_timeout:g} s the source paper's approach, "
          f"{args.memory_limit:g} GB); times are medians of {args.repeats} runs when a run takes < 20 s, "
          f"else one run; machine shared (2 cores): wall time suffers from other jobs, CPU time less; "
          f"ratio = seed's CPU time / fast CPU time", flush=True)
    fast_rows = _in_families(ex, decks, "fast", args.timeout, args)
    solved = [d for d in decks if fast_rows.get(d, {}).get("status") == "ok"]
    seed_rows = _in_families(ex, solved, "seed", args.reference_timeout, args)
    header = (f"{'deck':<14} {'cards':>5} {'E(optimal)':>12} {'wall s':>9} {'cpu s':>9} {'states':>10} "
              f"{'N memo':>9} {'peak MB':>8} | {'seed wall':>9} {'seed cpu':>9} {'states':>8} {'ratio':>7}")
    print(header)
    print("-" * len(header), flush=True)
    rows: list[dict[str, Any]] = []  # the children's JSON records
    largest = None
    for deck in decks:
        counts = parse_deck(deck)
        fast = fast_rows.get(deck)
        if fast is None:
            print(f"{deck:<14} {sum(counts):>5}  skipped: a smaller deck with {len(counts)} types did not finish")
            continue
        if fast["status"] != "ok":
            print(f"{deck:<14} {sum(counts):>5}  fast: {fast['status']}", flush=True)
            rows.append({"deck": deck, "fast": fast})
            continue
        largest = deck if largest is None or sum(counts) >= sum(parse_deck(largest)) else largest
        fast_t, fast_cpu = statistics.median(fast["times"]), statistics.median(fast["cpu"])
        seed = seed_rows.get(deck, {"status": "skipped"})
        if seed["status"] == "ok":
            seed_t, seed_cpu = statistics.median(seed["times"]), statistics.median(seed["cpu"])
            if seed["value"] != fast["value"]:
                raise SleuthError(f"deck {deck}: the source paper's approach gives {seed['value']}, "
                                  f"fast {fast['value']}")
            seed_cols = f"{seed_t:>9.3f} {seed_cpu:>9.3f} {seed['states']:>8} {seed_cpu / fast_cpu:>6.0f}x"
        else:
            seed_cols = f"{seed['status']:>36}"
        value = Fraction(fast["value"])
        print(f"{deck:<14} {sum(counts):>5} {float(value):>12.6f} {fast_t:>9.3f} {fast_cpu:>9.3f} {fast['states']:>10} "
              f"{fast['counts']:>9} {fast['peak_mb']:>8.0f} | {seed_cols}", flush=True)
        rows.append({"deck": deck, "fast": fast, "seed": seed})
    print(f"largest deck solved: {largest}")
    for row in rows:
        if row["fast"]["status"] == "ok" and len(row["fast"]["value"]) <= 60:
            print(f"  E(optimal) {row['deck']:<12} = {row['fast']['value']}")
    if args.plot:
        from .plot import plot_benchmark

        plot_benchmark(args.plot, rows, "exact optimal score, partial feedback: CPU seconds per deck")
    if args.json:
        print(json.dumps(rows))
    return 0


