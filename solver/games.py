"""The games sleuth knows, found by name or alias, and the experiments they ship.

Game modules live in ``models/`` and are imported only when a puzzle of theirs is loaded.  A game module
provides ``load(doc: PuzzleDoc) -> Puzzle`` (see :mod:`sleuth.puzzle`) and may set ``CLAIM_KEYS``, the extra
keys its ``[[claim]]`` tables accept.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

from .errors import InternalError, UnknownNameError
from .spec import GameSpec


@dataclass(frozen=True)
class GameInfo:
    name: str
    module: str
    summary: str
    aliases: tuple[str, ...] = ()

    @property
    def spec(self) -> GameSpec:
        """The game's keys, options, methods and claim forms (``<module>.spec``: ``SPEC`` or ``SPECS[name]``)."""
        mod = importlib.import_module(self.module + ".spec")
        specs = getattr(mod, "SPECS", None)
        spec = specs[self.name] if specs is not None else getattr(mod, "SPEC", None)
        if not isinstance(spec, GameSpec):
            raise InternalError(f"{self.module}.spec defines no GameSpec for game {self.name!r}")
        return spec


GAMES: tuple[GameInfo, ...] = (
    GameInfo("clue", "sleuth.models.clue", "Clue / Cluedo: who holds which card, and the envelope", ("cluedo",)),
    GameInfo("egghead", "sleuth.models.egghead", "Egghead: valids per player, behavioural analysis"),
    GameInfo("motus", "sleuth.models.motus", "Motus / Lingo: possible words and proposals", ("lingo",)),
    GameInfo("wordle", "sleuth.models.motus", "Wordle: possible answers and guesses"),
    GameInfo("mastermind", "sleuth.models.motus", "Mastermind: possible codes, Knuth's strategy"),
    GameInfo("mascarade", "sleuth.models.mascarade", "Mascarade: beliefs over card permutations per player"),
    GameInfo("cardguess", "sleuth.models.cardguess", "Card guessing with partial or complete feedback",
             ("card-guessing", "guessing")),
    GameInfo("epistemic", "sleuth.models.epistemic", "Epistemic puzzles: Cheryl, Sum and Product, muddy children",
             ("del", "knowledge")),
)

# `sleuth experiment NAME [args]` runs "module:function" with the remaining arguments; returns an exit code.
EXPERIMENTS: dict[str, tuple[str, str]] = {
    "epistemic": ("sleuth.models.epistemic.bench:main", "benchmark: Sum and Product, What Sum, muddy children"),
    "clue": ("sleuth.models.clue.experiment:main", "benchmark: exact sheet, rules engine, probabilities"),
    "egghead": ("sleuth.models.egghead.experiment:main", "simulation study of behavioural analysis"),
    "motus": ("sleuth.models.motus.experiment:main_study", "every word with every scoring method (Table 4)"),
    "emi": ("sleuth.models.motus.experiment:main_emi", "Evil Motus Index per (first letter, length) cell"),
    "wordle": ("sleuth.models.motus.experiment:main_wordle", "Wordle and Mastermind strategy studies"),
    "mascarade": ("sleuth.models.mascarade.experiment:main", "benchmark: belief updates per method"),
    "cardguess": ("sleuth.models.cardguess.experiment:main", "exact expected scores of the strategies"),
}


ENTRY_POINT_GROUP = "sleuth.games"


def plugin_points(group: str) -> list[tuple[str, str]]:
    """``(name, "module:attr")`` of every entry point in ``group`` of the installed distributions.

    Read from the ``entry_points.txt`` files on ``sys.path`` (the first distribution of a name wins, as
    :mod:`importlib.metadata` does), without importing :mod:`importlib.metadata`, which would cost a plain
    ``sleuth games`` a good part of its start-up.
    """
    import configparser
    import os
    import sys

    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for entry in sys.path:
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            dist = name.rsplit(".", 1)[0].split("-")[0].replace("_", "-").casefold()  # NAME-VERSION.dist-info
            path = os.path.join(entry or ".", name, "entry_points.txt")
            if dist in seen or not os.path.isfile(path):
                continue
            seen.add(dist)
            parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
            parser.optionxform = str  # type: ignore[assignment,method-assign]
            try:
                parser.read(path, encoding="utf-8")
            except (configparser.Error, UnicodeDecodeError):
                continue
            if parser.has_section(group):
                found.extend((key, value) for key, value in parser.items(group))
    return found


def all_games() -> tuple[GameInfo, ...]:
    """The built-in games and those other packages register under the ``sleuth.games`` entry point group.

    A third-party game is one package with ``load(doc) -> Puzzle`` and a ``spec`` module (``SPEC``), declared
    in its pyproject.toml as ``[project.entry-points."sleuth.games"] mygame = "mypackage:GAME"`` where
    ``GAME = GameInfo("mygame", "mypackage", "what it is")``.  A name that clashes with a game already known is
    ignored, so a plug-in never changes what a built-in name means.
    """
    games = list(GAMES)
    taken = {key.casefold() for g in games for key in (g.name, *g.aliases)}
    for _, target in plugin_points(ENTRY_POINT_GROUP):
        try:
            module, _, attr = target.partition(":")
            info: object = importlib.import_module(module.strip())
            for part in attr.strip().split(".") if attr.strip() else ():
                info = getattr(info, part)
        except Exception:  # noqa: BLE001 - a broken plug-in must not break sleuth
            continue
        if not isinstance(info, GameInfo):
            continue
        keys = {key.casefold() for key in (info.name, *info.aliases)}
        if not keys & taken:
            games.append(info)
            taken |= keys
    return tuple(games)


def _index(games: Sequence[GameInfo]) -> dict[str, GameInfo]:
    table: dict[str, GameInfo] = {}
    for g in games:
        for key in (g.name, *g.aliases):
            table[key.casefold()] = g
    return table


def find_game(name: str, **where: str | None) -> GameInfo:
    """The game a name or alias means: a built-in one at once (no plug-in can take its name), else the
    installed plug-ins are read."""
    key = str(name).strip().casefold() if isinstance(name, str) else None
    info = _index(GAMES).get(key) if key is not None else None
    if info is None and key is not None:
        info = _index(all_games()).get(key)
    if info is None:
        raise UnknownNameError("game", name, [g.name for g in all_games()], **where)
    return info


def game_module(info: GameInfo) -> ModuleType:
    return importlib.import_module(info.module)


def experiment(name: str) -> tuple[str, str]:
    key = name.casefold()
    if key not in EXPERIMENTS:
        raise UnknownNameError("experiment", name, EXPERIMENTS, place="experiment")
    return EXPERIMENTS[key]
