"""Every game is its declarative model: enumerating it on either engine gives exactly the worlds that the
game's plain-Python rules accept among every candidate world (brute force, on the small bundled puzzles).

Each game package's ``world`` module gives ``model``, ``check`` and ``candidates`` (see :mod:`sleuth.game`).
The exact derivations are held to the model in tests/conformance/test_conformance.py; this holds the model to the rules.
"""

from __future__ import annotations

import pytest

from sleuth.game import checked_worlds, model_worlds, world_module
from sleuth.loading import load_puzzle

# Small enough to list every candidate world (a few thousand at most) on both engines in the default run.
SMALL = ["cardguess/seed_example", "cardguess/complete_feedback", "cardguess/distinct_cards", "clue/small-deck",
         "epistemic/cheryl", "epistemic/consecutive-numbers", "epistemic/russian-cards",
         "epistemic/muddy-children-3", "epistemic/dining-cryptographers", "epistemic/sally-anne",
         "mascarade/seed-figure2", "mascarade/seed-figure3", "mascarade/five-players-middle", "mastermind/knuth",
         "egghead/seed_example_basic", "egghead/seed_example", "egghead/viewer_cy", "egghead/rotating_partial_ba"]


@pytest.mark.parametrize("backend", ["cpsat", "python-constraint"])
@pytest.mark.parametrize("ref", SMALL)
def test_the_model_admits_exactly_the_worlds_the_rules_accept(ref: str, backend: str) -> None:
    puzzle = load_puzzle(f"example:{ref}")
    from_model = model_worlds(puzzle, backend)
    assert from_model and from_model == checked_worlds(puzzle)


def test_a_rule_broken_in_the_check_would_show() -> None:
    """The comparison can fail: drop one observation from the model and the sets differ."""
    puzzle = load_puzzle("example:clue/small-deck")
    wm = world_module(puzzle).model(puzzle)
    from sleuth.engine import Engine

    dropped = "Ann's hand"
    assert dropped in [o.name for o in wm.model.observations]
    fewer = {wm.decode(v) for v in Engine(wm.model, "cpsat", assumptions=wm.model.observation_lits(
        [o.name for o in wm.model.observations if o.name != dropped])).valids(wm.variables)}
    assert fewer > checked_worlds(puzzle)


def test_every_built_in_game_has_a_world_module() -> None:
    from sleuth.registry import all_games

    for game in all_games():
        mod = game.world()
        assert all(callable(getattr(mod, f, None)) for f in ("model", "check", "candidates")), game.name
