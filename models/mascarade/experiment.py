"""``sleuth experiment mascarade``: belief updates per method on simulated games, and the tree/states crossover.

Part 1 replays simulated games (default: 6, 9 and 13 players, 60 events, 5 games each) event by event for one
viewer and times every update (the update plus the marginals it changes; each event's time is the median of
``--repeat`` replays, against scheduling noise), per method: median and 95th percentile per event, peak
memory per game (tracemalloc, in a second pass), the support size over time.
Methods that do not fit (the plain tree past ``--max-rows`` leaves, CP-SAT past ``--cpsat-histories``) are
reported as such with the event where they stopped.  CP-SAT has no incremental update: its time per event is
a full solve of the history so far.

Part 2 measures the crossover the seed estimates in section 5 (6 players: the tree has more leaves than there
are states after about 10 swaps): swaps only, one component for the whole table (the seed's plain methods),
time and memory per swap for the tree and the state distribution.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import statistics
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sleuth.bench import percentile

from .analysis import make_tracker, run_steps
from .belief import DEFAULT_TREE_CAP, ComponentBelief, Method, TooLarge
from .cpmodel import LimitReached, build_model, enumerate_belief
from .game import Game, SwapStep
from .simulate import SWAPS_ONLY, Mix, simulate

MIXES = {"default": Mix(), "swap-heavy": Mix(swap=0.6, announce=0.1, look=0.1, spy=0.1, fool=0.1)}


@dataclass
class Run:
    """One method on one game: seconds per event, support after each event, peak bytes, where it stopped."""

    times: list[float] = field(default_factory=list)
    support: list[int | None] = field(default_factory=list)
    peak: int = 0
    stopped: str = ""


def replay(game: Game, viewer: int | None, method: Method, *, max_rows: int, cpsat_histories: int,
           tree_cap: int, all_viewers: bool = False) -> Run:
    """Time every event's update of ``viewer``'s belief (all players' and the observer's with ``all_viewers``).

    An event the viewer does not observe at all (another player's look) is no update and is not timed;
    ``support`` has one entry per event of the game.
    """
    run = Run()
    viewers = [None, *range(len(game.players))] if all_viewers else [viewer]
    by_event = [[[s for s in game.steps_for(v) if s.event == e.index] for e in game.events] for v in viewers]
    if method is Method.CPSAT:
        steps: list = []
        for e, mine in enumerate(by_event[0]):
            steps.extend(mine)
            if not mine:
                run.support.append(run.support[-1] if run.support else 1)
                continue
            t0 = time.perf_counter()
            try:
                gm = build_model(game.initial, steps, game.swap_probability)
                dist, _ = enumerate_belief(gm, game.swap_probability, limit=cpsat_histories)
            except LimitReached:
                run.stopped = f"> {cpsat_histories} histories at event {e + 1}"
                return run
            run.times.append(time.perf_counter() - t0)
            run.support.append(len(dist))
        return run
    trackers = [make_tracker(game.initial, game.swap_probability, method, max_rows=max_rows, tree_cap=tree_cap)
                for _ in viewers]
    for e in range(len(game.events)):
        if not any(steps[e] for steps in by_event):
            run.support.append(run.support[-1] if run.support else 1)
            continue
        t0 = time.perf_counter()
        try:
            for tracker, steps in zip(trackers, by_event, strict=True):
                for s in steps[e]:
                    if isinstance(s, SwapStep):
                        tracker.swap(s.a, s.b, s.outcome)
                    else:
                        tracker.see(s.position, s.identity)
                if steps[e]:
                    tracker.marginals()
        except TooLarge as exc:
            run.stopped = f"{exc} at event {e + 1}"
            return run
        run.times.append(time.perf_counter() - t0)
        first = trackers[0]
        run.support.append(first.support() if isinstance(first, ComponentBelief) else None)
    return run


def peak_memory(game: Game, viewer: int | None, method: Method, **kw: Any) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        replay(game, viewer, method, **kw)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def mb(n: float) -> str:
    return f"{n / 2 ** 20:.1f} MB"


def ms(x: float) -> str:
    return f"{x * 1e3:.3f} ms" if x < 0.1 else f"{x * 1e3:.0f} ms"


METHOD_ORDER = ("auto", "states", "tree", "matrix", "cpsat", "auto-all")


def part1(args: argparse.Namespace, out: dict[str, Any]) -> None:
    mix = MIXES[args.mix]
    for n in args.players:
        games = [simulate(n, args.events, 1000 * n + g, mix=mix) for g in range(args.games)]
        viewer = None if args.viewer == "observer" else 0
        print(f"\n== {n} players, {args.events} events, {args.games} games, mix {args.mix}, viewer "
              f"{'observer' if viewer is None else games[0].players[0]} ==")
        print(f"{'method':<10}{'median/event':>14}{'p95/event':>12}{'max/event':>12}{'peak mem (max game)':>22}"
              f"{'vs states':>11}  fits")
        rows: dict[str, Any] = {}
        order = sorted(args.methods, key=lambda m: m != "states")     # the reference first
        for name in order:
            if name == "cpsat" and n > args.cpsat_players:
                continue
            method = Method("auto" if name == "auto-all" else name)
            kw = dict(max_rows=args.max_rows, cpsat_histories=args.cpsat_histories, tree_cap=args.tree_cap,
                      all_viewers=name == "auto-all")
            times: list[float] = []
            peaks, stopped = [], []
            for g in games:
                runs = [replay(g, viewer, method, **kw) for _ in range(1 if name == "cpsat" else args.repeat)]
                run = runs[0]
                times.extend(statistics.median(ts) for ts in zip(*(r.times for r in runs), strict=True))
                if run.stopped:
                    stopped.append(run.stopped)
                if name != "cpsat":
                    peaks.append(peak_memory(g, viewer, method, **kw))
            rows[name] = {"median_s": statistics.median(times) if times else None,
                          "p95_s": percentile(times, 0.95) if times else None, "max_s": max(times, default=None),
                          "peak_bytes": max(peaks) if peaks else None, "fits": len(games) - len(stopped),
                          "games": len(games), "stopped": stopped}
        ref = rows.get("states", {}).get("median_s")
        for name in (m for m in args.methods if m in rows):
            r = rows[name]
            if r["median_s"] is None:
                print(f"{name:<10} did not fit: {r['stopped'][0]}")
                continue
            ratio = f"{r['median_s'] / ref:.2f}x" if ref else "-"
            peak = mb(r["peak_bytes"]) if r["peak_bytes"] is not None else "n/a"
            print(f"{name:<10}{ms(r['median_s']):>14}{ms(r['p95_s']):>12}{ms(r['max_s']):>12}{peak:>22}"
                  f"{ratio:>11}  {r['fits']}/{r['games']}"
                  + (f"  (stopped: {r['stopped'][0]})" if r["stopped"] else ""))
        # how far the matrix estimate is from the exact marginals at the end of each game
        errors = []
        for g in games:
            steps = g.steps_for(viewer)
            try:
                exact = run_steps(g.initial, steps, g.swap_probability, Method.AUTO, max_rows=args.max_rows)
            except TooLarge:
                continue
            approx = run_steps(g.initial, steps, g.swap_probability, Method.MATRIX)
            errors.append(max(abs(approx.p(p, c) - exact.p(p, c)) for p in range(len(g.initial))
                              for c in range(len(g.identities))))
        if errors:
            print(f"matrix estimate vs exact marginals at the end of each game: largest |error| per game "
                  f"median {float(statistics.median(errors)):.3f}, max {float(max(errors)):.3f}")
            rows["matrix_error"] = [str(e) for e in errors]
        # support over time (exact, from the states method)
        marks = list(range(10, args.events + 1, 10))
        sup = [[r for r in replay(g, viewer, Method.AUTO, max_rows=args.max_rows, cpsat_histories=0,
                                  tree_cap=args.tree_cap).support] for g in games]
        print("support after event " + "  ".join(f"{m:>8}" for m in marks))
        print("  median            " + "  ".join(
            f"{statistics.median(s[m - 1] for s in sup if len(s) >= m):>8.0f}" for m in marks))
        print("  max               " + "  ".join(f"{max(s[m - 1] for s in sup if len(s) >= m):>8}" for m in marks))
        rows["support"] = {str(m): [s[m - 1] for s in sup if len(s) >= m] for m in marks}
        out[str(n)] = rows


def part2(args: argparse.Namespace, out: dict[str, Any]) -> None:
    n, swaps = args.crossover_players, args.crossover_swaps
    print(f"\n== crossover: {n} players, swaps only, one component (the seed's plain methods), "
          f"{args.crossover_runs} random sequences ==")
    space = math.factorial(n)
    per: dict[str, list[list[float]]] = {"tree": [], "states": []}
    rows: dict[str, list[list[int]]] = {"tree": [], "states": []}
    mem: dict[str, list[list[int]]] = {"tree": [], "states": []}
    for r in range(args.crossover_runs):
        g = simulate(n, swaps, 77 + r, mix=SWAPS_ONLY, opening=0)
        steps = g.steps_for(None)
        for name in per:
            b = ComponentBelief(g.initial, Fraction(1, 2), Method(name), factor=False)
            t_list, r_list, m_list = [], [], []
            for s in steps:
                assert isinstance(s, SwapStep)
                t0 = time.perf_counter()
                b.swap(s.a, s.b, None)
                b.marginals()
                t_list.append(time.perf_counter() - t0)
                r_list.append(b.rows())
                m_list.append(b.nbytes())
            per[name].append(t_list)
            rows[name].append(r_list)
            mem[name].append(m_list)
    print(f"{'swaps':>5}{'tree leaves':>13}{'states':>9}{'tree/update':>13}{'states/update':>15}{'ratio':>7}"
          f"{'tree bytes':>12}{'states bytes':>14}")
    first_leaves = first_time = first_space = None
    table = []
    for t in range(swaps):
        tl = statistics.median(x[t] for x in per["tree"])
        sl = statistics.median(x[t] for x in per["states"])
        leaves = statistics.median(x[t] for x in rows["tree"])
        states = statistics.median(x[t] for x in rows["states"])
        tb = statistics.median(x[t] for x in mem["tree"])
        sb = statistics.median(x[t] for x in mem["states"])
        print(f"{t + 1:>5}{leaves:>13.0f}{states:>9.0f}{ms(tl):>13}{ms(sl):>15}{tl / sl:>7.2f}{tb:>12.0f}{sb:>14.0f}")
        table.append({"swaps": t + 1, "tree_leaves": leaves, "states": states, "tree_s": tl, "states_s": sl})
        if first_leaves is None and leaves > states:
            first_leaves = t + 1
        if first_space is None and leaves > space:
            first_space = t + 1
        if first_time is None and all(statistics.median(x[u] for x in per["tree"]) >
                                      1.2 * statistics.median(x[u] for x in per["states"])
                                      for u in range(t, swaps)):
            first_time = t + 1
    print(f"tree leaves exceed the reachable states after {first_leaves} swaps; exceed {n}! = {space} after "
          f"{first_space} swaps (the seed: about 10 for 6 players); the tree update is more than 1.2x slower than "
          f"the states update from swap {first_time} on (medians over {args.crossover_runs} sequences)")
    out["crossover"] = {"players": n, "leaves_exceed_states": first_leaves, "leaves_exceed_n_factorial": first_space,
                        "tree_slower_from": first_time, "table": table}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="sleuth experiment mascarade", description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=lambda s: [int(x) for x in s.split(",")], default=[6, 9, 13])
    p.add_argument("--events", type=int, default=60)
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--repeat", type=int, default=3, help="replays per game; each event's time is their median")
    p.add_argument("--methods", type=lambda s: s.split(","), default=list(METHOD_ORDER))
    p.add_argument("--mix", choices=sorted(MIXES), default="default")
    p.add_argument("--viewer", choices=["observer", "player"], default="player")
    p.add_argument("--max-rows", type=int, default=6_000_000, help="leaves/states per component before giving up")
    p.add_argument("--tree-cap", type=int, default=DEFAULT_TREE_CAP, help="auto: tree leaves before states")
    p.add_argument("--cpsat-histories", type=int, default=4096)
    p.add_argument("--cpsat-players", type=int, default=6, help="run CP-SAT only up to this many players")
    p.add_argument("--crossover-players", type=int, default=6)
    p.add_argument("--crossover-swaps", type=int, default=16)
    p.add_argument("--crossover-runs", type=int, default=5)
    p.add_argument("--skip", choices=["updates", "crossover"], action="append", default=[])
    p.add_argument("--json", action="store_true", help="also print the figures as one JSON object")
    args = p.parse_args(argv)
    bad = [m for m in args.methods if m not in METHOD_ORDER]
    if bad:
        p.error(f"unknown method {bad[0]!r} (allowed: {', '.join(METHOD_ORDER)})")
    out: dict[str, Any] = {}
    t0 = time.perf_counter()
    if "updates" not in args.skip:
        part1(args, out)
    if "crossover" not in args.skip:
        part2(args, out)
    try:
        import resource
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        print(f"\nprocess peak RSS {mb(rss)}; total {time.perf_counter() - t0:.1f} s")
    except ImportError:  # pragma: no cover - not on POSIX
        pass
    if args.json:
        print(json.dumps(out, default=str))
    sys.stdout.flush()
    return 0
