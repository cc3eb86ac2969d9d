"""The name policy (docs/names.md) and duplicates: each case of issue 18, through the CLI (exit 2, one line)."""

from __future__ import annotations

import json

import pytest

from sleuth.epistemic import ExplicitState, WorldTable
from sleuth.errors import PuzzleError
from sleuth.names import quote, unique_names, unquote
from sleuth.loading import loads

from tests.conftest import BACKENDS

CLUE = """game = "clue"
players = [{players}]
hand_sizes = [4, 3]
[deck]
suspects = ["Peacock", "Birch", "Cedar"]
weapons = ["Axe", "Bow", "Club"]
rooms = ["Attic", "Barn", "Cellar", "Den"]
[[suggestion]]
by = "Ann"
cards = ["Peacock", "Axe", "Attic"]
shown_by = {shower}
card = "Peacock"
"""


def bad(cli, tmp_path, text: str, *needles: str, suffix: str = ".toml") -> str:
    path = tmp_path / f"bad{suffix}"
    path.write_text(text, encoding="utf-8")
    res = cli(["solve", path])
    assert res.code == 2 and res.out == "" and "Traceback" not in res.err, res
    line = res.err.strip()
    assert "\n" not in line and str(path) in line
    for needle in needles:
        assert needle in line, line
    return line


@pytest.mark.parametrize("name", ["Envelope", "envelope", "ENVELOPE", " envelope "])
def test_a_player_named_envelope_is_refused(cli, tmp_path, name):
    """Before: 'Envelope holds Peacock' was refuted because the player Envelope showed Peacock, and the player
    'envelope' lost its column of the --json sheet."""
    bad(cli, tmp_path, CLUE.format(players=f'"Ann", "{name}"', shower=f'"{name}"'), "players[2]", "reserved",
        "envelope")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_player_named_bob_holds_can_be_named_and_keeps_its_json_column(cli, tmp_path, backend):
    path = tmp_path / "bob.toml"
    path.write_text(CLUE.format(players='"Ann", "Bob holds"', shower='"Bob holds"') +
                    '[[claim]]\ntext = \'"Bob holds" holds Peacock\'\n'
                    '[[claim]]\ntext = "not `Bob holds` lacks Peacock"\n'
                    '[[claim]]\ntext = \'envelope holds Peacock\'\nexpect = "refuted"\n', encoding="utf-8")
    res = cli(["verify", path, "--backend", backend])
    assert res.code == 0, res
    sheet = json.loads(cli(["solve", path, "--json", "--backend", backend]).out)["sheet"]
    assert sheet["Peacock"] == {"Ann": "no", "Bob holds": "yes", "envelope": "no"}


def test_clue_players_equal_up_to_case_name_both_places(cli, tmp_path):
    bad(cli, tmp_path, CLUE.format(players='"Ann", "ann"', shower='"Ann"'), "players[2]", "players[1]", "twice")


def test_epistemic_agents_p_and_p_are_refused(cli, tmp_path):
    """Before: the later agent silently replaced the former inside knows(P)."""
    text = 'game = "epistemic"\n[variables]\nx = "1..3"\n[agents]\nP = ["x"]\np = ["x * 2"]\n'
    bad(cli, tmp_path, text, "agents", "'P'", "'p'", "twice")
    with pytest.raises(PuzzleError, match="agent 'p' is listed twice"):
        ExplicitState(WorldTable.from_product({"x": range(3)}), {"P": ["x"], "p": ["x"]})


def test_json_keys_differing_in_case_are_refused(cli, tmp_path):
    doc = {"game": "clue", "players": ["A", "B"], "hands": {"A": ["Plum"], "a": ["Rope"]}}
    bad(cli, tmp_path, json.dumps(doc), "hands", "'A'", "'a'", suffix=".json")


def test_a_json_key_given_twice_is_refused(cli, tmp_path):
    text = '{"game": "clue", "players": ["Ann", "Bob", "Cat"], "players": ["Ann", "Bob"]}'
    bad(cli, tmp_path, text, "'players' is listed twice", suffix=".json")
    text = '{"game": "epistemic", "variables": {"x": "1..3", "x": "1..4"}, "agents": {"A": ["x"]}}'
    bad(cli, tmp_path, text, "variables", "'x' is listed twice", suffix=".json")


def test_a_repeated_world_row_names_both_places(cli, tmp_path):
    """Before: 'worlds at the start: 11' for ten distinct worlds."""
    text = ('game = "epistemic"\nworlds = [{ m = "May", d = 15 }, { m = "May", d = 16 }, { m = "may", d = 15 }]\n'
            '[agents]\nA = ["m"]\n')
    bad(cli, tmp_path, text, "worlds[3]", "worlds[1]")


@pytest.mark.parametrize("domain,needles", [
    ('["", "b"]', ("x[1]", "empty")), ('["a", "A"]', ("x[2]", "x[1]", "twice")), ("[1, 2, 1]", ("x[3]", "[1]")),
])
def test_empty_and_repeated_values_are_refused(cli, tmp_path, domain, needles):
    bad(cli, tmp_path, f'game = "epistemic"\n[variables]\nx = {domain}\n[agents]\nA = ["x"]\n', *needles)


def test_an_empty_world_value_is_refused(cli, tmp_path):
    bad(cli, tmp_path, 'game = "epistemic"\nworlds = [{ m = "" }, { m = "b" }]\n[agents]\nA = ["m"]\n', "worlds",
        "empty")


def test_epistemic_names_that_are_keywords_or_have_spaces_are_backquoted():
    text = """game = "epistemic"
[variables]
"and" = "1..3"
"day of month" = "1..2"
"l'été" = ["oui", "non"]
[agents]
"not" = ["`and`"]
"Bob knows" = ["`day of month`", "`l'été`"]
[[claim]]
text = "knows(`Bob knows`, `day of month`) and not knows(`not`) and (`l'été` == 'oui' or `l'été` == \\"non\\")"
[[claim]]
text = "`and` * 2 == `day of month` + 1"
expect = "open"
"""
    puzzle = loads(text)
    assert [r.verdict.value for r in puzzle.verify(puzzle.claims)] == ["entailed", "open"]


def test_quoting_round_trips():
    words = ["holds", "lacks", "not"]
    for name in ["Ann", "Bob holds", "not", 'say "hi"', "`tick`", "Zoë d'Arc", "  spaced  "]:
        assert fold_eq(unquote(quote(name, words)), name)
    assert quote("Bob holds", words) == '"Bob holds"' and quote("Ann", words) == "Ann"


def fold_eq(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def test_unique_names_messages_name_both_places():
    with pytest.raises(PuzzleError) as err:
        unique_names("player", ["Ann", "Bob", "ANN"], "players", file="f.toml")
    assert str(err.value) == ("f.toml: players[3]: player 'ANN' is listed twice: here and as 'Ann' at players[1]"
                              " (names compare case-insensitively)")
