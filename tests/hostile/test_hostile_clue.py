"""Broken Clue puzzle files: exit status 2, one line, no traceback, the file, the place and what is allowed."""

from __future__ import annotations

import pytest

BASE = 'game = "clue"\nplayers = ["Ann", "Bob", "Cat"]\n'
SUGG = '\n[[suggestion]]\nby = "Ann"\n'

CASES = [
    ("unknown card", BASE + SUGG + 'cards = ["Scarlet", "Rope", "Kitchn"]\n', "suggestion[1].cards[3]",
     "unknown card 'Kitchn'"),
    ("unknown player", BASE + SUGG.replace("Ann", "Zed") + 'cards = ["Scarlet", "Rope", "Kitchen"]\n',
     "suggestion[1].by", "unknown player 'Zed'"),
    ("unknown shower", BASE + SUGG + 'cards = ["Scarlet", "Rope", "Kitchen"]\nshown_by = "Zed"\n',
     "suggestion[1].shown_by", "allowed: Ann, Bob, Cat"),
    ("hand sizes do not add up", BASE + "hand_sizes = [6, 6, 5]\n", "hand_sizes", "add up to 17"),
    ("hand sizes: wrong count", BASE + "hand_sizes = [9, 9]\n", "hand_sizes", "has 2 items"),
    ("negative hand size", BASE + "hand_sizes = [20, -1, -1]\n", "hand_sizes[2]", "negative"),
    ("shown card not suggested", BASE + SUGG + 'cards = ["Scarlet", "Rope", "Kitchen"]\nshown_by = "Bob"\n'
     'card = "Knife"\n', "suggestion[1].card", "allowed: Scarlet, Rope, Kitchen"),
    ("two weapons", BASE + SUGG + 'cards = ["Knife", "Rope", "Kitchen"]\n', "suggestion[1].cards",
     "names two weapons"),
    ("two cards", BASE + SUGG + 'cards = ["Scarlet", "Rope"]\n', "suggestion[1].cards", "has 2 items"),
    ("card without shower", BASE + SUGG + 'cards = ["Scarlet", "Rope", "Kitchen"]\ncard = "Rope"\n',
     "suggestion[1].card", "no shown_by"),
    ("shows to self", BASE + SUGG + 'cards = ["Scarlet", "Rope", "Kitchen"]\nshown_by = "Ann"\n',
     "suggestion[1].shown_by", "to themselves"),
    ("typo in key", BASE + SUGG + 'cards = ["Scarlet", "Rope", "Kitchen"]\nshownby = "Bob"\n',
     "suggestion[1].shownby", "unknown key"),
    ("accusation without correct", BASE + '\n[[accusation]]\nby = "Bob"\ncards = ["Scarlet", "Rope", "Hall"]\n',
     "accusation[1].correct", "is required"),
    ("accusation naming two rooms", BASE + '\n[[accusation]]\nby = "Bob"\ncards = ["Hall", "Rope", "Study"]\n'
     "correct = false\n", "accusation[1].cards", "names two rooms"),
    ("card in two hands", BASE + '[hands]\nAnn = ["Rope"]\nBob = ["rope"]\n', "hands.Bob[1]",
     "also in Ann's hand"),
    ("hand too big", BASE + 'hand_sizes = [1, 9, 8]\n[hands]\nAnn = ["Rope", "Knife"]\n', "hands.Ann",
     "at most 1 cards"),
    ("unknown hand owner", BASE + '[hands]\nZed = ["Rope"]\n', "hands", "unknown player 'Zed'"),
    ("unknown deck", BASE + 'deck = "mega"\n', "deck", "master-detective"),
    ("deck table key", BASE + '[deck]\nsuspects = ["A"]\nweapons = ["B"]\nrooms = ["C", "D"]\nextra = 1\n',
     "deck.extra", "unknown key"),
    ("duplicate card", BASE + '[deck]\nsuspects = ["A", "a"]\nweapons = ["B"]\nrooms = ["C", "D"]\n', "deck",
     "listed twice"),
    ("one player", 'game = "clue"\nplayers = ["Ann"]\n', "players", "allowed: 2 to 12 items"),
    ("duplicate player", 'game = "clue"\nplayers = ["Ann", "ann"]\n', "players", "listed twice"),
    ("unknown viewer", BASE + 'viewer = "Zed"\n', "viewer", "unknown player 'Zed'"),
    ("suggestion not a table", BASE + "suggestion = 3\n", "suggestion", "list of tables"),
]


@pytest.mark.parametrize("name, text, place, message", CASES, ids=[c[0] for c in CASES])
def test_bad_puzzle_is_one_clear_line(cli, tmp_path, name: str, text: str, place: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    res = cli(["solve", path])
    assert res.code == 2, res.out
    lines = res.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.err
    assert str(path) in lines[0] and place in lines[0] and message in lines[0], lines[0]


@pytest.mark.parametrize("claim, message", [
    ("Zed holds Rope", "unknown player 'Zed'"),
    ("Ann holds Ropes", "unknown card 'Ropes'"),
    ("Ann owns Rope", "cannot read claim"),
])
def test_bad_claim(cli, tmp_path, claim: str, message: str) -> None:
    path = tmp_path / "ok.toml"
    path.write_text(BASE)
    res = cli(["verify", path, "--claim", claim])
    assert res.code == 2 and "--claim[1]" in res.err and message in res.err and "Traceback" not in res.err


@pytest.mark.parametrize("args, message", [
    (["solve", "--method", "magic"], "unknown method 'magic'"),
    (["solve", "--plot", "x.png", "--method", "rules"], "derives the sheet only, not the exact probabilities"),
    (["suggest", "--set", "room=Attic"], "unknown room 'Attic'"),
    (["suggest", "--set", "room=Rope"], "--set room: unknown room 'Rope' (allowed: Kitchen, Ballroom, Conservatory, "),
    (["suggest", "--set", "room=dining-room"], "--set room: unknown room 'dining-room'"),
    (["suggest", "--set", "by=Zed"], "--set by: unknown player 'Zed' (allowed: Ann, Bob, Cat)"),
    (["suggest", "--set", "samples=lots"], "not an integer"),
])
def test_bad_options(cli, tmp_path, args: list[str], message: str) -> None:
    path = tmp_path / "ok.toml"
    path.write_text(BASE + 'viewer = "Ann"\n')
    res = cli([args[0], path, *args[1:]])
    assert res.code == 2 and message in res.err and "Traceback" not in res.err, res.err


def test_suggest_needs_a_suggester(cli, tmp_path) -> None:
    path = tmp_path / "ok.toml"
    path.write_text(BASE)
    res = cli(["suggest", path])
    assert res.code == 2 and "--viewer" in res.err
