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

import json
import time
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import Any

import numpy as np

from sleuth.limits import check_bytes

from .emi import SearchTimeout
from .game import OPTIMAL_KERNEL
from .space import Space, WordSpace

NO_LIMIT = 1 << 62
MEMO_SLOTS = 1024  # the cache's first size (it doubles when half full)


def compile_kernels() -> None:
    """``sleuth cache compile``: the optimal search's kernel (``suggest --set top=N`` past the plain-Python sizes),
    loaded, and compiled where the cache lacks it, on a cut of three words (every word game's feedback codes and
    Mastermind's share one compiled variant)."""
    from .words import from_words

    space = WordSpace(from_words(["CRANE", "SLOTH", "GHOST"]).cell(5), 6)
    search = Optimal(space, kernel="numba")
    search.rank(np.arange(3), np.arange(3), 2)
    search.value()


def _pick_kernel(kernel: str) -> ModuleType:
    """``auto``: the compiled kernel where available (:data:`.game.OPTIMAL_KERNEL`), else plain Python; ``numba``
    the compiled one (whatever its switch says; ImportError without numba); ``python`` the plain one."""
    if kernel not in ("auto", "numba", "python"):
        raise ValueError(f"kernel: auto, numba or python, not {kernel!r}")
    compiled = OPTIMAL_KERNEL.load(switch=kernel == "auto") if kernel != "python" else None
    if compiled is None and kernel == "numba":
        raise ImportError("numba is not installed", name="numba")
    return compiled or OPTIMAL_KERNEL.plain()


def lower_bounds(classes: int, size: int, dmax: int) -> np.ndarray:
    """``lbt[d, s]``: the least total for ``s`` answers within ``d`` guesses when a guess makes at most
    ``classes`` feedback classes besides "found" (row ``dmax`` stands for no cap); INF when impossible."""
    inf = OPTIMAL_KERNEL.plain().INF
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


def letter_tables(words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hard mode's tables of encoded words (a row per word): their letters, and each letter's count."""
    glet = np.ascontiguousarray(words, dtype=np.int64)
    gcnt = np.zeros((len(glet), 26), dtype=np.int64)
    for i in range(glet.shape[1]):
        np.add.at(gcnt, (np.arange(len(glet)), glet[:, i]), 1)
    return glet, gcnt


def hard_rows(space: WordSpace, moves: list[tuple[str, int]]) -> np.ndarray:
    """The guess rows hard mode allows after ``moves`` (word, feedback code), in order: every green letter in
    its place, every revealed letter used at least as often as revealed (the search's own filter,
    :func:`._optimal_kernel.hard_filter`; a word outside the guess list keeps its hints too)."""
    k = OPTIMAL_KERNEL.plain()  # plain Python: a few milliseconds per move, no compilation
    allowed = np.arange(len(space.guesses), dtype=np.int64)
    glet, gcnt = letter_tables(space.guess_array)
    for word, code in moves:
        if word in space.guess_index:
            allowed = k.hard_filter(allowed, space.guess_index[word], int(code), glet, gcnt)
        else:  # its letters as one more row
            xlet, xcnt = letter_tables(np.vstack([glet, space.encode([word])]))
            allowed = k.hard_filter(allowed, len(glet), int(code), xlet, xcnt)
    return allowed


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
        cells = len(space.guesses) * len(space.answers)
        check_bytes("the optimal search's feedback matrices", 3 * cells * np.dtype(space.codes(
            space.guess_array[:1], space.answer_array[:1]).dtype).itemsize,
            detail=f"{len(space.guesses)} guesses x {len(space.answers)} answers, three copies: the matrix, its "
            "transpose for the kernel and one for the heuristic bounds", also="a smaller game")
        self.k = _pick_kernel(kernel)
        self.compiled = self.k is not OPTIMAL_KERNEL.plain()
        self.kernel = "numba" if self.compiled else "python"
        self.memo = OPTIMAL_KERNEL.plain().new_memo(MEMO_SLOTS)
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
            self.glet, self.gcnt = letter_tables(space.guess_array)
        else:
            self.glet = np.zeros((1, 1), dtype=np.int64)
            self.gcnt = np.zeros((1, 26), dtype=np.int64)

    @cached_property
    def matrix(self) -> np.ndarray:
        return np.ascontiguousarray(self.space.matrix())

    @cached_property
    def columns(self) -> np.ndarray:
        """The feedback matrix transposed (a row per answer, a column per guess), what the kernel reads: the
        sweep over the guesses of a node then reads a few rows in order rather than a few codes in every
        row of the matrix (memory-bound; 2 to 3 times faster on Wordle)."""
        return np.ascontiguousarray(self.matrix.T)

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
    def steps(self) -> np.ndarray:
        """``lbt[d, s + 1] - lbt[d, s]``: what one more answer in a class adds to the bound."""
        return np.ascontiguousarray(np.diff(self.lbt, axis=1))

    @cached_property
    def counts(self) -> np.ndarray:
        return np.zeros((3, max(int(self.matrix.max(initial=0)), self.space.found) + 1), dtype=np.int64)

    def reset_cache(self) -> None:
        """Forget every value the searches so far proved (the next search starts from an empty cache)."""
        self.memo = OPTIMAL_KERNEL.plain().new_memo(MEMO_SLOTS)

    # -- searching ----------------------------------------------------------------------------------------
    def _depth(self, used: int = 0) -> int:
        return self.k.DMAX if self.cap is None else self.cap - used

    def _run(self, answers: np.ndarray, allowed: np.ndarray, depth: int, forced: int,
             beta: int | None = None) -> int:
        ctl = np.array([0, 0, self.node_limit, -1, self._stamp], dtype=np.int64)
        self.ctl = ctl
        # hard mode's arrays are None otherwise: numba then compiles the kernel without hard mode's code (a
        # second, separately cached version serves hard mode)
        zg, glet, gcnt = (self.zg, self.glet, self.gcnt) if self.hard else (None, None, None)
        value, self.memo = self.k.solve(
            np.ascontiguousarray(answers, dtype=np.int64), np.ascontiguousarray(allowed, dtype=np.int64),
            np.int64(depth), np.int64(self.k.INF if beta is None else beta), np.int64(forced), self.columns,
            np.int64(self.space.found), self.arow, self.lbt, self.steps, self.zs, zg, self.zd, self.memo,
            self.cap is not None, glet, gcnt, self.counts, ctl)
        self.nodes += int(ctl[0])
        self._stamp = int(ctl[4])
        if ctl[1]:
            raise SearchTimeout(0, None)
        return int(value)

    def value(self, answers: np.ndarray | None = None, allowed: np.ndarray | None = None, used: int = 0,
              beta: int | None = None) -> int:
        """The least total number of guesses over ``answers`` (indices; default all), with ``used`` guesses
        already made (under a cap); ``kernel.INF`` when the cap cannot be met.  With ``beta``: exact when below
        it, else a proven lower bound at least ``beta``."""
        answers = np.arange(len(self.space.answers)) if answers is None else answers
        return self._run(answers, self.pool if allowed is None else allowed, self._depth(used), -1, beta)

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
        packed = self._cached(*key)
        k = OPTIMAL_KERNEL.plain()
        if packed < 0 or not packed & k.EXACT:
            raise AssertionError("the cache lost an exact value")
        return packed & (k.EXACT - 1)

    def remember(self, answers: np.ndarray, used: int, value: int, guess: int) -> None:
        """Put in the cache the exact ``value`` of the position ``answers`` (every guess allowed, ``used`` made),
        reached by ``guess`` first (a value proven outside the kernel, :mod:`.stabiliser`)."""
        if self.hard:
            raise ValueError("remember: normal rules only (hard mode's key needs the allowed guesses)")
        k = OPTIMAL_KERNEL.plain()
        h1, h2 = self._key(answers, self.pool, self._depth(used))
        self.memo = k.memo_put(self.memo, h1, h2, (value << k.VALUE) | k.EXACT | guess)

    def _cached(self, h1: int, h2: int) -> int:
        """The cache's packed entry for the hash ``(h1, h2)``, -1 when absent."""
        return int(OPTIMAL_KERNEL.plain().memo_get(self.memo, h1, h2))

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
        bounds = self.guess_bounds(answers, allowed, used)
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
        bounds = self.guess_bounds(answers, firsts, used)
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
                packed = self._cached(h1, h2)
                if packed >= 0:
                    total += max(0, (packed >> self.k.VALUE) - int(lbt[cd, sizes[k]]))
            best = min(best, total)
        if first is not None:
            return best
        root = self._cached(*self._key(answers, allowed, depth)) if n > 2 else -1
        return max(best, root >> self.k.VALUE if root >= 0 else 0, int(lbt[depth, n]))

    def guess_bounds(self, answers: np.ndarray, allowed: np.ndarray, used: int) -> np.ndarray:
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


__all__ = ["NO_LIMIT", "Node", "Optimal", "SearchTimeout", "distribution", "export", "hard_rows",
           "letter_tables", "lower_bounds", "replay", "to_dot"]
