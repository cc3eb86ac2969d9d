"""Conformance: every bundled puzzle x every exact derivation x both engines gives the model's answer.

Each game registers its derivations (``GameSpec.methods``, see :mod:`sleuth.derive`) and names the JSON fields
that make up its answer (``GameSpec.answer``: Clue's sheet, Motus's possible words, Mascarade's marginals...).
The reference is ``--method model`` on CP-SAT: the declarative model's own answer.  Every other exact
derivation must give the same fields; a derivation that runs on an engine (``model``, Clue's ``naive``) is run
on both CP-SAT and python-constraint.

Size rule (documented here, as the issue allows): python-constraint is a plain backtracking solver, so its
legs run in the default test run only for the small puzzles in ``ENGINE_SMALL``; the others (and Clue's
``naive`` method, two solver calls per cell, on the larger Clue files) run with ``-m slow``; so do the
python-constraint legs of Egghead's behavioural ``model`` (50 s to 5 min each: its first answer lists up to
20,000 hand combinations by plain backtracking).

Every refusal is listed in :data:`EXPECTED_REFUSALS` (puzzle x derivation x engine, with the reason the message
gives); any other refusal, limit or labelled timeout fails the test.  The only leg allowed to stop on its
budget is a python-constraint leg outside ``ENGINE_SMALL`` past :data:`SLOW_LEG_SECONDS`, and only on the
solver's timeout: it is skipped, saying so, unless :data:`PAST_BUDGET` lists it as a strict expected failure.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from sleuth.backends import SolverTimeout
from sleuth.derive import Derivation, NotServed
from sleuth.registry import find_game
from sleuth.loading import load_puzzle
from sleuth.resources import examples


# puzzles small enough for every engine leg in the default run (a few seconds each on the 2-core machine)
ENGINE_SMALL = {
    "cardguess/complete_feedback", "cardguess/seed_example", "clue/small-deck", "egghead/seed_example_basic",
    "epistemic/cheryl", "epistemic/consecutive-numbers", "epistemic/dining-cryptographers",
    "epistemic/drinking-logicians", "epistemic/muddy-children-3", "epistemic/muddy-children-4",
    "epistemic/muddy-children-some-hear", "epistemic/russian-cards", "epistemic/sally-anne",
    "epistemic/what-sum-10", "mascarade/seed-figure2", "mascarade/seed-figure3", "mastermind/knuth",
}
NAIVE_SMALL = {"clue/small-deck", "clue/classic-3-players", "clue/rules-stop-short"}
SLOW_LEG_SECONDS = 900   # the budget of a python-constraint leg outside ENGINE_SMALL (run with -m slow)

# (puzzle, derivation, engine) -> what its one-line refusal (exit status 2) says: the only refusals allowed
EXPECTED_REFUSALS = {
    ("cardguess/complete_feedback", "filter", "cpsat"): "the source paper's filter follows partial feedback only",
}
# (puzzle, derivation, engine) -> why it runs past SLOW_LEG_SECONDS: a strict expected failure on the timeout
PAST_BUDGET = {
    ("mascarade/thirteen-players", "model", "python-constraint"):
        "plain backtracking checks a constraint only once all its variables are set: 96 histories behind 28 "
        "unknown swaps ran past 35 minutes",
}


def _exact(game: str) -> list[Derivation]:
    return [d for d in find_game(game).methods if d.exact]


def _answer(ref: str, method: str, backend: str) -> dict[str, Any]:
    """The answer fields of ``solve`` with this method on this engine.

    A python-constraint leg outside ``ENGINE_SMALL`` has :data:`SLOW_LEG_SECONDS`; past it (the solver's
    timeout, nothing else) the leg is skipped, saying so, unless :data:`PAST_BUDGET` expects it to fail."""
    puzzle = load_puzzle(f"example:{ref}")
    options: dict[str, Any] = {"method": method}
    budget = backend == "python-constraint" and ref not in ENGINE_SMALL
    if budget:
        options["time-limit"] = SLOW_LEG_SECONDS
    try:
        data = puzzle.solve(backend=backend, options=options).to_json()
        if data["status"] == "timeout" and str(data.get("reason")).startswith("the time limit of"):
            raise SolverTimeout(data["reason"])   # the same timeout, reported (Mascarade) rather than raised
    except SolverTimeout:
        if not budget or (ref, method, backend) in PAST_BUDGET:
            raise
        pytest.skip(f"python-constraint ran past its {SLOW_LEG_SECONDS} s budget (a labelled timeout)")
    assert data["status"] != "timeout", f"{ref}: --method {method} on {backend} stopped at a limit: {data}"
    assert data["method"] == method and data["backend"] == (backend if _derivation(ref, method).engine else None)
    return {k: data.get(k) for k in find_game(puzzle.game).answer} | {"status": data["status"]}


def _derivation(ref: str, method: str) -> Derivation:
    return next(d for d in find_game(ref.split("/")[0]).methods if d.name == method)


def _marks(ref: str, method: str, backend: str) -> list[pytest.MarkDecorator]:
    small = ref in ENGINE_SMALL if backend == "python-constraint" else (method != "naive" or ref in NAIVE_SMALL)
    marks = [] if small else [pytest.mark.slow, pytest.mark.long]   # a leg may take SLOW_LEG_SECONDS: not in CI
    if (ref, method, backend) in PAST_BUDGET:
        marks.append(pytest.mark.xfail(strict=True, raises=SolverTimeout, reason=PAST_BUDGET[ref, method, backend]))
    return marks


CASES = []
for ex in examples():
    game = ex.ref.split("/")[0]
    for d in _exact(game):
        for backend in ("cpsat", "python-constraint") if d.engine else ("cpsat",):
            if (d.name, backend) != ("model", "cpsat"):  # that one is the reference
                CASES.append(pytest.param(ex.ref, d.name, backend, id=f"{ex.ref}-{d.name}-{backend}",
                                          marks=_marks(ex.ref, d.name, backend)))

_REFERENCE: dict[str, Any] = {}


def reference(ref: str) -> dict[str, Any]:
    """The model's answer on CP-SAT (every bundled puzzle has one)."""
    if ref not in _REFERENCE:
        _REFERENCE[ref] = _answer(ref, "model", "cpsat")
    return _REFERENCE[ref]


@pytest.mark.parametrize("ref, method, backend", CASES)
def test_every_exact_derivation_gives_the_models_answer(ref: str, method: str, backend: str) -> None:
    why = EXPECTED_REFUSALS.get((ref, method, backend))
    if why is not None:   # listed: it must refuse, saying why (the command line is checked below)
        with pytest.raises(NotServed, match=re.escape(why)):
            _answer(ref, method, backend)
        return
    assert _answer(ref, method, backend) == reference(ref), f"{ref}: --method {method} on {backend} differs"


def test_the_tables_name_cases_that_run() -> None:
    ids = {tuple(c.values) for c in CASES}
    assert set(EXPECTED_REFUSALS) <= ids and set(PAST_BUDGET) <= ids


def test_every_game_registers_model_and_a_default_exact_method() -> None:
    from sleuth.registry import all_games

    for spec in all_games():
        names = [d.name for d in spec.methods]
        assert "model" in names and spec.methods[0].exact and spec.answer, spec.name
        assert all(d.engine for d in spec.methods if d.name == "model")


@pytest.mark.parametrize(("key", "says"), EXPECTED_REFUSALS.items(), ids=["-".join(k) for k in EXPECTED_REFUSALS])
def test_a_method_that_cannot_serve_says_so(cli, key: tuple[str, str, str], says: str) -> None:
    ref, method, backend = key
    res = cli(["solve", f"example:{ref}", "--method", method, "--backend", backend])
    assert res.code == 2 and says in res.err and "--method" in res.err
    assert len(res.err.strip().splitlines()) == 1


def test_backend_never_switches_the_algorithm(cli) -> None:
    import json

    res = cli(["solve", "example:clue/classic-3-players", "--backend", "python-constraint", "--json"])
    data = json.loads(res.out)
    assert data["method"] == "count" and data["backend"] is None
    assert "--backend python-constraint is not used" in res.err
    res = cli(["solve", "example:motus/seed-table2", "--backend", "python-constraint", "--method", "model", "--json"])
    data = json.loads(res.out)
    assert data["method"] == "model" and data["backend"] == "python-constraint"


def test_approximate_methods_are_labelled(cli) -> None:
    import json

    res = cli(["solve", "example:clue/rules-stop-short", "--method", "rules", "--json"])
    assert json.loads(res.out)["exact"] is False


@pytest.mark.parametrize("landing", [1, 2, 3])
def test_a_time_limit_inside_a_solve_is_a_timeout_never_a_contradiction(cli, monkeypatch, landing: int) -> None:
    """python-constraint swallows the interrupt as 'unknown'; that must end as exit 3, not as 'no world'.

    The deadline's exception is made to land inside the consistency check or a cell's solve (the first,
    second or third enumeration), as the timer's would, so the outcome does not depend on the machine's speed."""
    import constraint

    plain = constraint.Problem.getSolutionIter
    calls = 0

    def interrupted(self):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        if calls == landing:
            raise SolverTimeout("the time limit of 1000 s was reached")
        yield from plain(self)

    monkeypatch.setattr(constraint.Problem, "getSolutionIter", interrupted)
    res = cli(["solve", "example:clue/small-deck", "--method", "naive", "--backend", "python-constraint",
               "--time-limit", "1000"])
    assert calls >= landing and res.code == 3 and "time limit" in res.err, (calls, res.code, res.err)


def test_clue_model_enumeration_honours_max_worlds(cli) -> None:
    res = cli(["solve", "example:clue/small-deck", "--method", "model", "--probabilities", "--set", "max_worlds=2"])
    assert res.code == 2 and "more than 2 consistent deals" in res.err and "--method count" in res.err
