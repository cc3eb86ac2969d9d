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

Tasks of :mod:`sleuth.executor`: one simulated game (part 1) and one swap sequence (part 2); times are measured
where the task runs, so run on idle workers for comparable figures.  ``--plot`` draws the support and each
player's certainty about their own card over the events.
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
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from sleuth.errors import InternalError
from sleuth.timing import percentile
from sleuth.executor import Executor, ExperimentParser, add_run_options, bounded, comma_list, int_list
from sleuth.figures import check_target, pyplot, save

from .analysis import make_tracker, run_steps
from .components import DEFAULT_TREE_CAP, ComponentBelief, Method, ComponentLimit
from sleuth.limits import LimitReached

from .model import build_model, enumerate_belief
from .state import MAX_EVENTS, MAX_PLAYERS, MIN_PLAYERS, MascaradeState, SwapStep
from .simulation import SWAPS_ONLY, Mix, simulate

MIXES = {"default": Mix(), "swap-heavy": Mix(swap=0.6, announce=0.1, look=0.1, spy=0.1, fool=0.1)}


@dataclass
class Run:
    """One method on one game: seconds per event, support after each event, peak bytes, where it stopped."""

    times: list[float] = field(default_factory=list)
    support: list[int | None] = field(default_factory=list)
    peak: int = 0
    stopped: str = ""


def replay(game: MascaradeState, viewer: int | None, method: Method, *, max_rows: int, cpsat_histories: int,
           tree_cap: int, all_viewers: bool = False) -> Run:
    """Time every event's update of ``viewer``'s belief (all players' and the observer's with ``all_viewers``).

    An event the viewer does not observe at all (another player's look) is no update and is not timed;
    ``support`` has one entry per event of the game.
    """
    run = Run()
    viewers = [None, *range(len(game.players))] if all_viewers else [viewer]
    by_event = [[[s for s in game.steps_for(v) if s.event == e.index] for e in game.events] for v in viewers]
    if method is Method.CPSAT:
        steps: list[Any] = []
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
        except ComponentLimit as exc:
            run.stopped = f"{exc} at event {e + 1}"
            return run
        run.times.append(time.perf_counter() - t0)
        first = trackers[0]
        run.support.append(first.support() if isinstance(first, ComponentBelief) else None)
    return run


def peak_memory(run: Callable[[], object]) -> int:
    """Peak traced memory (bytes) of one call."""
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def mb(n: float) -> str:
    return f"{n / 2 ** 20:.1f} MB"


def ms(x: float) -> str:
    return f"{x * 1e3:.3f} ms" if x < 0.1 else f"{x * 1e3:.0f} ms"


METHOD_ORDER = ("auto", "states", "tree", "matrix", "cpsat", "auto-all")


def certainty(game: MascaradeState, max_rows: int) -> list[list[float]]:
    """Per player, after each event: the probability of their most likely own card in their own exact belief."""
    out: list[list[float]] = []
    for p in range(len(game.players)):
        tracker = make_tracker(game.initial, game.swap_probability, Method.AUTO, max_rows=max_rows)
        steps = game.steps_for(p)
        row = []
        for e in game.events:
            for s in (s for s in steps if s.event == e.index):
                if isinstance(s, SwapStep):
                    tracker.swap(s.a, s.b, s.outcome)
                else:
                    tracker.see(s.position, s.identity)
            row.append(float(max(tracker.marginals()[p].values(), default=0)))
        out.append(row)
    return out


GameJob = tuple[int, int, int, str, str, tuple[str, ...], int, int, int, int, int, bool]


def replay_game(job: GameJob) -> dict[str, Any]:
    """One task of part 1: every method on one simulated game (times, peak memory, where it stopped), the
    matrix estimate's largest error, the exact support after each event and, with ``plot``, the certainty."""
    n, events, seed, mix, who, methods, repeat, max_rows, tree_cap, cpsat_histories, cpsat_players, draw = job
    g = simulate(n, events, seed, mix=MIXES[mix])
    viewer = None if who == "observer" else 0
    out: dict[str, Any] = {"methods": {}}
    for name in sorted(methods, key=lambda m: m != "states"):     # the reference first
        if name == "cpsat" and n > cpsat_players:
            continue
        method = Method("auto" if name == "auto-all" else name)
        run_once = partial(replay, g, viewer, method, max_rows=max_rows, cpsat_histories=cpsat_histories,
                           tree_cap=tree_cap, all_viewers=name == "auto-all")
        runs = [run_once() for _ in range(1 if name == "cpsat" else repeat)]
        out["methods"][name] = {
            "times": [statistics.median(ts) for ts in zip(*(r.times for r in runs), strict=True)],
            "stopped": runs[0].stopped,
            "peak": peak_memory(run_once) if name != "cpsat" else None}
    steps = g.steps_for(viewer)
    try:
        exact = run_steps(g.initial, steps, g.swap_probability, Method.AUTO, max_rows=max_rows)
        approx = run_steps(g.initial, steps, g.swap_probability, Method.MATRIX)
        out["error"] = max(abs(approx.p(p, c) - exact.p(p, c)) for p in range(len(g.initial))
                           for c in range(len(g.identities)))
    except ComponentLimit:
        out["error"] = None
    out["support"] = replay(g, viewer, Method.AUTO, max_rows=max_rows, cpsat_histories=0,
                            tree_cap=tree_cap).support
    out["certainty"] = certainty(g, max_rows) if draw else None
    return out


def part1(args: argparse.Namespace, out: dict[str, Any], ex: Executor) -> None:
    jobs = [(n, args.events, 1000 * n + g, args.mix, args.viewer, tuple(args.methods), args.repeat, args.max_rows,
             args.tree_cap, args.cpsat_histories, args.cpsat_players, bool(args.plot))
            for n in args.players for g in range(args.games)]
    results = ex.map_tasks(replay_game, jobs, label="games", unit="game")
    for i, n in enumerate(args.players):
        games = results[i * args.games:(i + 1) * args.games]
        print(f"\n== {n} players, {args.events} events, {args.games} games, mix {args.mix}, viewer "
              f"{'observer' if args.viewer == 'observer' else 'the first player'} ==")
        print(f"{'method':<10}{'median/event':>14}{'p95/event':>12}{'max/event':>12}{'peak mem (max game)':>22}"
              f"{'vs states':>11}  fits")
        rows: dict[str, Any] = {}
        for name in (m for m in args.methods if m in games[0]["methods"]):
            per = [gm["methods"][name] for gm in games]
            times = [t for r in per for t in r["times"]]
            stopped = [r["stopped"] for r in per if r["stopped"]]
            peaks = [r["peak"] for r in per if r["peak"] is not None]
            rows[name] = {"median_s": statistics.median(times) if times else None,
                          "p95_s": percentile(times, 0.95) if times else None, "max_s": max(times, default=None),
                          "peak_bytes": max(peaks) if peaks else None, "fits": len(games) - len(stopped),
                          "games": len(games), "stopped": stopped}
        ref = rows.get("states", {}).get("median_s")
        for name, r in rows.items():
            if r["median_s"] is None:
                print(f"{name:<10} did not fit: {r['stopped'][0]}")
                continue
            ratio = f"{r['median_s'] / ref:.2f}x" if ref else "-"
            peak = mb(r["peak_bytes"]) if r["peak_bytes"] is not None else "n/a"
            print(f"{name:<10}{ms(r['median_s']):>14}{ms(r['p95_s']):>12}{ms(r['max_s']):>12}{peak:>22}"
                  f"{ratio:>11}  {r['fits']}/{r['games']}"
                  + (f"  (stopped: {r['stopped'][0]})" if r["stopped"] else ""))
        errors = [gm["error"] for gm in games if gm["error"] is not None]
        if errors:
            print(f"matrix estimate vs exact marginals at the end of each game: largest |error| per game "
                  f"median {float(statistics.median(errors)):.3f}, max {float(max(errors)):.3f}")
            rows["matrix_error"] = [str(e) for e in errors]
        marks = list(range(10, args.events + 1, 10))
        sup = [gm["support"] for gm in games]
        print("support after event " + "  ".join(f"{m:>8}" for m in marks))
        print("  median            " + "  ".join(
            f"{statistics.median(s[m - 1] for s in sup if len(s) >= m):>8.0f}" for m in marks))
        print("  max               " + "  ".join(f"{max(s[m - 1] for s in sup if len(s) >= m):>8}" for m in marks))
        rows["support"] = {str(m): [s[m - 1] for s in sup if len(s) >= m] for m in marks}
        rows["support_per_event"] = sup
        rows["certainty"] = [gm["certainty"] for gm in games]
        out[str(n)] = rows


def plot(path: str, out: dict[str, Any], title: str) -> None:
    """(a) the exact support after each event (median and range over the games, per player count);
    (b) each player's certainty about their own card over the events, in the first game of the largest table."""
    plt = pyplot()
    sizes = [k for k in out if k.isdigit()]
    fig, axes = plt.subplots(1, 2, figsize=(14, 5))
    colours = plt.get_cmap("tab10")
    for i, n in enumerate(sizes):
        sup = np.array(out[n]["support_per_event"], dtype=float)
        xs = np.arange(1, sup.shape[1] + 1)
        axes[0].plot(xs, np.median(sup, axis=0), color=colours(i), label=f"{n} players (median)")
        axes[0].fill_between(xs, sup.min(axis=0), sup.max(axis=0), color=colours(i), alpha=0.15)
    axes[0].set_yscale("log")
    axes[0].set(title="(a) placements still possible for the first player (band: min-max over games)",
                xlabel="event", ylabel="support (log scale)")
    axes[0].legend(fontsize=8)
    if sizes and out[sizes[-1]]["certainty"][0] is not None:
        rows = np.array(out[sizes[-1]]["certainty"][0])
        im = axes[1].imshow(rows, cmap="magma", vmin=0, vmax=1, aspect="auto", interpolation="nearest",
                            extent=(0.5, rows.shape[1] + 0.5, rows.shape[0] + 0.5, 0.5))
        axes[1].set_yticks(range(1, rows.shape[0] + 1))
        fig.colorbar(im, ax=axes[1]).set_label("P(most likely own card) in the player's own belief")
    axes[1].set(title=f"(b) certainty of each player about their own card, {sizes[-1] if sizes else '?'} players, "
                      "game 1", xlabel="event", ylabel="player")
    axes[0].grid(alpha=0.3)
    for ax in axes:
        ax.title.set_fontsize(10)
    fig.suptitle(title)
    fig.tight_layout()
    save(fig, path)


def crossover_run(job: tuple[int, int, int]) -> dict[str, list[list[float]]]:
    """One task of part 2: a random swap sequence; per method, time, rows and bytes after each swap."""
    n, swaps, seed = job
    g = simulate(n, swaps, seed, mix=SWAPS_ONLY, opening=0)
    steps = g.steps_for(None)
    out: dict[str, list[list[float]]] = {}
    for name in ("tree", "states"):
        b = ComponentBelief(g.initial, Fraction(1, 2), Method(name), factor=False)
        t_list: list[float] = []
        r_list: list[float] = []
        m_list: list[float] = []
        for s in steps:
            if not isinstance(s, SwapStep):
                raise InternalError(f"the swap study met {s!r}")
            t0 = time.perf_counter()
            b.swap(s.a, s.b, None)
            b.marginals()
            t_list.append(time.perf_counter() - t0)
            r_list.append(b.rows())
            m_list.append(b.nbytes())
        out[name] = [t_list, r_list, m_list]
    return out


def part2(args: argparse.Namespace, out: dict[str, Any], ex: Executor) -> None:
    n, swaps = args.crossover_players, args.crossover_swaps
    print(f"\n== crossover: {n} players, swaps only, one component (the source paper's plain methods), "
          f"{args.crossover_runs} random sequences ==")
    space = math.factorial(n)
    runs = ex.map_tasks(crossover_run, [(n, swaps, 77 + r) for r in range(args.crossover_runs)], label="sequences",
                  unit="run")
    per = {name: [r[name][0] for r in runs] for name in ("tree", "states")}
    rows = {name: [r[name][1] for r in runs] for name in ("tree", "states")}
    mem = {name: [r[name][2] for r in runs] for name in ("tree", "states")}
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
          f"{first_space} swaps (the source paper: about 10 for 6 players); the tree update is more than 1.2x "
          f"slower than the states update from swap {first_time} on (medians over {args.crossover_runs} sequences)")
    out["crossover"] = {"players": n, "leaves_exceed_states": first_leaves, "leaves_exceed_n_factorial": first_space,
                        "tree_slower_from": first_time, "table": table}


def main(argv: list[str] | None = None) -> int:
    p = ExperimentParser(prog="sleuth experiment mascarade", description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int_list(MIN_PLAYERS, MAX_PLAYERS), default=[6, 9, 13],
                   help=f"player counts, e.g. 6,9,13 ({MIN_PLAYERS} to {MAX_PLAYERS})")
    p.add_argument("--events", type=bounded(int, 1, MAX_EVENTS), default=60)
    p.add_argument("--games", type=bounded(int, 1, 10**5), default=5)
    p.add_argument("--repeat", type=bounded(int, 1, 1000), default=3,
                   help="replays per game; each event's time is their median")
    p.add_argument("--methods", type=comma_list, default=list(METHOD_ORDER))
    p.add_argument("--mix", choices=sorted(MIXES), default="default")
    p.add_argument("--viewer", choices=["observer", "player"], default="player")
    p.add_argument("--max-rows", type=bounded(int, 1, 10**9), default=6_000_000,
                   help="leaves/states per component before giving up")
    p.add_argument("--tree-cap", type=bounded(int, 1, 10**9), default=DEFAULT_TREE_CAP,
                   help="auto: tree leaves before states")
    p.add_argument("--cpsat-histories", type=bounded(int, 1, 10**7), default=4096)
    p.add_argument("--cpsat-players", type=bounded(int, MIN_PLAYERS, MAX_PLAYERS), default=6,
                   help="run CP-SAT only up to this many players")
    p.add_argument("--crossover-players", type=bounded(int, 3, 8), default=6)
    p.add_argument("--crossover-swaps", type=bounded(int, 1, 20), default=16)
    p.add_argument("--crossover-runs", type=bounded(int, 1, 10**4), default=5)
    p.add_argument("--skip", choices=["updates", "crossover"], action="append", default=[])
    p.add_argument("--json", action="store_true", help="also print the figures as one JSON object")
    add_run_options(p)
    args = p.parse_args(argv)
    bad = [m for m in args.methods if m not in METHOD_ORDER]
    if bad:
        p.error(f"unknown method {bad[0]!r} (allowed: {', '.join(METHOD_ORDER)})")
    if args.plot and "updates" in args.skip:
        p.error("--plot draws the updates part, which --skip updates leaves out")
    check_target(args.plot)
    out: dict[str, Any] = {}
    t0 = time.perf_counter()
    with Executor.from_args(args, "mascarade") as ex:
        if "updates" not in args.skip:
            part1(args, out, ex)
        if "crossover" not in args.skip:
            part2(args, out, ex)
    if args.plot:
        plot(args.plot, out, f"Mascarade: {args.events} events, mix {args.mix}, {args.games} games per size")
    try:
        import resource
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        print(f"\nprocess peak RSS {mb(rss)}; total {time.perf_counter() - t0:.1f} s")
    except ImportError:  # pragma: no cover - not on POSIX
        pass
    if args.json:
        for key in [k for k in out if k.isdigit()]:
            out[key].pop("support_per_event")
            out[key].pop("certainty")
        print(json.dumps(out, default=str))
    sys.stdout.flush()
    return 0
