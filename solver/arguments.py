"""The experiment command line: every ``sleuth experiment NAME`` parses its options with these.

:class:`ExperimentParser` turns every bad option into one :class:`~sleuth.errors.PuzzleError` line naming the
option and the allowed range; :func:`bounded`, :func:`int_list` and :func:`comma_list` read numbers and lists;
:func:`add_run_options` adds the executor's options (:mod:`sleuth.executor`); :func:`task_seed` derives each
task's seed from the experiment's.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NoReturn

from .errors import PuzzleError

MAX_WORKERS = 256


class ExperimentParser(argparse.ArgumentParser):
    """An argument parser whose errors are one :class:`PuzzleError` line (the CLI exits 2), never a usage dump."""

    def error(self, message: str) -> NoReturn:
        place = self.prog.removeprefix("sleuth ")
        head, sep, choices = message.partition(" (choose from ")
        if sep:
            raise PuzzleError(head, place=place, allowed=choices.rstrip(")").replace("'", ""))
        raise PuzzleError(message, place=place, allowed=None if "(allowed: " in message else f"see {self.prog} --help")


def bounded(kind: type, lo: float | None = None, hi: float | None = None, *, above: bool = False
            ) -> Callable[[str], Any]:
    """An argparse ``type``: an ``int`` or ``float`` in ``[lo, hi]`` (``(lo, hi]`` with ``above``)."""
    what = "an integer" if kind is int else "a number"

    def num(x: float) -> str:
        return str(int(x)) if float(x).is_integer() else f"{x:g}"

    if lo is not None and hi is not None:
        allowed = f"{what} {'above' if above else 'from'} {num(lo)} {'and at most' if above else 'to'} {num(hi)}"
    elif lo is not None:
        allowed = f"{what} {'above' if above else 'of at least'} {num(lo)}"
    else:
        allowed = what if hi is None else f"{what} up to {num(hi)}"

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except (TypeError, ValueError):
            raise argparse.ArgumentTypeError(f"{text!r} is not {allowed}") from None
        if value != value or (lo is not None and (value <= lo if above else value < lo)) \
                or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"{text} is out of range (allowed: {allowed})")
        return value

    parse.__name__ = kind.__name__
    return parse


def comma_list(text: str) -> list[str]:
    """The items of a comma-separated list, stripped, empty ones dropped (``"a, b,"`` -> ``["a", "b"]``): how every
    option that takes a list reads it.

    >>> comma_list(" sum, max ,, gini ")
    ['sum', 'max', 'gini']
    """
    return [x.strip() for x in text.split(",") if x.strip()]


def ints(text: str, lo: int, hi: int, place: str, *, spans: bool = False, allowed: str = "") -> list[int]:
    """The integers of a comma-separated list (:func:`comma_list`), each in ``[lo, hi]``; with ``spans``, an item
    ``a-b`` stands for ``a`` to ``b`` (``"5-7,9"`` -> ``[5, 6, 7, 9]``, sorted, each once).  Bad input is one
    :class:`PuzzleError` naming ``place`` (the option) and what is ``allowed`` (default: the range).

    >>> ints("5-7, 9", 2, 30, "--lengths", spans=True)
    [5, 6, 7, 9]
    """
    allowed = allowed or f"integers from {lo} to {hi}, comma separated" + (" (a-b: a to b)" if spans else "")
    values: list[int] = []
    try:
        for item in comma_list(text):
            a, dash, b = item.partition("-") if spans else (item, "", "")
            values.extend(range(int(a), int(b) + 1) if dash else [int(a)])
    except ValueError:
        raise PuzzleError(f"{text!r} is not a list of integers", place=place, allowed=allowed) from None
    bad = [v for v in values if not lo <= v <= hi]
    if bad or not values:
        raise PuzzleError(f"{bad[0]} is out of range" if bad else f"{text!r} lists no integer", place=place,
                          allowed=allowed)
    return sorted(set(values)) if spans else values


def int_list(lo: int, hi: int) -> Callable[[str], list[int]]:
    """An argparse ``type``: comma-separated integers, each in ``[lo, hi]`` (:func:`ints`)."""

    def parse(text: str) -> list[int]:
        try:
            return ints(text, lo, hi, "")
        except PuzzleError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = "list"
    return parse


def add_run_options(p: argparse.ArgumentParser, *, jobs_alias: bool = False) -> None:
    """``--workers``, ``--cluster``, ``--resume``, ``--quiet`` and ``--plot`` (see the module docstring)."""
    names = ["--workers", "--jobs"] if jobs_alias else ["--workers"]
    p.add_argument(*names, dest="workers", type=bounded(int, 1, MAX_WORKERS), default=1, metavar="N",
                   help="run the tasks on N worker processes of this machine (default 1: serial, in this "
                        "process)")
    p.add_argument("--cluster", metavar="ADDRESS", help="run the tasks on an existing Dask scheduler, "
                   "e.g. tcp://10.0.0.5:8786 (its workers need the same sleuth version)")
    p.add_argument("--resume", metavar="FILE", help="append each finished task to FILE (JSON lines: reading "
                   "it runs no code); rerunning the same command skips the tasks already there")
    p.add_argument("--quiet", action="store_true", help="no progress display (it is shown only on a terminal)")
    p.add_argument("--plot", metavar="FILE.png", help="draw the experiment's figure (needs the 'plot' extra)")


def task_seed(seed: int, *index: int) -> int:
    """A 63-bit seed for the task at ``index`` of an experiment run with ``seed`` (independent streams)."""
    import numpy as np

    return int(np.random.SeedSequence([abs(seed), int(seed < 0), *index]).generate_state(2, np.uint64)[0] >> 1)
