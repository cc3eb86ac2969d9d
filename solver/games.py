"""The games sleuth knows, found by name or alias, and the experiments they ship.

Game modules live in ``models/`` and are imported only when a puzzle of theirs is loaded.  A game module
provides ``load(doc: PuzzleDoc) -> Puzzle`` (see :mod:`sleuth.puzzle`) and may set ``CLAIM_KEYS``, the extra
keys its ``[[claim]]`` tables accept.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from .errors import UnknownNameError
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
        return specs[self.name] if specs is not None else mod.SPEC


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


def all_games() -> tuple[GameInfo, ...]:
    """The built-in games and those other packages register under the ``sleuth.games`` entry point group.

    A third-party game is one package with ``load(doc) -> Puzzle`` and a ``spec`` module (``SPEC``), declared
    in its pyproject.toml as ``[project.entry-points."sleuth.games"] mygame = "mypackage:GAME"`` where
    ``GAME = GameInfo("mygame", "mypackage", "what it is")``.  A name that clashes with a game already known is
    ignored, so a plug-in never changes what a built-in name means.
    """
    from importlib.metadata import entry_points

    games = list(GAMES)
    taken = {key.casefold() for g in games for key in (g.name, *g.aliases)}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            info = ep.load()
        except Exception:  # noqa: BLE001 - a broken plug-in must not break sleuth
            continue
        keys = {key.casefold() for key in (info.name, *info.aliases)} if isinstance(info, GameInfo) else set()
        if keys and not keys & taken:
            games.append(info)
            taken |= keys
    return tuple(games)


def _index() -> dict[str, GameInfo]:
    table: dict[str, GameInfo] = {}
    for g in all_games():
        for key in (g.name, *g.aliases):
            table[key.casefold()] = g
    return table


def find_game(name: str, **where: str | None) -> GameInfo:
    info = _index().get(str(name).strip().casefold()) if isinstance(name, str) else None
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
