"""One kernel object (:class:`sleuth.jit.Kernel`): its switch, whether numba is there, what this process loaded,
and the plain copy; the games' declarations are what the code asks."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

from sleuth.jit import Kernel
from sleuth.registry import all_games

HAS_NUMBA = importlib.util.find_spec("numba") is not None
TOY = "tests.helpers.toy_kernel"


def _toy(switch: str = "SLEUTH_TOY_KERNEL") -> Kernel:
    return Kernel(TOY, ("total", "_twice"), switch, "a toy", internal=("_twice",))


def test_the_switch_turns_a_kernel_off_whenever_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    toy = _toy()
    with toy.fresh():
        for value in ("numpy", "python", " NumPy "):
            monkeypatch.setenv(toy.switch, value)
            assert toy.switched_off() and not toy.available() and toy.load() is None
            assert toy.status().startswith(f"off ({toy.switch}=")
        assert toy.loaded()   # asked, whatever it answered
    monkeypatch.setenv(toy.switch, "")
    assert not toy.switched_off() and toy.available() == HAS_NUMBA
    assert not Kernel(TOY, ("total",)).switched_off()   # no switch: never off


def test_the_plain_copy_is_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    toy = _toy()
    plain = toy.plain()
    assert plain is toy.plain() and plain is not sys.modules.get(TOY)   # loaded once, a copy of its own
    assert plain.total(np.arange(5)) == 20 and not hasattr(plain.total, "signatures")


@pytest.mark.skipif(not HAS_NUMBA, reason="numba is not installed")
def test_a_kernel_loads_once_compiled_and_gives_the_plain_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    toy = _toy()
    monkeypatch.delenv(toy.switch, raising=False)
    with toy.fresh():
        assert not toy.loaded()
        compiled = toy.load()
        assert compiled is not None and toy.loaded() and toy.status().startswith("compiled with numba")
        assert compiled.total(np.arange(7)) == toy.plain().total(np.arange(7)) == 42
        assert compiled.total.signatures   # compiled, not the plain function
        assert _toy("").load() is compiled   # one state per module, whichever object asks
        monkeypatch.setenv(toy.switch, "numpy")
        assert toy.load() is None and toy.load(switch=False) is compiled   # tests comparing both ignore it
    # outside the block, as before it: not asked by this process unless an earlier test had


NO_NUMBA = """
import sys
sys.modules["numba"] = None   # import numba fails, find_spec finds nothing: as where it is not installed
from sleuth.jit import Kernel
toy = Kernel("tests.helpers.toy_kernel", ("total",), "SLEUTH_TOY_KERNEL")
print(toy.available(), toy.load() is None, toy.loaded(), toy.plain().total([1, 2]), toy.status(), sep="|")
"""


def test_without_numba_a_kernel_is_unavailable_and_says_why() -> None:
    run = subprocess.run([sys.executable, "-c", NO_NUMBA], capture_output=True, text=True, check=True,
                         env={k: v for k, v in os.environ.items() if k != "SLEUTH_TOY_KERNEL"})
    assert run.stdout.strip().split("|") == ["False", "True", "True", "6",
                                             "numba is not installed: the plain code runs"]


def test_every_kernel_a_game_declares_is_in_its_declaration_with_its_switch() -> None:
    """The kernels of the installed games: each has a switch named after its game and a summary for ``sleuth games``;
    the games of one package share theirs (compiled once)."""
    games = {g.name: g for g in all_games()}
    for game in games.values():
        for kernel in game.kernels:
            assert kernel.switch.startswith("SLEUTH_") and kernel.summary, (game.name, kernel.module)
            assert kernel.module.startswith(game.package + "._"), kernel.module
    assert games["wordle"].kernels == games["motus"].kernels == games["mastermind"].kernels
    assert {k.switch for k in games["clue"].kernels} == {"SLEUTH_CLUE_KERNEL"}


def test_games_lists_a_games_kernels_and_what_runs(cli, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SLEUTH_EGGHEAD_KERNEL", "numpy")
    out = cli(["games", "egghead"]).out
    assert "compiled kernels (sleuth cache compile compiles them ahead of time):" in out
    assert "eq. 2, 3 and 5 on the packed tables, over their blocks holding worlds: off (SLEUTH_EGGHEAD_KERNEL=numpy: " \
           "the plain code runs)" in out
