"""Clue, what the other players know: nested counting against brute force over every deal and shown card,
claims, the show advice and the command line."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from sleuth.models.clue.state import Accusation, ClueState, Suggestion
from sleuth.models.clue.brute_force import brute_force_others
from sleuth.models.clue.others import PARTS, chances_others_know, show_advice, views
from sleuth.models.clue.viewsplit import ViewSplit
from sleuth.models.clue.simulate import simulate
from sleuth.loading import load_puzzle
from sleuth.results import decimal
from tests.conftest import PUZZLES
from tests.helpers.clue import SMALL, small_states

SMALL_DECK = PUZZLES / "clue" / "small-deck.toml"


@pytest.mark.parametrize(("seed", "players", "every", "games"), [
    (3, 3, 4, 1), (5, 2, 2, 1),
    pytest.param(11, 3, 1, 4, marks=pytest.mark.slow), pytest.param(12, 2, 1, 4, marks=pytest.mark.slow)])
def test_nested_counts_match_brute_force(seed: int, players: int, every: int, games: int) -> None:
    known = 0
    for game in small_states(seed, players, every, games):
        fast = chances_others_know(game)
        for p, row in fast.items():
            assert row == brute_force_others(game, p), (game, p)
            known += row["envelope"] > 0
    assert known  # some state has a player who may know the envelope


def test_view_weights_add_up_and_a_correct_accusation_tells_everyone() -> None:
    sim = simulate(3, random.Random(2), deck=SMALL)
    game = sim.view(0, 2)
    for p in (1, 2):
        found, denominator = views(game, p)
        assert sum(info.weight for info in found.values()) == denominator
    env = sim.envelope
    solved = ClueState(game.deck, game.players, game.hand_sizes, game.hands, game.suggestions,
                  (Accusation(1, env, True),), 0, 0)
    assert chances_others_know(solved) == {p: dict.fromkeys(PARTS, Fraction(1)) for p in (1, 2)}


def test_show_advice_matches_brute_force_knowledge() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(3):
        sim = simulate(3, rng, deck=SMALL)
        game = sim.view(0, len(sim.suggestions) // 2)
        hand = game.hands[0]
        triple = next(((s, w, r) for s in SMALL.members(0) for w in SMALL.members(1) for r in SMALL.members(2)
                       if len(hand & {s, w, r}) >= 2), None)
        if triple is None:
            continue
        rows = show_advice(game, 2, triple)   # the suggester sits after the viewer: nobody passes
        assert {r["card"] for r in rows} == hand & set(triple)
        for r in rows:
            after = ClueState(game.deck, game.players, game.hand_sizes, game.hands,
                         (*game.suggestions, Suggestion(2, triple, 0, r["card"])), game.accusations, 0, 0)
            assert r["knows"] == brute_force_others(after, 2)["envelope"]
            checked += 1
        entropies = [r["entropy"] for r in rows]
        assert entropies == sorted(entropies, reverse=True)
    assert checked


def _brute_force_small_deck() -> dict[str, dict[str, Fraction]]:
    """What each other player knows in small-deck.toml from Ann's side, by brute force over every deal."""
    game = load_puzzle(SMALL_DECK, viewer="Ann").state
    return {game.players[p]: brute_force_others(game, p) for p in range(len(game.players)) if p != game.viewer}


def test_solve_others_json_and_note(cli) -> None:
    want = _brute_force_small_deck()
    assert 0 < want["Bob"]["envelope"] < 1   # the note below has something to say
    res = cli(["solve", SMALL_DECK, "--viewer", "Ann", "--set", "others=true", "--json"])
    data = json.loads(res.out)
    assert res.code == 0
    assert data["others"] == {name: {part: str(p) for part, p in row.items()} for name, row in want.items()}
    envelope = decimal(want["Bob"]["envelope"])
    assert any(n.endswith(f": Bob may already be able to accuse: knows the envelope with probability {envelope}")
               for n in data["notes"])
    res = cli(["solve", SMALL_DECK, "--viewer", "Ann", "--others"])
    assert ": Bob may already be able to accuse" in res.err and "What the others know" in res.out
    assert "others" not in json.loads(cli(["solve", SMALL_DECK, "--json"]).out)


def test_knowledge_claims(cli) -> None:
    bob = _brute_force_small_deck()["Bob"]

    def verdict(p: Fraction) -> str:   # knows: in every world of Ann's; may know: in some
        return "entailed" if p == 1 else "refuted" if p == 0 else "open"

    claims = {"Bob knows the weapon": verdict(bob["weapon"]),
              "Bob may know the envelope": verdict(Fraction(bob["envelope"] > 0)),
              "Bob knows the envelope": verdict(bob["envelope"]),
              "not Bob knows the weapon": verdict(1 - bob["weapon"]),
              "bob MAY KNOW the room": verdict(Fraction(bob["room"] > 0))}
    assert set(claims.values()) == {"entailed", "refuted", "open"}   # every verdict is exercised
    res = cli(["verify", SMALL_DECK, "--viewer", "Ann", "--json", *(x for c in claims for x in ("--claim", c))])
    verdicts = [c["verdict"] for c in json.loads(res.out)["claims"]][-5:]
    assert verdicts == list(claims.values())
    assert str(bob["envelope"]) in json.loads(res.out)["claims"][-3]["detail"]


def test_show_advice_cli(cli) -> None:
    res = cli(["suggest", PUZZLES / "clue" / "classic-3-players.toml", "--json", "--set",
               "show=Bob: Scarlet, Candlestick, Ballroom"])
    data = json.loads(res.out)
    assert res.code == 0, res.err
    assert {r["card"] for r in data["ranking"]} == {"Scarlet", "Candlestick", "Ballroom"}
    assert data["show"] == data["ranking"][0]["card"]


@pytest.mark.parametrize(("args", "words"), [
    (["solve", SMALL_DECK, "--set", "others=maybe"], ["--others", "true or false"]),
    (["suggest", SMALL_DECK, "--viewer", "Ann", "--set", "show=Bob Ash Axe Attic"], ["--show", "PLAYER:"]),
    (["suggest", SMALL_DECK, "--viewer", "Ann", "--set", "show=Zed: Ash, Axe, Attic"], ["--show", "Zed"]),
    (["suggest", SMALL_DECK, "--viewer", "Ann", "--set", "show=Bob: Birch, Axe, Attic"], ["holds none"]),
    (["suggest", SMALL_DECK, "--set", "show=Bob: Ash, Axe, Attic"], ["viewer"]),
    (["suggest", PUZZLES / "clue" / "classic-3-players.toml", "--set", "show=Bob: Scarlet, Rope, Lounge"],
     ["--show", "Cat", "must hold"]),
    (["verify", SMALL_DECK, "--claim", "Zed knows the room"], ["Zed"]),
])
def test_bad_options_exit_2(cli, args: list[str], words: list[str]) -> None:
    res = cli(args)
    assert res.code == 2 and "Traceback" not in res.err
    assert all(w in res.err for w in words), res.err


def test_without_numba_the_passes_take_the_compiled_passes_card_order(
        monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Where numba is missing every split pass runs in numpy, in the card order the compiled passes take (the
    reverse of the counting order for a pass that does not resolve its showings): the bundled
    master-detective puzzle's --others took 8.5 s in the counting order, 1.7 s so.  (The answers do not depend on
    the order: the brute-force test above runs small numpy passes in both, a player's view in the reverse order
    and an outside observer's, resolving, in the counting order.)"""
    from sleuth.models.clue.game import SPLIT_KERNEL

    monkeypatch.setenv(SPLIT_KERNEL.switch, "numpy")   # every pass in numpy; others' choice told numba is there or not
    game = load_puzzle(PUZZLES / "clue" / "master-detective.toml").state
    original = ViewSplit.__init__
    orders: dict[bool, list[list[list[int]]]] = {}
    for numba in (True, False):
        seen = orders[numba] = []

        def init(self: ViewSplit, *args: object, _seen: list = seen, **kw: object) -> None:
            original(self, *args, **kw)
            _seen.append([g.cards for g in self.counter.groups])

        monkeypatch.setattr(ViewSplit, "__init__", init)
        monkeypatch.setattr(SPLIT_KERNEL, "available", lambda numba=numba: numba)
        chances_others_know(game)
    assert orders[False] == orders[True] and len(orders[True]) >= 6
