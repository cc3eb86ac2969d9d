"""The game contract in one place: every game is one :class:`Game` object, declared once in its package.

Contents
- :class:`Game` — a game's name and aliases, one summary, its puzzle-file keys and claim forms, its registered
  derivations, the options each command takes (flags and ``--set`` keys), whether a viewer applies, the template
  ``sleuth new`` prints, its docs page, its experiments, its compiled kernels (``sleuth cache compile``), its
  page in the table companion (:class:`Companion`), and where its code lives (``load`` and ``world``).
  The command line, ``sleuth games``, ``sleuth schema``, the docs generator and every option check read it.
- :class:`Experiment` — a study or benchmark a game ships (``sleuth experiment NAME``).
- :class:`Companion` — a game's page in the table companion (``sleuth serve``): its files, the data it reads,
  its warm-up.
- :class:`WorldModel`, :class:`WorldModule` — the declarative side of a game package (``<package>.world``):
  ``model(puzzle)`` (the constraint model, one named observation per fact, and how its variables read as a
  world), ``check(puzzle, world)`` (the rules in plain Python) and ``candidates(puzzle)`` (every world before any
  observation, for small puzzles).
- :func:`model_worlds`, :func:`checked_worlds` — the worlds the model admits on an engine; the candidates the
  plain rules accept (brute force: the tests hold the two equal on small puzzles).

A game package (built in, or a plug-in) declares ``GAME = Game(...)`` and registers it as an entry point in the
``sleuth.games`` group (``[project.entry-points."sleuth.games"] mygame = "mypackage.game:GAME"``); the package
gives ``load(doc) -> Puzzle`` (see :mod:`sleuth.puzzle`) and a ``world`` module.  tests/toygame is the whole
contract in its fewest lines; docs/api.md ("Adding a game") walks through it.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import re
import weakref
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from .derive import Derivation, find_method
from .errors import InternalError, PuzzleError, SleuthError
from .jit import Kernel
from .limits import MAX_WORLDS_KEY, max_items
from .spec import COMMON_OPTIONS, Key, Option, common_keys, object_schema

if TYPE_CHECKING:
    from .model import Model, Var
    from .puzzle import Puzzle, PuzzleDoc
    from .results import Report

COMMANDS = ("solve", "verify", "suggest")  # the commands that take a game's options
FIGURE = "FILE.png"  # an option of this kind names a figure to write: checked before any work
POINTER = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")  # "module:function" in a declaration


@dataclass(frozen=True)
class Experiment:
    """A study or benchmark a game ships: ``sleuth experiment NAME [args]`` calls ``target`` ("module:function")
    with the remaining arguments and exits with what it returns."""

    name: str
    target: str
    summary: str

    def run(self, args: Sequence[str]) -> int:
        module, _, func = self.target.partition(":")
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name and not exc.name.startswith("sleuth"):
                raise SleuthError(f"experiment {self.name!r} is not available ({exc.name} is missing)") from None
            raise
        return int(getattr(mod, func)(list(args)) or 0)


PAGE_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png"}
_PAGE_FILE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$")


@dataclass(frozen=True)
class Companion:
    """A game's page in the table companion (``sleuth serve``), declared by the game (the server names none).

    ``page`` lists its files, relative to the game's package (``"static/clue.js"``): scripts (.js) that register
    the page with ``Sleuth.register(...)``, style sheets (.css), images (.svg, .png); the server serves these
    files and no other.  ``info`` ("module:function") returns JSON data the page reads
    (``Sleuth.pageInfo(game)``: Clue's named decks); ``warm`` ("module:function") runs once in the process the
    background answers are forked from.  A game without a page (no ``page``) gets the generic one.
    """

    page: tuple[str, ...] = ()
    info: str = ""
    warm: str = ""

    def __post_init__(self) -> None:
        for name in self.page:
            if not _PAGE_FILE.match(name) or ".." in name.split("/") or PurePosixPath(name).suffix not in PAGE_TYPES:
                raise ValueError(f"companion page file {name!r}: expected a path relative to the game's package "
                                 f"(letters, digits, _ . - and /) ending in {', '.join(PAGE_TYPES)}")
        for target in (self.info, self.warm):
            if target and not re.fullmatch(r"[\w.]+:\w+", target):
                raise ValueError(f"companion routine {target!r}: expected 'module:function'")


@dataclass(frozen=True)
class Game:
    """One game: everything the engine, the command line and the docs know about it.

    ``package`` is where the code lives: ``<package>.load(doc)`` reads a file into a
    :class:`~sleuth.puzzle.Puzzle`, ``<package>.world`` is its declarative side.  ``methods`` are the registered
    derivations, fastest first (see :mod:`sleuth.derive`); ``answer`` the JSON fields every exact one must
    reproduce.  ``options`` are the game's own options, each naming the commands that take it; a flag
    (``Option(flag=True)``) becomes ``--NAME`` on those commands, the rest are ``--set NAME=VALUE``.
    """

    name: str
    summary: str
    package: str
    aliases: tuple[str, ...] = ()
    keys: tuple[Key, ...] = ()
    claim_keys: tuple[Key, ...] = ()
    claims: tuple[str, ...] = ()
    methods: tuple[Derivation, ...] = ()
    answer: tuple[str, ...] = ()
    suggest_methods: tuple[Derivation, ...] = ()  # suggest --method (see find_method)
    suggest_default: str = ""     # the suggest method when none is named; default: the first
    options: tuple[Option, ...] = ()
    template: str = ""            # the bundled example `sleuth new GAME` prints: "folder/name"
    viewer: bool = True           # whether "viewer" applies (else a viewer is noted as ignored)
    max_worlds: bool = False      # whether its enumerations honour --set max_worlds (else a note says it does not)
    docs: str = ""                # its page (`sleuth docs PAGE`, docs/PAGE.md); default: the game's name
    experiments: tuple[Experiment, ...] = ()
    help: str = ""                # "module:function ...": each returns more lines for `sleuth games GAME`
    templates: str = ""           # "module:function(players) -> text": `sleuth new GAME --players N`
    kernels: tuple[Kernel, ...] = ()  # its compiled kernels (numba): module, functions, switch (sleuth.jit.Kernel)
    warm_kernels: str = ""        # "module:function()": loads its kernels on bundled work (`sleuth cache compile`)
    companion: Companion = Companion()  # its page in `sleuth serve` (none: the generic page)
    review: str = ""              # "module:function(puzzle, options) -> Report": `sleuth review` (none: no review)
    text_input: str = ""          # "module:function(text) -> dict | None": a text of its own (not TOML) as a puzzle

    arena: str = ""               # "module:function(args) -> int": `sleuth arena GAME [options]` (bots play it)
    referee: str = ""             # "module:function(path, as_json) -> int": `sleuth referee TRANSCRIPT`
    documents: str = ""           # "module:function() -> {name: JSON Schema}": `sleuth schema GAME NAME`

    def __post_init__(self) -> None:
        kernels: object = self.kernels
        if isinstance(kernels, str):  # a plug-in's warm-up routine, as older sleuths named it
            object.__setattr__(self, "warm_kernels", kernels)
            object.__setattr__(self, "kernels", ())
        if isinstance(self.suggest_methods, Mapping):  # a plug-in's {name: meaning}, as older sleuths took it
            object.__setattr__(self, "suggest_methods", tuple(Derivation(k, v) for k, v in
                                                              cast(Mapping[str, str], self.suggest_methods).items()))
        if self.suggest_default and self.suggest_default not in {d.name for d in self.suggest_methods}:
            raise InternalError(f"game {self.name!r}: suggest_default {self.suggest_default!r} is not a declared "
                                "suggest method")
        for where, target in self.pointers():
            if not POINTER.fullmatch(target):
                raise InternalError(f"game {self.name!r}: {where} = {target!r} is not a 'module:function' pointer")

    # -- what the user writes ---------------------------------------------------------------------------
    @property
    def page(self) -> str:
        return self.docs or self.name

    def all_options(self) -> tuple[Option, ...]:
        """The game's options, then those every game takes."""
        return (*self.options, *COMMON_OPTIONS)

    def all_keys(self) -> tuple[Key, ...]:
        return (*common_keys(self.claim_keys), *self.keys)

    @property
    def claim_key_names(self) -> tuple[str, ...]:
        """The keys a ``[[claim]]`` table takes beyond ``text`` and ``expect``."""
        return tuple(k.name for k in self.claim_keys)

    def suggest_method(self, value: object, **where: str | None) -> Derivation:
        """The ``suggest`` method ``value`` names (None: the default): the one check of ``suggest --method`` (and
        of the claims that name a strategy), bad input naming the declared methods."""
        return find_method(self.suggest_methods, value if value is not None else self.suggest_default or None,
                           **where)

    def option(self, name: str) -> Option | None:
        return next((o for o in self.all_options() if o.name == name), None)

    def usage(self, name: str, others: Callable[[], Sequence[Game]] = lambda: ()) -> str:
        """How the user writes an option: ``--method`` for a flag, ``--set key=VALUE`` otherwise (an option this
        game does not take is spelled as the first of ``others()`` that declares it does: the installed games)."""
        option = self.option(name)
        if option is None:
            option = next((o for g in others() for o in g.options if o.name == name), None)
        return option.usage if option is not None else f"--set {name}=VALUE"

    def accept(self, command: str, options: Mapping[str, Any] | None, puzzle: Puzzle,
               others: Callable[[], Sequence[Game]] = lambda: ()) -> dict[str, Any]:
        """The options given to ``command``, checked: one this game does not take for it is bad input.

        Unset flags (None, False) are dropped; a figure to write (an option of kind :data:`FIGURE`) must name a
        FILE.png in a writable folder; ``--set max_worlds`` is checked for every game, and noted as not
        applying to a game whose enumerations do not read it.  ``others``: the installed games (for
        :meth:`usage`; the registry sits above this module).
        """
        given = {k: v for k, v in (options or {}).items() if v is not None and v is not False}
        allowed = [o for o in self.all_options() if command in o.commands]
        names = {o.name for o in allowed}
        for key in given:
            if key not in names:
                raise PuzzleError(f"option {self.usage(key, others)} does not apply to {command} in game {self.name!r}",
                                  file=puzzle.doc.file, allowed=[o.usage for o in allowed] or "none")
        for o in allowed:
            if o.kind == FIGURE and o.name in given:
                from .figures import check_target

                try:
                    check_target(str(given[o.name]))
                except PuzzleError as exc:
                    raise exc.located(file=puzzle.doc.file) from None
        if MAX_WORLDS_KEY in given:
            max_items(given, 1)
            if not self.max_worlds:
                puzzle.doc.note(f"--set {MAX_WORLDS_KEY} does not apply to game {self.name!r} (its sizes have "
                                "limits of their own)", f"--set {MAX_WORLDS_KEY}")
        return given

    def json_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                                  "title": f"sleuth puzzle file: {self.name}", "description": self.summary}
        schema.update(object_schema(self.all_keys()))
        schema["properties"]["game"]["const"] = self.name
        return schema

    # -- where the code is --------------------------------------------------------------------------------
    def pointers(self) -> list[tuple[str, str]]:
        """Every ``"module:function"`` the declaration names, with the field that names it: the package's
        ``load`` and ``world``, ``help``, ``templates``, ``warm_kernels``, ``review``, ``text_input``, ``arena``,
        ``referee``, ``documents``, the companion's ``info`` and ``warm``, and each experiment's target."""
        found = [("package", f"{self.package}:load"), ("package", f"{self.package}.world:model"),
                 ("package", f"{self.package}.world:check"), ("package", f"{self.package}.world:candidates")]
        found += [("help", name) for name in self.help.split()]
        found += [(f, target) for f in ("templates", "warm_kernels", "review", "text_input", "arena", "referee",
                                        "documents") if (target := getattr(self, f))]
        found += [(f"companion.{f}", target) for f in ("info", "warm") if (target := getattr(self.companion, f))]
        found += [(f"experiment {e.name!r}", e.target) for e in self.experiments]
        return found

    def check_modules(self) -> None:
        """Every module a pointer or a kernel names exists (found, not imported: cheap enough for each
        registration)."""
        kernels = [(f"kernels[{i}]", f"{k.module}:{(k.functions or ('',))[0]}") for i, k in enumerate(self.kernels)]
        for where, target in [*self.pointers(), *kernels]:
            module = target.partition(":")[0]
            try:
                found = importlib.util.find_spec(module) is not None
            except ModuleNotFoundError:
                found = False
            if not found:
                raise InternalError(f"game {self.name!r}: {where} = {target!r} names no module")

    def check_code(self) -> None:
        """Every pointer imports and names something callable, every kernel's module has its functions (the
        tests run it on every installed game; an optional dependency missing is not a typo)."""
        for where, target in self.pointers():
            module, _, func = target.partition(":")
            try:
                found = getattr(importlib.import_module(module), func, None)
            except ModuleNotFoundError as exc:
                if exc.name and not module.startswith(exc.name):
                    continue
                found = None
            if not callable(found):
                raise InternalError(f"game {self.name!r}: {where} = {target!r} names nothing callable")
        for i, kernel in enumerate(self.kernels):
            try:
                code = importlib.import_module(kernel.module)
            except ModuleNotFoundError as exc:
                if exc.name and not kernel.module.startswith(exc.name):
                    continue
                raise InternalError(f"game {self.name!r}: kernels[{i}] names no module {kernel.module!r}") from None
            missing = [f for f in kernel.functions if not callable(getattr(code, f, None))]
            if missing:
                raise InternalError(f"game {self.name!r}: kernels[{i}] ({kernel.module}) has no function "
                                    f"{', '.join(missing)}")

    def load(self, doc: PuzzleDoc) -> Puzzle:
        """The file read into the game's typed state, as a :class:`~sleuth.puzzle.Puzzle` (which
        :func:`sleuth.loading.load_data` checks: this module sits below the puzzle's)."""
        return cast("Puzzle", self._import(self.package).load(doc))

    def world(self) -> WorldModule:
        """The game's declarative side (``<package>.world``)."""
        return cast(WorldModule, self._import(self.package + ".world"))

    def help_lines(self) -> list[str]:
        """More lines for ``sleuth games GAME`` (Egghead's question catalogue, ...)."""
        return [line for name in self.help.split() for line in self._call(name)()]

    def _call(self, target: str) -> Any:
        module, _, func = target.partition(":")
        return getattr(self._import(module), func)

    def compile_kernels(self) -> None:
        """Load the game's compiled kernels, compiling what the cache lacks (``sleuth cache compile``, which checks
        first that numba is installed): each declared kernel, then the warm-up routine (which runs them on bundled
        work); nothing for a game without any."""
        for kernel in self.kernels:
            kernel.load()
        if self.warm_kernels:
            self._call(self.warm_kernels)()

    # -- its page in the table companion ---------------------------------------------------------------------
    def page_file(self, name: str) -> bytes:
        """One file of the game's companion page (KeyError for a name the declaration does not list)."""
        if name not in self.companion.page:
            raise KeyError(name)
        from importlib import resources

        return resources.files(self.package).joinpath(*name.split("/")).read_bytes()

    def page_problem(self) -> str | None:
        """Why the game's page cannot be served (a file it lists is missing, its ``info`` routine does not
        import), or None; the server then gives the game the generic page, saying why."""
        from importlib import resources

        try:
            folder = resources.files(self.package)
            missing = [n for n in self.companion.page if not folder.joinpath(*n.split("/")).is_file()]
            if self.companion.info:
                self._call(self.companion.info)
        except Exception as exc:  # noqa: BLE001 - a plug-in's broken page must not break the companion
            return f"game {self.name!r}: its companion page cannot be loaded ({type(exc).__name__}: {exc})"
        if missing:
            return f"game {self.name!r}: its companion page lists files its package lacks: {', '.join(missing)}"
        return None

    def page_info(self) -> Any:
        """The data the game's page reads (its ``info`` routine's JSON), or None."""
        return self._call(self.companion.info)() if self.companion.info else None

    def warm_companion(self) -> None:
        """Run the game's companion warm-up routine, if it declares one."""
        if self.companion.warm:
            self._call(self.companion.warm)()

    def read_text(self, text: str) -> dict[str, Any] | None:
        """The puzzle table this game makes of ``text`` in a format of its own (None: not one of its texts)."""
        return cast("dict[str, Any] | None", self._call(self.text_input)(text)) if self.text_input else None

    def review_report(self, puzzle: Puzzle, options: Mapping[str, Any]) -> Report:
        """``sleuth review``: how well each move of the game was played (bad input for a game without one)."""
        if not self.review:
            raise PuzzleError(f"game {self.name!r} has no review", file=puzzle.doc.file,
                              allowed="a game that declares one (sleuth games lists them)")
        return cast("Report", self._call(self.review)(puzzle, dict(options)))

    def run_arena(self, args: Sequence[str]) -> int:
        """``sleuth arena GAME [args]``: the game's arena with its own options (bad input when it has none)."""
        if not self.arena:
            raise PuzzleError(f"game {self.name!r} has no arena", place="arena",
                              allowed="a game that declares one (sleuth docs arena)")
        return int(self._call(self.arena)(list(args)) or 0)

    def run_referee(self, path: str, as_json: bool) -> int:
        """``sleuth referee TRANSCRIPT``: the game's referee on one of its transcripts."""
        if not self.referee:
            raise PuzzleError(f"game {self.name!r} has no referee", file=path, allowed="a transcript of a game "
                              "that declares one (sleuth docs arena)")
        return int(self._call(self.referee)(path, as_json) or 0)

    def document_schemas(self) -> dict[str, Any]:
        """The JSON Schemas of the game's other documents (transcripts, bot messages), by name."""
        return dict(self._call(self.documents)()) if self.documents else {}

    def template_for(self, players: int) -> str:
        """The template ``sleuth new GAME --players N`` prints (bad input when the game has none for N)."""
        if not self.templates:
            raise PuzzleError(f"game {self.name!r} has no template by number of players", place="--players",
                              allowed="sleuth new GAME without --players")
        return str(self._call(self.templates)(players))

    def _import(self, module: str) -> Any:
        try:
            return importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name and module.startswith(exc.name):
                raise SleuthError(f"game {self.name!r} is not available in this build ({exc.name} is missing)") \
                    from None
            raise


def lazy_exports(package: str, table: Mapping[str, str]) -> Callable[[str], Any]:
    """A package's ``__getattr__`` that imports ``name`` from ``<package>.<table[name]>`` on first use, so that
    loading a game's declaration (its ``game`` module, inside the package) imports none of its solvers."""
    def __getattr__(name: str) -> Any:
        if name not in table:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{table[name]}"), name)
    return __getattr__


# -- the declarative side of a game package ------------------------------------------------------------------

P = TypeVar("P")
R = TypeVar("R")


def per_puzzle(fn: Callable[[P], R]) -> Callable[[P], R]:
    """``fn(puzzle)`` computed once per loaded puzzle: what a world module's ``check`` needs is derived from the
    puzzle, and ``check`` runs once per candidate world."""
    cache: weakref.WeakKeyDictionary[Any, R] = weakref.WeakKeyDictionary()

    @functools.wraps(fn)
    def once(puzzle: P) -> R:
        if puzzle not in cache:
            cache[puzzle] = fn(puzzle)
        return cache[puzzle]
    return once


@dataclass(frozen=True)
class WorldModel:
    """A game state's declarative model, the variables that make a world, and how to read one."""

    model: Model
    variables: Sequence[Var]
    decode: Callable[[tuple[int, ...]], Hashable]


class WorldModule(Protocol):
    """What a game package's ``world`` module provides (a module satisfies it; mypy checks every built-in
    game's against it in ``sleuth.models``)."""

    def model(self, puzzle: Any, /) -> WorldModel: ...

    def check(self, puzzle: Any, world: Any, /) -> bool: ...

    def candidates(self, puzzle: Any, /) -> Iterable[Any]: ...


def world_module(puzzle: Puzzle) -> WorldModule:
    """The ``world`` module of the puzzle's game (model, check, candidates)."""
    return puzzle.doc.game.world()


def model_worlds(puzzle: Puzzle, backend: str = "cpsat") -> set[Hashable]:
    """The worlds the game's declarative model admits, enumerated on ``backend``."""
    from .engine import Engine

    wm: WorldModel = world_module(puzzle).model(puzzle)
    return {wm.decode(values) for values in Engine(wm.model, backend).valids(wm.variables)}


def checked_worlds(puzzle: Puzzle) -> set[Hashable]:
    """The candidate worlds that the game's plain-Python rules accept (brute force, small puzzles)."""
    mod = world_module(puzzle)
    return {w for w in mod.candidates(puzzle) if mod.check(puzzle, w)}
