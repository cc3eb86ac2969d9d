"""``sleuth experiment clue``: the benchmark of the exact sheet, the rules engine and the probabilities.

Simulated classic games (3, 4 and 6 players by default), every prefix of each log, seen by the first
player.  Per state it times the exact sheet (counting fast path, the backbone past its state budget), the
seed's rules engine and the exact probabilities (cells and envelope triples); on every K-th state it also
times the engine backbone and the naive sheet (two CP-SAT solves per cell) and checks that all sheets agree.
It counts the cells the exact sheet knows and the rules do not, and checks soundness (the true deal fits
every sheet).
"""

from __future__ import annotations

import json
import random
import statistics
from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np

from sleuth.timing import percentile, timed
from sleuth.executor import Executor, ExperimentParser, add_run_options, bounded, int_list, task_seed
from sleuth.figures import check_target, pyplot, save

from .counting import Problem, count_deals
from .model import build_model
from .others import chances_others_know
from .rules import apply_rules
from .sheet import Mark, Sheet, backbone_sheet, counted_sheet, exact_sheet, naive_sheet
from .simulate import simulate



def fits(sheet: Sheet, deal: Sequence[int]) -> bool:
    """Every yes/no cell of the sheet is true of the deal."""
    for c, row in enumerate(sheet.marks):
        for q, mark in enumerate(row):
            if (mark is Mark.YES and deal[c] != q) or (mark is Mark.NO and deal[c] == q):
                return False
    return True


def subset(small: Sheet, big: Sheet) -> bool:
    return all(a is Mark.MAYBE or a is b
               for ra, rb in zip(small.marks, big.marks, strict=True) for a, b in zip(ra, rb, strict=True))


TIMES = ("exact_sheet", "rules", "probabilities", "fast_on_compared", "backbone", "naive")
COUNTS = ("cells_exact_not_rules", "states_rules_short", "sheet_mismatches", "unsound_states",
          "backbone_fallbacks", "states")


def play_game(job: tuple[int, int, int, int | None, bool]) -> dict[str, Any]:
    """One task: a simulated game seen after every prefix of its log; per-state times (seconds) and counts."""
    players, seed, every, viewer, others = job
    sim = simulate(players, random.Random(seed))
    times: dict[str, list[float]] = {k: [] for k in (*TIMES, "others")}
    counts = dict.fromkeys(COUNTS, 0)
    for k in range(len(sim.suggestions) + 1):
        game = sim.view(viewer, k)
        obs = game.observations()
        problem = Problem.from_observations(game, obs)
        (sheet, how), dt = timed(exact_sheet, problem, partial(build_model, game, obs))
        times["exact_sheet"].append(dt)
        counts["backbone_fallbacks"] += how != "count"
        rules, dt = timed(apply_rules, game, obs)
        times["rules"].append(dt)
        probs, dt = timed(count_deals, problem, triples=True)
        times["probabilities"].append(dt)
        if others:
            times["others"].append(timed(chances_others_know, game)[1])
        counts["unsound_states"] += not (fits(sheet, sim.deal) and fits(rules.sheet, sim.deal)
                                         and subset(rules.sheet, sheet) and counted_sheet(probs) == sheet)
        gap = sheet.known() - rules.sheet.known()
        counts["cells_exact_not_rules"] += gap
        counts["states_rules_short"] += gap > 0
        if k % every == 0:
            cm = build_model(game, obs)
            _, dt = timed(exact_sheet, problem, partial(lambda model: model, cm))
            times["fast_on_compared"].append(dt)
            bb, dt = timed(backbone_sheet, cm)
            times["backbone"].append(dt)
            nv, dt = timed(naive_sheet, cm)
            times["naive"].append(dt)
            counts["sheet_mismatches"] += not (bb == sheet and nv == sheet)
        counts["states"] += 1
    return {"times": times, "counts": counts}


def summarise(players: int, parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one player count from its games (in game order)."""
    times = {k: [x for p in parts for x in p["times"][k]] for k in (*TIMES, "others")}
    others = times.pop("others")
    counts = {k: sum(p["counts"][k] for p in parts) for k in COUNTS}

    def stats(xs: list[float]) -> dict[str, float]:
        return {"median_ms": 1e3 * statistics.median(xs), "p95_ms": 1e3 * percentile(xs, 0.95),
                "max_ms": 1e3 * max(xs)}

    fast = statistics.median(times["fast_on_compared"])
    extra = {"others": stats(others), "others_over_sheet": statistics.median(others) /
             statistics.median(times["exact_sheet"])} if others else {}
    return {**extra, "players": players, "games": len(parts), **counts, **{k: stats(v) for k, v in times.items()},
            "compared_states": len(times["naive"]),
            "naive_over_fast": statistics.median(times["naive"]) / fast,
            "backbone_over_fast": statistics.median(times["backbone"]) / fast,
            "samples_ms": {k: [round(1e3 * x, 4) for x in v] for k, v in times.items()}}


def plot(path: str, results: Sequence[dict[str, Any]], title: str) -> None:
    """Time per state of each method, one box per player count (log scale)."""
    plt = pyplot()
    labels = {"rules": "rules engine (seed)", "exact_sheet": "exact sheet", "probabilities": "probabilities",
              "backbone": "engine backbone", "naive": "naive sheet (2 solves/cell)"}
    fig, ax = plt.subplots(figsize=(11, 5))
    width = 0.8 / len(results)
    colours = plt.get_cmap("tab10")
    for i, r in enumerate(results):
        data = [r["samples_ms"][k] for k in labels]
        box = ax.boxplot(data, positions=np.arange(len(labels)) + (i - (len(results) - 1) / 2) * width,
                         widths=width * 0.9, patch_artist=True, showfliers=False,
                         medianprops={"color": "black"})
        for patch in box["boxes"]:
            patch.set_facecolor(colours(i))
        ax.plot([], [], color=colours(i), lw=8, label=f"{r['players']} players ({r['states']} states)")
    ax.set_xticks(np.arange(len(labels)), list(labels.values()))
    ax.set_yscale("log")
    ax.set(ylabel="milliseconds per state (log scale)", title=title)
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8)
    fig.tight_layout()
    save(fig, path)


def main(argv: list[str]) -> int:
    ap = ExperimentParser(prog="sleuth experiment clue", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=bounded(int, 1, 10**6), default=50,
                    help="simulated games per player count (default 50)")
    ap.add_argument("--players", type=int_list(2, 6), default=[3, 4, 6],
                    help="player counts, comma separated (default 3,4,6)")
    ap.add_argument("--seed", type=bounded(int, 0, 2**63 - 1), default=1)
    ap.add_argument("--every", type=bounded(int, 1, 10**6), default=20,
                    help="time the backbone and the naive sheet on every K-th state of a game (default 20)")
    ap.add_argument("--observer", action="store_true", help="an outside observer's view instead of player 1's")
    ap.add_argument("--others", action="store_true",
                    help="also time what the other players know (models.clue.others) on every state")
    ap.add_argument("--json", action="store_true")
    add_run_options(ap)
    args = ap.parse_args(argv)
    check_target(args.plot)
    viewer = None if args.observer else 0
    jobs = [(n, task_seed(args.seed, n, g), args.every, viewer, args.others) for n in args.players
            for g in range(args.games)]
    with Executor.from_args(args, "clue") as ex:
        parts = ex.map_tasks(play_game, jobs, label="games", unit="game")
    results = [summarise(n, parts[i * args.games:(i + 1) * args.games]) for i, n in enumerate(args.players)]
    if args.plot:
        plot(args.plot, results, f"Clue: time per state, {args.games} simulated games per player count, seen by "
                                 + ("an outside observer" if args.observer else "player 1"))
    for r in results:
        del r["samples_ms"]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    view = "an outside observer" if args.observer else "player 1"
    print(f"Clue benchmark: classic deck, {args.games} simulated games per row, every prefix of each log, "
          f"seen by {view}; times in ms (median / p95 / max)")
    head = f"{'players':>7} {'states':>6}  {'exact sheet':>22}  {'rules engine':>22}  {'probabilities':>22}"
    print(head)
    for r in results:
        cells = [f"{r[key]['median_ms']:.2f} / {r[key]['p95_ms']:.1f} / {r[key]['max_ms']:.0f}"
                 for key in ("exact_sheet", "rules", "probabilities")]
        print(f"{r['players']:>7} {r['states']:>6}  {cells[0]:>22}  {cells[1]:>22}  {cells[2]:>22}")
    print(f"\nSame states, every {args.every}-th: fast sheet vs engine backbone vs naive sheet (2 solves per cell)")
    print(f"{'players':>7} {'states':>6}  {'fast median':>11}  {'backbone median':>15}  {'naive median':>12}  "
          f"{'backbone/fast':>13}  {'naive/fast':>10}  {'disagree':>8}")
    for r in results:
        print(f"{r['players']:>7} {r['compared_states']:>6}  {r['fast_on_compared']['median_ms']:>11.2f}  "
              f"{r['backbone']['median_ms']:>15.1f}  {r['naive']['median_ms']:>12.0f}  "
              f"{r['backbone_over_fast']:>13.0f}x  {r['naive_over_fast']:>9.0f}x  {r['sheet_mismatches']:>8}")
    if args.others:
        print("\nWhat the others know (exact, every state), beside the plain sheet: median / p95 / max ms")
        for r in results:
            o = r["others"]
            print(f"{r['players']:>7} players: {o['median_ms']:.1f} / {o['p95_ms']:.0f} / {o['max_ms']:.0f}; "
                  f"median others / median sheet: {r['others_over_sheet']:.0f}x")
    print("\nCells the exact sheet knows and the rules engine does not (all states)")
    for r in results:
        print(f"{r['players']:>7} players: {r['cells_exact_not_rules']} cells in {r['states_rules_short']} of "
              f"{r['states']} states; unsound states: {r['unsound_states']}; exact sheets taken by the backbone "
              f"(counting over its state budget): {r['backbone_fallbacks']}")
    return 0
