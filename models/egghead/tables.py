"""Behavioural analysis on the master table (the seed's Algorithm 1 and appendix A), bit-packed with numpy.

A *table* is a set of worlds (one hand per player) stored as a bit array: ``hands ** (players - 1)`` rows (the
hands of all players but the last), each a row of 64-bit words whose bit ``h`` says whether the last player
may hold hand ``h``.  56**4 worlds take 1.2 MB, 56**5 take 79 MB.  A player's conditional information table
(the seed's V_p) is the projection of a table on that player's axis: the row through a world along axis
``p`` holds the hands ``p`` cannot tell apart there.

All players who do behavioural analysis (BA) share one table, the *master table*: after eq. 4 every BA table
equals the intersection of all tables, so one array represents them all.  A player without BA keeps a table of
their own that only eq. 2 (answers), eq. 3 (their own reactions) and eq. 5 (solves) change.  When nobody does
BA, eq. 3 is skipped (no one reads the other rows).  ``reference.py`` implements eq. 2-5 literally on
dictionaries; tests check that both give the same reactions, valids and tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from sleuth.knowledge import Worlds, knows
from sleuth.limits import check_size

from .game import REACT_KERNEL
from .hands import WORD_BITS, Setup
from .questions import CompiledQuestion

_CACHE_LIMIT = 1 << 21  # cache per-question world-class indices when the grid is at most this big


@dataclass
class PackedSpace:
    """The geometry of packed world sets for one setup, and the operations the algorithm needs."""

    setup: Setup
    _dp_cache: dict[tuple[str, tuple[bool, ...]], tuple[np.ndarray, np.ndarray, np.ndarray]] = field(
        default_factory=dict)

    def __post_init__(self) -> None:
        s = self.setup
        if s.players < 2:
            raise ValueError("at least two players are needed")
        self.n, self.h, self.w = s.players, s.n_hands, s.words
        self.shape = (self.h,) * (self.n - 1) + (self.w,)
        bits = np.zeros(self.w * WORD_BITS, dtype=bool)
        bits[: self.h] = True
        self.row_full = np.packbits(bits, bitorder="little").view(np.uint64).copy()

    # -- conversion --------------------------------------------------------------------------------
    def full(self) -> np.ndarray:
        return np.broadcast_to(self.row_full, self.shape).copy()

    def pack(self, worlds: np.ndarray) -> np.ndarray:
        """A boolean array of shape ``(hands,) * players`` as a packed table."""
        pad = self.w * WORD_BITS - self.h
        arr = np.pad(np.asarray(worlds, dtype=bool), [(0, 0)] * (worlds.ndim - 1) + [(0, pad)])
        return np.ascontiguousarray(np.packbits(arr, axis=-1, bitorder="little")).view(np.uint64)

    def unpack(self, table: np.ndarray) -> np.ndarray:
        bits = np.unpackbits(np.ascontiguousarray(table).view(np.uint8), axis=-1, bitorder="little")
        return bits[..., : self.h].astype(bool)

    def count(self, table: np.ndarray) -> int:
        return int(np.bitwise_count(table).sum(dtype=np.int64))

    # -- eq. 2 / eq. 6 -------------------------------------------------------------------------------
    def answer_mask(self, q: CompiledQuestion, answer: int, visible: Sequence[bool]) -> np.ndarray:
        """The packed set of worlds in which the question, asked about the visible hands, gets ``answer``.

        The answer depends on a few aggregates (leaf sums and the mask of values shown); the players before
        the last two are folded into classes of equal aggregates (``ids``), each class and hand of the next
        player into a class of the last but one (``trans``), and each of those gets one packed row of last
        hands: the mask is a gather of whole blocks of rows, never an index per world.
        """
        ids, trans, answers = self._classes(q, tuple(bool(v) for v in visible))
        lut = self.pack(answers == answer)
        return lut[trans][ids].reshape(self.shape)

    def _classes(self, q: CompiledQuestion, visible: tuple[bool, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        key = (q.qid + "\0" + q.meaning, visible)
        if key in self._dp_cache:
            return self._dp_cache[key]
        n_leaves = len(q.leaves)
        zeros_v = np.zeros((self.h, n_leaves), dtype=np.int64)
        zeros_m = np.zeros(self.h, dtype=np.int64)

        def features(p: int) -> tuple[np.ndarray, np.ndarray]:
            if not visible[p]:
                return zeros_v, zeros_m
            return q.hand_values.T, (self.setup.value_masks if q.uses_presence else zeros_m)

        def fold(sums: np.ndarray, masks: np.ndarray, p: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            """The classes after player ``p``'s hand is added, and each (class, hand)'s new class."""
            hv, hm = features(p)
            cs = sums[:, None, :] + hv[None, :, :]
            cm = masks[:, None] | hm[None, :]
            rows = len(sums) * self.h
            keys = np.concatenate([cs.reshape(rows, n_leaves), cm.reshape(rows, 1)], axis=1)
            uniq, inv = np.unique(keys, axis=0, return_inverse=True)
            return uniq[:, :n_leaves], uniq[:, n_leaves], inv.reshape(len(sums), self.h).astype(np.int32)

        sums = np.zeros((1, n_leaves), dtype=np.int64)
        masks = np.zeros(1, dtype=np.int64)
        ids = np.zeros((), dtype=np.int32)
        arange = np.arange(self.h)
        for p in range(self.n - 2):
            sums, masks, trans = fold(sums, masks, p)
            ids = trans[ids[..., None], arange]
        sums, masks, trans = fold(sums, masks, self.n - 2)
        hv, hm = features(self.n - 1)
        cs = sums[:, None, :] + hv[None, :, :]
        cm = masks[:, None] | hm[None, :]
        answers = q.evaluate([cs[..., i] for i in range(n_leaves)], cm)
        answers = np.broadcast_to(answers, (len(sums), self.h))
        if ids.size <= _CACHE_LIMIT:
            self._dp_cache[key] = (ids, trans, answers)
        return ids, trans, answers

    # -- rows ----------------------------------------------------------------------------------------
    def row(self, table: np.ndarray, world: Sequence[int], axis: int) -> np.ndarray:
        """The hands ``axis`` may hold when the others hold ``world`` (the seed's V_p row)."""
        last = self.n - 1
        if axis == last:
            return np.flatnonzero(self.unpack(table[tuple(world[:last])]))
        idx: list[int | slice] = list(world[:last])
        idx[axis] = slice(None)
        hand = world[last]
        words = table[tuple(idx)][:, hand // WORD_BITS]
        return np.flatnonzero((words >> np.uint64(hand % WORD_BITS)) & np.uint64(1))

    def singleton_keep(self, table: np.ndarray, axis: int, solved: bool) -> np.ndarray:
        """eq. 3 as a mask: keep the rows along ``axis`` whose size-is-one agrees with the reaction."""
        last = self.n - 1
        if axis == last:
            single = np.bitwise_count(table).sum(axis=-1, dtype=np.int64) == 1
            keep = single if solved else ~single
            return np.where(keep, np.uint64(~np.uint64(0)), np.uint64(0))[..., None]
        moved = np.moveaxis(table, axis, 0)
        once = np.zeros(moved.shape[1:], dtype=np.uint64)
        twice = np.zeros_like(once)
        for s in range(self.h):
            sl = moved[s]
            twice |= once & sl
            once |= sl
        exactly = once & ~twice
        return np.expand_dims(exactly if solved else ~exactly, axis)

    def fix(self, table: np.ndarray, axis: int, hand: int) -> np.ndarray:
        """eq. 5: every world takes the row it had when ``axis`` held ``hand`` (that player is re-dealt)."""
        if axis == self.n - 1:
            bit = (table[..., hand // WORD_BITS] >> np.uint64(hand % WORD_BITS)) & np.uint64(1)
            return np.where(bit[..., None].astype(bool), self.row_full, np.uint64(0))
        return np.ascontiguousarray(np.broadcast_to(np.take(table, [hand], axis=axis), table.shape))


def table_bytes(setup: Setup) -> int:
    """Bytes of one packed table: ``hands ** (players - 1)`` rows of 64-bit words."""
    return setup.n_hands ** (setup.players - 1) * setup.words * WORD_BITS // 8


def check_tables(setup: Setup, behavioural: Sequence[bool], options: Mapping[str, Any] | None = None) -> None:
    """Refuse before allocating the tables of a game past the shared limit (:func:`sleuth.limits.check_size`:
    ``--set max_worlds`` in ``options``, else the memory budget).  Counted: the master table, one per player
    without BA, and as many again while the reactions are applied, plus two masks (an answer, a reaction)."""
    kept = int(any(behavioural)) + sum(not b for b in behavioural)
    per_world = (2 * kept + 2) * table_bytes(setup) / setup.n_worlds
    check_size(f"Egghead worlds ({setup.n_hands} hands ** {setup.players} players, {kept} packed "
               f"table{'s' if kept > 1 else ''})", setup.n_worlds, options, per_world)


AGAIN_LIMIT = 0.5
"""eq. 3 again over the lines through the changed blocks while they hold at most this many times the blocks a
pass over every block gathers (each block holding worlds, once per reacting axis)."""
ONLY_LIMIT = 0.5
"""The same where the pass over every block would need only one hand of a player (the table being the same along
that player's axis): eq. 3 again while the lines through the changed blocks hold at most this many times the
blocks holding worlds, which the copy after that pass writes once each."""


@dataclass
class _Blocks:
    """What the compiled kernels keep beside one packed table, one byte per block (:mod:`._react_kernel`)."""

    occupied: np.ndarray            # 0: the block holds no world (1: it may)
    changed: np.ndarray             # 1: the block changed since the last eq. 3 (meaningful while ``act`` is set)
    constant: np.ndarray            # per player: True when the table is the same along that player's axis
    act: bytes | None = None        # the reactions of that eq. 3 (after a solve, read for the re-dealt table)

    @classmethod
    def full(cls, blocks: int, players: int) -> _Blocks:
        return cls(np.ones(blocks, dtype=np.uint8), np.zeros(blocks, dtype=np.uint8), np.ones(players, dtype=bool))


class PackedTables:
    """The knowledge state of a game: the master table of the BA players and the tables of the others."""

    def __init__(self, setup: Setup, behavioural: Sequence[bool], space: PackedSpace | None = None,
                 options: Mapping[str, Any] | None = None, *, compiled: bool | None = None) -> None:
        """``options``: ``--set max_worlds`` (see :func:`check_tables`).  ``compiled``: the kernels of
        :mod:`._react_kernel` (True), the numpy masks (False), or as :func:`use_kernel` decides (None)."""
        self.setup = setup
        self._kernel = REACT_KERNEL.load() if (use_kernel(setup) if compiled is None else compiled) else None
        self.behavioural = [bool(b) for b in behavioural]
        if len(self.behavioural) != setup.players:
            raise ValueError("one BA flag per player")
        check_tables(setup, self.behavioural, options)
        self.space = space or PackedSpace(setup)
        self.any_ba = any(self.behavioural)
        self.master = self.space.full() if self.any_ba else None
        self.own: dict[int, np.ndarray] = {p: self.space.full() for p in range(setup.players)
                                           if not self.behavioural[p]}
        blocks = setup.n_hands ** max(setup.players - 2, 0)
        self.blocks = {p: _Blocks.full(blocks, setup.players) for p in ([-1] if self.any_ba else []) + list(self.own)}
        self._work: tuple[np.ndarray, ...] | None = None   # the kernels' work space, made when first used

    def table(self, player: int) -> np.ndarray:
        return self.master if self.behavioural[player] else self.own[player]  # type: ignore[return-value]

    def tables(self) -> list[np.ndarray]:
        return ([self.master] if self.master is not None else []) + list(self.own.values())

    def _keyed(self) -> list[tuple[int, np.ndarray]]:
        """Every table with its key in :attr:`blocks` (-1: the master)."""
        return ([(-1, self.master)] if self.master is not None else []) + list(self.own.items())

    def nbytes(self) -> int:
        return sum(t.nbytes for t in self.tables())

    # eq. 2 (eq. 6 with a rotating moderator: the moderator's hand is not visible)
    def apply_answer(self, q: CompiledQuestion, answer: int, visible: Sequence[bool],
                     world: Sequence[int | None] = ()) -> None:
        k = self._kernel
        if k is None:
            mask = self.space.answer_mask(q, answer, visible)
            for t in self.tables():
                t &= mask
            return
        ids, trans, answers = self.space._classes(q, tuple(bool(v) for v in visible))
        block = self.space.pack(answers == answer)[trans]
        for key, t in self._keyed():
            b = self.blocks[key]
            k.and_gather(_words(t), block, ids.reshape(-1), b.occupied, b.changed)
            b.constant &= ~np.asarray(visible, dtype=bool)  # the answer depends on every visible hand

    def reaction(self, player: int, world: Sequence[int]) -> bool:
        return len(self.valids(player, world)) == 1

    def valids(self, player: int, world: Sequence[int]) -> np.ndarray:
        return self.space.row(self.table(player), world, player)

    # eq. 3 for every table, then eq. 4 for the BA tables
    def apply_reactions(self, reactions: Sequence[bool | None]) -> bool:
        """Apply the shown reactions (None: not shown, e.g. the moderator); True when a table changed.
        With numba, the kernels of :mod:`._react_kernel` over the blocks holding worlds (when the reactions are
        those of the last stage, over the lines through the blocks that changed since); else the numpy masks
        of :func:`react`."""
        k = self._kernel
        if k is None:
            return react(self, reactions, self.space.singleton_keep)
        n = self.setup.players
        shrunk: list[int] = []   # the tables of players without BA that lost worlds
        if self.any_ba:
            for p, t in self.own.items():
                if reactions[p] is not None:
                    act = np.full(n, -1, dtype=np.int64)
                    act[p] = int(bool(reactions[p]))
                    if self._react(k, p, t, act):
                        shrunk.append(p)
        changed = bool(shrunk)
        if self.master is not None:
            b = self.blocks[-1]
            act = np.array([int(bool(r)) if ba and r is not None else -1
                            for ba, r in zip(self.behavioural, reactions, strict=True)], dtype=np.int64)
            if (act >= 0).any():
                changed |= self._react(k, -1, self.master, act)
            # eq. 4: the master table stays within every other table (answers and re-deals change both
            # alike), so only the blocks a table's own reaction just changed are and-ed again
            for p in shrunk:
                changed |= bool(k.and_into(_words(self.master), _words(self.own[p]), b.occupied, b.changed,
                                           self.blocks[p].changed))
                b.constant &= self.blocks[p].constant
        return changed

    def _react(self, k: ModuleType, key: int, table: np.ndarray, act: np.ndarray) -> bool:
        """eq. 3 with the reactions ``act`` on one table: again over the lines through the blocks that changed
        when ``act`` is the last call's and those lines are few (:data:`AGAIN_LIMIT`), else over every block
        holding worlds.  That pass leaves out the players who did not solve along whose axis the table is the
        same (every line along it holds all ``h >= 2`` hands or none: "did not solve" keeps it whole); the
        result is then the same along such an axis too, so it is computed where that player holds hand 0
        and copied to the other hands: a ``1 / h`` part of the work, and a copy (:data:`ONLY_LIMIT`)."""
        n, h = self.setup.players, self.setup.n_hands
        if self._work is None:
            blocks = h ** max(n - 2, 0)
            once = np.zeros((max(n - 2, 1), blocks * self.setup.words), dtype=np.uint64)
            self._work = (once, np.zeros_like(once), np.zeros((max(n - 2, 1), blocks // h), dtype=np.uint8),
                          np.zeros(blocks, dtype=np.uint8))
        once, twice, marks, todo = self._work
        b = self.blocks[key]
        same = act.tobytes()
        skip = np.where(b.constant & (act == 0), -1, act)
        only = next((p for p in range(n - 2) if b.constant[p] and skip[p] < 0), -1)
        out = -1
        if b.act == same:
            limit = AGAIN_LIMIT if only < 0 else ONLY_LIMIT / max(int((act[:n - 2] >= 0).sum()), 1)
            out = k.react_again(_words(table), b.occupied, h, n, act, once, twice, b.changed, marks, todo, limit)
        if out < 0:
            out = k.react_blocks(_words(table), b.occupied, h, n, skip, once, twice, b.changed, only)
            if only >= 0:
                k.fix_axis(_words(table), b.occupied, h, n, only, 0, self.space.row_full, b.changed)
        b.act = same
        return bool(out)

    # eq. 5
    def apply_solve(self, player: int, hand: int) -> None:
        sp = self.space
        k = self._kernel
        if k is None:
            if self.master is not None:
                self.master = sp.fix(self.master, player, hand)
            for p in self.own:
                self.own[p] = sp.full() if p == player else sp.fix(self.own[p], player, hand)
            for b in self.blocks.values():
                b.occupied[:] = 1
                b.act = None
            return
        for p, t in self._keyed():
            b = self.blocks[p]
            if p == player:
                t[...] = sp.row_full
                b.occupied[:] = 1
                b.constant[:] = True
                b.act = None
                continue
            k.fix_axis(_words(t), b.occupied, sp.h, sp.n, player, hand, sp.row_full, b.changed)
            b.constant[player] = True
            if b.act is not None:
                # the table is now the same along the player's axis: every row along it holds all h >= 2 hands
                # where it holds any, which "did not solve" keeps; along the other axes each row is the one
                # the last eq. 3 read where the player held ``hand``, re-dealt with the changed blocks
                act = np.frombuffer(b.act, dtype=np.int64).copy()
                act[player] = min(act[player], 0)
                b.act = act.tobytes()


def _words(table: np.ndarray) -> np.ndarray:
    """A packed table as rows of words (a view: the kernels change the table in place)."""
    if not table.flags.c_contiguous:
        raise ValueError("a packed table must be one C-contiguous array")
    return table.reshape(-1, table.shape[-1])


KERNEL_FROM_BYTES = 8 << 20
"""Packed tables from this size on use the compiled kernels even when this process has not loaded them yet.
Loading them takes about 0.4 s (the first time after an install, compiling them 7-17 s), while the numpy masks
answer a round on the seed's 4-player tables (1.2 MB) in about 6 ms: a puzzle's few rounds are answered before
the kernels would load.  On 5-player tables (79 MB) the numpy masks take about 0.35 s a round, the kernels 20 ms."""

def use_kernel(setup: Setup) -> bool:
    """Whether new tables of ``setup`` use the compiled kernels (:data:`.game.REACT_KERNEL`): where this process has
    loaded them already (an experiment loads them before its first round), or where its tables are large
    (:data:`KERNEL_FROM_BYTES`)."""
    return REACT_KERNEL.loaded() or table_bytes(setup) >= KERNEL_FROM_BYTES


def react(tables: PackedTables | LayerTables, reactions: Sequence[bool | None],
          keep: Callable[[np.ndarray, int, bool], np.ndarray]) -> bool:
    """eq. 3 on every table (``keep``: the worlds where the player knows their hand exactly when they said so),
    then eq. 4 on the BA master table; True when a table changed.  One routine for both representations."""
    changed = False
    new_own: dict[int, np.ndarray] = {}
    for p, t in tables.own.items():
        r = reactions[p]
        nt = t if r is None or not tables.any_ba else t & keep(t, p, r)
        changed |= not np.array_equal(nt, t)
        new_own[p] = nt
    if tables.master is not None:
        m = tables.master.copy()
        for p, ba in enumerate(tables.behavioural):
            if ba and reactions[p] is not None:
                m &= keep(tables.master, p, bool(reactions[p]))
        for t in new_own.values():
            m &= t
        changed |= not np.array_equal(m, tables.master)
        tables.master = m
    tables.own = new_own
    return changed


class LayerTables:
    """Behavioural analysis on the knowledge layer (:class:`sleuth.knowledge.Worlds`): the reference the
    packed tables are checked against, and the same algorithm read as knowledge of others.

    Every world (one hand per player) is listed; player ``p`` observes the other players' hands, so ``p``'s
    cell in a world is the hands ``p`` cannot tell apart there (the seed's V_p row) and a reaction is "``p``
    knows their own hand".  A table is the set of worlds still possible (a mask over the list): eq. 2 keeps
    the worlds where the question gets the answer, eq. 3 the worlds where ``p`` knows their hand exactly when
    ``p`` said so (:meth:`Worlds.knows` on the table), eq. 4 intersects, eq. 5 re-deals.  Same methods as
    :class:`PackedTables`; small setups only (one row of ``players`` integers per world)."""

    def __init__(self, setup: Setup, behavioural: Sequence[bool], space: PackedSpace | None = None) -> None:
        self.setup = setup
        self.space = space or PackedSpace(setup)
        self.behavioural = [bool(b) for b in behavioural]
        n, h = setup.players, setup.n_hands
        self.grid = np.indices((h,) * n).reshape(n, -1).T
        self.worlds: Worlds[int] = Worlds(self.grid, {p: np.delete(self.grid, p, axis=1) for p in range(n)})
        self.any_ba = any(self.behavioural)
        full = np.ones(len(self.grid), dtype=bool)
        self.master = full.copy() if self.any_ba else None
        self.own = {p: full.copy() for p in range(n) if not self.behavioural[p]}

    def table(self, player: int) -> np.ndarray:
        return self.master if self.behavioural[player] else self.own[player]  # type: ignore[return-value]

    def _index(self, world: Sequence[int | None], player: int) -> int:
        """The world's row, the player's own hand (which their cell does not depend on) read as 0."""
        hands = tuple(0 if p == player or w is None else int(w) for p, w in enumerate(world))
        return int(np.ravel_multi_index(hands, (self.setup.n_hands,) * self.setup.players))

    def apply_answer(self, q: CompiledQuestion, answer: int, visible: Sequence[bool],
                     world: Sequence[int | None] = ()) -> None:
        mask = self.space.unpack(self.space.answer_mask(q, answer, visible)).reshape(-1)
        for t in ([self.master] if self.master is not None else []) + list(self.own.values()):
            t &= mask

    def valids(self, player: int, world: Sequence[int | None]) -> np.ndarray:
        """The hands of the player's cell in the world (the worlds with the others' hands, in the table)."""
        cell = self.worlds.cell(player, self._index(world, player))
        return self.grid[cell[self.table(player)[cell]], player]

    def reaction(self, player: int, world: Sequence[int | None]) -> bool:
        return knows({int(h): 1 for h in self.valids(player, world)})

    def _keep(self, table: np.ndarray, player: int, solved: bool) -> np.ndarray:
        """eq. 3: the worlds of the table where the player knows their hand exactly when ``solved``."""
        inside = self.worlds.restrict(table)
        out = np.zeros_like(table)
        listed = np.asarray(inside.worlds)
        out[table] = inside.knows(player, listed[:, player]) == solved
        return out

    def apply_reactions(self, reactions: Sequence[bool | None]) -> bool:
        return react(self, reactions, self._keep)

    def apply_solve(self, player: int, hand: int) -> None:
        shape = (self.setup.n_hands,) * self.setup.players

        def fix(t: np.ndarray) -> np.ndarray:
            cube = t.reshape(shape)
            return np.broadcast_to(np.take(cube, [hand], axis=player), shape).reshape(-1).copy()

        if self.master is not None:
            self.master = fix(self.master)
        for p in self.own:
            self.own[p] = np.ones(len(self.grid), dtype=bool) if p == player else fix(self.own[p])


DERIVATIONS: dict[str, type[PackedTables] | type[LayerTables]] = {"packed": PackedTables, "layer": LayerTables}
"""The exact derivations of behavioural analysis: ``packed`` (bit-packed master table, the fast path) and
``layer`` (listed worlds on :mod:`sleuth.knowledge`, the reference it is checked against)."""
