"""The model layer on domains that look boolean (``0..1``, ``0..0``, ``1..1``): both backends against brute force.

An indicator ``x == v`` for a value outside ``x``'s domain is the constant false literal; it used to become
``x == 1`` when ``x`` ranged over ``0..1`` (the Mascarade ``AssertionError`` of issue 13).
"""

from __future__ import annotations

import itertools
import random
import threading
from collections.abc import Callable

import pytest

from sleuth.engine import Engine
from sleuth.model import Model, Var
from sleuth.results import Verdict
from tests.conftest import BACKENDS, run_cli


def _brute(m: Model) -> list[dict[Var, int]]:
    """Every full assignment satisfying the model with all observations on."""
    obs = {o.lit.var for o in m.observations}
    out = []
    for values in itertools.product(*(range(v.lo, v.hi + 1) for v in m.variables)):
        world = dict(zip(m.variables, values, strict=True))
        if any(world[v] != 1 for v in obs):
            continue
        if not m.check(world):
            out.append(world)
    return out


def _random_model(rng: random.Random) -> tuple[Model, list[Var]]:
    m = Model()
    domains = [(0, 0), (1, 1), (0, 1), (0, 2), (1, 2), (2, 3)]
    xs = [m.int_var(*rng.choice(domains), f"x{i}") for i in range(3)]
    with m.observation("sum"):
        m.add(xs[0] + xs[1] + xs[2] <= rng.randint(1, 6))
    return m, xs


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("seed", range(12))
def test_indicators_match_brute_force(backend: str, seed: int) -> None:
    rng = random.Random(seed)
    m, xs = _random_model(rng)
    worlds = _brute(m)
    engine = Engine(m, backend)
    for x in xs:
        for value in range(-1, 4):
            lit = m.indicator(x, value)
            truth = {w[x] == value for w in worlds}
            expected = (Verdict.CONTRADICTION if not worlds else Verdict.ENTAILED if truth == {True}
                        else Verdict.REFUTED if truth == {False} else Verdict.OPEN)
            assert engine.verify(lit, f"{x} == {value}").verdict is expected, (x, x.lo, x.hi, value)


@pytest.mark.parametrize("backend", BACKENDS)
def test_out_of_domain_value_is_false_not_one(backend: str) -> None:
    m = Model()
    x = m.int_var(0, 1, "x")
    y = m.int_var(1, 1, "y")
    assert m.indicator(x, 2) == m.false_lit() and m.indicator(y, 2) == m.false_lit()
    with m.observation("x is one"):
        m.add(x == 1)
    engine = Engine(m, backend)
    assert engine.verify(m.indicator(x, 2)).verdict is Verdict.REFUTED
    assert engine.verify(m.indicator(y, 1)).verdict is Verdict.ENTAILED
    assert engine.verify(m.indicator(y, 0)).verdict is Verdict.REFUTED
    assert engine.count([x, y]) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_mascarade_without_events_refutes(tmp_path, backend: str) -> None:
    f = tmp_path / "m3.toml"
    f.write_text('game = "mascarade"\nplayers = ["Ann", "Bob", "Cat"]\ncards = ["King", "Queen", "Judge"]\n')
    expected = {"Bob holds Judge": "refuted", "Bob holds Queen": "entailed", "not Cat holds King": "entailed",
                "Ann holds Judge": "refuted"}
    for claim, verdict in expected.items():
        r = run_cli(["verify", f, "--claim", claim, "--backend", backend])
        assert f": {verdict}" in r.out.splitlines()[0], (claim, r.out, r.err)
        assert "Traceback" not in r.err




def _deck16() -> str:
    deck = ", ".join(f"T{i} = 7" for i in range(16))
    guesses = "".join(f'[[guess]]\ncard = "T{(i * 7) % 16}"\ncorrect = false\n' for i in range(40))
    return f'game = "cardguess"\ndeck = {{{deck}}}\n{guesses}'


def _tick() -> None:
    """One Python call (the work below counts in calls)."""


def _run(work: Callable[[], None], in_thread: bool) -> None:
    """``work()`` here, in the main thread, or in a thread of its own (waited for)."""
    if in_thread:
        worker = threading.Thread(target=work)
        worker.start()
        worker.join()
    else:
        work()


@pytest.mark.parametrize("in_thread", [False, True])
def test_a_swallowed_interrupt_lands_again(in_thread: bool) -> None:
    """In the main thread (a timer signal) and in any other (an asynchronous exception), work that swallows the
    deadline's interrupt (as Python does inside a garbage-collector callback or ``__del__``) is interrupted
    again, within a million calls; once the block is left nothing lands."""
    import time

    from sleuth import limits
    from sleuth.backends import SolverTimeout
    from tests.steps import StepBudgetExceeded, call_budget

    outcome: list[object] = []

    def run() -> None:
        swallowed = 0
        try:
            with call_budget(10 ** 6, when=limits.expired), limits.deadline(0.05):
                while True:
                    try:
                        while True:
                            _tick()
                    except SolverTimeout:
                        swallowed += 1
                        if swallowed == 2:
                            raise
        except (SolverTimeout, StepBudgetExceeded) as exc:
            outcome.append((swallowed, exc))
        time.sleep(4 * limits.RETRY)   # a stray interrupt after the block would land here
        outcome.append("after")

    _run(run, in_thread)
    assert len(outcome) == 2 and outcome[1] == "after", outcome
    swallowed, exc = outcome[0]  # type: ignore[misc]
    assert swallowed == 2 and isinstance(exc, SolverTimeout), outcome


@pytest.mark.parametrize("in_thread", [False, True])
def test_time_limit_interrupts_pure_python_work(in_thread: bool) -> None:
    """The deadline lands in the main thread (a timer signal) and in any other thread (an async exception).

    Bounded in steps, not seconds: once the deadline has passed, the game's pure Python work may make at most
    a million more calls before the interrupt stops it (the thread's wait is bounded by the same budget)."""
    from sleuth import limits
    from sleuth.backends import SolverTimeout
    from sleuth.loading import loads
    from tests.steps import StepBudgetExceeded, call_budget

    puzzle = loads(_deck16(), name="deck16.toml")
    outcome: list[object] = []

    def run() -> None:
        try:
            with call_budget(10 ** 6, when=limits.expired):
                puzzle.suggest(options={"time-limit": 0.2, "max_worlds": 10 ** 8})
            outcome.append("finished")
        except (SolverTimeout, StepBudgetExceeded) as exc:
            outcome.append(exc)

    _run(run, in_thread)
    assert len(outcome) == 1 and isinstance(outcome[0], SolverTimeout), outcome


def test_valids_stay_within_the_memory_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from sleuth.limits import TooLarge

    m = Model()
    xs = [m.int_var(0, 9, f"x{i}") for i in range(3)]
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "20K")
    with pytest.raises(TooLarge, match="distinct solutions"):
        sum(1 for _ in Engine(m).valids(xs))
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "1M")
    assert Engine(m).count(xs) == 1000


@pytest.mark.parametrize("text", ["0", "-3G", "lots", "1.5X"])
def test_a_bad_memory_budget_is_bad_input(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    from sleuth.errors import PuzzleError
    from sleuth.limits import memory_budget

    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", text)
    with pytest.raises(PuzzleError, match="SLEUTH_MEMORY_BUDGET"):
        memory_budget()
