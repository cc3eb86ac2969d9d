"""Which games are installed: every :class:`~sleuth.game.Game`, built in or a plug-in, found by name or alias.

Every game, the built-in ones included, is registered as an entry point in the ``sleuth.games`` group
(sleuth's own are in its pyproject.toml).  sleuth's own entries are read first, so that a plug-in can never
change what a built-in name means; a plug-in whose name or alias is taken is ignored, and so is one that does
not import or does not give a :class:`Game`.  A game's declaration is light (its ``game`` module imports no
solver), so listing the games costs milliseconds; its code is imported when a puzzle of it is loaded.
"""

from __future__ import annotations

import configparser
import functools
import importlib
import os
import sys
from collections.abc import Sequence

from .errors import InternalError, UnknownNameError
from .game import Experiment, Game

ENTRY_POINT_GROUP = "sleuth.games"
DISTRIBUTION = "sleuth"


def plugin_points(group: str) -> list[tuple[str, str, str]]:
    """``(distribution, name, "module:attr")`` of every entry point in ``group`` of the installed distributions.

    Read from the ``entry_points.txt`` files on ``sys.path`` (the first distribution of a name that has the
    group wins, as :mod:`importlib.metadata` does), without importing :mod:`importlib.metadata`, which would
    cost a plain ``sleuth games`` a good part of its start-up.
    """
    return list(_points(group, tuple(sys.path)))


@functools.lru_cache(maxsize=8)
def _points(group: str, path: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    found: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for entry in path:
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            dist = name.rsplit(".", 1)[0].split("-")[0].replace("_", "-").casefold()  # NAME-VERSION.dist-info
            file = os.path.join(entry or ".", name, "entry_points.txt")
            if dist in seen or not os.path.isfile(file):
                continue
            parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
            parser.optionxform = str  # type: ignore[assignment,method-assign]
            try:
                parser.read(file, encoding="utf-8")
            except (configparser.Error, UnicodeDecodeError):
                continue
            if parser.has_section(group):
                seen.add(dist)
                found.extend((dist, key, value) for key, value in parser.items(group))
    return tuple(found)


def _resolve(target: str) -> object:
    module, _, attr = target.partition(":")
    value: object = importlib.import_module(module.strip())
    for part in attr.strip().split(".") if attr.strip() else ():
        value = getattr(value, part)
    return value


_CHECKED: set[int] = set()


def _registered(game: Game) -> None:
    """A game as it registers: every module its code pointers name must exist (:meth:`Game.check_modules`,
    once per process; the tests also import each pointer, :meth:`Game.check_code`)."""
    if id(game) not in _CHECKED:
        game.check_modules()
        _CHECKED.add(id(game))


def _keys(game: Game) -> set[str]:
    return {key.casefold() for key in (game.name, *game.aliases)}


def builtin_games() -> tuple[Game, ...]:
    """sleuth's own games, from its own entry points (a broken one is a bug in sleuth, not a plug-in's)."""
    points = [p for p in plugin_points(ENTRY_POINT_GROUP) if p[0] == DISTRIBUTION]
    if not points:
        raise InternalError(f"the installed '{DISTRIBUTION}' distribution registers no games (entry points "
                            f"{ENTRY_POINT_GROUP!r}): reinstall sleuth")
    games = []
    for _, _, target in points:
        game = _resolve(target)
        if not isinstance(game, Game):
            raise InternalError(f"entry point {target} is not a Game")
        _registered(game)
        games.append(game)
    return tuple(games)


def all_games() -> tuple[Game, ...]:
    """The built-in games, then the plug-ins whose names and aliases are all free."""
    games = list(builtin_games())
    taken = set().union(*(_keys(g) for g in games))
    for dist, _, target in plugin_points(ENTRY_POINT_GROUP):
        if dist == DISTRIBUTION:
            continue
        try:
            game = _resolve(target)
            if isinstance(game, Game):
                _registered(game)
        except Exception:  # noqa: BLE001 - a broken plug-in must not break sleuth
            continue
        if isinstance(game, Game) and not _keys(game) & taken:
            games.append(game)
            taken |= _keys(game)
    return tuple(games)


def _index(games: Sequence[Game]) -> dict[str, Game]:
    return {key: g for g in games for key in _keys(g)}


def find_game(name: object, **where: str | None) -> Game:
    """The game a name or alias means (any case): a built-in one without reading the plug-ins."""
    key = name.strip().casefold() if isinstance(name, str) else None
    game = _index(builtin_games()).get(key) if key is not None else None
    if game is None and key is not None:
        game = _index(all_games()).get(key)
    if game is None:
        raise UnknownNameError("game", name, [g.name for g in all_games()], **where)
    return game


def all_experiments() -> dict[str, Experiment]:
    """Every game's experiments by name (a name a game before it took is skipped)."""
    found: dict[str, Experiment] = {}
    for game in all_games():
        for e in game.experiments:
            found.setdefault(e.name.casefold(), e)
    return found


def find_experiment(name: str) -> Experiment:
    table = all_experiments()
    key = name.casefold()
    if key not in table:
        raise UnknownNameError("experiment", name, table, place="experiment")
    return table[key]
