"""The ``sleuth`` command line: a thin layer over :mod:`sleuth.api`.

Exit status: 0 success; 1 a claim did not meet its expectation; 2 bad input (one line on stderr naming the
file, the place and what is allowed; never a traceback); 3 a time limit was reached.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any

from .backends import BACKENDS, SolverTimeout, backend_name
from .errors import PuzzleError, SleuthError
from .games import EXPERIMENTS, GAMES, experiment
from .puzzle import load_puzzle
from .results import ClaimSpec, Report, Status, contradiction_text


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"sleuth: {message}", file=sys.stderr)
        raise SystemExit(2)


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value.strip()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="sleuth", description="Constraint solving for games of hidden information.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def common(p: argparse.ArgumentParser, *, backend: bool = True) -> None:
        p.add_argument("file", help="puzzle file (TOML or JSON)")
        p.add_argument("--json", action="store_true", help="print one JSON object")
        p.add_argument("--viewer", help="whose knowledge to show (overrides the file)")
        if backend:
            p.add_argument("--backend", default="cpsat", help=f"solver engine: {' | '.join(BACKENDS)}")
        p.add_argument("--set", action="append", type=_key_value, default=[], metavar="KEY=VALUE",
                       help="a game-specific option (repeatable)")

    p = sub.add_parser("solve", help="solve a puzzle file")
    common(p)
    p.add_argument("--probabilities", action="store_true", help="exact probabilities (games that have them)")
    p.add_argument("--method", help="game-specific method (e.g. mascarade: tree | states | matrix | auto)")
    p.add_argument("--plot", metavar="FILE.png", help="draw a figure (needs the 'plot' extra)")
    p.add_argument("--time-limit", type=float, help="seconds per solver call")

    p = sub.add_parser("verify", help="check the file's claims and any --claim")
    common(p)
    p.add_argument("--claim", action="append", default=[], metavar="TEXT", help="a claim to check (repeatable)")
    p.add_argument("--time-limit", type=float, help="seconds per solver call")

    p = sub.add_parser("suggest", help="propose the next move")
    common(p, backend=False)
    p.add_argument("--method", help="scoring method or strategy")

    p = sub.add_parser("experiment", help="run a study or benchmark (sleuth experiment NAME --help)",
                       add_help=False)
    p.add_argument("name", nargs="?", help="one of: " + ", ".join(EXPERIMENTS))
    p.add_argument("args", nargs=argparse.REMAINDER)

    sub.add_parser("games", help="list the games and their aliases")
    return parser


def _options(args: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for key in ("probabilities", "method", "plot", "time_limit"):
        value = getattr(args, key, None)
        if value not in (None, False):
            opts[key.replace("_", "-")] = value
    for key, value in getattr(args, "set", []):
        opts[key] = value
    return opts


def _emit(report: Report, as_json: bool) -> None:
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    elif report.status is Status.CONTRADICTION:
        print(contradiction_text(report.conflict))
    else:
        print(report.text)


def cmd_solve(args: argparse.Namespace) -> int:
    args.backend = backend_name(args.backend)
    puzzle = load_puzzle(args.file, viewer=args.viewer)
    report = puzzle.solve(backend=args.backend, options=_options(args))
    _emit(report, args.json)
    return 3 if report.status is Status.TIMEOUT else 0


def cmd_verify(args: argparse.Namespace) -> int:
    args.backend = backend_name(args.backend)
    puzzle = load_puzzle(args.file, viewer=args.viewer)
    claims = list(puzzle.claims) + [ClaimSpec(text, place=f"--claim[{i + 1}]") for i, text in enumerate(args.claim)]
    if not claims:
        raise PuzzleError("has no [[claim]] and no --claim was given", file=args.file)
    opts = _options(args)
    results = puzzle.verify(claims, backend=args.backend, options=opts)
    if args.json:
        print(json.dumps({"game": puzzle.game, "claims": [r.to_json() for r in results]}, ensure_ascii=False,
                         indent=2))
    else:
        for r in results:
            print(r.to_text())
        good = sum(r.ok for r in results)
        print(f"{good} of {len(results)} claims as expected")
    return 0 if all(r.ok for r in results) else 1


def cmd_suggest(args: argparse.Namespace) -> int:
    puzzle = load_puzzle(args.file, viewer=args.viewer)
    opts = _options(args)
    opts.pop("method", None)
    _emit(puzzle.suggest(method=args.method, options=opts), args.json)
    return 0


def cmd_experiment(args: argparse.Namespace) -> int:
    if not args.name or args.name in ("-h", "--help"):
        print("experiments:")
        for name, (_, summary) in EXPERIMENTS.items():
            print(f"  {name:<10} {summary}")
        return 0
    target, _ = experiment(args.name)
    module, _, func = target.partition(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(module.split(".")[0]):
            raise SleuthError(f"experiment {args.name!r} is not available yet ({exc.name} is missing)") from None
        raise
    return int(getattr(mod, func)(list(args.args)) or 0)


def cmd_games(args: argparse.Namespace) -> int:
    for g in GAMES:
        alias = f" (aliases: {', '.join(g.aliases)})" if g.aliases else ""
        print(f"{g.name:<11} {g.summary}{alias}")
    return 0


COMMANDS = {"solve": cmd_solve, "verify": cmd_verify, "suggest": cmd_suggest,
            "experiment": cmd_experiment, "games": cmd_games}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except SleuthError as exc:
        print(f"sleuth: {exc}", file=sys.stderr)
        return 2
    except SolverTimeout as exc:
        print(f"sleuth: timed out: {exc}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("sleuth: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
