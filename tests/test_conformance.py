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
20,000 hand combinations by plain backtracking).  A derivation other than the reference that cannot serve a
puzzle says so: an error with exit status 2 (the card-guessing seed filter on complete feedback) or a labelled
timeout (Mascarade's model past ``cpsat_limit`` histories).  The model serves every bundled puzzle on CP-SAT.
"""

from __future__ import annotations

from typing import Any

import pytest

from sleuth.derive import Derivation, NotServed
from sleuth.limits import LimitReached
from sleuth.registry import find_game
from sleuth.puzzle import load_puzzle
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


def _exact(game: str) -> list[Derivation]:
    return [d for d in find_game(game).methods if d.exact]


def _answer(ref: str, method: str, backend: str) -> dict[str, Any] | None:
    """The answer fields of ``solve`` with this method on this engine (None: the method cannot serve it).

    A slow python-constraint leg has :data:`SLOW_LEG_SECONDS`; past it the leg is skipped, saying so (plain
    backtracking checks a constraint only once all its variables are set: Mascarade's thirteen players,
    96 histories behind 28 unknown swaps, ran past 35 minutes)."""
    puzzle = load_puzzle(f"example:{ref}")
    options: dict[str, Any] = {"method": method}
    if backend == "python-constraint" and ref not in ENGINE_SMALL:
        options["time-limit"] = SLOW_LEG_SECONDS
    try:
        report = puzzle.solve(backend=backend, options=options)
    except NotServed:  # a clean refusal, checked on the command line below
        return None
    except LimitReached:
        pytest.skip(f"python-constraint ran past its {SLOW_LEG_SECONDS} s budget (a labelled timeout)")
    data = report.to_json()
    if data["status"] == "timeout":
        if "time-limit" in options:
            pytest.skip(f"python-constraint ran past its {SLOW_LEG_SECONDS} s budget (a labelled timeout)")
        assert method == "model", data  # a labelled limit (Mascarade's model past cpsat_limit): nothing to compare
        return None
    assert data["method"] == method and data["backend"] == (backend if _derivation(ref, method).engine else None)
    return {k: data.get(k) for k in find_game(puzzle.game).answer} | {"status": data["status"]}


def _derivation(ref: str, method: str) -> Derivation:
    return next(d for d in find_game(ref.split("/")[0]).methods if d.name == method)


def _marks(ref: str, method: str, backend: str) -> list[pytest.MarkDecorator]:
    small = ref in ENGINE_SMALL if backend == "python-constraint" else (method != "naive" or ref in NAIVE_SMALL)
    return [] if small else [pytest.mark.slow]


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
        answer = _answer(ref, "model", "cpsat")
        assert answer is not None, f"{ref}: --method model on cpsat gives no answer"
        _REFERENCE[ref] = answer
    return _REFERENCE[ref]


@pytest.mark.parametrize("ref, method, backend", CASES)
def test_every_exact_derivation_gives_the_models_answer(ref: str, method: str, backend: str) -> None:
    got = _answer(ref, method, backend)
    want = reference(ref)
    if got is None:   # this method cannot serve the puzzle (a clear refusal or a labelled timeout); auto can
        return
    assert got == want, f"{ref}: --method {method} on {backend} differs from the model's answer"


def test_every_game_registers_model_and_a_default_exact_method() -> None:
    from sleuth.registry import all_games

    for spec in all_games():
        names = [d.name for d in spec.methods]
        assert "model" in names and spec.methods[0].exact and spec.answer, spec.name
        assert all(d.engine for d in spec.methods if d.name == "model")


@pytest.mark.parametrize(("ref", "method", "says"), [
    ("cardguess/complete_feedback", "filter", "partial feedback only")])
def test_a_method_that_cannot_serve_says_so(cli, ref: str, method: str, says: str) -> None:
    res = cli(["solve", f"example:{ref}", "--method", method])
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


def test_a_time_limit_inside_a_solve_is_a_timeout_never_a_contradiction(cli) -> None:
    """python-constraint swallows the interrupt as 'unknown'; that must end as exit 3, not as 'no world'."""
    res = cli(["solve", "example:clue/four-players-uneven", "--method", "naive", "--backend", "python-constraint",
               "--time-limit", "1"])
    assert res.code == 3 and "time limit" in res.err, (res.code, res.err)


def test_clue_model_enumeration_honours_max_worlds(cli) -> None:
    res = cli(["solve", "example:clue/small-deck", "--method", "model", "--probabilities", "--set", "max_worlds=2"])
    assert res.code == 2 and "more than 2 consistent deals" in res.err and "--method count" in res.err
