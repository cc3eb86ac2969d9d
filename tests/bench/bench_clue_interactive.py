"""Benchmark (prints figures; not a test): Clue's interactive answers per state, CPU seconds.

Every prefix of simulated classic games, per player count, seen by player 1 and by an outside observer: the
exact sheet, the exact probabilities (cells and envelope triples), what the others know (``solve
--others``), the suggestion advice (``suggest``: player 1's suggestions in player 1's view, the
suggester of the turn in the observer's) and another player's envelope beliefs (``beliefs``: what ``suggest
--show`` computes for each card the viewer could show; the suggester of the turn, or the next player when
that is the viewer).  Median, p95 and max per state.  The same script runs on an older
checkout (its advice is then the sampled estimate, the only one it has): run it with each checkout's
interpreter, back to back, for a before/after table.

    python tests/bench/bench_clue_interactive.py --games 5 --players 3,4,5,6

Numba and the compiled loops are loaded (and each called once, on a game not timed) before the first state is
timed, as ``sleuth serve`` has them loaded before its first answer; ``--cold`` leaves that to the first state
that needs them (it then pays 0.6-0.9 s more, as a command line's answer on a long state does).  The
process's allocator is tuned as the command line tunes its own (:mod:`sleuth.allocator`); ``--allocator
default`` leaves glibc's defaults (for a before/after of that setting; an older checkout without the module
keeps the defaults either way).

On a host whose speed drifts (a shared machine), one timing of a state can be far from its usual cost: with
``--retime K`` the slowest states of each part (``--retime-states``, default 5) are timed K more times at the
end, each alone, and the table adds the largest of their medians beside the max of single timings.

A long run can be cut into pieces run side by side (``--first`` and ``--games`` pick the games, ``--save``
keeps every state's times) and put together with ``--merge FILE...`` (the table over all the pieces).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sleuth.executor import task_seed
from sleuth.limits import TooLarge
from sleuth.models.clue import suggest
from sleuth.models.clue.counting import Problem, count_deals, sample_deals
from sleuth.models.clue.model import build_model
from sleuth.models.clue.others import envelope_beliefs, chances_others_know
from sleuth.models.clue.sheet import exact_sheet
from sleuth.models.clue.simulate import simulate

if TYPE_CHECKING:   # the older checkouts (run for a before/after table) call it Game
    from sleuth.models.clue.state import ClueState

PARTS = ("sheet", "probabilities", "others", "advice", "beliefs")


def advice(game: ClueState, by: int) -> bool:
    """What ``sleuth suggest`` computes for every suggestion: exact where this checkout has it (with its
    budget fallback; ``SLEUTH_CLUE_KERNEL=numpy`` times it without the compiled loop), else the sampled
    estimate (1000 deals).  True when the answer is exact."""
    problem = Problem.from_observations(game, game.observations())
    triples = list(itertools.product(*(game.deck.members(k) for k in range(3))))
    if hasattr(suggest, "PastBudget"):
        try:
            budgets = {"compiled_budget": suggest.COMPILED_BUDGET} if hasattr(suggest, "COMPILED_BUDGET") else {}
            suggest.exact_information(problem, by, triples, budget=suggest.EXACT_BUDGET, **budgets)
            return True
        except suggest.PastBudget:
            pass
    elif hasattr(suggest, "exact_information") and suggest.exact_work(problem, triples) <= suggest.EXACT_BUDGET:
        suggest.exact_information(problem, by, triples)
        return True
    deals = sample_deals(problem, suggest.DEFAULT_SAMPLES, random.Random(0))
    if hasattr(suggest, "sampled_information"):
        suggest.sampled_information(deals, by, triples, len(game.players))
    else:
        [suggest.information(deals, by, t, len(game.players)) for t in triples]
    return False


def cpu(fn: Callable[..., Any], *args: Any, **kw: Any) -> float:
    return timed(fn, *args, **kw)[0]


def timed(fn: Callable[..., Any], *args: Any, **kw: Any) -> tuple[float, Any]:
    """CPU seconds of one call, and what it returned."""
    start = time.process_time()
    result = fn(*args, **kw)
    return time.process_time() - start, result


def refusable(out: dict[str, float], fn: Callable[..., Any], *args: Any) -> float:
    """CPU seconds of one call; a refusal past the memory budget (``TooLarge``, bounded before the work) is
    timed too and counted in ``out["refused"]``."""
    start = time.process_time()
    try:
        fn(*args)
    except TooLarge:
        out["refused"] = out.get("refused", 0.0) + 1
    return time.process_time() - start


def state_times(game: ClueState, by: int, parts: tuple[str, ...]) -> dict[str, float]:
    """CPU seconds per part at one state; ``advice_exact`` (1 or 0): whether the advice was exact."""
    problem = Problem.from_observations(game, game.observations())
    out = {}
    if "sheet" in parts:
        out["sheet"] = cpu(exact_sheet, problem, partial(build_model, game, game.observations()))
    if "probabilities" in parts:
        out["probabilities"] = cpu(count_deals, problem, triples=True)
    if "others" in parts:
        out["others"] = refusable(out, chances_others_know, game)
    if "advice" in parts:
        out["advice"], exact = timed(advice, game, by)
        out["advice_exact"] = float(exact)
    if "beliefs" in parts:   # what `suggest --show` computes per card: another player's envelope beliefs
        other = by if by != game.viewer else (by + 1) % len(game.players)
        out["beliefs"] = refusable(out, envelope_beliefs, game, other)
    return out


def seat(view: str, players: int, turn: int) -> tuple[int | None, int]:
    """The viewer of a view (player 1, or None for the outside observer) and the suggester timed at ``turn``:
    player 1 in player 1's view, the player of the turn in the observer's."""
    viewer = 0 if view == "player" else None
    return viewer, 0 if viewer == 0 else turn % players


def stats(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    return {"states": len(xs), "median_ms": 1e3 * statistics.median(xs),
            "p95_ms": 1e3 * xs[min(len(xs) - 1, int(0.95 * len(xs)))], "max_ms": 1e3 * xs[-1]}


def table(runs: list[dict[str, Any]], parts: tuple[str, ...], as_json: bool) -> None:
    """Print median / p95 / max per (player count, view) over the runs' per-state times."""
    merged: dict[tuple[int, str], dict[str, Any]] = {}
    for run in runs:
        row = merged.setdefault((run["players"], run["view"]), {"games": 0, "times": {p: [] for p in parts},
                                                                "slowest": {}, "exact": 0,
                                                                "retimed": {p: [] for p in parts}})
        row["games"] += run["games"]
        row["exact"] += run.get("exact", 0)
        row["refused"] = row.get("refused", 0) + run.get("refused", 0)
        for part in parts:
            row["times"][part] += run["times"][part]
            if run["slowest"][part][0] >= row["slowest"].get(part, [0.0])[0]:
                row["slowest"][part] = run["slowest"][part]
            row["retimed"][part] += run.get("retimed", {}).get(part, [])
    results = []
    for (n, view), row in sorted(merged.items()):
        results.append({"players": n, "view": view, "games": row["games"],
                        **{p: {**stats(row["times"][p]), "slowest_game_turn": row["slowest"][p][1:]} for p in parts}})
        for p in parts:
            again = sorted(row["retimed"][p], reverse=True)
            if again:
                results[-1][p].update(retimed=again, retimed_max_ms=1e3 * again[0][0])
        if "advice" in parts:
            results[-1]["advice"]["exact_states"] = row["exact"]
        results[-1]["refused"] = row["refused"]
        if not as_json:
            r = results[-1]
            print(f"{n} players, {view:<8} ({r['games']} games, {r[parts[0]]['states']} states): " + "; ".join(
                f"{p} {r[p]['median_ms']:.1f} / {r[p]['p95_ms']:.0f} / {r[p]['max_ms']:.0f}" for p in parts)
                + (f"; advice exact at {row['exact']} of {r['advice']['states']} states" if "advice" in parts else "")
                + (f"; refused past the memory budget: {row['refused']}" if row["refused"] else ""),
                flush=True)
            if any(row["retimed"][p] for p in parts):
                print("  the slowest states timed again, median of each state's timings (ms; game, turn): " + "; ".join(
                    f"{p} max {r[p]['retimed_max_ms']:.0f} (" + ", ".join(
                        f"{1e3 * m:.0f} g{g} t{k}" for m, g, k, _ in r[p]["retimed"]) + ")"
                    for p in parts if r[p].get("retimed")), flush=True)
    load = os.getloadavg()
    if as_json:
        print(json.dumps({"load": load, "results": results}, indent=1))
    else:
        print(f"CPU ms per state: median / p95 / max; load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


WARM_GAME = 1_000_000  # the game (of 3 players) that calls each compiled loop once, untimed


def load_kernels(parts: tuple[str, ...], seed: int) -> None:
    """The compiled loops of what the others know and of the advice, where this checkout has them, each run
    once (untimed) on a state of a game the benchmark does not time: numba loads each compiled function when it
    is first called, as ``sleuth serve`` does before its first answer by answering the bundled example."""
    from sleuth.models.clue import counting
    from sleuth.registry import find_game

    clue = find_game("clue")
    for kernel in clue.kernels if isinstance(clue.kernels, tuple) else ():   # the kernel objects (issue 47 on)
        kernel.load()
    for loader in (getattr(counting, "split_kernel", None), getattr(suggest, "advice_kernel", None)):
        if loader is not None:   # before: the loaders' functions
            loader()
    sim = simulate(3, random.Random(task_seed(seed, 3, WARM_GAME)))
    for viewer in (None, 0):
        state_times(sim.view(viewer, min(6, len(sim.suggestions))), 0, parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50, help="simulated games per player count (default 50)")
    ap.add_argument("--first", type=int, default=0, help="index of the first game (default 0)")
    ap.add_argument("--players", default="3,4,5,6", help="player counts (default 3,4,5,6)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--parts", default=",".join(PARTS), help=f"what to time (default {','.join(PARTS)})")
    ap.add_argument("--views", default="player,observer", help="player (player 1's view), observer, or both")
    ap.add_argument("--save", help="also write every state's times to this JSON file (for --merge)")
    ap.add_argument("--merge", nargs="+", metavar="FILE", help="print the table of saved runs, run nothing")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--cold", action="store_true", help="do not load the compiled loops before timing")
    ap.add_argument("--retime", type=int, default=0, metavar="K",
                    help="time the slowest states of each part K more times at the end (median per state)")
    ap.add_argument("--retime-states", type=int, default=5, metavar="M", help="how many states --retime takes")
    ap.add_argument("--allocator", choices=("tuned", "default"), default="tuned",
                    help="glibc's allocator tuned as the command line tunes it (default), or left as it is")
    args = ap.parse_args()
    if args.allocator == "tuned":
        try:
            from sleuth.allocator import tune_allocator
        except ImportError:   # an older checkout: its command line left the allocator as it is
            pass
        else:
            tune_allocator()
    parts = tuple(p for p in args.parts.split(",") if p)
    if args.merge:
        runs = [run for name in args.merge for run in json.loads(Path(name).read_text())]
        table(runs, tuple(p for p in parts if all(p in run["times"] for run in runs)), args.json)
        return
    if not args.cold:
        load_kernels(parts, args.seed)
    runs = []
    for n in map(int, args.players.split(",")):
        mine = {view: {"players": n, "view": view, "games": 0, "times": {p: [] for p in parts},
                       "slowest": {p: (0.0, 0, 0) for p in parts}, "exact": 0, "refused": 0,
                       "states": {p: [] for p in parts}}
                for view in args.views.split(",")}
        runs += mine.values()
        for g in range(args.first, args.first + args.games):   # both views of a game, then the next game
            sim = simulate(n, random.Random(task_seed(args.seed, n, g)))
            for view, run in mine.items():
                for k in range(len(sim.suggestions) + 1):
                    viewer, by = seat(view, n, k)
                    for part, dt in state_times(sim.view(viewer, k), by, parts).items():
                        if part in ("advice_exact", "refused"):
                            run["exact" if part == "advice_exact" else "refused"] += int(dt)
                            continue
                        run["times"][part].append(dt)
                        run["states"][part].append((g, k))
                        if dt > run["slowest"][part][0]:
                            run["slowest"][part] = (dt, g, k)
                run["games"] += 1
            if args.save:   # after every game: a run stopped early keeps its complete games
                Path(args.save).write_text(json.dumps(runs))
        if args.retime:
            for run in mine.values():
                run["retimed"] = retimed(run, args.seed, args.retime, args.retime_states)
            if args.save:
                Path(args.save).write_text(json.dumps(runs))
    table(runs, parts, args.json)


Retimed = list[tuple[float, int, int, list[float]]]   # per state: median, game, turn, every timing


def retimed(run: dict[str, Any], seed: int, again: int, states: int) -> dict[str, Retimed]:
    """The ``states`` slowest states of each part of ``run`` timed ``again`` more times, one part at a time:
    per state, the median of all its timings, the game, the turn and the timings."""
    out = {}
    n = run["players"]
    for part, times in run["times"].items():
        slowest = sorted(zip(times, run["states"][part], strict=True), reverse=True)[:states]
        rows = []
        for first, (g, k) in slowest:
            viewer, by = seat(run["view"], n, k)
            game = simulate(n, random.Random(task_seed(seed, n, g))).view(viewer, k)
            seen = [first, *(state_times(game, by, (part,))[part] for _ in range(again))]
            rows.append((statistics.median(seen), g, k, seen))
        out[part] = rows
    return out


if __name__ == "__main__":
    main()
