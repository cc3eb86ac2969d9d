"""The one progress display of the experiments: a tqdm bar (count, rate, ETA) on stderr.

It is shown only when stderr is a terminal and ``--quiet`` is not given; otherwise nothing is written.
"""

from __future__ import annotations

import sys
from typing import Any


class _Silent:
    """What :func:`progress_bar` returns when nothing is to be shown."""

    def update(self, n: float = 1) -> None:
        pass

    def set_postfix_str(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: float, label: str, *, unit: str = "task", quiet: bool = False, initial: float = 0) -> Any:
    """A bar over ``total`` units, or a silent stand-in when quiet or stderr is not a terminal."""
    if quiet or not sys.stderr.isatty():
        return _Silent()
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, desc=label, unit=unit, file=sys.stderr, dynamic_ncols=True,
                smoothing=0.1, leave=False)
