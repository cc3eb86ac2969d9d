"""The ``sleuth`` command line: a thin layer over the API (:func:`sleuth.load_puzzle` and the games' specs)."""

from __future__ import annotations

import argparse
import gc
import json
import sys
import unicodedata
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from . import __version__
from .backends import BACKENDS, backend_name
from .errors import InternalError, PuzzleError, SleuthError, UnknownNameError
from .allocator import tune_allocator
from .limits import LimitReached
from .registry import all_experiments, all_games, find_experiment, find_game

if TYPE_CHECKING:
    from .game import Game
    from .results import Report
    from .spec import Option

EXIT_OK, EXIT_CLAIM, EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_CONTRADICTION = 0, 1, 2, 3, 4
EXIT_INTERNAL, EXIT_INTERRUPTED = 70, 130

EXIT_STATUSES = """\
exit status:
  0    success
  1    verify: a claim did not get the verdict it expects
  2    bad input: one line on stderr names the file, the place and what is allowed
  3    a limit (--time-limit, a state or memory budget) stopped the work before an exact answer
  4    contradiction: the observations admit no world (the output names a minimal conflicting set)
  70   internal error: two exact computations disagree (a bug in sleuth; please report it)
  130  interrupted (Ctrl-C)"""

METHOD_HELP = ("how to derive the answer: auto (default), model (the declarative model on --backend), or a "
               "method of the game (sleuth games GAME lists them)")
FILE_HELP = "puzzle file (TOML or JSON), - for standard input, or example:GAME/NAME (see sleuth examples)"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        _print(f"sleuth: {message}", sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value.strip()


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is out of range (allowed: more than 0 seconds)")
    return value


_OWN_FLAGS = {"time-limit"}  # flags every command defines itself (with their own checks)


def game_flags(command: str) -> dict[str, Option]:
    """The flags the installed games declare for ``command`` (``--others``, ``--show``...), by name: the first
    game to declare a name defines it."""
    flags: dict[str, Option] = {}
    for game in all_games():
        for o in game.options:
            if o.flag and command in o.commands and o.name not in _OWN_FLAGS:
                flags.setdefault(o.name, o)
    return flags


def _add_game_flags(p: argparse.ArgumentParser, command: str) -> None:
    games = all_games()
    for name, o in game_flags(command).items():
        users = [g.name for g in games if any(x.name == name and command in x.commands for x in g.options)]
        where = f" ({', '.join(users)})" if len(users) < len(games) else ""
        text = METHOD_HELP if name == "method" and command != "suggest" else o.meaning + where
        if name == "method" and command == "suggest":
            text = "scoring method or strategy (sleuth games GAME lists them)"
        if o.kind == "flag":
            p.add_argument(f"--{name}", action="store_true", help=text)
        else:
            p.add_argument(f"--{name}", metavar=o.kind if o.kind != "string" else name.upper(), help=text)


def build_parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = _Parser(prog="sleuth", description="Constraint solving for games of hidden information.",
                     epilog=EXIT_STATUSES + "\n\nsleuth games GAME shows a game's methods, --set keys and claims.",
                     formatter_class=formatter)
    parser.add_argument("--version", action="version", version=f"sleuth {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".",
                              epilog=EXIT_STATUSES, formatter_class=formatter)

    def puzzle_options(p: argparse.ArgumentParser, *, backend: bool = True) -> None:
        p.add_argument("file", help=FILE_HELP)
        p.add_argument("--json", action="store_true", help="print one JSON object")
        p.add_argument("--viewer", help="whose knowledge to show (overrides the file)")
        if backend:
            p.add_argument("--backend", default="cpsat", help=f"the engine that runs a model: {' | '.join(BACKENDS)} "
                                                                         "(never changes the method)")
        p.add_argument("--set", action="append", type=_key_value, default=[], metavar="KEY=VALUE",
                       help="a game option (repeatable; sleuth games GAME lists them)")
        p.add_argument("--time-limit", type=_seconds, metavar="SECONDS",
                       help="stop after this long (exit 3: the answer is not exact)")

    p = command("solve", "solve a puzzle file: what is still possible, who knows what")
    puzzle_options(p)
    _add_game_flags(p, "solve")

    p = command("verify", "check the file's [[claim]]s, and answer any --claim (a question)")
    puzzle_options(p)
    p.add_argument("--claim", action="append", default=[], metavar="TEXT",
                   help="a question: its verdict, probability and a world each way, exit 0 (repeatable)")
    p.add_argument("--expect", choices=["entailed", "refuted", "open"],
                   help="make every --claim a check with this expected verdict (exit 1 when one misses it)")
    _add_game_flags(p, "verify")

    p = command("suggest", "propose the next move")
    puzzle_options(p, backend=False)
    _add_game_flags(p, "suggest")

    p = command("review", "review a played game: how good each move was, exactly (games that offer it)")
    p.add_argument("file", help=FILE_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="draw a chart of the review per move (needs matplotlib)")
    p.add_argument("--budget", type=int, metavar="NODES",
                   help="nodes each exact search may visit before it stops with proven bounds (word and code games)")
    p.add_argument("--time-limit", type=_seconds, metavar="SECONDS",
                   help="CPU seconds all the searches may take before the positions left get proven bounds (word and "
                        "code games; default 20, or 3 without numba)")

    p = command("experiment", "run a study or benchmark (sleuth experiment NAME --help)")
    p.add_argument("name", nargs="?", metavar="NAME", help="one of: " + ", ".join(all_experiments()))
    p.add_argument("args", nargs=argparse.REMAINDER, help="the experiment's own options")

    p = command("games", "list the games, or show one game's methods, options and claims")
    p.add_argument("game", nargs="?", help="a game name or alias")

    p = command("examples", "list the bundled example puzzles (use them as example:GAME/NAME)")
    p.add_argument("game", nargs="?", help="only this game's folder")

    p = command("schema", "print a game's puzzle-file JSON Schema (for editors), or another of its documents'")
    p.add_argument("game", help="a game name or alias")
    p.add_argument("document", nargs="?", help="another document of the game (clue: transcript, bot-request, "
                   "bot-reply)")

    p = command("new", "print a commented puzzle-file template that solves as it is")
    p.add_argument("game", help="a game name or alias")
    p.add_argument("--players", type=int, metavar="N",
                   help="a template for N players (games that have one; sleuth games GAME says which)")

    p = command("docs", "show a page of the documentation (the pages ship with sleuth)")
    p.add_argument("page", nargs="?", help="a page or a game name (none: list the pages)")
    p.add_argument("--path", action="store_true", help="print where the page is, to open it in a viewer")

    p = command("serve", "the table companion: a local web page to play along with a live game")
    p.add_argument("file", nargs="?", help="a game to resume (a puzzle file; copied into the games folder)")
    p.add_argument("--host", default="127.0.0.1", help="address to serve on (not loopback, e.g. 0.0.0.0: one URL "
                   "per address of this machine, each with a token and a QR code, for a phone on the network)")
    p.add_argument("--port", type=int, help="port (default 8765, or a free one when taken)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")

    p = command("arena", "bots play a game against each other (sleuth arena GAME --help)")
    p.add_argument("game", nargs="?", metavar="GAME", help="a game that has an arena (clue)")
    p.add_argument("args", nargs=argparse.REMAINDER, help="the arena's own options")

    p = command("referee", "label a played game exactly: what each player could know, turn by turn")
    p.add_argument("file", help="a game transcript (JSON lines; sleuth arena --transcripts writes them)")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = command("cache", "inspect or clear the on-disk cache of derived data, or compile the numba kernels into it")
    p.add_argument("action", choices=["info", "clear", "compile"],
                   help="info: where, how many entries, size and cap; clear: empty it; compile: compile every "
                        "game's numba kernels now (a first run after an install would wait 5-20 s a game)")
    return parser


# -- output that survives any terminal ---------------------------------------------------------------------

_ASCII = {"✓": "+", "✗": "x", "·": ".", "—": "-", "–": "-", "…": "...", "×": "x", "→": "->", "←": "<-",
          "≤": "<=", "≥": ">=", "≠": "!=", "⋃": "U", "≈": "~", "🟩": "G", "🟨": "Y", "⬛": "B", "⬜": "B"}


def ascii_fallback(text: str, encoding: str) -> str:
    """``text`` as the stream's encoding can show it: symbols spelled in ASCII, accents dropped, '?' last."""
    text = "".join(_ASCII.get(ch, ch) for ch in text)
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        pass
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return plain.encode(encoding, errors="replace").decode(encoding)


def _can_encode(text: str, stream: TextIO) -> bool:
    try:
        text.encode(stream.encoding or "utf-8")
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def _print(text: str, stream: TextIO | None = None) -> None:
    stream = stream or sys.stdout
    if not _can_encode(text, stream):
        text = ascii_fallback(text, stream.encoding or "ascii")
    print(text, file=stream)


def _print_json(data: Any) -> None:
    text = json.dumps(data, ensure_ascii=False, indent=2)
    if not _can_encode(text, sys.stdout):
        text = json.dumps(data, ensure_ascii=True, indent=2)  # \u escapes: still the same JSON
    print(text)


# -- commands -----------------------------------------------------------------------------------------------

def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options of a puzzle command: its flags, then its ``--set`` keys, named as the games name them."""
    opts: dict[str, Any] = {}
    for key in (*game_flags(args.command), *_OWN_FLAGS):
        value = getattr(args, key.replace("-", "_"), None)
        if value not in (None, False):
            opts[key] = value
    for key, value in getattr(args, "set", []):
        opts[key] = value
    return opts


def _status_code(report: Report) -> int:
    from .results import Status

    if report.status is Status.TIMEOUT:
        return EXIT_LIMIT
    if report.status is Status.CONTRADICTION:
        return EXIT_CONTRADICTION
    return EXIT_OK


def _emit(report: Report, as_json: bool) -> int:
    """Print a report (its notes already went to stderr, through the sleuth.notes logger)."""
    from .results import Status, contradiction_text

    if as_json:
        _print_json(report.to_json())
    elif report.status is Status.CONTRADICTION:
        _print(contradiction_text(report.conflict))
    else:
        _print(report.text)
    return _status_code(report)


def cmd_solve(args: argparse.Namespace) -> int:
    from .loading import load_puzzle

    args.backend = backend_name(args.backend)
    puzzle = load_puzzle(args.file, viewer=args.viewer)
    return _emit(puzzle.solve(backend=args.backend, options=_options(args)), args.json)


def cmd_verify(args: argparse.Namespace) -> int:
    from .loading import load_puzzle
    from .results import ClaimSpec, Verdict

    args.backend = backend_name(args.backend)
    puzzle = load_puzzle(args.file, viewer=args.viewer)
    expect = Verdict(args.expect) if args.expect else None   # none: each --claim is a question
    asked = [ClaimSpec(text, expect, place=f"--claim[{i + 1}]") for i, text in enumerate(args.claim)]
    claims = list(puzzle.claims) + asked
    if not claims:
        raise PuzzleError("has no [[claim]] and no --claim was given", file=args.file,
                          allowed="--claim TEXT (a question), or [[claim]] tables in the file")
    results = puzzle.verify(claims, backend=args.backend, options=_options(args))
    if args.json:
        _print_json({"game": puzzle.game, "claims": [r.to_json() for r in results], "notes": list(puzzle.notes)})
    else:
        for r in results:
            _print(r.to_text())
        checks = [r for r in results if not r.question]
        summary = [f"{sum(r.ok for r in checks)} of {len(checks)} claims as expected"] if checks else []
        if len(checks) < len(results):
            summary.append(f"{len(results) - len(checks)} question(s) answered")
        _print("; ".join(summary))
    if any(r.verdict is Verdict.CONTRADICTION for r in results):
        return EXIT_CONTRADICTION
    if any(r.verdict is Verdict.TIMEOUT for r in results):
        return EXIT_LIMIT
    return EXIT_OK if all(r.ok for r in results) else EXIT_CLAIM


def cmd_suggest(args: argparse.Namespace) -> int:
    from .loading import load_puzzle

    puzzle = load_puzzle(args.file, viewer=args.viewer)
    opts = _options(args)
    method = opts.pop("method", None)
    return _emit(puzzle.suggest(method=method, options=opts), args.json)


def cmd_review(args: argparse.Namespace) -> int:
    from .figures import check_target
    from .loading import load_puzzle

    if args.budget is not None and args.budget < 1:
        raise PuzzleError(f"{args.budget} is out of range", place="--budget", allowed="a number of nodes, 1 or more")
    check_target(args.plot)
    puzzle = load_puzzle(args.file)
    report = puzzle.doc.game.review_report(puzzle, {"plot": args.plot, "budget": args.budget,
                                                    "time-limit": args.time_limit})
    return _emit(report, args.json)


def cmd_experiment(args: argparse.Namespace) -> int:
    if not args.name or args.name in ("-h", "--help"):
        _print("usage: sleuth experiment NAME [options]   (sleuth experiment NAME --help for its options)\n")
        _print("experiments:")
        for name, e in all_experiments().items():
            _print(f"  {name:<10} {e.summary}")
        return EXIT_OK
    return find_experiment(args.name).run(args.args)


def cmd_games(args: argparse.Namespace) -> int:
    if args.game is None:
        for g in all_games():
            alias = f" (aliases: {', '.join(g.aliases)})" if g.aliases else ""
            _print(f"{g.name:<11} {g.summary}{alias}")
        _print("\nsleuth games GAME shows a game's methods, --set keys and claim forms.")
        return EXIT_OK
    spec = find_game(args.game, place="games")
    lines = [f"{spec.name}: {spec.summary}"]
    if spec.aliases:
        lines.append(f"aliases: {', '.join(spec.aliases)}")
    lines.append(f"docs: sleuth docs {spec.page}; template: sleuth new {spec.name}")
    if spec.methods:
        lines += ["", "solve methods (--method NAME; auto, the default, picks an exact one: the first, unless the "
                  "--method option below says how):"]
        lines += [f"  {d.name:<15} [{d.label}] {d.meaning}" + (f" (also: {', '.join(d.aliases)})" if d.aliases
                                                                 else "") for d in spec.methods]
    if spec.suggest_methods:
        lines += ["", f"suggest methods (sleuth suggest --method; default: {spec.suggest_method(None).name}):"]
        lines += [f"  {d.name:<15} {d.meaning}" + (f" (also: {', '.join(d.aliases)})" if d.aliases else "")
                  for d in spec.suggest_methods]
    if spec.kernels:
        lines += ["", "compiled kernels (sleuth cache compile compiles them ahead of time):"]
        lines += [f"  {k.summary or k.module}: {k.status()}" for k in spec.kernels]
    if spec.all_options():
        lines += ["", "options:"]
        for o in spec.all_options():
            lines.append(f"  {o.usage:<28} {o.meaning} ({o.kind}; default {o.default}; {', '.join(o.commands)})")
    lines += ["", "claims ([[claim]] text = ..., or --claim):"] + [f"  {c}" for c in spec.claims]
    lines += ["  (which of them combine with not, and, or, implies and parentheses: sleuth docs claims)"]
    lines += ["", "puzzle-file keys (sleuth schema " + spec.name + " prints them as JSON Schema):"]
    lines += [f"  {k.name:<15} {k.kind}{', required' if k.required else ''}" for k in spec.keys]
    if spec.review:
        lines += ["", f"review: sleuth review FILE [--json] [--plot FILE.png] (sleuth docs {spec.page})"]
    lines += spec.help_lines()
    _print("\n".join(lines))
    return EXIT_OK


def cmd_examples(args: argparse.Namespace) -> int:
    from .resources import example_folders, examples

    if args.game is not None and args.game not in example_folders():
        folder = find_game(args.game, place="examples").name
        if folder not in example_folders():
            raise PuzzleError(f"no bundled examples for {args.game!r}", allowed=example_folders())
        args.game = folder
    for ex in examples(args.game):
        _print(f"{ex.ref}")
    return EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    game = find_game(args.game, place="schema")
    if args.document is None:
        _print_json(game.json_schema())
        return EXIT_OK
    documents = game.document_schemas()
    if args.document not in documents:
        raise PuzzleError(f"game {game.name!r} has no document {args.document!r}", place="schema",
                          allowed=list(documents) or "none (sleuth schema GAME prints the puzzle file's)")
    _print_json(documents[args.document])
    return EXIT_OK


def cmd_arena(args: argparse.Namespace) -> int:
    if not args.game or args.game in ("-h", "--help"):
        _print("usage: sleuth arena GAME [options]   (sleuth arena GAME --help for its options)\n")
        _print("games with an arena: " + ", ".join(g.name for g in all_games() if g.arena))
        return EXIT_OK
    try:
        game = find_game(args.game, place="arena")
    except UnknownNameError:   # list only the games that have an arena
        raise UnknownNameError("game", args.game, [g.name for g in all_games() if g.arena], place="arena") from None
    return game.run_arena(args.args)


def transcript_game(path: str) -> str:
    """The game a transcript is of: the ``game`` of its first line (JSON lines)."""
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline()
    except (OSError, UnicodeDecodeError) as exc:
        raise PuzzleError(f"cannot read it ({getattr(exc, 'strerror', None) or exc})", file=path) from None
    try:
        head = json.loads(first)
    except ValueError:
        head = None
    if not isinstance(head, dict) or not isinstance(head.get("game"), str):
        raise PuzzleError("line 1 is not a transcript's first line", file=path,
                          allowed='a JSON object with "game" (sleuth docs arena)')
    return str(head["game"])


def cmd_referee(args: argparse.Namespace) -> int:
    return find_game(transcript_game(args.file), file=args.file, place="line 1: game").run_referee(args.file, args.json)


def cmd_new(args: argparse.Namespace) -> int:
    from .resources import find_example

    spec = find_game(args.game, place="new")
    text = find_example(spec.template).text().rstrip("\n")
    if args.players is not None:
        text = spec.template_for(args.players).rstrip("\n")
    _print(f"# A {spec.name} puzzle to start from (sleuth new {spec.name} > my.toml; sleuth solve my.toml).\n"
           f"# Every key: sleuth docs {spec.page}, or sleuth schema {spec.name}. Claims: sleuth games {spec.name}.\n"
           + text)
    return EXIT_OK


def cmd_docs(args: argparse.Namespace) -> int:
    from .resources import doc_pages, find_doc

    if args.page is None:
        for name, title in doc_pages().items():
            _print(f"{name:<20} {title}")
        _print("\nsleuth docs PAGE shows one (a game's name shows its page); --path prints where it is.")
        return EXIT_OK
    page = find_doc(args.page)
    if args.path:
        from importlib.resources import as_file

        with as_file(page) as path:
            _print(str(path))
        return EXIT_OK
    _print(page.read_text(encoding="utf-8").rstrip("\n"))
    return EXIT_OK


def cmd_cache(args: argparse.Namespace) -> int:
    from . import cache

    if args.action == "clear":
        _print(f"removed {cache.human(cache.clear())} from {cache.root()}")
        return EXIT_OK
    if args.action == "compile":
        return _compile_kernels()
    try:
        data = cache.info()
    except ValueError as exc:
        raise SleuthError(str(exc)) from None
    state = "on" if data.enabled else "off (SLEUTH_NO_CACHE)"
    _print(f"cache: {data.path}\nentries: {data.entries}\nsize: {cache.human(data.size)} "
           f"(cap {cache.human(data.limit)}, SLEUTH_CACHE_MAX; least recently used entries go first)\n"
           f"state: {state}")
    return EXIT_OK


def _compile_kernels() -> int:
    """``sleuth cache compile``: each game's kernels compiled (or found compiled) in the cache, one line a game."""
    from .jit import compile_all, kernel_cache_dir

    try:
        import numba  # noqa: F401
    except ImportError:
        _print("numba is not installed: sleuth runs its numpy passes instead (the same answers), nothing to compile "
               "(pip install numba for the compiled kernels)")
        return EXIT_OK
    where = kernel_cache_dir()
    if where is None:
        raise SleuthError("the compiled kernels cannot be kept: the cache is off (SLEUTH_NO_CACHE) or its folder "
                          "is not private to this user (see sleuth cache info)")
    sharing: dict[object, list[Game]] = {}  # games of one package share its kernels: compiled once, named together
    for game in all_games():
        if game.kernels or game.warm_kernels:
            sharing.setdefault((tuple(k.module for k in game.kernels), game.warm_kernels), []).append(game)
    failed = False
    for done in compile_all([(", ".join(g.name for g in games), games[0].compile_kernels)
                             for games in sharing.values()]):
        if done.error is not None:
            failed = True
            _print(f"sleuth: {done.game}: the kernels could not be compiled ({done.error}): a bug in sleuth or a "
                   "numba it does not support; please report it", sys.stderr)
            continue
        what = f"compiled {done.compiled} functions" if done.compiled else "already compiled, loaded"
        _print(f"{done.game}: {what} in {done.seconds:.1f} s")
        sys.stdout.flush()
    _print(f"kept in {where}")
    return EXIT_INTERNAL if failed else EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    from .serve import serve

    return serve(args.file, args.host, args.port, args.open)


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "solve": cmd_solve, "verify": cmd_verify, "suggest": cmd_suggest, "experiment": cmd_experiment,
    "games": cmd_games, "examples": cmd_examples, "schema": cmd_schema, "new": cmd_new, "docs": cmd_docs,
    "cache": cmd_cache, "serve": cmd_serve, "review": cmd_review, "arena": cmd_arena, "referee": cmd_referee}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    tune_allocator()
    parser = build_parser()
    if argv[:1] == ["experiment"]:  # everything after NAME belongs to the experiment, --help included
        args = argparse.Namespace(command="experiment", name=argv[1] if len(argv) > 1 else None, args=argv[2:])
    elif argv[:1] == ["arena"]:  # the same for an arena's options
        args = argparse.Namespace(command="arena", game=argv[1] if len(argv) > 1 else None, args=argv[2:])
    else:
        args = parser.parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except SleuthError as exc:
        for line in str(exc).splitlines():  # several mistakes of one file: one line each
            _print(f"sleuth: {line}", sys.stderr)
        return EXIT_BAD_INPUT
    except LimitReached as exc:
        _print(f"sleuth: stopped at a limit: {exc}", sys.stderr)
        return EXIT_LIMIT
    except InternalError as exc:
        _print(f"sleuth: {exc}", sys.stderr)
        return EXIT_INTERNAL
    except MemoryError:  # a last resort: estimates are checked against what the process may use before work
        _print("sleuth: stopped at a limit: the process ran out of memory (see SLEUTH_MEMORY_BUDGET in "
               "sleuth docs cli)", sys.stderr)
        return EXIT_LIMIT
    except KeyboardInterrupt:
        _print("sleuth: interrupted", sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK


def run() -> NoReturn:
    """The ``sleuth`` program (its console script and ``python -m sleuth``): :func:`main`, then exit with its status.

    Whatever the command made is first moved out of the cyclic collector's reach (:func:`gc.freeze`): on the
    way out the interpreter collects once more, and that pass walked every object still alive: 0.1 s of each
    command that had loaded numba's compiler (10^5 objects), 0.02 s of one that had not.  Atexit handlers and
    finalizers run as before; what the pass would have freed goes back to the system with the process."""
    try:
        status = main()
    finally:
        gc.freeze()
    sys.exit(status)


if __name__ == "__main__":
    run()
