"""Exact optimal-average play of Wordle, Motus and Mastermind: the decision tree with the least total number
of guesses over all answers (the expected number of guesses times the number of answers).

One engine for every game, over the feedback matrix of :mod:`space`: the guess set is every allowed guess
or the answers only, an optional cap bounds the worst case, and hard mode (word games) makes every guess
keep the hints so far.  The search and its pruning are described in :mod:`._optimal_kernel` (class-size
lower bounds, cut-offs on partial sums, a cache keyed by the candidate set, instant answers for perfect
splits, guesses that split nothing dropped); it runs compiled with numba (the optional extra ``emi``) and
as plain Python otherwise, with the same answers.  A node limit turns a search that would take too long
into :class:`SearchTimeout` (never a guess presented as exact).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from .emi import SearchTimeout
from .space import CodeSpace, Space, WordSpace

_KERNEL_NAME = __name__.rsplit(".", 1)[0] + "._optimal_kernel"
NO_LIMIT = 1 << 62


@lru_cache(maxsize=2)
def kernel_module(compiled: bool) -> ModuleType:
    """The search kernel, as plain Python or compiled with numba (raises ImportError without numba)."""
    spec = importlib.util.find_spec(_KERNEL_NAME)
    if spec is None or spec.loader is None:
        raise ImportError(f"the search kernel {_KERNEL_NAME} is not installed")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    if compiled:
        import numba

        for name in ("hard_filter", "guess_bound", "solve", "search"):
            setattr(mod, name, numba.njit(getattr(mod, name)))
    return mod


def _pick_kernel(kernel: str) -> ModuleType:
    if kernel not in ("auto", "numba", "python"):
        raise ValueError(f"kernel: auto, numba or python, not {kernel!r}")
    if kernel != "python":
        try:
            return kernel_module(True)
        except ImportError:
            if kernel == "numba":
                raise
    return kernel_module(False)


def _memo(compiled: bool) -> Any:
    if not compiled:
        return {}
    from numba import types
    from numba.typed import Dict

    return Dict.empty(key_type=types.UniTuple(types.int64, 2), value_type=types.int64)


def lower_bounds(classes: int, size: int, dmax: int) -> np.ndarray:
    """``lbt[d, s]``: the least total for ``s`` answers within ``d`` guesses when a guess makes at most
    ``classes`` feedback classes besides "found" (row ``dmax`` stands for no cap); INF when impossible."""
    inf = kernel_module(False).INF
    out = np.full((dmax + 1, size + 1), inf, dtype=np.int64)
    for s in range(size + 1):
        total, depth, width, left = 0, 1, 1, s
        while left > 0:
            take = min(left, width)
            total += take * depth
            left -= take
            width = min(width * max(classes, 1), size + 1)
            depth += 1
        deepest = depth - 1
        for d in range(dmax + 1):
            if d >= deepest:
                out[d, s] = total
    return out


@dataclass
class Node:
    """One node of an optimal tree: the guess, then the subtree per feedback (the found feedback has none)."""

    guess: str
    answers: int
    total: int
    children: dict[str, Node]

    def to_json(self) -> dict[str, Any]:
        return {"guess": self.guess, "answers": self.answers, "total": self.total,
                "next": {k: v.to_json() for k, v in self.children.items()}}


class Optimal:
    """The exact optimal-average search over one game's space.

    ``guesses``: ``"all"`` (every allowed guess) or ``"answers"``; ``cap``: most guesses any answer may take
    (None: no cap); ``hard``: hard mode (word games only); ``kernel``: ``auto`` | ``numba`` | ``python``;
    ``node_limit``: nodes searched per call before :class:`SearchTimeout`.
    """

    def __init__(self, space: Space, *, guesses: str = "all", cap: int | None = None, hard: bool = False,
                 kernel: str = "auto", node_limit: int | None = None) -> None:
        if guesses not in ("all", "answers"):
            raise ValueError(f"guesses: all or answers, not {guesses!r}")
        if hard and not isinstance(space, WordSpace):
            raise ValueError("hard mode is defined for word games only")
        self.space, self.hard, self.cap = space, hard, cap
        self.k = _pick_kernel(kernel)
        self.compiled = self.k is not kernel_module(False)
        self.kernel = "numba" if self.compiled else "python"
        self.memo = _memo(self.compiled)
        self.node_limit = node_limit or NO_LIMIT
        self.nodes = 0
        self._stamp = 0  # the last stamp of the kernel's scratch (kept across calls, see guess_bound)
        n_guess = len(space.guesses)
        rows = np.arange(n_guess) if guesses == "all" else np.sort(space.answer_rows)
        self.pool = np.ascontiguousarray(rows, dtype=np.int64)
        self.arow = np.ascontiguousarray(space.answer_rows, dtype=np.int64)
        rng = np.random.default_rng(20240101)
        big = np.iinfo(np.int64)
        self.zs = rng.integers(big.min, big.max, size=(len(space.answers), 2), dtype=np.int64)
        self.zg = rng.integers(big.min, big.max, size=(n_guess, 2), dtype=np.int64)
        self.zd = rng.integers(big.min, big.max, size=(self.k.DMAX + 1, 2), dtype=np.int64)
        if cap is not None and not 1 <= cap < self.k.DMAX:
            raise ValueError(f"cap: 1 to {self.k.DMAX - 1}")
        if isinstance(space, WordSpace):
            length = space.length
            self.glet = space.guess_array.astype(np.int64)
            self.gcnt = np.zeros((n_guess, 26), dtype=np.int64)
            for i in range(length):
                np.add.at(self.gcnt, (np.arange(n_guess), self.glet[:, i]), 1)
        else:
            self.glet = np.zeros((1, 1), dtype=np.int64)
            self.gcnt = np.zeros((1, 26), dtype=np.int64)

    @cached_property
    def matrix(self) -> np.ndarray:
        return np.ascontiguousarray(self.space.matrix())

    @cached_property
    def lbt(self) -> np.ndarray:
        m = self.matrix
        found = self.space.found
        most = 0
        for lo in range(0, m.shape[0], 512):
            s = np.sort(m[lo:lo + 512], axis=1)
            distinct = 1 + (s[:, 1:] != s[:, :-1]).sum(1) - (s == found).any(1)
            most = max(most, int(distinct.max()))
        return lower_bounds(most, len(self.space.answers), self.k.DMAX)

    @cached_property
    def counts(self) -> np.ndarray:
        return np.zeros((3, max(int(self.matrix.max(initial=0)), self.space.found) + 1), dtype=np.int64)

    # -- searching ----------------------------------------------------------------------------------------
    def _depth(self, used: int = 0) -> int:
        return self.k.DMAX if self.cap is None else self.cap - used

    def _run(self, answers: np.ndarray, allowed: np.ndarray, depth: int, forced: int,
             beta: int | None = None) -> int:
        ctl = np.array([0, 0, self.node_limit, -1, self._stamp], dtype=np.int64)
        self.ctl = ctl
        value = self.k.search(np.ascontiguousarray(answers, dtype=np.int64),
                             np.ascontiguousarray(allowed, dtype=np.int64), np.int64(depth),
                             np.int64(self.k.INF if beta is None else beta), np.int64(forced), self.matrix,
                             np.int64(self.space.found), self.arow,
                             self.lbt, self.zs, self.zg, self.zd, self.memo, self.cap is not None, self.hard,
                             self.glet, self.gcnt, self.counts, ctl)
        self.nodes += int(ctl[0])
        self._stamp = int(ctl[4])
        if ctl[1]:
            raise SearchTimeout(0, None)
        return int(value)

    def value(self, answers: np.ndarray | None = None, allowed: np.ndarray | None = None, used: int = 0) -> int:
        """The least total number of guesses over ``answers`` (indices; default all), with ``used`` guesses
        already made (under a cap); ``kernel.INF`` when the cap cannot be met."""
        answers = np.arange(len(self.space.answers)) if answers is None else answers
        return self._run(answers, self.pool if allowed is None else allowed, self._depth(used), -1)

    def guess_value(self, guess: int, answers: np.ndarray | None = None, allowed: np.ndarray | None = None,
                    used: int = 0, beta: int | None = None) -> int:
        """The least total when guess row ``guess`` is played first (exact if below ``beta``)."""
        answers = np.arange(len(self.space.answers)) if answers is None else answers
        return self._run(answers, self.pool if allowed is None else allowed, self._depth(used), guess, beta)

    def best_guess(self, answers: np.ndarray, allowed: np.ndarray, used: int) -> int:
        """The guess row of an optimal tree at this node (after :meth:`value`, from the cache)."""
        if len(answers) <= 2:
            return int(self.space.answer_rows[int(np.min(answers))])
        self.value(answers, allowed, used)
        key = self._key(answers, allowed, self._depth(used))
        packed = int(self.memo[key])
        if not (packed >> 32) & 1:
            raise AssertionError("the cache lost an exact value")
        return packed & 0xFFFFFFFF

    def _key(self, answers: np.ndarray, allowed: np.ndarray, depth: int) -> tuple[int, int]:
        h = self.zd[depth].copy()
        h ^= np.bitwise_xor.reduce(self.zs[answers], axis=0)
        if self.hard:
            h ^= np.bitwise_xor.reduce(self.zg[allowed], axis=0)
        return int(h[0]), int(h[1])

    def children(self, guess: int, answers: np.ndarray, allowed: np.ndarray
                 ) -> list[tuple[int, np.ndarray, np.ndarray]]:
        """The feedback classes of ``guess`` on ``answers`` (found excluded), with the guesses allowed next."""
        codes = self.matrix[guess, answers]
        out = []
        for code in np.unique(codes):
            if code == self.space.found:
                continue
            sub = allowed
            if self.hard:
                sub = self.k.hard_filter(allowed, guess, int(code), self.glet, self.gcnt)
            out.append((int(code), answers[codes == code], sub))
        return out

    def tree(self, opener: str | None = None) -> Node:
        """The optimal tree (from ``opener`` when given); every node's total is exact."""
        answers = np.arange(len(self.space.answers))
        first = None if opener is None else self.row(opener)
        return self._subtree(answers, self.pool, 0, first)

    def _subtree(self, answers: np.ndarray, allowed: np.ndarray, used: int, guess: int | None) -> Node:
        if guess is None:
            guess = self.best_guess(answers, allowed, used)
        children = {}
        total = len(answers)
        for code, part, sub in self.children(guess, answers, allowed):
            child = self._subtree(part, sub, used + 1, None)
            children[self.space.show(code) if isinstance(self.space, WordSpace) else _mm_key(self.space, code)] \
                = child
            total += child.total
        return Node(self.space.guesses[guess], len(answers), total, children)

    def row(self, guess: str) -> int:
        try:
            return self.space.guess_index[guess]
        except KeyError:
            raise ValueError(f"{guess!r} is not an allowed guess of {self.space.label}") from None

    def result(self, opener: str | None = None) -> dict[str, Any]:
        """``{"opener", "total", "games", "max", "distribution", "average", "nodes", "cpu_seconds"}`` of the
        optimal tree from ``opener`` (the best opener when None)."""
        cpu, nodes = time.process_time(), self.nodes
        tree = self.tree(opener)
        dist = distribution(tree)
        return {"game": self.space.label, "opener": tree.guess, "total": tree.total, "games": tree.answers,
                "max": max(dist),
                "distribution": {str(k): v for k, v in sorted(dist.items())},
                "average": round(tree.total / tree.answers, 4), "nodes": self.nodes - nodes,
                "cpu_seconds": round(time.process_time() - cpu, 2), "kernel": self.kernel,
                "hard": self.hard, "cap": self.cap}

    def rank(self, answers: np.ndarray, allowed: np.ndarray, top: int, used: int = 0) -> list[tuple[int, int]]:
        """The ``top`` guesses of least exact total at this node, as (guess row, total), best first (ties
        by guess order)."""
        bounds = self._guess_bounds(answers, allowed, used)
        order = np.lexsort((allowed, bounds))
        found: list[tuple[int, int]] = []
        for j in order:
            if len(found) >= top and bounds[j] >= found[-1][1]:
                break
            beta = found[-1][1] + 1 if len(found) >= top else None
            v = self.guess_value(int(allowed[j]), answers, allowed, used, beta)
            if beta is None or v < beta:
                found.append((int(allowed[j]), v))
                found.sort(key=lambda t: (t[1], t[0]))
                del found[top:]
        return found

    def proven_lower(self, answers: np.ndarray | None = None, allowed: np.ndarray | None = None,
                     used: int = 0, first: int | None = None) -> int:
        """A proven lower bound of :meth:`value` (of :meth:`guess_value` of ``first`` when given) after a
        search that stopped: the least, over first guesses, of ``n`` plus each class's best known bound (its
        exact value or lower bound in the cache, which a stopped search leaves sound, else its class-size
        bound)."""
        answers = np.arange(len(self.space.answers)) if answers is None else answers
        allowed = self.pool if allowed is None else allowed
        n, depth = len(answers), self._depth(used)
        cd = depth - 1 if self.cap is not None else depth
        found, lbt = self.space.found, self.lbt
        firsts = allowed if first is None else np.array([first], dtype=np.int64)
        bounds = self._guess_bounds(answers, firsts, used)
        best = int(self.k.INF)
        zs = self.zs[answers]
        for j in np.argsort(bounds, kind="stable"):
            if bounds[j] >= best:
                break
            g = int(firsts[j])
            codes = self.matrix[g, answers]
            order = np.argsort(codes, kind="stable")
            sorted_codes = codes[order]
            starts = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]])
            sizes = np.diff(np.r_[starts, n])
            hashes = np.bitwise_xor.reduceat(zs[order], starts, axis=0) ^ self.zd[cd]
            total = int(bounds[j])
            for k in np.flatnonzero((sizes > 2) & (sorted_codes[starts] != found)):
                h1, h2 = int(hashes[k, 0]), int(hashes[k, 1])
                if self.hard:
                    sub = self.k.hard_filter(allowed, g, int(sorted_codes[starts[k]]), self.glet, self.gcnt)
                    h1 ^= int(np.bitwise_xor.reduce(self.zg[sub, 0]))
                    h2 ^= int(np.bitwise_xor.reduce(self.zg[sub, 1]))
                packed = int(self.memo.get((h1, h2), -1))
                if packed >= 0:
                    total += max(0, (packed >> 33) - int(lbt[cd, sizes[k]]))
            best = min(best, total)
        if first is not None:
            return best
        root = int(self.memo.get(self._key(answers, allowed, depth), -1)) if n > 2 else -1
        return max(best, root >> 33 if root >= 0 else 0, int(lbt[depth, n]))

    def _guess_bounds(self, answers: np.ndarray, allowed: np.ndarray, used: int) -> np.ndarray:
        """Each allowed guess's lower bound ``n + sum lbt[class]`` (INF for a guess that splits nothing)."""
        depth = self._depth(used)
        cd = depth - 1 if self.cap is not None else depth
        out = np.empty(len(allowed), dtype=np.int64)
        for j, g in enumerate(allowed):
            codes = self.matrix[g, answers]
            vals, sizes = np.unique(codes, return_counts=True)
            nf = sizes[vals != self.space.found]
            if len(vals) == 1 and vals[0] != self.space.found and len(answers) > 1:
                out[j] = self.k.INF
            else:
                out[j] = min(len(answers) + int(self.lbt[cd, nf].sum()), self.k.INF)
        return out


def _mm_key(space: Space, code: int) -> str:
    black, white = divmod(code, space.pegs + 1)  # type: ignore[attr-defined]
    return f"{black}B{white}W"


def distribution(tree: Node) -> dict[int, int]:
    """Answers per number of guesses in a tree."""
    out: dict[int, int] = {}
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        leaves = node.answers - sum(c.answers for c in node.children.values())
        if leaves:
            out[depth] = out.get(depth, 0) + leaves
        stack.extend((c, depth + 1) for c in node.children.values())
    return out


def replay(tree: dict[str, Any], space: Space) -> dict[int, int]:
    """Play every answer of ``space`` through an exported tree (:meth:`Node.to_json`); guesses per answer
    counted.  Raises ValueError when the tree does not find an answer."""
    out: dict[int, int] = {}
    word = isinstance(space, WordSpace)
    for answer in space.answers:
        node, depth = tree, 1
        while True:
            code = int(space.codes(space.encode([node["guess"]]), space.encode([answer]))[0, 0])
            if code == space.found:
                break
            key = space.show(code) if word else _mm_key(space, code)
            if key not in node["next"]:
                raise ValueError(f"the tree has no branch {key} after {node['guess']} for {answer}")
            node, depth = node["next"][key], depth + 1
        out[depth] = out.get(depth, 0) + 1
    return out


def to_dot(tree: Node, *, max_depth: int | None = None) -> str:
    """The tree in Graphviz DOT: a node per guess, an edge per feedback."""
    lines = ["digraph optimal {", "  node [shape=box, fontname=monospace];"]
    counter = [0]

    def visit(node: Node, depth: int) -> str:
        name = f"n{counter[0]}"
        counter[0] += 1
        lines.append(f'  {name} [label="{node.guess}\\n{node.answers} / {node.total}"];')
        if max_depth is None or depth < max_depth:
            for key, child in node.children.items():
                lines.append(f'  {name} -> {visit(child, depth + 1)} [label="{key}"];')
        return name

    visit(tree, 1)
    lines.append("}")
    return "\n".join(lines) + "\n"


def export(tree: Node, fmt: str = "json") -> str:
    return to_dot(tree) if fmt == "dot" else json.dumps(tree.to_json())


# -- the studies' entry points ------------------------------------------------------------------------------

SpaceKey = str | tuple[str, tuple[str, ...], tuple[str, ...]]
MASTERMIND_OPENERS = ("1111", "1112", "1122", "1123", "1234")  # every 4-peg opener up to colour/peg symmetry


@lru_cache(maxsize=4)
def game_space(game: SpaceKey) -> Space:
    """``wordle`` (the official lists), ``mastermind`` (4 pegs, 6 colours), or ``("words", answers,
    guesses)``: a word game over those lists (answers among the guesses, 6 tries)."""
    if game == "mastermind":
        return CodeSpace(pegs=4, colours=6)
    if game == "wordle":
        from .words import wordle
        return WordSpace(wordle().cell(5), 6)
    if isinstance(game, tuple) and len(game) == 3 and game[0] == "words":
        from .words import WordList
        answers, guesses = game[1], game[2]
        digest = hashlib.sha256(repr((answers, guesses)).encode()).hexdigest()[:16]
        wl = WordList("words", f"words-{digest}", answers, guesses, "words")
        return WordSpace(wl.cell(len(answers[0])), 6)
    raise ValueError(f"game: wordle or mastermind, not {game!r}")


@lru_cache(maxsize=8)
def _search(game: SpaceKey, hard: bool, cap: int | None, guesses: str, kernel: str = "auto") -> Optimal:
    return Optimal(game_space(game), hard=hard, cap=cap, guesses=guesses, kernel=kernel)


def opener_result(opener: str, *, game: str = "wordle", hard: bool = False, cap: int | None = None,
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
    search.memo = _memo(search.compiled)
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
    bound = search._guess_bounds(np.arange(len(search.space.answers)), rows, 0)
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


def _openers(args: Any, game: str, search: Optimal) -> list[str]:
    """The openers asked for: ``--opener``, ``--openers`` (a list), else every Mastermind opener up to
    symmetry, or the ``--top`` Wordle openers of least class-size lower bound."""
    from sleuth.errors import PuzzleError

    texts = [args.opener] if args.opener else [w for w in args.openers.split(",") if w.strip()]
    if not texts and game == "mastermind":
        return list(MASTERMIND_OPENERS)
    if not texts:
        answers = np.arange(len(search.space.answers))
        bounds = search._guess_bounds(answers, search.pool, 0)
        return [search.space.guesses[search.pool[j]] for j in np.lexsort((search.pool, bounds))[:args.top]]
    out = []
    for text in texts:
        word = text.strip().upper()
        if word not in search.space.guess_index:
            raise PuzzleError(f"{text!r} is not an allowed guess of {search.space.label}",
                              place="--opener" if args.opener else "--openers",
                              allowed="a word of the guess list" if game == "wordle" else "4 digits 1-6")
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
    from sleuth.executor import Executor

    games = [g.strip().lower() for g in args.games.split(",") if g.strip()]
    for game in games:
        if game not in ("wordle", "mastermind"):
            raise PuzzleError(f"unknown game {game!r}", place="--games", allowed="wordle, mastermind")
        if args.hard and game != "wordle":
            raise PuzzleError("hard mode is defined for word games", place="--hard", allowed="--games wordle")
    for game in games:
        cap = _cap(args.cap, game)
        search = _search(game, args.hard, cap, args.guesses)
        openers = _openers(args, game, search)
        mode = ", ".join(x for x in ("hard mode" if args.hard else "", f"cap {cap}" if cap else "no cap",
                                     f"guesses: {args.guesses}") if x)
        if args.opener:
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
        everything = game == "mastermind" and not args.openers
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


__all__ = ["Node", "OpenerJob", "Optimal", "SearchTimeout", "distribution", "export", "opener_result", "opener_task",
           "rank_openers", "replay", "to_dot"]


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


CellJob = tuple[str, int, str, int]


def warm_kernel(space: WordSpace) -> None:
    """Search a 3-word cut of ``space`` once, so that compiling the kernel (numba: about 20 s of CPU per
    process) is not charged to a cell."""
    from .words import from_words

    words = list(space.answers[:3])
    if len(words) == 3:
        Optimal(WordSpace(from_words(words).cell(space.length), 6)).value()


def cell_task(job: CellJob) -> dict[str, Any]:
    """One task of ``experiment motus --optimal``: (dictionary, length, first letter, node limit)."""
    from .experiment import _cells

    spec, length, first, node_limit = job
    space = _cells(spec, [length], [first])[0]
    warm_kernel(space)
    return cell_value(space, node_limit=node_limit)


def main_cells(args: Any, spaces: list[WordSpace]) -> int:
    """``sleuth experiment motus --optimal``: a line (or a JSON object) per cell, one task per cell on the
    experiment executor (``--workers``, ``--cluster``, ``--resume``)."""
    from sleuth.executor import Executor

    # smallest cells first (equal weights keep this order on a cluster too): a run cut short leaves the
    # large cells, which would end as bounds anyway, unstarted rather than the many quick ones
    order = sorted(range(len(spaces)), key=lambda i: (len(spaces[i].answers), i))
    jobs = [(args.dictionary, spaces[i].length, spaces[i].cell.first or "", args.node_limit) for i in order]
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
