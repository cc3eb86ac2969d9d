"""Egghead's compiled eq. 2, 3 and 5 (models/egghead/_react_kernel.py) against the numpy masks, table for table,
on random games of 2 to 6 players, hands of one and of several 64-bit words, with and without a moderator."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sleuth.models.egghead import tables as tb
from sleuth.models.egghead.game import REACT_KERNEL
from sleuth.models.egghead.hands import Setup
from sleuth.models.egghead.tables import PackedTables

from tests.conftest import PUZZLES
from tests.helpers.egghead import play, random_game

pytestmark = pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")


@pytest.fixture(autouse=True)
def _kernel_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests compare the kernels with the numpy masks themselves: ``SLEUTH_EGGHEAD_KERNEL=numpy`` (which
    turns :data:`REACT_KERNEL` off) does not apply to them."""
    monkeypatch.delenv(REACT_KERNEL.switch, raising=False)

SETUPS = [(2, 3, 2), (3, 3, 2), (3, 4, 2), (4, 3, 2), (5, 2, 2), (6, 2, 2), (3, 6, 4), (2, 8, 4)]  # the last two:
# 126 and 330 hands, rows of 2 and 6 words


@pytest.mark.parametrize("players,values,size", SETUPS)
def test_kernel_and_numpy_masks_give_the_same_tables(monkeypatch: pytest.MonkeyPatch, players: int, values: int,
                                                      size: int) -> None:
    kernel = REACT_KERNEL.load()
    assert kernel is not None
    s = Setup(players, values, size)
    rng = np.random.default_rng(players * 100 + values * 10 + size)
    for game in range(6):
        qs, ba, moderator, world0, deals, order = random_game(rng, s, game)
        compiled = PackedTables(s, ba, compiled=True)
        got = play(compiled, s, qs, world0, deals, order, moderator)
        monkeypatch.setattr(REACT_KERNEL, "load", lambda: None)
        plain = PackedTables(s, ba, compiled=False)
        want = play(plain, s, qs, world0, deals, order, moderator)
        monkeypatch.setattr(REACT_KERNEL, "load", lambda: kernel)
        assert got == want, (players, values, size, game, ba, moderator)
        for mine, theirs in zip(compiled.tables(), plain.tables(), strict=True):
            assert np.array_equal(mine, theirs)


def test_react_table_on_random_tables_matches_singleton_keep() -> None:
    """eq. 3 for any set of reacting players, on random (not game-reachable) tables, as the numpy masks
    compute it: every mask from the table as given, then intersected."""
    kernel = REACT_KERNEL.load()
    assert kernel is not None
    rng = np.random.default_rng(7)
    for players, values, size in [(2, 3, 2), (3, 3, 2), (4, 2, 2), (5, 2, 2), (3, 6, 4)]:
        sp = tb.PackedSpace(Setup(players, values, size))
        for density in (0.05, 0.3, 0.9):
            table = sp.pack(rng.random((sp.h,) * players) < density)
            act = rng.integers(-1, 2, players)
            want = table.copy()
            for p in range(players):
                if act[p] >= 0:
                    want &= sp.singleton_keep(table, p, bool(act[p]))
            got = table.copy()
            changed = kernel.react_table(got.reshape(-1, got.shape[-1]), sp.h, players, act.astype(np.int64))
            assert np.array_equal(got, want), (players, values, size, density, act)
            assert changed == (not np.array_equal(want, table))


# -- eq. 3 again over the changed lines (react_again) against a full pass and the numpy masks ----------------

SMALL = [(2, 3, 2), (3, 3, 2), (3, 4, 1), (4, 2, 2), (4, 3, 1), (5, 2, 1), (5, 2, 2), (6, 2, 1), (6, 2, 2), (2, 8, 4),
         (3, 6, 4)]  # 6 players: more players along whose axes the lines cross the runs than the loops name; the
# last two: rows of 6 and 2 words


@st.composite
def worlds(draw: st.DrawFn, size: int) -> np.ndarray:
    """A set of worlds (a mask over ``size``): each world in or out (small spaces), a few listed, or all but a
    few listed."""
    if size <= 256 and draw(st.booleans()):
        return np.array(draw(st.lists(st.booleans(), min_size=size, max_size=size)), dtype=bool)
    listed = np.zeros(size, dtype=bool)
    listed[sorted(draw(st.sets(st.integers(0, size - 1), max_size=min(size, 300))))] = True
    return ~listed if draw(st.booleans()) else listed


def _numpy_react(sp: tb.PackedSpace, table: np.ndarray, act: np.ndarray) -> np.ndarray:
    want = table.copy()
    for p in range(sp.n):
        if act[p] >= 0:
            want &= sp.singleton_keep(table, p, bool(act[p]))
    return want


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_react_again_equals_a_full_pass_and_the_numpy_masks(data: st.DataObject) -> None:
    """eq. 3 with the same reactions after worlds were removed (by eq. 3 itself, then an and with another
    table marking the blocks it changed) or a player re-dealt (eq. 5, the same as the numpy masks; that
    player's reaction read as "did not solve"), stage after stage: over the lines through the changed blocks
    only, the same table, occupancy, changed blocks and result as a pass over every block and as the numpy
    masks; the work space is left as zeros."""
    kernel = REACT_KERNEL.load()
    assert kernel is not None
    players, values, size = data.draw(st.sampled_from(SMALL))
    sp = tb.PackedSpace(Setup(players, values, size))
    h, n, w = sp.h, sp.n, sp.w
    rows = h ** (n - 1)
    blocks = rows // h
    act = np.array(data.draw(st.lists(st.integers(-1, 1), min_size=n, max_size=n)), dtype=np.int64)
    table = sp.pack(data.draw(worlds(h ** n)).reshape((h,) * n))
    occ = np.ones(blocks, dtype=np.uint8)
    changed = np.zeros(blocks, dtype=np.uint8)
    once = np.zeros((max(n - 2, 1), blocks * w), dtype=np.uint64)
    twice = np.zeros_like(once)
    marks = np.zeros((max(n - 2, 1), blocks // h), dtype=np.uint8)
    todo = np.zeros(blocks, dtype=np.uint8)
    want = _numpy_react(sp, table, act)
    got = kernel.react_blocks(table.reshape(rows, w), occ, h, n, act, once, twice, changed)
    assert np.array_equal(table, want) and got == changed.any()
    for _ in range(data.draw(st.integers(1, 5), label="stages")):
        if data.draw(st.booleans(), label="re-deal"):  # eq. 5: the same along p, where "did not solve" holds
            p, hand = data.draw(st.integers(0, n - 1), label="player"), data.draw(st.integers(0, h - 1))
            want = sp.fix(table, p, hand)
            kernel.fix_axis(table.reshape(rows, w), occ, h, n, p, hand, sp.row_full, changed)
            assert np.array_equal(table, want)
            act[p] = min(act[p], 0)
        else:
            other = sp.pack(~data.draw(worlds(h ** n), label="removed").reshape((h,) * n))
            kernel.and_into(table.reshape(rows, w), other.reshape(rows, w), occ, changed, np.ones_like(occ))
        want = _numpy_react(sp, table, act)
        removes = int(not np.array_equal(want, table))
        full = [table.copy(), occ.copy(), changed.copy()]
        assert kernel.react_blocks(full[0].reshape(rows, w), full[1], h, n, act, once, twice, full[2]) == removes
        if data.draw(st.booleans(), label="limit 0"):  # nothing done (-1), or done when no line is to gather
            tried = [table.copy(), occ.copy(), changed.copy()]
            out = kernel.react_again(tried[0].reshape(rows, w), tried[1], h, n, act, once, twice, tried[2], marks,
                                     todo, 0.0)
            expect = [table, occ, changed] if out < 0 else full
            assert out in (-1, removes) and all(np.array_equal(a, b) for a, b in zip(tried, expect, strict=True))
        got = kernel.react_again(table.reshape(rows, w), occ, h, n, act, once, twice, changed, marks, todo, 1e18)
        assert got == removes and np.array_equal(table, want) and np.array_equal(full[0], want)
        assert np.array_equal(occ, full[1]) and np.array_equal(changed, full[2])
        exact = np.zeros_like(occ)
        kernel.occupancy(table.reshape(rows, w), h, exact)
        assert np.array_equal(occ, exact)
        assert not once.any() and not twice.any() and not marks.any() and not todo.any()


class _Checked(PackedTables):
    """Packed tables that check, after every step, that each table is the same along every axis its
    ``constant`` flags name (the players whose "did not solve" eq. 3 then skips)."""

    skipped = 0  # reactions left out because the table is the same along that player's axis, over all games

    def _check_constant(self) -> None:
        for key, t in self._keyed():
            worlds = self.space.unpack(t)
            for p in np.flatnonzero(self.blocks[key].constant):
                assert np.array_equal(worlds, np.broadcast_to(np.take(worlds, [0], axis=p), worlds.shape)), (key, p)

    def apply_answer(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().apply_answer(*args, **kwargs)
        self._check_constant()

    def _react(self, k, key, table, act):  # type: ignore[no-untyped-def]
        _Checked.skipped += int((self.blocks[key].constant & (act == 0)).sum())
        return super()._react(k, key, table, act)

    def apply_reactions(self, reactions):  # type: ignore[no-untyped-def]
        out = super().apply_reactions(reactions)
        self._check_constant()
        return out

    def apply_solve(self, player: int, hand: int) -> None:
        super().apply_solve(player, hand)
        self._check_constant()


def test_the_axes_marked_constant_are_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table is the same along each player's axis its flags mark (eq. 5 marks it, an answer clears
    the visible players, eq. 3 keeps it, eq. 4 keeps what both tables have), on random games of 3 to 5
    players with and without a moderator; the games' reactions are those of the numpy masks."""
    kernel = REACT_KERNEL.load()
    assert kernel is not None
    rng = np.random.default_rng(11)
    _Checked.skipped = 0
    for players, values, size in [(3, 3, 2), (4, 3, 2), (5, 2, 2), (3, 6, 4)]:
        s = Setup(players, values, size)
        for game in range(4):
            qs, ba, moderator, world0, deals, order = random_game(rng, s, game)
            got = play(_Checked(s, ba, compiled=True), s, qs, world0, deals, order, moderator)
            monkeypatch.setattr(REACT_KERNEL, "load", lambda: None)
            want = play(PackedTables(s, ba, compiled=False), s, qs, world0, deals, order, moderator)
            monkeypatch.setattr(REACT_KERNEL, "load", lambda: kernel)
            assert got == want, (players, values, size, game)
    assert _Checked.skipped > 0, "some eq. 3 skipped a constant axis"


@pytest.mark.parametrize("players,values,size", [s for s in SMALL if s[0] >= 3])
def test_react_on_one_hand_of_a_constant_axis_then_copied_equals_a_full_pass(players: int, values: int,
                                                                           size: int) -> None:
    """On a table that is the same along player ``p``'s axis (eq. 5 made it so) and a reaction that skips
    ``p``: eq. 3 where ``p`` holds hand 0, then copied to ``p``'s other hands, gives the table, occupancy,
    changed blocks and result of a pass over every block, for each such ``p`` (rows of one and of several
    words)."""
    kernel = REACT_KERNEL.load()
    assert kernel is not None
    sp = tb.PackedSpace(Setup(players, values, size))
    h, n, w = sp.h, sp.n, sp.w
    rows, blocks = h ** (n - 1), h ** (n - 2)
    rng = np.random.default_rng(players * 10 + values)
    removed = 0
    for p in range(n - 2):
        for density in (0.3, 0.9):
            table = sp.fix(sp.pack(rng.random((h,) * n) < density), p, int(rng.integers(h)))
            act = rng.integers(-1, 2, n)
            act[p] = -1
            once = np.zeros((max(n - 2, 1), blocks * w), dtype=np.uint64)
            twice = np.zeros_like(once)
            full = [table.copy(), np.ones(blocks, dtype=np.uint8), np.zeros(blocks, dtype=np.uint8)]
            want = kernel.react_blocks(full[0].reshape(rows, w), full[1], h, n, act, once, twice, full[2])
            part = [table.copy(), np.ones(blocks, dtype=np.uint8), np.zeros(blocks, dtype=np.uint8)]
            got = kernel.react_blocks(part[0].reshape(rows, w), part[1], h, n, act, once, twice, part[2], p)
            kernel.fix_axis(part[0].reshape(rows, w), part[1], h, n, p, 0, sp.row_full, part[2])
            assert got == want and all(np.array_equal(a, b) for a, b in zip(part, full, strict=True)), (p, act)
            assert not once.any() and not twice.any()
            removed += int(want)
    assert removed, "some reaction removed worlds"


# -- which tables use the kernels ------------------------------------------------------------------------------

SOLVE = """
import json, sys
from sleuth.models.egghead.game import REACT_KERNEL
if sys.argv[2] == "loaded":
    REACT_KERNEL.load()
from sleuth.cli import main
main(["solve", sys.argv[1], "--json"])
print(json.dumps({"numba": "numba" in sys.modules}))
"""


@pytest.mark.parametrize("name", ["seed_example", "rotating_partial_ba", "rotating_two_stages", "viewer_cy"])
def test_a_fresh_process_answers_a_small_puzzle_without_the_kernels(name: str) -> None:
    """A command line's only answer on small tables (the bundled 4-player puzzles, 1.2 MB) runs the numpy masks
    without importing numba (0.4 s to load the kernels, 7-17 s to compile them the first time, against a few ms a
    round); its answer is that of a process that had the kernels loaded, which its tables then use."""
    path = str(PUZZLES / "egghead" / f"{name}.toml")
    outs = {}
    for state in ("cold", "loaded"):
        run = subprocess.run([sys.executable, "-c", SOLVE, path, state], capture_output=True, text=True, check=True)
        answer, numba = run.stdout.strip().rsplit("\n", 1)
        outs[state] = (json.loads(answer), json.loads(numba)["numba"])
    assert (outs["cold"][1], outs["loaded"][1]) == (False, True)
    for out in (outs["cold"][0], outs["loaded"][0]):
        out.pop("timing", None)
    assert outs["cold"][0] == outs["loaded"][0]
    assert outs["cold"][0]["valids"]


def test_large_tables_and_a_process_with_the_kernels_loaded_use_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables of 5 players (79 MB each) use the kernels from the first; smaller ones once the process has them
    (an experiment loads them before its first round), unless told otherwise."""
    with REACT_KERNEL.fresh():   # as in a process that has not loaded the kernels
        small, large = Setup(4, 6, 3), Setup(5, 6, 3)
        assert tb.table_bytes(small) < tb.KERNEL_FROM_BYTES <= tb.table_bytes(large)
        assert (tb.use_kernel(small), tb.use_kernel(large)) == (False, True)
        assert PackedTables(small, [True] * 4)._kernel is None
        kernel = REACT_KERNEL.load()
        assert kernel is not None and tb.use_kernel(small)
        assert PackedTables(small, [True] * 4)._kernel is kernel
        assert PackedTables(small, [True] * 4, compiled=False)._kernel is None
        monkeypatch.setenv(REACT_KERNEL.switch, "numpy")   # the switch turns them off, loaded or not
        assert REACT_KERNEL.load() is None and PackedTables(small, [True] * 4)._kernel is None
