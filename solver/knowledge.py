"""Knowledge of others: one layer for every game (who knows what, who believes what others believe).

A player's knowledge in a world is the set of worlds that agree with what that player observed there (their
*cell*); "the player knows X" when X is the same in every world of the cell, "the player may know X" (seen
from a viewer) when the player knows X in some world of the viewer's cell, and the player's belief is the
weighted distribution of X over the cell.  Nesting applies the same step inside every world of the first
player's cell: what Ann believes Bob believes is Ann's expectation of Bob's belief.  Weights are exact
(integers or :class:`~fractions.Fraction`), so every probability is exact.

Two representations, one vocabulary:

* :class:`Worlds` lists the worlds (rows of a numpy array or any sequence) with a weight and an observation
  key per player; cells are groups of equal keys (vectorised with numpy), and every operator gives one value
  per world, so operators nest (``w.expectation("Ann", w.knows("Bob", x))``).
* A game that *counts* rather than lists gives, for a player's cell, its weight split by the value of X
  (a :data:`CellCounts` mapping value -> weight); :func:`knows`, :func:`belief` and :func:`entropy` read a
  cell off such counts, and :func:`expectation` averages any per-cell judgement over the views a viewer
  considers possible.  A game's counting derivation is checked against :class:`Worlds` on small cases.

>>> # two cards dealt to Ann and Bob from {1, 2, 3}; each sees their own card
>>> deals = [(a, b) for a in (1, 2, 3) for b in (1, 2, 3) if a != b]
>>> w = Worlds(deals, {"Ann": [d[0] for d in deals], "Bob": [d[1] for d in deals]})
>>> bob_card = [d[1] for d in deals]
>>> bool(w.knows("Bob", bob_card).all()), bool(w.knows("Ann", bob_card).any())
(True, False)
>>> w.probability(w.knows("Ann", [d[0] + d[1] == 3 for d in deals]))      # Ann holds 3: knows the sum is not 3
Fraction(1, 3)
>>> w.expectation("Ann", w.belief("Bob", [d[0] for d in deals], 3))[0]  # Ann (1) on Bob's P(Ann holds 3)
Fraction(1, 4)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Generic, TypeVar

import numpy as np

P = TypeVar("P", bound=Hashable)
K = TypeVar("K", bound=Hashable)
Weight = int | Fraction
CellCounts = Mapping[Any, Weight]   # a player's cell, split by the value of X: value -> weight (> 0 kept)

__all__ = ["CellCounts", "Worlds", "belief", "class_all", "class_constant", "entropy", "expectation",
           "group_ids", "knows", "weighted_sums"]


# -- grouping (shared with solver.epistemic) ---------------------------------------------------------------

def group_ids(columns: Sequence[np.ndarray], n: int) -> np.ndarray:
    """Dense ids of the distinct rows of the given columns (packed into one int64 key when it fits)."""
    if not columns:
        return np.zeros(n, dtype=np.int64)
    columns = [_dense(c) for c in columns]
    key = np.zeros(n, dtype=np.int64)
    span = 1
    packable = True
    for col in columns:
        col = np.asarray(col, dtype=np.int64)
        lo = int(col.min()) if n else 0
        width = (int(col.max()) - lo + 1) if n else 1
        if span * width >= 2 ** 62:
            packable = False
            break
        key = key * width + (col - lo)
        span *= width
    if packable:
        _, inv = np.unique(key, return_inverse=True)
    else:
        _, inv = np.unique(np.stack([np.asarray(c, dtype=np.int64) for c in columns], axis=1), axis=0,
                           return_inverse=True)
    return inv.reshape(-1).astype(np.int64)


def _dense(values: np.ndarray) -> np.ndarray:
    """``int64`` values as they are; anything else (exact integers, tuples, strings) as dense ids of its
    distinct values."""
    values = np.asarray(values)
    if values.dtype.kind in "iub":
        return values.astype(np.int64, copy=False)
    if not len(values):
        return np.zeros(0, dtype=np.int64)
    if values.dtype == object:
        ids: dict[Any, int] = {}
        return np.fromiter((ids.setdefault(v, len(ids)) for v in values), dtype=np.int64, count=len(values))
    return np.unique(values, return_inverse=True)[1].reshape(-1).astype(np.int64)


def class_all(classes: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per world: does the mask hold in every world of its class?"""
    if len(classes) == 0:
        return np.zeros(0, dtype=bool)
    bad = np.bincount(classes, weights=(~np.asarray(mask, dtype=bool)).astype(np.float64))
    out: np.ndarray = bad[classes] == 0
    return out


def class_constant(classes: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per world: is the value the same in every world of its class?"""
    if len(classes) == 0:
        return np.zeros(0, dtype=bool)
    values = _dense(values)
    k = int(classes.max()) + 1
    lo = np.full(k, np.iinfo(np.int64).max, dtype=np.int64)
    hi = np.full(k, np.iinfo(np.int64).min, dtype=np.int64)
    np.minimum.at(lo, classes, values)
    np.maximum.at(hi, classes, values)
    out: np.ndarray = (lo == hi)[classes]
    return out


def weighted_sums(ids: np.ndarray, weights: np.ndarray, k: int) -> np.ndarray:
    """Exact sums of ``weights`` per id ``0..k-1`` (int64 when the weights are, else Python numbers)."""
    if weights.dtype == object:
        out = np.zeros(k, dtype=object)
        out[:] = 0
        for i, x in zip(ids.tolist(), weights.tolist(), strict=True):
            out[i] += x
        return out
    out64 = np.zeros(k, dtype=np.int64)
    np.add.at(out64, ids, weights)
    return out64


def _exact_weights(weights: Iterable[Weight] | np.ndarray | None, n: int) -> np.ndarray:
    if weights is None:
        return np.ones(n, dtype=np.int64)
    arr = np.asarray(weights)
    if arr.shape != (n,):
        raise ValueError(f"{arr.shape[0] if arr.ndim else 1} weights for {n} worlds")
    if arr.dtype.kind in "iu":
        total_bound = int(np.abs(arr).max(initial=0)) * max(n, 1)
        if total_bound < 2 ** 62:
            return arr.astype(np.int64)
    if arr.dtype.kind == "f":
        raise ValueError("weights must be exact (integers or Fractions), not floats")
    out = np.empty(n, dtype=object)
    out[:] = [x if isinstance(x, Fraction) else int(x) for x in arr.tolist()]
    if any(x < 0 for x in out):
        raise ValueError("weights must not be negative")
    return out


# -- explicit worlds --------------------------------------------------------------------------------------

class Worlds(Generic[P]):
    """Listed worlds with exact weights and, per player, an observation key per world.

    ``observations[p]`` is a sequence of hashable keys or a numpy array (1-d, or 2-d: one row of columns
    per world); worlds with equal keys form the player's cells.  Every operator returns one entry per world
    (numpy arrays: bool for knowledge, object arrays of Fractions for probabilities), so operators compose:
    a per-world array given to another player's operator is that player's view of it (nesting)."""

    def __init__(self, worlds: Sequence[Any] | np.ndarray, observations: Mapping[P, Sequence[Hashable] | np.ndarray],
                 weights: Iterable[Weight] | np.ndarray | None = None) -> None:
        self.worlds = worlds
        self.n = len(worlds)
        self.weights = _exact_weights(weights, self.n)
        self.total: Weight = self.weights.sum() if self.n else 0
        self._keys = dict(observations)
        for p, keys in self._keys.items():
            if len(keys) != self.n:
                raise ValueError(f"player {p!r}: {len(keys)} observation keys for {self.n} worlds")
        self._cells: dict[P, np.ndarray] = {}

    @property
    def players(self) -> list[P]:
        return list(self._keys)

    def cells(self, player: P) -> np.ndarray:
        """Per world, the id (0, 1, ...) of the player's cell: worlds with the same observation key."""
        if player not in self._cells:
            keys = self._keys[player]
            arr = keys if isinstance(keys, np.ndarray) else None
            if arr is None:
                try:
                    arr = np.asarray(keys)
                except ValueError:
                    arr = None
                if arr is not None and (arr.dtype == object or arr.ndim != 1):
                    arr = None
            if arr is None:   # tuples, strings of keys, mixed: dense ids by hashing, in order of appearance
                ids: dict[Any, int] = {}
                self._cells[player] = np.fromiter((ids.setdefault(k, len(ids)) for k in keys), dtype=np.int64,
                                                  count=self.n)
            else:
                cols = [arr] if arr.ndim == 1 else [arr[:, j] for j in range(arr.shape[1])]
                self._cells[player] = group_ids(cols, self.n)
        return self._cells[player]

    def restrict(self, mask: Sequence[bool] | np.ndarray) -> Worlds[P]:
        """The worlds where the mask holds (an announcement, or the table after an observation); cells
        already grouped are kept (equal keys stay equal), so a restriction costs no regrouping."""
        m = np.asarray(mask, dtype=bool)
        rows = np.flatnonzero(m).tolist()
        worlds = self.worlds[m] if isinstance(self.worlds, np.ndarray) else [self.worlds[i] for i in rows]
        keys = {p: (k[m] if isinstance(k, np.ndarray) else [k[i] for i in rows]) for p, k in self._keys.items()}
        out: Worlds[P] = Worlds(worlds, keys, self.weights[m])
        out._cells = {p: ids[m] for p, ids in self._cells.items()}
        return out

    def cell(self, player: P, world: int) -> np.ndarray:
        """The indices of the worlds the player considers possible in world ``world``."""
        ids = self.cells(player)
        return np.flatnonzero(ids == ids[world])

    def _values(self, values: Sequence[Any] | np.ndarray) -> np.ndarray:
        if len(values) != self.n:
            raise ValueError(f"{len(values)} values for {self.n} worlds")
        if isinstance(values, np.ndarray) and values.ndim == 1:
            return values
        return np.fromiter(values, dtype=object, count=self.n)   # tuples stay one value each

    # -- knowledge (support only) ------------------------------------------------------------------------
    def knows(self, player: P, values: Sequence[Any] | np.ndarray) -> np.ndarray:
        """Per world: is X (one value per world) the same in every world of the player's cell?  Worlds of
        weight 0 count (they are possible, only improbable)."""
        return class_constant(self.cells(player), self._values(values))

    def everywhere(self, player: P, mask: Sequence[bool] | np.ndarray) -> np.ndarray:
        """Per world: does the mask hold in every world of the player's cell ("the player knows that")?"""
        return class_all(self.cells(player), np.asarray(mask, dtype=bool))

    def somewhere(self, player: P, mask: Sequence[bool] | np.ndarray) -> np.ndarray:
        """Per world: does the mask hold in some world of the player's cell ("the player considers it
        possible"; with ``mask = knows(q, X)``: "q may know X" as the player sees it)."""
        return ~self.everywhere(player, ~np.asarray(mask, dtype=bool))

    # -- probability ---------------------------------------------------------------------------------------
    def expectation(self, player: P, quantity: Sequence[Any] | np.ndarray) -> np.ndarray:
        """Per world: the player's exact expectation of a per-world number (booleans count 0/1) over their
        cell, weighted (object array of Fractions; a cell of weight 0 gives 0)."""
        ids = self.cells(player)
        q = np.asarray(quantity)
        if q.dtype == bool:
            q = q.astype(np.int64)
        k = int(ids.max()) + 1 if self.n else 0
        w = self.weights
        prod = w * q if (w.dtype != object and q.dtype.kind in "iu" and _small(w, q)) else \
            np.array([a * b for a, b in zip(w.tolist(), q.tolist(), strict=True)], dtype=object)
        num = weighted_sums(ids, prod, k)
        den = weighted_sums(ids, w, k)
        out = np.empty(k, dtype=object)
        out[:] = [Fraction(a) / b if b else Fraction(0) for a, b in zip(num.tolist(), den.tolist(), strict=True)]
        return out[ids] if self.n else np.zeros(0, dtype=object)

    def belief(self, player: P, values: Sequence[Any] | np.ndarray, value: Any) -> np.ndarray:
        """Per world: the player's probability that X equals ``value``."""
        vals = self._values(values)
        return self.expectation(player, np.array([v == value for v in vals.tolist()], dtype=bool))

    def counts(self, player: P, world: int, values: Sequence[Any] | np.ndarray) -> dict[Any, Weight]:
        """The player's cell in ``world`` split by the value of X (:data:`CellCounts`, value -> weight)."""
        vals = self._values(values)
        out: dict[Any, Weight] = {}
        for i in self.cell(player, world).tolist():
            x = vals[i]
            key = x.item() if isinstance(x, np.generic) else x
            out[key] = out.get(key, 0) + self.weights[i]
        return {v: (x.item() if isinstance(x, np.generic) else x) for v, x in out.items()}

    def probability(self, mask: Sequence[bool] | np.ndarray, given: Sequence[bool] | np.ndarray | None = None
                    ) -> Fraction:
        """The weight of the worlds where the mask holds over the weight of ``given`` (default: all)."""
        m = np.asarray(mask, dtype=bool)
        g = np.ones(self.n, dtype=bool) if given is None else np.asarray(given, dtype=bool)
        den = self.weights[g].sum()
        return Fraction(self.weights[m & g].sum()) / den if den else Fraction(0)


def _small(w: np.ndarray, q: np.ndarray) -> bool:
    bound = int(np.abs(w).max(initial=0)) * int(np.abs(q).max(initial=0)) * max(len(w), 1)
    return bound < 2 ** 62


# -- counted cells ------------------------------------------------------------------------------------------

def knows(counts: CellCounts) -> bool:
    """The player knows X: exactly one value of X has positive weight in their cell."""
    return sum(1 for x in counts.values() if x) == 1


def belief(counts: CellCounts) -> dict[Any, Fraction]:
    """The player's exact distribution of X over their cell ({} for an empty cell)."""
    total = sum(counts.values())
    return {v: Fraction(x) / total for v, x in counts.items() if x} if total else {}


def entropy(counts: CellCounts) -> float:
    """The entropy (bits) of X over the player's cell."""
    total = sum(counts.values())
    return -sum(float(Fraction(x) / total) * math.log2(Fraction(x) / total) for x in counts.values() if x)


def expectation(views: Iterable[tuple[K, Weight]], judge: Callable[[K], Mapping[str, Any]],
                total: Weight | None = None) -> dict[str, Any]:
    """A viewer's exact expectation of ``judge(view)`` (numbers or booleans per name) over the views of
    another player the viewer considers possible, each with its weight (``total``: their sum, when known).

    This is the nesting step over a counted representation: the viewer's cell is split by what the other
    player observed, and each part is judged once."""
    listed = [(v, w) for v, w in views if w]
    den = sum(w for _, w in listed) if total is None else total
    sums: dict[str, Any] = {}
    if not den:
        return {}
    for view, w in listed:
        for name, x in judge(view).items():
            sums[name] = sums.get(name, 0) + w * x   # exact while weights and values are integers or fractions
    return {name: s / den if isinstance(s, float) else Fraction(s) / den for name, s in sums.items()}
