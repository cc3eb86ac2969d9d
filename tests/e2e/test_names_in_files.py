"""Issue 27, "card names are found by trial and error".

Before: ``unknown card 'Miss Scarlet' (allowed: Scarlet, ...)``; a file with five wrong names took five runs;
``suggestion[1]`` counted from 1 and ``cards[0]`` from 0; ``has 3 items (allowed: 4 to 4 items)``.
"""

from __future__ import annotations

import json
import re

import pytest

from sleuth.models.clue.state import CLASSIC, LONG_NAMES, MASTER_DETECTIVE
from tests.conftest import ROOT, run_cli

HEAD = 'game = "clue"\nplayers = ["Ann", "Bob", "Cat"]\nviewer = "Ann"\n'


def _write(tmp_path, text):
    path = tmp_path / "g.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_games_clue_lists_every_bundled_deck_with_its_cards():
    out = run_cli(["games", "clue"]).out
    for name, deck in (("classic", CLASSIC), ("master-detective", MASTER_DETECTIVE)):
        assert f'deck = "{name}"' in out
        for cards in deck:
            assert ", ".join(cards) in out
    docs = (ROOT / "docs" / "clue.md").read_text(encoding="utf-8")
    for deck in (CLASSIC, MASTER_DETECTIVE):
        for cards in deck:
            assert ", ".join(cards) in docs


@pytest.mark.parametrize("long, card", [(a, c) for c, aliases in LONG_NAMES.items() for a in aliases
                                        if any(c in cat for cat in CLASSIC)])
def test_long_forms_of_the_classic_deck_read_as_the_card(tmp_path, long, card):
    short = f'[hands]\nAnn = ["{card}"]\n'
    longer = f'[hands]\nAnn = ["{long}"]\n'
    a = run_cli(["solve", _write(tmp_path, HEAD + short), "--json"])
    b = run_cli(["solve", _write(tmp_path, HEAD + longer), "--json"])
    assert a.code == b.code == 0, b.err
    assert json.loads(a.out)["sheet"] == json.loads(b.out)["sheet"]
    assert json.loads(b.out)["sheet"][card]["Ann"] == "yes"


def test_long_forms_work_in_claims():
    res = run_cli(["verify", "example:clue/classic-3-players", "--claim", "Ann holds Miss Scarlet", "--json"])
    assert json.loads(res.out)["claims"][-1]["verdict"] == "entailed"


def test_a_custom_deck_takes_only_its_own_names(tmp_path):
    text = ('game = "clue"\nplayers = ["Ann", "Bob"]\n[deck]\nsuspects = ["Scarlet", "Plum"]\n'
            'weapons = ["Rope", "Knife"]\nrooms = ["Hall", "Den"]\n[hands]\nAnn = ["Miss Scarlet"]\n')
    res = run_cli(["solve", _write(tmp_path, text)])
    assert res.code == 2 and "unknown card 'Miss Scarlet' (did you mean 'Scarlet'?)" in res.err


def test_every_wrong_name_of_a_file_is_reported_in_one_run(tmp_path):
    text = HEAD + ('[hands]\nAnn = ["Kitchn", "Studdy"]\n[[suggestion]]\nby = "Bobb"\n'
                   'cards = ["Peacock", "Rop", "Libary"]\nshown_by = "Cat"\n'
                   '[[accusation]]\nby = "Cat"\ncards = ["Plum", "Knife"]\ncorrect = false\n')
    res = run_cli(["solve", _write(tmp_path, text)])
    lines = res.err.strip().splitlines()
    assert res.code == 2 and len(lines) == 6 and "Traceback" not in res.err
    expected = [("hands.Ann[1]", "'Kitchn'", "'Kitchen'"), ("hands.Ann[2]", "'Studdy'", "'Study'"),
                ("suggestion[1].by", "'Bobb'", "'Bob'"), ("suggestion[1].cards[2]", "'Rop'", "'Rope'"),
                ("suggestion[1].cards[3]", "'Libary'", "'Library'")]
    for line, (place, wrong, near) in zip(lines, expected, strict=False):
        assert line.startswith("sleuth: ") and f": {place}: unknown" in line and wrong in line
        assert f"did you mean {near}?" in line
    assert "accusation[1].cards: has 2 items (allowed: exactly 3 items)" in lines[5]
    assert sum("allowed: as above" in ln for ln in lines) >= 3  # the long card list is written once


def test_the_number_of_mistakes_reported_is_bounded(tmp_path):
    hands = ", ".join(f'"Nope{i}"' for i in range(40))
    res = run_cli(["solve", _write(tmp_path, HEAD + f"[hands]\nAnn = [{hands}]\n")])
    lines = res.err.strip().splitlines()
    assert res.code == 2 and len(lines) == 21 and "stopped after 20 mistakes" in lines[-1]


def test_places_count_from_one_in_every_key(tmp_path):
    text = HEAD + '[[suggestion]]\nby = "Bob"\ncards = ["Scarlett", "Rope", "Hal"]\n'
    res = run_cli(["solve", _write(tmp_path, text)])
    assert "suggestion[1].cards[3]: unknown card 'Hal'" in res.err  # the third card is [3], as [[suggestion]] 1
    assert re.search(r"\[0\]", res.err) is None


def test_an_exact_length_reads_exactly(tmp_path):
    text = HEAD + '[[suggestion]]\nby = "Bob"\ncards = ["Scarlet", "Rope"]\n'
    res = run_cli(["solve", _write(tmp_path, text)])
    assert "has 2 items (allowed: exactly 3 items)" in res.err and "3 to 3" not in res.err


def test_cli_docs_say_places_count_from_one():
    assert "count from 1" in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
