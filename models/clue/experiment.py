"""``sleuth experiment clue``: the benchmark of the exact sheet, the rules engine and the probabilities.

Simulated classic games (3, 4 and 6 players by default), every prefix of each log, seen by the first
player.  Per state it times the exact sheet (counting fast path, the backbone past its state budget), the
seed's rules engine and the exact probabilities (cells and envelope triples); on every K-th state it also
times the engine backbone and the naive sheet (two CP-SAT solves per cell) and checks that all sheets agree.
It counts the cells the exact sheet knows and the rules do not, and checks soundness (the true deal fits
every sheet).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from functools import partial
from collections.abc import Sequence
from typing import Any

from sleuth.bench import percentile, timed

from .counting import Problem, count_deals
from .model import build_model
from .others import others_knowledge
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


def run(players: int, games: int, seed: int, every: int, viewer: int | None, progress: bool,
        others: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    t_sheet, t_rules, t_prob, t_fast_sub, t_backbone, t_naive, t_others = [], [], [], [], [], [], []
    extra_cells = states = mismatches = unsound = states_rules_short = fallbacks = 0
    for g in range(games):
        sim = simulate(players, rng)
        for k in range(len(sim.suggestions) + 1):
            game = sim.view(viewer, k)
            obs = game.observations()
            problem = Problem.from_observations(game, obs)
            (sheet, how), dt = timed(exact_sheet, problem, partial(build_model, game, obs))
            t_sheet.append(dt)
            fallbacks += how != "count"
            rules, dt = timed(apply_rules, game, obs)
            t_rules.append(dt)
            probs, dt = timed(count_deals, problem, triples=True)
            t_prob.append(dt)
            if others:
                t_others.append(timed(others_knowledge, game)[1])
            unsound += not (fits(sheet, sim.deal) and fits(rules.sheet, sim.deal) and subset(rules.sheet, sheet)
                            and counted_sheet(probs) == sheet)
            gap = sheet.known() - rules.sheet.known()
            extra_cells += gap
            states_rules_short += gap > 0
            if states % every == 0:
                cm = build_model(game, obs)
                _, dt = timed(exact_sheet, problem, partial(lambda model: model, cm))
                t_fast_sub.append(dt)
                bb, dt = timed(backbone_sheet, cm)
                t_backbone.append(dt)
                nv, dt = timed(naive_sheet, cm)
                t_naive.append(dt)
                mismatches += not (bb == sheet and nv == sheet)
            states += 1
        if progress:
            print(f"\r  {players} players: game {g + 1}/{games}", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)

    def stats(xs: list[float]) -> dict[str, float]:
        return {"median_ms": 1e3 * statistics.median(xs), "p95_ms": 1e3 * percentile(xs, 0.95),
                "max_ms": 1e3 * max(xs)}

    extra = {"others": stats(t_others), "others_over_sheet": statistics.median(t_others) / statistics.median(t_sheet)
             } if others else {}
    return {**extra, "players": players, "games": games, "states": states, "exact_sheet": stats(t_sheet),
            "rules": stats(t_rules), "probabilities": stats(t_prob),
            "compared_states": len(t_naive), "fast_on_compared": stats(t_fast_sub),
            "backbone": stats(t_backbone), "naive": stats(t_naive),
            "naive_over_fast": statistics.median(t_naive) / statistics.median(t_fast_sub),
            "backbone_over_fast": statistics.median(t_backbone) / statistics.median(t_fast_sub),
            "cells_exact_not_rules": extra_cells, "states_rules_short": states_rules_short,
            "sheet_mismatches": mismatches, "unsound_states": unsound, "backbone_fallbacks": fallbacks}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="sleuth experiment clue", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50, help="simulated games per player count (default 50)")
    ap.add_argument("--players", default="3,4,6", help="player counts, comma separated (default 3,4,6)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=20,
                    help="time the backbone and the naive sheet on every K-th state (default 20)")
    ap.add_argument("--observer", action="store_true", help="an outside observer's view instead of player 1's")
    ap.add_argument("--others", action="store_true",
                    help="also time what the other players know (models.clue.others) on every state")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        counts = [int(x) for x in args.players.split(",")]
    except ValueError:
        ap.error("--players takes integers such as 3,4,6")
    if any(not 2 <= n <= 6 for n in counts) or args.games < 1 or args.every < 1:
        ap.error("players 2..6, --games and --every at least 1")
    results = [run(n, args.games, args.seed + n, args.every, None if args.observer else 0, sys.stderr.isatty(),
                   args.others) for n in counts]
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
