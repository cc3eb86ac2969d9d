"""The studies of the exact optimal search (:mod:`.optimal`): ``sleuth experiment wordle --optimal`` (the
optimal tree from an opener, or openers ranked with cut-offs on the experiment executor) and ``sleuth
experiment motus --optimal`` (each cell's exact optimal total, or proven bounds past a node limit)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from .emi import SearchTimeout
from .optimal import NO_LIMIT, Node, Optimal, export
from .space import CellJob, CodeSpace, Space, SpaceKey, WordSpace, game_key, game_space



def mastermind_openers(pegs: int = 4, colours: int = 6) -> tuple[str, ...]:
    """Every Mastermind opener up to the symmetries of colours and pegs (which map the set of codes onto
    itself): one per partition of ``pegs`` into at most ``colours`` parts, largest part first (4 pegs:
    1111, 1112, 1122, 1123, 1234)."""
    def parts(left: int, most: int) -> list[list[int]]:
        if left == 0:
            return [[]]
        return [[k, *rest] for k in range(min(left, most), 0, -1) for rest in parts(left - k, k)]

    codes = ["".join(str(c + 1) * k for c, k in enumerate(p)) for p in parts(pegs, pegs) if len(p) <= colours]
    return tuple(sorted(codes))


MASTERMIND_OPENERS = mastermind_openers()
MAX_UNLIMITED_CODES = 6 ** 4  # Mastermind sizes searched without a node limit: up to the classic game


@lru_cache(maxsize=8)
def _search(game: SpaceKey, hard: bool, cap: int | None, guesses: str, kernel: str = "auto") -> Optimal:
    return Optimal(game_space(game), hard=hard, cap=cap, guesses=guesses, kernel=kernel)


def opener_result(opener: str, *, game: SpaceKey = "wordle", hard: bool = False, cap: int | None = None,
                  guesses: str = "all") -> dict[str, Any]:
    """The optimal tree from one opener: :meth:`Optimal.result` (the search of a process is reused)."""
    return _search(game, hard, cap, guesses).result(opener)


class OpenerJob(NamedTuple):
    """One task of an opener ranking: the game and its options, the opener, the cut-off ``beta`` (an opener
    whose total is at least ``beta`` is refuted, None: no cut-off) and the node limit (None: none)."""

    game: SpaceKey
    hard: bool
    cap: int | None
    guesses: str
    opener: str
    beta: int | None = None
    node_limit: int | None = None
    kernel: str = "auto"


def opener_task(job: OpenerJob) -> dict[str, Any]:
    """The exact total of one opener (``status`` ``exact``, with its tree's distribution), or ``refuted``
    (``lower >= beta``: proven no better than the cut-off), or ``bounds`` (the node limit ran out: proven
    ``lower``, and ``upper`` from the seed's Sum strategy after that opener when its tree is valid here, else
    None).  Each task starts from an empty cache, so the result does not depend on what ran before it."""
    search = _search(job.game, job.hard, job.cap, job.guesses, job.kernel)
    g = search.row(job.opener)
    search.node_limit = NO_LIMIT
    search.value(np.arange(min(3, len(search.space.answers))))  # compiles the kernel (numba) before the clock
    search.reset_cache()
    search.node_limit = job.node_limit or NO_LIMIT
    cpu, nodes = time.process_time(), search.nodes
    n = len(search.space.answers)
    out: dict[str, Any] = {"opener": job.opener, "games": n, "beta": job.beta}
    try:
        value = search.guess_value(g, beta=job.beta)
        if value >= search.k.INF:
            out.update(status="impossible", total=None, lower=value, upper=None)
        elif job.beta is not None and value >= job.beta:
            out.update(status="refuted", total=None, lower=value, upper=None)
        else:
            r = search.result(job.opener)
            if r["total"] != value:
                raise RuntimeError(f"the tree from {job.opener} totals {r['total']}, its search {value}")
            out.update({k: r[k] for k in ("total", "max", "distribution", "average")}, status="exact",
                       lower=value, upper=value)
    except SearchTimeout:
        out.update(status="bounds", total=None, lower=search.proven_lower(first=g), upper=_sum_upper(search, g))
    out.update(nodes=search.nodes - nodes, cpu_seconds=round(time.process_time() - cpu, 2))
    return out


def _sum_upper(search: Optimal, first: int) -> int | None:
    """The total of the seed's Sum strategy after ``first`` (a real tree: an upper bound), when that tree
    is one the search could play (not hard mode, within the cap, guesses from the pool)."""
    from . import strategy as st

    if search.hard or len(search.pool) != len(search.space.guesses):
        return None
    r = st.play_all(search.matrix, search.arow, search.space.found, st.Method.SUM, search.space.tries, first=first)
    if search.cap is not None and r.worst > search.cap:
        return None
    return r.total


def rank_openers(openers: Iterable[str], game: SpaceKey = "wordle", *, hard: bool = False, cap: int | None = None,
                 guesses: str = "all", kernel: str = "auto", node_limit: int | None = None, cutoff: bool = True,
                 wave: int = 4, executor: Any = None) -> list[dict[str, Any]]:
    """Every opener's :func:`opener_task` result, best first (exact totals, then refuted and unfinished
    openers by lower bound).

    The openers are searched in order of their class-size lower bound, in waves of ``wave`` tasks on
    ``executor`` (:class:`sleuth.executor.Executor`; None: serially here); with ``cutoff`` the first wave is
    the first opener alone.  With ``cutoff``, each wave gets
    the best exact total of the waves before it plus one as its cut-off (ties stay exact), and an opener
    whose class-size bound is already above that best is refuted without a search (``status`` ``refuted``,
    ``searched`` False).  Waves do not depend on the number of workers, so neither do the results."""
    from sleuth.executor import Executor

    search = _search(game, hard, cap, guesses, kernel)
    names = list(dict.fromkeys(openers))
    rows = np.array([search.row(o) for o in names], dtype=np.int64)
    bound = search.guess_bounds(np.arange(len(search.space.answers)), rows, 0)
    order = [names[i] for i in np.lexsort((rows, bound))]
    lower = {o: int(b) for o, b in zip(names, bound, strict=True)}
    results: dict[str, dict[str, Any]] = {}
    best: int | None = None
    ex = executor if executor is not None else Executor()
    while order:
        if cutoff and best is not None:
            for o in [o for o in order if lower[o] > best]:
                results[o] = {"opener": o, "games": len(search.space.answers), "status": "refuted", "total": None,
                              "lower": lower[o], "upper": None, "beta": best + 1, "searched": False,
                              "nodes": 0, "cpu_seconds": 0.0}
            order = [o for o in order if lower[o] <= best]
        size = 1 if best is None and cutoff else max(1, wave)  # one opener first: it sets the cut-off at once
        batch, order = order[:size], order[size:]
        beta = best + 1 if cutoff and best is not None else None
        jobs = [OpenerJob(game, hard, cap, guesses, o, beta, node_limit, kernel) for o in batch]
        for r in ex.map_tasks(opener_task, jobs, label="openers", unit="opener"):
            r["searched"] = True
            results[r["opener"]] = r
            if r["status"] == "exact" and (best is None or r["total"] < best):
                best = r["total"]
    rank = {"exact": 0, "bounds": 1, "refuted": 2, "impossible": 3}
    return sorted(results.values(), key=lambda r: (rank[r["status"]], r["lower"], r["opener"]))


def _cap(text: str, game: str) -> int | None:
    from sleuth.errors import PuzzleError

    if not text:
        return 6 if game == "wordle" else None
    if text.lower() == "none":
        return None
    if not text.isdigit() or not 1 <= int(text) <= 30:
        raise PuzzleError(f"cannot read {text!r}", place="--cap", allowed="a number of guesses 1-30, or none")
    return int(text)


def _openers(args: Any, search: Optimal) -> list[str]:
    """The openers asked for: ``--opener``, ``--openers`` (a list), else every Mastermind opener up to
    symmetry, or the ``--top`` Wordle openers of least class-size lower bound."""
    from sleuth.errors import PuzzleError
    from sleuth.executor import comma_list

    texts = [args.opener] if args.opener else comma_list(args.openers)
    if not texts and isinstance(search.space, CodeSpace):
        return list(mastermind_openers(search.space.pegs, search.space.colours))
    if not texts:
        answers = np.arange(len(search.space.answers))
        bounds = search.guess_bounds(answers, search.pool, 0)
        return [search.space.guesses[search.pool[j]] for j in np.lexsort((search.pool, bounds))[:args.top]]
    out = []
    for text in texts:
        word = text.strip().upper()
        if word not in search.space.guess_index:
            raise PuzzleError(f"{text!r} is not an allowed guess of {search.space.label}",
                              place="--opener" if args.opener else "--openers",
                              allowed="a word of the guess list" if isinstance(search.space, WordSpace)
                              else f"{search.space.pegs} digits 1-{search.space.colours}")  # type: ignore[attr-defined]
        out.append(word)
    return out


def _show_ranked(r: dict[str, Any], place: str) -> str:
    if r["status"] == "exact":
        dist = " ".join(f"{k}:{v}" for k, v in r["distribution"].items())
        what = (f"total {r['total']:>6} = {r['total'] / r['games']:.4f} over {r['games']} answers, worst "
                f"{r['max']}; {dist}")
    elif r["status"] == "refuted":
        what = (f"total >= {r['lower']} (refuted: at least the cut-off {r['beta']} = best exact + 1"
                + ("" if r["searched"] else "; by its class-size bound, not searched") + ")")
    elif r["status"] == "bounds":
        what = f"total in [{r['lower']}, {r['upper'] if r['upper'] is not None else '?'}] (bounds: node limit)"
    else:
        what = "no tree within the cap"
    return f"  {place:>4} {r['opener']:<6} {what}; {r['nodes']} nodes, {r['cpu_seconds']:.1f} s CPU"


def main_experiment(args: Any) -> int:
    """``sleuth experiment wordle --optimal``: the optimal tree from ``--opener``, or the openers ranked on
    the experiment executor (:func:`rank_openers`)."""
    from sleuth.errors import PuzzleError
    from sleuth.executor import Executor, comma_list

    games = [g.lower() for g in comma_list(args.games)]
    for g in games:
        if g not in ("wordle", "mastermind"):
            raise PuzzleError(f"unknown game {g!r}", place="--games", allowed="wordle, mastermind")
        if args.hard and g != "wordle":
            raise PuzzleError("hard mode is defined for word games", place="--hard", allowed="--games wordle")
        if g == "mastermind" and args.colours ** args.pegs > MAX_UNLIMITED_CODES and not args.node_limit:
            raise PuzzleError(f"{args.colours ** args.pegs} codes: the exact search could run for days",
                              place="--pegs/--colours", allowed=f"at most {MAX_UNLIMITED_CODES} codes (4 pegs, 6 "
                              "colours), or a --node-limit per opener (past it: proven bounds)")
    for name in games:
        cap = _cap(args.cap, name)
        game = game_key(name, args.pegs, args.colours)
        search = _search(game, args.hard, cap, args.guesses)
        openers = _openers(args, search)
        mode = ", ".join(x for x in ("hard mode" if args.hard else "", f"cap {cap}" if cap else "no cap",
                                     f"guesses: {args.guesses}") if x)
        if args.opener and not args.node_limit:  # with a node limit: ranked alone, bounds past the limit
            r = opener_result(openers[0], game=game, hard=args.hard, cap=cap, guesses=args.guesses)
            if args.tree:
                _write_tree(args.tree, search.tree(r["opener"]))
            if args.json:
                print(json.dumps(r))
                continue
            dist = " ".join(f"{k}:{v}" for k, v in r["distribution"].items())
            print(f"{search.space.label}: exact optimal tree ({mode}; kernel {search.kernel})")
            print(f"  {r['opener']:<6} total {r['total']:>6} = {r['average']:.4f} over {r['games']} answers, "
                  f"worst {r['max']}; {dist}; {r['nodes']} nodes, {r['cpu_seconds']:.1f} s CPU")
            continue
        start = time.perf_counter()
        with Executor.from_args(args, f"optimal-{game}") as ex:
            ranked = rank_openers(openers, game, hard=args.hard, cap=cap, guesses=args.guesses,
                                  node_limit=args.node_limit, cutoff=not args.no_cutoff, wave=args.wave, executor=ex)
        wall = time.perf_counter() - start
        exact = [r for r in ranked if r["status"] == "exact"]
        unfinished = [r for r in ranked if r["status"] == "bounds" and (not exact or r["lower"] <= exact[0]["total"])]
        proven = bool(exact) and not unfinished
        everything = name == "mastermind" and not args.openers
        if args.tree and exact:
            _write_tree(args.tree, search.tree(exact[0]["opener"]))
        summary = {"game": search.space.label, "hard": args.hard, "cap": cap, "guesses": args.guesses,
                   "candidates": len(ranked), "every_opener": everything,
                   "best": exact[0]["opener"] if proven else None, "total": exact[0]["total"] if proven else None,
                   "proven": proven, "seconds": round(wall, 1),
                   "cpu_seconds": round(sum(r["cpu_seconds"] for r in ranked), 1), "ranking": ranked}
        if args.json:
            print(json.dumps(summary))
            continue
        print(f"{search.space.label}: {len(ranked)} opener(s) ranked by exact optimal total ({mode}; kernel "
              f"{search.kernel}; cut-off {'off' if args.no_cutoff else 'on'}, waves of {args.wave}"
              + (f", {args.node_limit} nodes per opener" if args.node_limit else "") + ")")
        for i, r in enumerate(ranked):
            print(_show_ranked(r, str(i + 1) if r["status"] == "exact" else "-"))
        scope = "every opener up to symmetry" if everything else f"the {len(ranked)} opener(s) ranked " \
            f"(not a proof over all {len(search.pool)} guesses)"
        if proven:
            print(f"  best of {scope}: {exact[0]['opener']} {exact[0]['total']} (proven)")
        else:
            print(f"  open: {len(unfinished)} unfinished opener(s) could still beat the best exact total"
                  if exact else "  open: no opener finished")
        refuted = sum(r["status"] == "refuted" for r in ranked)
        print(f"  {len(exact)} exact, {refuted} refuted by the cut-off "
              f"({sum(not r['searched'] for r in ranked)} without a search), {len(unfinished)} unfinished; "
              f"{wall:.1f} s wall, {summary['cpu_seconds']:.1f} s CPU in the tasks on {ex.stats.workers} worker(s)")
    return 0


def _write_tree(path: str, tree: Node) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write(export(tree, "dot" if path.endswith(".dot") else "json"))


CELL_METHODS = ("sum", "sumgini")  # the seed's heuristics shown beside each cell's optimum (Table 4's best two)


def cell_value(space: Space, *, node_limit: int | None = None, kernel: str = "auto") -> dict[str, Any]:
    """The exact optimal total of a cell (every allowed guess, no cap), or proven bounds when the search
    visits more than ``node_limit`` nodes: the lower bound is :meth:`Optimal.proven_lower` (class sizes, and
    the exact values and bounds the stopped search proved for the classes of each first guess); the upper
    bound is the least total of the seed's heuristics (:data:`CELL_METHODS`, real trees).  ``exact`` says
    which; ``heuristics`` gives each heuristic's total."""
    from . import strategy as st

    cpu = time.process_time()
    search = Optimal(space, node_limit=node_limit, kernel=kernel)
    n = len(space.answers)
    out: dict[str, Any] = {"cell": space.label, "words": n, "kernel": search.kernel, "node_limit": node_limit}
    heuristics = {m: st.play_all(search.matrix, space.answer_rows, space.found, st.Method(m), space.tries).total
                  for m in CELL_METHODS}
    out["heuristics"] = heuristics
    out["sum_total"] = heuristics["sum"]
    upper = min(heuristics.values())
    try:
        total = search.value()
        out.update(exact=True, total=total, lower=total, upper=total)
    except SearchTimeout:
        lower = search.proven_lower()
        out.update(exact=lower == upper, total=lower if lower == upper else None, lower=lower, upper=upper)
    out.update(average=None if out["total"] is None else round(out["total"] / n, 4), nodes=search.nodes,
               cpu_seconds=round(time.process_time() - cpu, 2))
    return out


def warm_kernel(space: WordSpace) -> None:
    """Search a 3-word cut of ``space`` once, so that compiling the kernel (numba: about 5 s of CPU per
    process) is not charged to a cell."""
    from .words import from_words

    from sleuth.jit import compile_lock

    words = list(space.answers[:3])
    if len(words) == 3:
        with compile_lock("motus-optimal"):  # the workers of one machine compile it once
            Optimal(WordSpace(from_words(words).cell(space.length), 6)).value()


def cell_task(job: tuple[CellJob, int | None]) -> dict[str, Any]:
    """One task of ``experiment motus --optimal``: a cell and the node limit."""
    cell, node_limit = job
    space = cell.space()
    warm_kernel(space)
    return cell_value(space, node_limit=node_limit)


def main_cells(args: Any, spaces: list[WordSpace]) -> int:
    """``sleuth experiment motus --optimal``: a line (or a JSON object) per cell, one task per cell on the
    experiment executor (``--workers``, ``--cluster``, ``--resume``)."""
    from sleuth.executor import Executor

    # smallest cells first (equal weights keep this order on a cluster too): a run cut short leaves the
    # large cells, which would end as bounds anyway, unstarted rather than the many quick ones
    order = sorted(range(len(spaces)), key=lambda i: (len(spaces[i].answers), i))
    jobs = [(CellJob.of(spaces[i]), args.node_limit) for i in order]
    start = time.perf_counter()
    with Executor.from_args(args, "motus-optimal") as ex:
        done = ex.map_tasks(cell_task, jobs, label="cells", unit="cell")
    rows = [r for _, r in sorted(zip(order, done, strict=True))]
    if args.json:
        print(json.dumps({"node_limit": args.node_limit, "cells": rows}))
        return 0
    names = " ".join(f"{m:>8}" for m in CELL_METHODS)
    print(f"{'cell':<10}{'words':>6}  {'optimal total':>17} {'average':>15}  {names}  {'nodes':>9} {'CPU s':>8}")
    for r in rows:
        n = r["words"]
        value = f"{r['total']:>17}" if r["exact"] else f"{'[' + str(r['lower']) + ', ' + str(r['upper']) + ']':>17}"
        bounds = f"[{r['lower'] / n:.4f}, {r['upper'] / n:.4f}]"
        avg = f"{r['total'] / n:>15.4f}" if r["exact"] else f"{bounds:>15}"
        heur = " ".join(f"{r['heuristics'][m] / n:>8.4f}" for m in CELL_METHODS)
        print(f"{r['cell']:<10}{n:>6}  {value} {avg}  {heur}  {r['nodes']:>9} {r['cpu_seconds']:>8.1f}", flush=True)
    exact = sum(r["exact"] for r in rows)
    print(f"{exact} of {len(rows)} cells exact ([lower, upper]: proven bounds, the search stopped at "
          f"{args.node_limit} nodes); {time.perf_counter() - start:.0f} s wall, "
          f"{sum(r['cpu_seconds'] for r in rows):.0f} s CPU in the cells on {ex.stats.workers} worker(s)")
    return 0
