"""Mascarade, what the other players believe from the viewer's side: against brute force over every swap
outcome, the claims on nested beliefs and the command line."""

from __future__ import annotations

import dataclasses
import itertools
import json
from functools import cache
from fractions import Fraction

import pytest

from sleuth.models.mascarade.nested import Nested, brute_force_nested, completed, nested, worlds
from sleuth.models.mascarade.state import MascaradeState, MissingFact, SwapStep
from sleuth.models.mascarade.simulation import simulate
from sleuth.loading import load_puzzle
from tests.conftest import PUZZLES

SIX = PUZZLES / "mascarade" / "six-players.toml"


@pytest.mark.parametrize(("players", "events", "middle", "seed"), [(3, 6, 0, 1), (3, 7, 1, 2), (4, 7, 0, 3)])
def test_nested_beliefs_match_brute_force(players: int, events: int, middle: int, seed: int) -> None:
    game = simulate(players, events, seed, middle=middle)
    certain = 0
    for viewer in (None, *range(players)):
        fast = nested(game, viewer)
        assert fast == brute_force_nested(game, viewer)
        for n in fast:
            assert sum(n.own.values()) == 1 and all(sum(row.values()) == 1 for row in n.about.values())
            certain += n.knows_own > 0
    assert certain   # some player may be sure of their card


# (puzzle, viewer): the brute force over every swap outcome takes minutes on six players, so that one is slow
VIEWED = [pytest.param("seed-figure3", "J2", id="seed-figure3"),
          pytest.param("six-players", "Ann", id="six-players", marks=pytest.mark.slow)]


@cache
def _brute_force(name: str, viewer: str) -> tuple[list[str], list[str], int, dict[str, Nested]]:
    """The puzzle from the viewer's side by brute force over every swap outcome: players, cards, the viewer's
    position and each other player's beliefs."""
    puzzle = load_puzzle(PUZZLES / "mascarade" / f"{name}.toml", viewer=viewer)
    g = puzzle.state
    return list(g.players), list(g.identities), puzzle.viewer, {
        g.players[n.player]: n for n in brute_force_nested(g, puzzle.viewer)}


@pytest.mark.parametrize(("name", "viewer"), VIEWED)
def test_solve_others_json(cli, name: str, viewer: str) -> None:
    players, cards, position, want = _brute_force(name, viewer)
    path = PUZZLES / "mascarade" / f"{name}.toml"
    res = cli(["solve", path, "--viewer", viewer, "--set", "others=true", "--json"])
    data = json.loads(res.out)
    assert res.code == 0
    assert data["safe_claims"] == [who for who in players if who in want and want[who].knows_own == 1]
    assert data["safe_claims"] and len(data["safe_claims"]) < len(want)   # some players are sure, not all
    assert data["others"] == {who: {
        "knows_own_card": str(n.knows_own), "own": {cards[c]: str(p) for c, p in n.own.items()},
        "about_viewer": {cards[c]: str(p) for c, p in n.about.get(position, {}).items()}} for who, n in want.items()}
    assert "others" not in json.loads(cli(["solve", path, "--json"]).out)


@pytest.mark.parametrize(("name", "viewer"), VIEWED)
def test_nested_claims(cli, name: str, viewer: str) -> None:
    _, cards, position, want = _brute_force(name, viewer)
    claims: dict[str, bool] = {}
    for who, n in want.items():
        claims |= {f"P({who} knows their card) = {n.knows_own}": True, f"{who} may know their card": n.knows_own > 0,
                   f"not {who} may know their card": n.knows_own == 0}
        for c, p in n.about.get(position, {}).items():
            claims |= {f"P({who} believes {viewer} holds {cards[c]}) = {p}": True,
                       f"P({who} believes {viewer} holds {cards[c]}) > {p}": False}
    assert set(claims.values()) == {True, False}
    res = cli(["verify", PUZZLES / "mascarade" / f"{name}.toml", "--viewer", viewer, "--json",
               *(x for c in claims for x in ("--claim", c))])
    verdicts = [c["verdict"] for c in json.loads(res.out)["claims"]][-len(claims):]
    assert verdicts == ["entailed" if holds else "refuted" for holds in claims.values()]


def test_second_order_belief_is_the_viewers_expectation() -> None:
    game = simulate(3, 6, 5)
    for n in nested(game, 0):
        assert all(p > 0 for p in n.about[0].values())
        assert sum(n.about[0].values()) == Fraction(1)


@pytest.mark.parametrize(("args", "words"), [
    (["solve", SIX, "--set", "others=maybe"], ["--set others", "true or false"]),
    (["verify", SIX, "--claim", "P(Zed knows his card) = 1"], ["Zed"]),
    (["verify", SIX, "--claim", "P(Bob believes Ann holds Crown) = 1"], ["Crown"]),
])
def test_bad_input_exit_2(cli, args: list[str], words: list[str]) -> None:
    res = cli(args)
    assert res.code == 2 and "Traceback" not in res.err
    assert all(w in res.err for w in words), res.err


def test_too_many_hidden_swaps_is_labelled(cli) -> None:
    res = cli(["solve", PUZZLES / "mascarade" / "thirteen-players.toml", "--set", "others=true", "--json"])
    data = json.loads(res.out)
    assert "others" not in data and "swaps the viewer did not see" in data["others_reason"]


def _every_outcome(game: MascaradeState, viewer: int | None) -> list[tuple[MascaradeState, Fraction]]:
    """The viewer's worlds as listed before the depth-first walk: every outcome of the swaps the viewer did
    not see, each completed, kept when the viewer's steps in it are the file's."""
    def key(g: MascaradeState) -> tuple[object, ...]:
        return tuple((s.a, s.b, s.outcome) if isinstance(s, SwapStep) else (s.position, s.identity)
                     for s in g.steps_for(viewer))

    swaps = [e for e in game.events if e.pair is not None]
    hidden = [k for k, e in enumerate(swaps) if not (e.public or (viewer is not None and e.actor == viewer))]
    out = []
    for bits in itertools.product((False, True), repeat=len(hidden)):
        outcomes = dict(zip(hidden, bits, strict=True))
        w = Fraction(1)
        for b in bits:
            w *= game.swap_probability if b else 1 - game.swap_probability
        world = completed(game, [outcomes.get(k, bool(e.swapped)) for k, e in enumerate(swaps)])
        if w and key(world) == key(game):
            out.append((world, w))
    return out


@pytest.mark.parametrize("name", ["seed-figure2", "seed-figure3", "five-players-middle", "six-players"])
def test_worlds_walk_lists_what_every_outcome_lists(name: str) -> None:
    """The depth-first walk of :func:`worlds` (branches left where a card the viewer saw differs) gives the
    worlds, weights and order of listing every outcome, for every viewer of the bundled games and of simulated
    ones with a swap that always or never happens."""
    games = [load_puzzle(PUZZLES / "mascarade" / f"{name}.toml").state]
    if name == "seed-figure2":
        games += [simulate(4, 8, seed, middle=seed % 2) for seed in range(4)]
        games += [dataclasses.replace(g, swap_probability=p) for g in games[1:3] for p in (Fraction(0), Fraction(1))]
    listed = 0
    for game in games:
        for viewer in (None, *range(len(game.players))):
            try:
                want = _every_outcome(game, viewer)
            except MissingFact:
                continue
            assert list(worlds(game, viewer)) == want
            listed += len(want)
    assert listed
