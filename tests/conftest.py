"""Shared fixtures: the project root, the puzzle folder and a CLI runner that captures exit status."""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs every property test on the same examples (a generated case that fails once fails every time);
# elsewhere each run explores new ones.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
BACKENDS = ("cpsat", "python-constraint")


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory):
    """The tests never touch the user's real cache: one temporary cache for the whole session."""
    folder = tmp_path_factory.mktemp("sleuth-cache")
    old = os.environ.get("SLEUTH_CACHE")
    os.environ["SLEUTH_CACHE"] = str(folder)
    yield folder
    if old is None:
        os.environ.pop("SLEUTH_CACHE", None)
    else:
        os.environ["SLEUTH_CACHE"] = old


@pytest.fixture(autouse=True)
def notes_enabled():
    """Notes print again after each test: the companion, created in process by its tests, silences them for its
    whole process (a server's notes travel in its answers), which would hide them from the tests after it."""
    from sleuth.notes import NOTES

    disabled = NOTES.disabled
    yield
    NOTES.disabled = disabled


@dataclass
class CliResult:
    code: int
    out: str
    err: str


def run_cli(args: Sequence[str]) -> CliResult:
    """Run ``sleuth ARGS`` in-process; SystemExit (argparse) becomes the exit code."""
    from sleuth.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:
            code = int(exc.code or 0)
    return CliResult(code, out.getvalue(), err.getvalue())


@pytest.fixture
def cli():
    return run_cli
