"""The games' own pages in the companion, read from their declarations (:class:`sleuth.game.Companion`): which
games are installed, the files each page lists (served under ``/pages/GAME/FILE`` and no other), the data each
page reads.  This module names no game: a plug-in's page is served as a built-in one is."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from ..game import PAGE_TYPES, Game
from ..registry import all_games

PREFIX = "/pages"


def _game(name: str) -> Game | None:
    return next((g for g in all_games() if g.name == name), None)


def games_json() -> list[dict[str, Any]]:
    """Every installed game as the page reads it: its claim forms, suggest methods and options, and its page
    (the URLs of its files, each file once over games that share a package's page; its data; or why it cannot
    be loaded, in which case the game gets the generic page)."""
    games = []
    served: dict[tuple[str, str], str] = {}  # (package, file) -> its URL under the first game that lists it
    for g in all_games():
        entry: dict[str, Any] = {
            "name": g.name, "aliases": list(g.aliases), "summary": g.summary, "claims": list(g.claims),
            "suggest_methods": {d.name: d.meaning for d in g.suggest_methods},
            "options": [{"key": o.name, "kind": o.kind, "default": o.default, "meaning": o.meaning,
                         "commands": list(o.commands)} for o in g.all_options()],
            "page": [], "page_info": None, "review": bool(g.review)}
        problem = g.page_problem() if g.companion.page else None
        if problem is None and g.companion.page:
            try:
                entry["page_info"] = g.page_info()
            except Exception as exc:  # noqa: BLE001 - a plug-in's broken page must not break the companion
                problem = f"game {g.name!r}: its companion page's data cannot be read ({type(exc).__name__}: {exc})"
        if problem is None:
            entry["page"] = [served.setdefault((g.package, f), f"{PREFIX}/{g.name}/{f}") for f in g.companion.page]
        else:
            entry["page_problem"] = problem
        games.append(entry)
    return games


def page_file(game: str, file: str) -> tuple[bytes, str] | None:
    """A file of a game's page and its media type, or None when the game does not list it."""
    g = _game(game)
    if g is None or file not in g.companion.page:
        return None
    try:
        return g.page_file(file), PAGE_TYPES[PurePosixPath(file).suffix]
    except (OSError, KeyError):
        return None
