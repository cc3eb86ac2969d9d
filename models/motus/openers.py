"""The best opener over every allowed guess, proven: ``sleuth experiment wordle --optimal --all-openers``.

An incumbent opener is searched exactly first (the least one-ply bound among the ``INCUMBENT_POOL`` openers of
least class-size bound); its total plus one is the cut-off ``beta`` (or ``--above N`` plus one, to rank every
opener whose total is at most ``N``).  Every allowed guess is then decided by the cheapest proof that works, in
this order:

* ``size``: the class-size bound ``n + sum lbt[class]`` (:meth:`.optimal.Optimal.guess_bounds`) is at least
  ``beta``;
* ``ply``: ``n`` plus, per feedback class, its one-ply bound (the search kernel's ``ply_bound``: the least class-size
  bound one guess further, over every guess allowed there; classes of one or two answers exactly) is at least
  ``beta``; class bounds are cached across openers (keyed by the candidate set, and the allowed guesses in hard
  mode);
* ``search``: the classes searched exactly, largest first, each with the cut-off that the other classes'
  bounds leave (:meth:`.optimal.Optimal.value` with ``beta``), until the running sum reaches ``beta``;
* ``exact``: every class searched below its cut-off: the opener's exact total (below ``beta``).

Each decision is one record ``[opener, how, value]`` (``value``: the exact total, or the proven lower bound;
a ``search`` record gives ``beta`` itself, the bound it proved), the same whatever ran before it in the
process.  The certificate file is a JSON line of what was run (game, hard mode, cap, beta, incumbent, openers
decided) then one record per line; :func:`recheck` derives a record again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from sleuth.timing import peak_memory_mb

from .optimal import Optimal
from .space import SpaceKey, game_space

INCUMBENT_POOL = 100  # openers of least class-size bound whose one-ply bound picks the incumbent
CACHE_ENTRIES = 400_000  # class bounds kept per process (then forgotten: about 60 MB)
MEMO_ROWS = 1 << 23  # the exact search's cache is emptied past this many rows (200 MB)
HOW = ("size", "ply", "search", "exact")


class OpenerProver:
    """The decisions of :mod:`.openers` for one game (``game``, ``hard``, ``cap``; every allowed guess)."""

    def __init__(self, game: SpaceKey = "wordle", hard: bool = False, cap: int | None = 6,
                 kernel: str = "auto") -> None:
        self.game, self.hard, self.cap = game, hard, cap
        self.search = Optimal(game_space(game), hard=hard, cap=cap, kernel=kernel)
        s = self.search
        self.n = len(s.space.answers)
        self.cd = cap - 1 if cap is not None else s.k.DMAX  # the depth index of the opener's classes
        below = self.cd - 1 if cap is not None else self.cd  # the one-ply bound's class depth
        self.dl = np.ascontiguousarray(np.diff(s.lbt[below]))
        self.scratch = np.zeros((3, s.counts.shape[1]), dtype=np.int64)  # guess_bound's marks (rows 1 and 2)
        self.ctl = np.zeros(5, dtype=np.int64)  # ctl[4]: guess_bound's stamp
        self.cache: dict[tuple[int, int], int] = {}
        self.hits = 0

    def row(self, opener: str) -> int:
        return self.search.row(opener)

    def size_bound(self, g: int) -> int:
        return int(self.search.guess_bounds(np.arange(self.n), np.array([g], dtype=np.int64), 0)[0])

    def classes(self, g: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """The feedback classes of guess row ``g`` (found excluded; largest first, ties by code), with the
        guesses allowed after each."""
        parts = self.search.children(g, np.arange(self.n), self.search.pool)
        parts.sort(key=lambda p: (-len(p[1]), p[0]))
        return [(np.ascontiguousarray(a, dtype=np.int64), np.ascontiguousarray(b, dtype=np.int64))
                for _, a, b in parts]

    def _key(self, answers: np.ndarray, allowed: np.ndarray) -> tuple[int, int]:
        s = self.search
        h = np.bitwise_xor.reduce(s.zs[answers], axis=0)
        if self.hard:
            h = h ^ np.bitwise_xor.reduce(s.zg[allowed], axis=0)
        return int(h[0]), int(h[1])

    def ply(self, answers: np.ndarray, allowed: np.ndarray) -> int:
        """The one-ply bound of a class (exact for one or two answers)."""
        if len(answers) <= 2:
            return int(self.search.lbt[self.cd, len(answers)])
        key = self._key(answers, allowed)
        got = self.cache.get(key)
        if got is not None:
            self.hits += 1
            return got
        s = self.search
        value = s.k.ply_bound(s.columns, answers, allowed, s.arow, np.int64(s.space.found), self.dl, self.scratch,
                              self.ctl)
        value = max(int(value), int(s.lbt[self.cd, len(answers)]))
        if len(self.cache) >= CACHE_ENTRIES:
            self.cache.clear()
        self.cache[key] = value
        return value

    def ply_total(self, parts: list[tuple[np.ndarray, np.ndarray]], size: int, beta: int
                  ) -> tuple[int, list[int]]:
        """The opener's class-size bound ``size`` with each class's bound raised to its one-ply bound, largest
        class first, stopping once the total reaches ``beta``; the total and the classes' bounds (one-ply
        where computed, class-size after)."""
        lbt = self.search.lbt[self.cd]
        total = size
        bounds = [int(lbt[len(a)]) for a, _ in parts]
        for i, (answers, allowed) in enumerate(parts):
            if total >= beta:
                break
            ply = self.ply(answers, allowed)
            total += ply - bounds[i]
            bounds[i] = ply
        return total, bounds

    def decide(self, opener: str, beta: int) -> dict[str, Any]:
        """The cheapest proof for ``opener`` at cut-off ``beta``: ``{"opener", "how", "value", "nodes",
        "cpu_seconds"}`` (``value``: the exact total when ``how`` is ``exact``, else a lower bound >= beta)."""
        cpu, nodes = time.process_time(), self.search.nodes
        out = self._decide(self.row(opener), beta)
        return {"opener": opener, "how": out[0], "value": out[1], "nodes": self.search.nodes - nodes,
                "cpu_seconds": round(time.process_time() - cpu, 3)}

    def _decide(self, g: int, beta: int) -> tuple[str, int]:
        size = self.size_bound(g)
        if size >= beta:
            return "size", size
        parts = self.classes(g)
        total, bounds = self.ply_total(parts, size, beta)
        if total >= beta:
            return "ply", total
        s = self.search
        if s.memo.shape[0] > MEMO_ROWS:
            s.reset_cache()
        for (answers, allowed), low in zip(parts, bounds, strict=True):
            if len(answers) <= 2:
                continue
            v = s.value(answers, allowed, 1, beta=beta - (total - low))
            total += max(v, low) - low
            if total >= beta:
                return "search", beta
        return "exact", total


@lru_cache(maxsize=2)
def prover(game: SpaceKey, hard: bool, cap: int | None, kernel: str = "auto") -> OpenerProver:
    """One :class:`OpenerProver` per process and game (its caches serve every task of the process)."""
    return OpenerProver(game, hard, cap, kernel)


class DecideJob(NamedTuple):
    """One task of ``--all-openers``: the game, its options, the opener and the cut-off."""

    game: SpaceKey
    hard: bool
    cap: int | None
    opener: str
    beta: int
    kernel: str = "auto"


def decide_task(job: DecideJob) -> dict[str, Any]:
    return prover(job.game, job.hard, job.cap, job.kernel).decide(job.opener, job.beta)


def incumbent(p: OpenerProver) -> tuple[str, int]:
    """The incumbent opener (see the module docstring) and its exact total: of the ``INCUMBENT_POOL`` openers
    of least class-size bound, the first in order of one-ply bound whose tree meets the cap (hard mode under
    a cap has openers with no such tree)."""
    s = p.search
    bounds = s.guess_bounds(np.arange(p.n), s.pool, 0)
    rows = [int(s.pool[j]) for j in np.lexsort((s.pool, bounds))[:INCUMBENT_POOL]]
    for _, g in sorted((p.n + sum(p.ply(a, b) for a, b in p.classes(g)), g) for g in rows):
        total = s.guess_value(g)
        if total < s.k.INF:
            return s.space.guesses[g], total
    raise ValueError("no opener of least bound has a tree within the cap")


def header(game: SpaceKey, hard: bool, cap: int | None, beta: int, best: tuple[str, int], openers: int
           ) -> dict[str, Any]:
    space = game_space(game)
    return {"format": "sleuth openers 1", "game": space.label, "hard": hard, "cap": cap, "beta": beta,
            "incumbent": best[0], "incumbent_total": best[1], "answers": len(space.answers), "openers": openers}


def summary(head: dict[str, Any], records: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """What a certificate proves: counts per proof, the exact openers ranked, and the best opener when every
    opener is decided."""
    exact = sorted((r[2], r[0]) for r in records if r[1] == "exact")
    counts = {h: sum(r[1] == h for r in records) for h in HOW}
    done = len(records) == head["openers"]
    best = exact[0] if exact else None
    return {**head, "decided": len(records), "counts": counts, "complete": done,
            "best": best[1] if done and best else None, "total": best[0] if done and best else None,
            "exact": [{"opener": w, "total": t} for t, w in exact]}


def write_certificate(path: str, head: dict[str, Any], results: dict[int, dict[str, Any]], names: list[str]) -> None:
    """The certificate file: the header (with the number decided) and one record per decided opener, in opener
    order; written to a temporary name then moved, so a reader never sees half a file."""
    import os

    rows = [[r["opener"], r["how"], r["value"]] for _, r in sorted(results.items())]
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write(json.dumps({**head, "decided": len(rows)}) + "\n")
        for row in rows:
            out.write(json.dumps(row) + "\n")
    os.replace(tmp, path)


def read_certificate(path: str) -> tuple[dict[str, Any], list[list[Any]]]:
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:]]


def game_of(head: dict[str, Any]) -> SpaceKey:
    if head["game"] != game_space("wordle").label:
        raise ValueError(f"a certificate of {head['game']!r}: only Wordle's are read")
    return "wordle"


def recheck(p: OpenerProver, head: dict[str, Any], record: Sequence[Any]) -> bool:
    """Derive one certificate record again (from an empty search cache for ``search`` and ``exact``) and say
    whether it holds: the same proof reaches the same value (``search``: at least ``beta``)."""
    opener, how, value = record
    beta = int(head["beta"])
    g = p.row(opener)
    if how == "size":
        return p.size_bound(g) == value >= beta
    if how == "ply":  # the bound stops at the first class that takes it to ``value`` (its run's cut-off or more)
        return p.ply_total(p.classes(g), p.size_bound(g), value)[0] == value >= beta
    p.search.reset_cache()
    if how == "exact":
        return p.search.guess_value(g) == value < beta
    return p._decide(g, beta) == ("search", beta) and value == beta


def reusable(head: dict[str, Any], records: Sequence[Sequence[Any]], beta: int) -> dict[str, tuple[str, int]]:
    """The records of an earlier certificate (``head``, ``records``) that still decide their opener at the cut-off
    ``beta``: a class-size or one-ply bound at least ``beta`` (neither depends on the cut-off it was found
    under, :func:`recheck`), an exact total below ``beta``; ``search`` records (refuted at their own cut-off)
    are not."""
    out = {}
    for opener, how, value in records:
        if (how in ("size", "ply") and value >= beta) or (how == "exact" and value < beta):
            out[opener] = (how, int(value))
    return out


def ranked_table(out: dict[str, Any]) -> str:
    """The exact openers of a run (every opener totalling at most ``--above``) as a Markdown table, best first."""
    n = out["answers"]
    lines = ["| rank | opener | total | average |", "| ---: | --- | ---: | ---: |"]
    rank = 0
    for i, e in enumerate(out["exact"]):
        if i == 0 or e["total"] != out["exact"][i - 1]["total"]:
            rank = i + 1
        lines.append(f"| {rank} | {e['opener']} | {e['total']:,} | {e['total'] / n:.4f} |")
    return "\n".join(lines)


def prove_all(game: SpaceKey, hard: bool, cap: int | None, ex: Any, *, above: int = 0, certificate: str = "",
              save_every: float = 60.0, kernel: str = "auto", reuse: str = "") -> dict[str, Any]:
    """Every allowed guess of ``game`` decided on the executor ``ex`` (:class:`sleuth.executor.Executor`):
    :func:`summary` of the certificate, with the run's seconds, CPU seconds (per proof too) and peak memory;
    ``certificate``: the file rewritten every ``save_every`` seconds and at the end; ``reuse``: an earlier
    certificate of the same game and mode, whose :func:`reusable` records are copied instead of derived again
    (with ``above``, a wider ranking after a narrower one only decides what the narrower cut-off left)."""
    start, cpu0 = time.perf_counter(), time.process_time()
    p = prover(game, hard, cap, kernel)
    inc = incumbent(p)
    beta = max(inc[1], above) + 1
    names = [p.search.space.guesses[int(g)] for g in p.search.pool]
    head = header(game, hard, cap, beta, inc, len(names))
    results: dict[int, dict[str, Any]] = {}
    if reuse:
        old_head, old_rows = read_certificate(reuse)
        if [old_head[k] for k in ("game", "hard", "cap", "answers", "openers")] != \
                [head[k] for k in ("game", "hard", "cap", "answers", "openers")]:
            raise ValueError(f"{reuse} certifies {old_head['game']} (hard {old_head['hard']}, cap "
                             f"{old_head['cap']}), not this run's game")
        kept = reusable(old_head, old_rows, beta)
        results = {i: {"opener": w, "how": kept[w][0], "value": kept[w][1], "nodes": 0, "cpu_seconds": 0.0}
                   for i, w in enumerate(names) if w in kept}
    todo = [i for i in range(len(names)) if i not in results]
    jobs = [DecideJob(game, hard, cap, names[i], beta, kernel) for i in todo]
    saved = time.perf_counter()
    setup = time.process_time() - cpu0
    for j, r in ex.completed(decide_task, jobs, label="openers", unit="opener"):
        results[todo[j]] = r
        if certificate and time.perf_counter() - saved > save_every:
            write_certificate(certificate, head, results, names)
            saved = time.perf_counter()
    if certificate:
        write_certificate(certificate, head, results, names)
    rows = [[r["opener"], r["how"], r["value"]] for _, r in sorted(results.items())]
    out = summary(head, rows)
    out["reused"] = len(names) - len(todo)
    out.update(seconds=round(time.perf_counter() - start, 1),
               cpu_seconds=round(sum(r["cpu_seconds"] for r in results.values()), 1),
               setup_cpu_seconds=round(setup, 1), peak_memory_mb=round(peak_memory_mb()),
               cpu_by_how={h: round(sum(r["cpu_seconds"] for r in results.values() if r["how"] == h), 1)
                           for h in HOW})
    return out


def _cap(text: str) -> int | None:
    from sleuth.errors import PuzzleError

    if not text:
        return 6
    if text.lower() == "none":
        return None
    if not text.isdigit() or not 2 <= int(text) <= 30:
        raise PuzzleError(f"cannot read {text!r}", place="--cap", allowed="a number of guesses 2-30, or none")
    return int(text)


def main_all_openers(args: Any) -> int:
    """``sleuth experiment wordle --optimal --all-openers``: every allowed guess decided (see the module
    docstring), one task per opener on the experiment executor (``--workers``, ``--cluster``, ``--resume``);
    ``--certificate FILE`` is rewritten with every decision so far every ``--save-every`` seconds and at
    the end."""
    from functools import partial

    from sleuth.errors import PuzzleError
    from sleuth.executor import Executor, comma_list

    games = [g.lower() for g in comma_list(args.games)]
    if games != ["wordle"]:
        raise PuzzleError("--all-openers proves Wordle's best opener", place="--games", allowed="wordle")
    if args.opener or args.openers or args.node_limit or args.no_cutoff or args.guesses != "all":
        raise PuzzleError("--all-openers decides every allowed guess, without a node limit",
                          place="--all-openers", allowed="no --opener, --openers, --node-limit, --no-cutoff or "
                          "--guesses answers beside it")
    cap = _cap(args.cap)
    if args.reuse:  # read before the run: a wrong file is said at once
        allowed = "a certificate of the same mode and cap (written by --certificate)"
        try:
            old, _ = read_certificate(args.reuse)
            was = [old["game"], old["hard"], old["cap"]]
        except (OSError, ValueError, KeyError, IndexError, TypeError) as err:
            raise PuzzleError(f"cannot read {args.reuse} as a certificate ({type(err).__name__}: {err})",
                              place="--reuse", allowed=allowed) from None
        if was != [game_space("wordle").label, args.hard, cap]:
            raise PuzzleError(f"{args.reuse} certifies {was[0]} with hard {was[1]}, cap {was[2]}",
                              place="--reuse", allowed=allowed)
    with Executor.from_args(args, "wordle-openers", warm=partial(prover, "wordle", args.hard, cap)) as ex:
        out = prove_all("wordle", args.hard, cap, ex, above=args.above, certificate=args.certificate,
                        save_every=args.save_every, reuse=args.reuse)
    names, inc, beta = out["openers"], (out["incumbent"], out["incumbent_total"]), out["beta"]
    if args.json:
        print(json.dumps(out))
        return 0
    mode = ("hard mode, " if args.hard else "") + (f"cap {cap}" if cap else "no cap")
    print(f"{out['game']}: every allowed guess as opener ({mode}); incumbent {inc[0]} {inc[1]} (exact), "
          f"cut-off {beta}")
    for h in HOW:
        print(f"  {h:<7} {out['counts'][h]:>6} opener(s), {out['cpu_by_how'][h]:>9.1f} s CPU")
    if out["reused"]:
        print(f"  {out['reused']} decision(s) reused from {args.reuse}")
    if args.above:
        print(f"every opener totalling at most {beta - 1}, exact, best first:")
        print(ranked_table(out))
    for e in [] if args.above else out["exact"][:10]:
        print(f"  exact   {e['opener']:<6} {e['total']}")
    if out["complete"]:
        print(f"  best of all {names} openers: {out['best']} {out['total']} (proven)")
    else:
        print(f"  open: {names - out['decided']} of {names} openers undecided")
    print(f"  {out['seconds']:.0f} s wall, {out['cpu_seconds']:.0f} s CPU in the tasks, peak memory "
          f"{out['peak_memory_mb']} MB")
    return 0
