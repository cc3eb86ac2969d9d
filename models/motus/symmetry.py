"""The exact optimum of a code-breaking cell (:class:`.codes.PegSpace`) with symmetry reduction.

Permuting the positions and renaming the symbols (the group ``S_pegs x S_colours``) maps the codes onto
themselves and keeps every feedback of the three families (black and white pegs, black pegs only, bulls and
cows).  A symmetry that fixes the guesses made so far fixes each feedback class, so two next guesses that such a
symmetry maps onto each other have the same value on the class: only one guess per orbit is searched.  At the
root that leaves one opener per orbit (Mastermind 4 pegs: 1111, 1112, 1122, 1123, 1234; Bulls and Cows: one);
after the opener, a handful of second guesses per class.  Past ``levels`` guesses the compiled search of
:mod:`.optimal` takes over (every allowed guess, its own cache and pruning).

Two guesses ``h`` and ``h'`` are in one orbit of the stabiliser of the guesses ``g1..gk`` exactly when the tuples
``(g1..gk, h)`` and ``(g1..gk, h')`` are in one orbit of the whole group; :func:`canonical` names that orbit: the
least, over the position permutations, of the tuple's symbols renamed in order of first appearance.

Each class's value is kept in ``state`` (exact, or a lower bound proven under a cut-off), keyed by the class's
hash (:attr:`.optimal.Optimal.zs`, fixed seed) and the guesses made; :class:`SymmetricSearch` appends the classes
it finishes at the first two levels to a checkpoint file, so a long cell resumes where it stopped.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .emi import SearchTimeout
from .optimal import Optimal
from .space import Space

MEMO_ROWS = 1 << 23  # the compiled search's cache is emptied past this many rows (about 200 MB)
SAVED_LEVELS = 2  # classes at this depth or less are written to the checkpoint
CLASS_FROM = 2  # classes after this many guesses or more get the symmetries that keep them (after one guess
# those fixing it are nearly always all: finding them would cost more than it saves)
STAB_CAP = 500  # symbol renamings tried per class for the symmetries that keep it (class_symmetries)
ISO_MIN = 20  # classes of at least this many codes are looked up among the isomorphic classes already solved
ISO_TRIES = 8  # solved classes of the same invariants tried per look-up (the latest first)


def canonical(prefix: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The orbit of each ``(prefix, code)`` under position permutations and symbol renaming, as an integer id
    per code (equal ids: one orbit of the stabiliser of ``prefix``).  ``prefix``: (k, pegs); ``codes``:
    (n, pegs), small non-negative symbols."""
    pegs = codes.shape[1]
    symbols = int(max(codes.max(initial=0), prefix.max(initial=0))) + 1
    if math.factorial(symbols) < math.factorial(pegs):
        return _least_ids(_renamed_columns(prefix, codes, symbols))
    return _least_ids(_relabelled(prefix, codes, symbols))


def _relabelled(prefix: np.ndarray, codes: np.ndarray, symbols: int) -> Iterator[np.ndarray]:
    """Per position permutation, each tuple ``(prefix, code)`` permuted, its symbols renamed in order of first
    appearance (a row per code)."""
    n, pegs = codes.shape
    rows = np.arange(n)
    width = (prefix.shape[0] + 1) * pegs
    for perm in itertools.permutations(range(pegs)):
        p = list(perm)
        seq = np.concatenate([np.broadcast_to(prefix[:, p].reshape(1, -1), (n, prefix.shape[0] * pegs)),
                              codes[:, p]], axis=1).astype(np.int64)
        label = np.full((n, symbols), -1, dtype=np.int64)
        nxt = np.zeros(n, dtype=np.int64)
        out = np.empty((n, width), dtype=np.int64)
        for j in range(width):
            s = seq[:, j]
            lab = label[rows, s]
            new = lab < 0
            lab[new] = nxt[new]
            label[rows[new], s[new]] = nxt[new]
            nxt[new] += 1
            out[:, j] = lab
        yield out


def _least_ids(forms: Iterator[np.ndarray]) -> np.ndarray:
    """Per row, the least (lexicographically) of its forms over ``forms`` (arrays of one shape), as an integer
    id per row (equal ids: equal least forms)."""
    best: np.ndarray | None = None
    for out in forms:
        if best is None:
            best = out
            continue
        rows = np.arange(len(out))
        diff = out != best
        first = np.argmax(diff, axis=1)
        less = diff.any(1) & (out[rows, first] < best[rows, first])
        best[less] = out[less]
    assert best is not None
    return np.unique(best, axis=0, return_inverse=True)[1].reshape(-1)


def _renamed_columns(prefix: np.ndarray, codes: np.ndarray, symbols: int) -> Iterator[np.ndarray]:
    """For few symbols and many positions: per symbol renaming, each tuple ``(prefix, code)`` renamed, as its
    columns (one per position) sorted, which no position permutation changes."""
    n = codes.shape[0]
    seq = np.concatenate([np.broadcast_to(prefix[None, :, :], (n, *prefix.shape)), codes[:, None, :]],
                         axis=1).astype(np.int64)  # (n, guesses, positions)
    weights = symbols ** np.arange(seq.shape[1] - 1, -1, -1, dtype=np.int64)
    for sigma in itertools.permutations(range(symbols)):
        yield np.sort((np.asarray(sigma, dtype=np.int64)[seq] * weights[None, :, None]).sum(axis=1), axis=1)


def orbit_reps(space: Space, prefix: list[int], rows: np.ndarray) -> np.ndarray:
    """The least guess row of each orbit of ``rows`` under the stabiliser of the guess rows ``prefix``."""
    codes = space.guess_array[rows]
    pre = space.guess_array[prefix] if prefix else np.zeros((0, codes.shape[1]), dtype=codes.dtype)
    ids = canonical(pre, codes)
    _, first = np.unique(ids, return_index=True)
    return np.sort(rows[first])


def position_counts(codes: np.ndarray, colours: int) -> np.ndarray:
    """``out[c, p]``: how many of the encoded ``codes`` (a row per code) have symbol ``c`` at position ``p``."""
    out = np.zeros((colours, codes.shape[1]), dtype=np.int64)
    for k in range(codes.shape[1]):
        out[:, k] = np.bincount(codes[:, k], minlength=colours)
    return out


def table_maps(source: np.ndarray, target: np.ndarray) -> Iterator[tuple[list[int], np.ndarray]]:
    """Every (position permutation, symbol renaming) that turns the table ``source`` (:func:`position_counts`
    of a set of codes) into ``target``: the only candidates for a symmetry mapping the first set onto the
    second; position permutations in order, then renamings in lexicographic order (symbol ``c`` becomes
    ``sigma[c]``; position ``k`` takes the symbol of position ``perm[k]``)."""
    colours, pegs = source.shape
    rows = {tuple(r) for r in target.tolist()}
    scols, tcols = np.sort(source, axis=0), np.sort(target, axis=0)
    places = [[j for j in range(pegs) if (scols[:, j] == tcols[:, k]).all()] for k in range(pegs)]
    for p in _arrangements(places, [], set()):
        moved = source[:, p]  # symbol c's counts once the positions are reordered
        if {tuple(r) for r in moved.tolist()} != rows:
            continue
        cands = [np.flatnonzero((target == moved[c]).all(axis=1)) for c in range(colours)]
        for sigma in _renamings(cands, np.zeros(colours, dtype=np.int64), np.zeros(colours, dtype=bool), 0):
            yield p, sigma


def table_symmetries(table: np.ndarray) -> Iterator[tuple[list[int], np.ndarray]]:
    """:func:`table_maps` of a table onto itself: the candidates for the symmetries keeping a set of codes."""
    return table_maps(table, table)


def isomorphic(codes: np.ndarray, other: np.ndarray, colours: int, cap: int = STAB_CAP) -> bool:
    """Whether a symmetry (positions permuted, symbols renamed) maps the encoded codes ``codes`` onto the
    codes ``other`` (both sets of distinct codes, a row per code), found among the first ``cap`` candidates of
    :func:`table_maps`: True is proven (such a map exists and was checked), False may only mean "not found"."""
    if codes.shape != other.shape:
        return False
    weights = colours ** np.arange(codes.shape[1] - 1, -1, -1, dtype=np.int64)
    keys = np.sort(other @ weights)
    for p, sigma in itertools.islice(table_maps(position_counts(codes, colours), position_counts(other, colours)),
                                     cap):
        if _keeps(sigma[codes[:8, p]] @ weights, keys) and _keeps(sigma[codes[:, p]] @ weights, keys):
            return True
    return False


def class_symmetries(space: Space, answers: np.ndarray, cap: int = STAB_CAP) -> tuple[list[np.ndarray], bool]:
    """Symmetries that map the codes ``answers`` onto themselves, each as the image of every guess row: the
    candidates of :func:`table_symmetries` checked one by one; and whether that is all of them (False when
    ``cap`` candidates were tried first)."""
    codes = space.answer_array[answers].astype(np.int64)
    guesses = space.guess_array.astype(np.int64)
    pegs = codes.shape[1]
    colours = int(max(guesses.max(initial=0), codes.max(initial=0))) + 1
    weights = colours ** np.arange(pegs - 1, -1, -1, dtype=np.int64)
    gkeys = guesses @ weights  # ascending: the codes are sorted
    akeys = np.sort(codes @ weights)
    out: list[np.ndarray] = []
    tried = 0
    for p, sigma in itertools.islice(table_symmetries(position_counts(codes, colours)), cap):
        tried += 1
        if p == sorted(p) and (sigma == np.arange(colours)).all():
            continue
        if _keeps(sigma[codes[:8, p]] @ weights, akeys) and _keeps(sigma[codes[:, p]] @ weights, akeys):
            out.append(np.searchsorted(gkeys, sigma[guesses[:, p]] @ weights))
    return out, tried < cap


def _keeps(keys: np.ndarray, among: np.ndarray) -> bool:
    """Whether every key is in the sorted array ``among``."""
    at = np.minimum(np.searchsorted(among, keys), len(among) - 1)
    return bool((among[at] == keys).all())


def _arrangements(places: list[list[int]], head: list[int], used: set[int]) -> Iterator[list[int]]:
    """Every permutation ``p`` with ``p[k]`` among ``places[k]`` extending ``head``, in lexicographic order (a
    position may take only a column of the same counts up to the symbols' order)."""
    if len(head) == len(places):
        yield list(head)
        return
    for j in places[len(head)]:
        if j not in used:
            used.add(j)
            head.append(j)
            yield from _arrangements(places, head, used)
            head.pop()
            used.discard(j)


def _renamings(cands: list[np.ndarray], sigma: np.ndarray, used: np.ndarray, c: int) -> Iterator[np.ndarray]:
    """Every renaming of the symbols from ``c`` on with ``sigma[c]`` among ``cands[c]`` (one-to-one)."""
    if c == len(cands):
        yield sigma.copy()
        return
    for t in cands[c]:
        if not used[t]:
            used[t], sigma[c] = True, t
            yield from _renamings(cands, sigma, used, c + 1)
            used[t] = False


def class_reps(space: Space, ids: Callable[[], np.ndarray], answers: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The least guess row of each set of ``rows`` that symmetries keeping ``answers`` map onto each other: the
    orbits of :func:`class_symmetries` when it found them all, else those joined with the orbits ``ids()`` of
    the stabiliser of the guesses made (:func:`canonical` of ``rows``), which keeps ``answers``."""
    images, complete = class_symmetries(space, answers)
    if complete:
        comp = np.arange(len(space.guesses), dtype=np.int64)
        while True:
            before = comp.copy()
            for img in images:
                np.minimum.at(comp, img, comp.copy())
                comp = np.minimum(comp, comp[img])
            if np.array_equal(comp, before):
                return np.unique(comp[rows])
    orbit = ids()
    comp = np.full(len(space.guesses), np.iinfo(np.int64).max, dtype=np.int64)
    comp[rows] = rows
    while True:
        low = np.full(int(orbit.max(initial=-1)) + 1, np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(low, orbit, comp[rows])
        before = comp.copy()
        comp[rows] = low[orbit]
        for img in images:
            np.minimum.at(comp, img, comp.copy())
            comp = np.minimum(comp, comp[img])
        if np.array_equal(comp, before):
            break
    return np.unique(comp[rows])


def guess_bounds(search: Optimal, answers: np.ndarray, guesses: np.ndarray) -> np.ndarray:
    """:meth:`.optimal.Optimal.guess_bounds` (no cap, nothing used) of many guesses at once: each guess's
    ``n + sum lbt[class]``, INF for a guess that splits nothing and cannot win."""
    n = len(answers)
    width = int(search.counts.shape[1])
    codes = search.matrix[np.ix_(guesses, answers)].astype(np.int64)
    flat = (codes + width * np.arange(len(guesses))[:, None]).reshape(-1)
    counts = np.bincount(flat, minlength=width * len(guesses)).reshape(len(guesses), width)
    counts[:, search.space.found] = 0
    out = n + search.lbt[search.k.DMAX][counts].sum(axis=1)
    out[(counts == n).any(axis=1) & (n > 1)] = search.k.INF
    return np.minimum(out, search.k.INF)


class SymmetricSearch:
    """The exact optimal total of ``space`` (every code may be proposed, no cap), one guess per orbit of the
    stabiliser of the guesses so far for the first ``levels`` guesses.  ``checkpoint``: a JSON-lines file of
    the classes finished (read first when it exists); ``node_limit``: per call of the compiled search (past
    it the class keeps its proven bound and the cell ends with bounds); ``by_class``: also the symmetries that
    keep each class (:func:`class_reps`), not only those fixing the guesses made; ``iso``: a class that a
    symmetry maps onto a class already solved (:func:`isomorphic`) takes its value, unsearched."""

    def __init__(self, space: Space, *, levels: int = 2, checkpoint: str = "", node_limit: int | None = None,
                 kernel: str = "auto", by_class: bool = True, iso: bool = True) -> None:
        self.space, self.levels, self.checkpoint = space, levels, checkpoint
        self.search = Optimal(space, node_limit=node_limit, kernel=kernel)
        self.state: dict[tuple[int, int], tuple[int, bool]] = {}
        self.timeouts = 0
        self.calls = 0
        self._reps: dict[tuple[int, ...], np.ndarray] = {}
        self._ids: dict[tuple[int, ...], np.ndarray] = {}
        self.by_class = by_class
        self.iso = iso
        self.iso_hits = 0
        self._listed: set[tuple[int, int]] = set()
        self._solved: dict[tuple[Any, ...], list[tuple[np.ndarray, tuple[int, int]]]] = {}
        self._colours = int(space.guess_array.max(initial=0)) + 1
        self.cd = self.search.k.DMAX  # no cap: every depth index is the same
        self.cpu_before = 0.0  # the CPU seconds of the runs before this one that wrote the checkpoint
        self._cpu = time.process_time()
        if checkpoint and os.path.exists(checkpoint):
            with open(checkpoint, encoding="utf-8") as f:
                lines = f.read().splitlines()
            if lines and json.loads(lines[0]).get("cell") != space.label:
                raise ValueError(f"{checkpoint} is the checkpoint of another cell: {lines[0]}")
            for line in lines[1:]:
                r = json.loads(line)
                self.state[(r["h1"], r["h2"])] = (r["value"], r["exact"])
                self.cpu_before = max(self.cpu_before, r.get("cpu", 0.0))
        elif checkpoint:
            with open(checkpoint, "w", encoding="utf-8") as f:
                f.write(json.dumps({"format": "sleuth symmetric 1", "cell": space.label, "levels": levels}) + "\n")

    def _key(self, answers: np.ndarray) -> tuple[int, int]:
        """A class's key: its answers' hash (no cap: its value depends on nothing else)."""
        h = np.bitwise_xor.reduce(self.search.zs[answers], axis=0)
        return int(h[0]), int(h[1])

    def search_cpu(self) -> float:
        """The CPU seconds of the search so far, this run and the runs before it that wrote the checkpoint."""
        return round(self.cpu_before + time.process_time() - self._cpu, 1)

    def _save(self, key: tuple[int, int], level: int, value: int, exact: bool) -> None:
        self.state[key] = (value, exact)
        if self.checkpoint and level <= SAVED_LEVELS:
            with open(self.checkpoint, "a", encoding="utf-8") as f:
                f.write(json.dumps({"h1": key[0], "h2": key[1], "level": level, "value": value,
                                    "exact": exact, "cpu": self.search_cpu()}) + "\n")

    def _invariants(self, codes: np.ndarray) -> tuple[Any, ...]:
        """What every symmetry keeps of a set of encoded codes: its size, and its table of symbol counts per
        position up to the order of the rows and of the columns."""
        table = position_counts(codes, self._colours)
        return (len(codes), tuple(sorted(tuple(sorted(r)) for r in table.tolist())),
                tuple(sorted(tuple(sorted(c)) for c in table.T.tolist())))

    def _isomorph(self, codes: np.ndarray, inv: tuple[Any, ...], beta: int) -> tuple[int, bool] | None:
        """The kept value of a solved class that a symmetry maps onto ``codes`` (exact, or a bound at least
        ``beta``), None when none is found."""
        for other, key in reversed(self._solved.get(inv, [])[-ISO_TRIES:]):
            got = self.state.get(key)
            if got is not None and (got[1] or got[0] >= beta) and isomorphic(other, codes, self._colours):
                return got
        return None

    def reps(self, prefix: list[int], answers: np.ndarray | None = None) -> np.ndarray:
        """One guess per orbit of the stabiliser of ``prefix``; with ``answers``, orbits joined by the
        symmetries that keep the class (:func:`class_reps`, when :attr:`by_class`, from :data:`CLASS_FROM`
        guesses on)."""
        if answers is not None and self.by_class and len(prefix) >= CLASS_FROM:
            def ids() -> np.ndarray:
                got = self._ids.get(tuple(prefix))
                if got is None:
                    got = canonical(self.space.guess_array[prefix], self.space.guess_array[self.search.pool])
                    self._ids[tuple(prefix)] = got
                return got
            return class_reps(self.space, ids, answers, self.search.pool)
        got = self._reps.get(tuple(prefix))
        if got is None:
            got = orbit_reps(self.space, prefix, self.search.pool)
            self._reps[tuple(prefix)] = got  # one per guess sequence searched symmetrically
        return got

    def class_value(self, prefix: list[int], answers: np.ndarray, beta: int) -> tuple[int, bool]:
        """The least total of ``answers`` after the guesses ``prefix``: (value, True) when below ``beta``,
        else (a proven lower bound at least ``beta``, False); (its class-size bound, False) when the node
        limit stopped the search."""
        s = self.search
        n = len(answers)
        low = int(s.lbt[self.cd, n])
        if n <= 2:
            return low, True
        key = self._key(answers)
        got = self.state.get(key)
        if got is not None and (got[1] or got[0] >= beta):
            return got
        inv: tuple[Any, ...] | None = None
        if self.iso and n >= ISO_MIN:
            codes = self.space.answer_array[answers].astype(np.int64)
            inv = self._invariants(codes)
            found = self._isomorph(codes, inv, beta)
            if found is not None:
                self.iso_hits += 1
                self._save(key, len(prefix), *found)
                return found
            if key not in self._listed:
                self._listed.add(key)
                self._solved.setdefault(inv, []).append((codes, key))  # its value is in state once solved
        if len(prefix) >= self.levels:
            if s.memo.shape[0] > MEMO_ROWS:
                s.reset_cache()
            self.calls += 1
            try:
                v = s.value(answers, s.pool, 0, beta=beta)
            except SearchTimeout:
                self.timeouts += 1
                return low, False
            out = (v, True) if v < beta else (max(v, beta), False)
            self._save(key, len(prefix), *out)
            return out
        reps = self.reps(prefix, answers)
        bounds = guess_bounds(s, answers, reps)
        best, exact, stopped = beta, False, False
        for j in np.lexsort((reps, bounds)):
            if bounds[j] >= best:
                break
            v, ok, cut = self.guess_total(prefix, int(reps[j]), answers, best)
            stopped |= cut
            if ok and v < best:
                best, exact = v, True
        if stopped and not exact:
            return low, False
        if stopped:  # an exact value among the guesses searched; another might have been lower
            return max(low, min(best, int(bounds.min()))), False
        self._save(key, len(prefix), best, exact)
        return best, exact

    def guess_total(self, prefix: list[int], g: int, answers: np.ndarray, beta: int) -> tuple[int, bool, bool]:
        """The least total of ``answers`` with guess row ``g`` next: (total, exact, stopped): exact below
        ``beta``, else a lower bound at least ``beta`` (or, when ``stopped`` by the node limit, a lower bound)."""
        s = self.search
        codes = s.matrix[g, answers]
        vals, inverse = np.unique(codes, return_inverse=True)
        parts = [answers[inverse.reshape(-1) == i] for i, v in enumerate(vals) if v != s.space.found]
        if len(parts) == 1 and len(parts[0]) == len(answers):
            return int(s.k.INF), False, False  # splits nothing
        parts.sort(key=lambda a: -len(a))
        bounds = [int(s.lbt[self.cd, len(a)]) for a in parts]
        total = len(answers) + sum(bounds)
        if total >= beta:
            return total, False, False
        stopped = False
        for i, part in enumerate(parts):
            v, ok = self.class_value([*prefix, g], part, beta - (total - bounds[i]))
            total += v - bounds[i]
            if total >= beta:
                return total, False, False
            stopped |= not ok  # below its cut-off yet not exact: the node limit stopped it
        return total, not stopped, stopped

    def openers(self) -> list[dict[str, Any]]:
        """Each opener up to symmetry with its exact total, or the bound that refutes it (``beta``: the best
        exact total so far plus one, at first the best heuristic total plus one)."""
        return self._run()[1]

    def _run(self) -> tuple[int | None, list[dict[str, Any]], int]:
        from . import strategy as st

        s = self.search
        answers = np.arange(len(self.space.answers))
        upper = min(st.play_all(s.matrix, self.space.answer_rows, self.space.found, st.Method(m),
                                self.space.tries).total for m in ("sum", "sumgini"))
        reps = self.reps([])
        bounds = guess_bounds(s, answers, reps)
        best: int | None = None
        rows: list[dict[str, Any]] = []
        for j in np.lexsort((reps, bounds)):
            g = int(reps[j])
            beta = (best if best is not None else upper) + 1
            cpu = time.process_time()
            if bounds[j] >= beta:
                v, ok, cut = int(bounds[j]), False, False
            else:
                v, ok, cut = self.guess_total([], g, answers, beta)
            status = "exact" if ok else "bounds" if cut else "refuted"
            rows.append({"opener": self.space.guesses[g], "status": status, "total": v if ok else None,
                         "lower": v, "beta": beta, "cpu_seconds": round(time.process_time() - cpu, 2)})
            if ok and (best is None or v < best):
                best = v
        return best, rows, upper

    def lower(self, prefix: list[int], answers: np.ndarray) -> int:
        """A proven lower bound of the class ``answers`` after the guesses ``prefix`` from what ``state`` holds,
        searching nothing: its exact value or bound when kept, else (to the checkpoint's depth) the least over
        the guesses up to symmetry of ``n`` plus each class's bound; the class-size bound below that."""
        s = self.search
        n = len(answers)
        low = int(s.lbt[self.cd, n])
        if n <= 2:
            return low
        got = self.state.get(self._key(answers))
        if got is not None:
            if got[1]:
                return got[0]
            low = max(low, got[0])
        if len(prefix) >= SAVED_LEVELS:
            return low
        best = int(s.k.INF)
        for g in self.reps(prefix, answers):
            codes = s.matrix[int(g), answers]
            vals, inverse = np.unique(codes, return_inverse=True)
            if len(vals) == 1 and vals[0] != s.space.found:
                continue  # splits nothing: never better than the guesses that do
            total = n
            for i, v in enumerate(vals):
                if v != s.space.found and total < best:
                    total += self.lower([*prefix, int(g)], answers[inverse.reshape(-1) == i])
            best = min(best, total)
        return max(low, best)

    def upper(self, prefix: list[int], answers: np.ndarray) -> int:
        """The least total of a tree for ``answers`` that ``state`` proves (exact values, to the checkpoint's
        depth, joined under the best guess up to symmetry); INF when a class on every path lacks one."""
        s = self.search
        n = len(answers)
        if n <= 2:
            return int(s.lbt[self.cd, n])
        got = self.state.get(self._key(answers))
        if got is not None and got[1]:
            return got[0]
        best = int(s.k.INF)
        if len(prefix) >= SAVED_LEVELS:
            return best
        for g in self.reps(prefix, answers):
            codes = s.matrix[int(g), answers]
            total = n
            for v in np.unique(codes):
                if v != s.space.found and total < best:
                    total += self.upper([*prefix, int(g)], answers[codes == v])
            best = min(best, total)
        return best

    def bounds(self) -> dict[str, Any]:
        """The cell's proven bounds from the checkpoint alone (no search): ``lower`` (:meth:`lower` of every
        code), ``upper`` (:meth:`upper`, or the better heuristic tree), ``exact`` when they meet, and the
        progress: per opener up to symmetry its bound and how many of its classes (of more than two codes) have
        an exact value."""
        from . import strategy as st

        cpu = time.process_time()
        s = self.search
        answers = np.arange(len(self.space.answers))
        upper = min(st.play_all(s.matrix, self.space.answer_rows, self.space.found, st.Method(m),
                                self.space.tries).total for m in ("sum", "sumgini"))
        upper = min(upper, self.upper([], answers))
        lower = self.lower([], answers)
        rows = []
        for g in self.reps([]):
            codes = s.matrix[int(g), answers]
            parts = [answers[codes == v] for v in np.unique(codes) if v != s.space.found]
            big = [p for p in parts if len(p) > 2]
            done = sum(1 for p in big if self.state.get(self._key(p), (0, False))[1])
            rows.append({"opener": self.space.guesses[int(g)], "lower": len(answers) + sum(
                self.lower([int(g)], p) for p in parts), "classes": len(big), "classes_exact": done})
        return {"cell": self.space.label, "words": len(self.space.answers), "exact": lower == upper,
                "total": upper if lower == upper else None, "lower": lower, "upper": upper, "openers": rows,
                "saved_classes": len(self.state), "levels": self.levels, "search_cpu_seconds": self.cpu_before,
                "cpu_seconds": round(time.process_time() - cpu, 2)}

    def result(self) -> dict[str, Any]:
        """``{"exact", "total", "lower", "upper", "openers", "cpu_seconds", ...}`` of the cell: exact when every
        opener up to symmetry is decided; else proven bounds (lower: the least bound of an undecided opener or
        the best exact total; upper: the best exact total or the heuristic tree)."""
        cpu = time.process_time()
        best, rows, upper = self._run()
        open_lows = [r["lower"] for r in rows if r["status"] == "bounds"]
        exact = best is not None and all(low >= best for low in open_lows)
        top = best if best is not None else upper
        lower = top if exact else min([*open_lows, top])
        return {"cell": self.space.label, "words": len(self.space.answers), "exact": exact,
                "total": best if exact else None, "lower": lower, "upper": top, "openers": rows,
                "levels": self.levels, "kernel_calls": self.calls, "timeouts": self.timeouts, "iso_hits": self.iso_hits,
                "nodes": self.search.nodes, "kernel": self.search.kernel,
                "cpu_seconds": round(time.process_time() - cpu, 2)}


__all__ = ["SymmetricSearch", "canonical", "isomorphic", "orbit_reps", "position_counts", "table_maps",
           "table_symmetries"]
