"""The toy game's page in the companion: the data its page reads (named by its declaration's ``Companion``)."""

from __future__ import annotations

from . import CARDS


def page_info() -> dict[str, list[str]]:
    return {"cards": list(CARDS)}
