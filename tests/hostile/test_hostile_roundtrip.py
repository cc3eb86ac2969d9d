"""Property tests: a generated puzzle of each game, written as TOML and as JSON, loads to the same answer.

Generated puzzles may be contradictory (then both formats must report the same conflict); what must never
differ is the answer, and neither format may end in anything but a report or a clean PuzzleError.
"""

from __future__ import annotations

import json
from typing import Any

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sleuth.errors import SleuthError
from sleuth.loading import loads

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _answer(text: str, name: str) -> Any:
    try:
        report = loads(text, name=name).solve()
    except SleuthError as exc:
        return ("refused", str(exc).replace(name, "FILE"))
    out = report.to_json()
    out["notes"] = [n.replace(name, "FILE") for n in out["notes"]]
    return out


def _same_both_ways(doc: dict[str, Any]) -> None:
    as_toml = _answer(tomli_w.dumps(doc), "p.toml")
    as_json = _answer(json.dumps(doc), "p.json")
    assert as_toml == as_json


@st.composite
def clue(draw: st.DrawFn) -> dict[str, Any]:
    deck = {"suspects": ["Ash", "Birch", "Cedar"], "weapons": ["Club", "Dart"], "rooms": ["Hall", "Den", "Attic"]}
    players = ["Ann", "Bob", "Cat"][:draw(st.integers(2, 3))]
    cards = [c for group in deck.values() for c in group]
    doc: dict[str, Any] = {"game": "clue", "deck": deck, "players": players}
    suggestions = []
    for _ in range(draw(st.integers(0, 3))):
        by = draw(st.sampled_from(players))
        row: dict[str, Any] = {"by": by, "cards": [draw(st.sampled_from(g)) for g in deck.values()]}
        if draw(st.booleans()):
            row["shown_by"] = draw(st.sampled_from([p for p in players if p != by]))
        suggestions.append(row)
    if suggestions:
        doc["suggestion"] = suggestions
    if draw(st.booleans()):
        doc["viewer"] = players[0]
        doc["hands"] = {players[0]: draw(st.lists(st.sampled_from(cards), max_size=2, unique=True))}
    return doc


@st.composite
def egghead(draw: st.DrawFn) -> dict[str, Any]:
    players = ["A", "B", "C"][:draw(st.integers(2, 3))]
    hand = st.lists(st.integers(1, 3), min_size=2, max_size=2)
    rounds = [{"question": draw(st.sampled_from(["sum", "missing", "distinct", "pairs", "count-1", "high"]))}
              for _ in range(draw(st.integers(1, 3)))]
    return {"game": "egghead", "values": 3, "hand_size": 2, "players": players,
            "analysis": draw(st.sampled_from(["basic", "behavioural"])),
            "table": {p: draw(hand) for p in players}, "round": rounds}


@st.composite
def mastermind(draw: st.DrawFn) -> dict[str, Any]:
    code = st.text("123", min_size=3, max_size=3)
    guesses = []
    for _ in range(draw(st.integers(0, 3))):
        guesses.append({"code": draw(code), "feedback": {"black": draw(st.integers(0, 3)),
                                                         "white": draw(st.integers(0, 2))}})
    doc: dict[str, Any] = {"game": "mastermind", "pegs": 3, "colours": 3}
    if guesses:
        doc["guess"] = guesses
    return doc


@st.composite
def mascarade(draw: st.DrawFn) -> dict[str, Any]:
    players = ["Ann", "Bob", "Cat", "Dan"][:draw(st.integers(3, 4))]
    cards = ["King", "Queen", "Judge", "Thief"][:len(players)]
    events = []
    for _ in range(draw(st.integers(0, 4))):
        pair = draw(st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True))
        event: dict[str, Any] = {"swap": pair}
        if draw(st.booleans()):
            event["swapped"] = draw(st.booleans())
            event["public"] = True
        events.append(event)
    doc: dict[str, Any] = {"game": "mascarade", "players": players, "cards": cards}
    if events:
        doc["event"] = events
    return doc


@st.composite
def cardguess(draw: st.DrawFn) -> dict[str, Any]:
    deck = {"A": draw(st.integers(1, 3)), "B": draw(st.integers(1, 3)), "C": draw(st.integers(0, 2))}
    deck = {k: v for k, v in deck.items() if v}
    guesses = [{"card": draw(st.sampled_from(list(deck))), "correct": draw(st.booleans())}
               for _ in range(draw(st.integers(0, min(4, sum(deck.values())))))]
    doc: dict[str, Any] = {"game": "cardguess", "deck": deck}
    if guesses:
        doc["guess"] = guesses
    return doc


@st.composite
def epistemic(draw: st.DrawFn) -> dict[str, Any]:
    hi = draw(st.integers(2, 6))
    formulas = ["knows(S)", "not knows(S)", "knows(P)", "not knows(P)", "knows(S, not knows(P))"]
    anns = [{"formula": draw(st.sampled_from(formulas))} for _ in range(draw(st.integers(0, 2)))]
    doc: dict[str, Any] = {"game": "epistemic", "variables": {"x": f"1..{hi}", "y": f"1..{hi}"},
                           "agents": {"S": ["x + y"], "P": ["x * y"]}}
    if draw(st.booleans()):
        doc["constraints"] = ["x <= y"]
    if anns:
        doc["announcement"] = anns
    return doc


@SETTINGS
@given(clue())
def test_clue_round_trip(doc: dict[str, Any]) -> None:
    _same_both_ways(doc)


@SETTINGS
@given(egghead())
def test_egghead_round_trip(doc: dict[str, Any]) -> None:
    _same_both_ways(doc)


@SETTINGS
@given(mastermind())
def test_mastermind_round_trip(doc: dict[str, Any]) -> None:
    _same_both_ways(doc)


@SETTINGS
@given(mascarade())
def test_mascarade_round_trip(doc: dict[str, Any]) -> None:
    _same_both_ways(doc)


@SETTINGS
@given(cardguess())
def test_cardguess_round_trip(doc: dict[str, Any]) -> None:
    _same_both_ways(doc)


@SETTINGS
@given(epistemic())
def test_epistemic_round_trip(doc: dict[str, Any]) -> None:
    _same_both_ways(doc)


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(["wordle", "motus"]), st.lists(st.sampled_from(["CRANE", "SLOTH", "GHOST", "PIANO"]),
                                                      max_size=2, unique=True))
def test_word_games_round_trip(game: str, words: list[str]) -> None:
    doc: dict[str, Any] = {"game": game}
    if game == "motus":
        doc.update({"dictionary": "fr", "length": 5, "first": "P"})
        words = [w for w in ["PIANO", "PORTE", "POMME"] if w in words or w == "PORTE"][:1]
    guesses = [{"word": w, "secret": "PIANO" if game == "motus" else "GHOST"} for w in words]
    if guesses:
        doc["guess"] = guesses
    _same_both_ways(doc)
