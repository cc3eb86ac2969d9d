"""Issue 27, live entry from the command line: the compact one-line forms and appending with a pipe are
documented (docs/live.md), and what the page shows works."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib

import pytest

from tests.conftest import ROOT, run_cli

PAGE = (ROOT / "docs" / "live.md").read_text(encoding="utf-8")
FILES = [b for b in re.findall(r"```toml\n(.*?)```", PAGE, re.S) if b.startswith("game = ")]


def _sleuth(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sleuth", *args], input=stdin, capture_output=True, text=True,
                          timeout=300, check=False)


def test_the_two_forms_shown_are_the_same_data():
    blocks = re.findall(r"```toml\n(.*?)```", PAGE, re.S)
    tables, inline = tomllib.loads(blocks[0]), tomllib.loads(blocks[1])
    assert tables["suggestion"] == inline["suggestion"][:1]


@pytest.mark.parametrize("text", FILES)
def test_every_complete_file_on_the_page_solves_without_a_note(text, tmp_path):
    path = tmp_path / "live.toml"
    path.write_text(text, encoding="utf-8")
    res = run_cli(["solve", path, "--json"])
    assert res.code == 0 and json.loads(res.out)["notes"] == [], res.err


def test_the_printf_pipe_on_the_page_prints_what_the_page_says():
    line = re.search(r"\$ printf '(.*?)' \| sleuth solve -\n(.*?)\n(.*?)\n", PAGE)
    assert line
    res = _sleuth(["solve", "-"], line.group(1).encode().decode("unicode_escape"))
    assert res.returncode == 0 and res.stdout.splitlines()[:2] == [line.group(2), line.group(3)]


def test_cat_file_dash_appends_an_event_without_changing_the_file(tmp_path):
    path = tmp_path / "game.toml"
    path.write_text(run_cli(["new", "clue"]).out, encoding="utf-8")
    before = path.read_text(encoding="utf-8")
    event = '\n[[suggestion]]\nby = "Ann"\ncards = ["Green", "Wrench", "Study"]\nshown_by = "Bob"\ncard = "Wrench"\n'
    # what `cat game.toml - | sleuth solve -` sends when the event is typed
    res = _sleuth(["solve", "-", "--json"], before + event)
    assert res.returncode == 0, res.stderr
    with_event = json.loads(res.stdout)
    without = json.loads(run_cli(["solve", path, "--json"]).out)
    assert path.read_text(encoding="utf-8") == before
    # Bob showed Ann the Wrench: Bob holds it with the event, and the file alone does not know it
    assert with_event["sheet"]["Wrench"]["Bob"] == "yes" and without["sheet"]["Wrench"]["Bob"] == "maybe"
