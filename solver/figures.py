"""Figures of the experiments and of ``solve --plot``: matplotlib (the ``plot`` extra), imported lazily."""

from __future__ import annotations

import os
from typing import Any

from .errors import PuzzleError, SleuthError


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the file-only Agg backend, or a clear error when the extra is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SleuthError("--plot needs matplotlib: pip install 'sleuth[plot]'") from None
    return plt


def check_target(path: str | None) -> None:
    """Fail before any work when ``--plot FILE.png`` cannot be drawn or written."""
    if path is None:
        return
    if os.path.isdir(path):
        raise PuzzleError(f"{path!r} is a folder", place="--plot", allowed="a FILE.png in a writable folder")
    if not path.lower().endswith(".png"):
        raise PuzzleError(f"{path!r} is not a .png file name", place="--plot", allowed="FILE.png")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise PuzzleError(f"cannot write {path!r} (no such writable folder)", place="--plot",
                          allowed="a FILE.png in a writable folder")
    pyplot()


def save(fig: Any, path: str, *, dpi: int = 110) -> None:
    """Write ``fig`` to ``path`` and free it; an unwritable path is bad input."""
    plt = pyplot()
    try:
        fig.savefig(os.fspath(path), dpi=dpi)
    except (OSError, ValueError) as exc:
        raise PuzzleError(f"cannot write the figure ({exc})", place="--plot", allowed="a writable FILE.png") \
            from None
    finally:
        plt.close(fig)
