"""The hostile-input survey's last findings, each one line and exit status 2 (issue 26)."""

from __future__ import annotations

import os
import threading

import pytest

from tests.conftest import run_cli

CLUE = "example:clue/classic-3-players"


def test_an_empty_method_is_refused():
    res = run_cli(["solve", CLUE, "--method", ""])
    assert res.code == 2 and "unknown method ''" in res.err and "allowed: auto" in res.err


@pytest.mark.parametrize("game", ["example:clue/classic-3-players", "example:cardguess/seed_example"])
def test_a_figure_onto_a_folder_is_refused_before_work(tmp_path, game):
    res = run_cli(["solve", game, "--plot", tmp_path])
    assert res.code == 2 and "is a folder" in res.err and len(res.err.strip().splitlines()) == 1
    assert list(tmp_path.parent.glob(tmp_path.name + ".png")) == []  # nothing written beside it either


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_without_a_writer_is_given_up(tmp_path, monkeypatch):
    import sleuth.files

    monkeypatch.setattr(sleuth.files, "PIPE_WAIT_SECONDS", 0.2)
    pipe = tmp_path / "game.toml"
    os.mkfifo(pipe)
    res = run_cli(["solve", pipe])
    assert res.code == 2 and "named pipe that no program wrote to" in res.err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_with_a_writer_is_read(tmp_path):
    pipe = tmp_path / "game.toml"
    os.mkfifo(pipe)
    text = 'game = "epistemic"\n[variables]\nx = "1..3"\n[agents]\na = ["x"]\n'

    def write() -> None:
        with open(pipe, "w", encoding="utf-8") as fh:
            fh.write(text)

    writer = threading.Thread(target=write)
    writer.start()
    res = run_cli(["solve", pipe, "--json"])
    writer.join()
    assert res.code == 0 and '"count": 3' in res.out, res.err
