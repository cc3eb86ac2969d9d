"""Reading the shell scripts the README and CI run: their command lines, one per step."""

from __future__ import annotations

import shlex
from pathlib import Path

from tests.conftest import ROOT


def command_lines(path: Path) -> list[list[str]]:
    """The shell command lines of a CI script as words, comments and blank lines dropped; a line that sources
    another script of .ci/ (``. .ci/setup``) is replaced by that script's lines."""
    lines: list[list[str]] = []
    for line in path.read_text(encoding="utf-8").replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if len(words) == 2 and words[0] in (".", "source") and words[1].startswith(".ci/"):
            lines.extend(command_lines(ROOT / words[1]))
        elif words:
            lines.append(words)
    return lines
