"""Egghead's compiled eq. 2, 3 and 5 (models/egghead/_react_kernel.py) against the numpy masks, table for table,
on random games of 2 to 5 players, hands of one and of several 64-bit words, with and without a moderator."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from sleuth.models.egghead import tables as tb
from sleuth.models.egghead.hands import Setup
from sleuth.models.egghead.tables import PackedTables

from tests.games.test_egghead import _play, random_game

pytestmark = pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="no numba")

SETUPS = [(2, 3, 2), (3, 3, 2), (3, 4, 2), (4, 3, 2), (5, 2, 2), (3, 6, 4), (2, 8, 4)]  # the last two: 126 and
# 330 hands, rows of 2 and 6 words


@pytest.mark.parametrize("players,values,size", SETUPS)
def test_kernel_and_numpy_masks_give_the_same_tables(monkeypatch: pytest.MonkeyPatch, players: int, values: int,
                                                      size: int) -> None:
    kernel = tb.react_kernel()
    assert kernel is not None
    s = Setup(players, values, size)
    rng = np.random.default_rng(players * 100 + values * 10 + size)
    for game in range(6):
        qs, ba, moderator, world0, deals, order = random_game(rng, s, game)
        compiled = PackedTables(s, ba)
        got = _play(compiled, s, qs, world0, deals, order, moderator)
        monkeypatch.setattr(tb, "react_kernel", lambda: None)
        plain = PackedTables(s, ba)
        want = _play(plain, s, qs, world0, deals, order, moderator)
        monkeypatch.setattr(tb, "react_kernel", lambda: kernel)
        assert got == want, (players, values, size, game, ba, moderator)
        for mine, theirs in zip(compiled.tables(), plain.tables(), strict=True):
            assert np.array_equal(mine, theirs)


def test_react_table_on_random_tables_matches_singleton_keep() -> None:
    """eq. 3 for any set of reacting players, on random (not game-reachable) tables, as the numpy masks
    compute it: every mask from the table as given, then intersected."""
    kernel = tb.react_kernel()
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
