"""The teaching view (seed Figure 4): the posterior over compositions after each guess, as bars.

matplotlib comes from the ``plot`` extra and is imported only here, when a plot is asked for.
"""

from __future__ import annotations

import math
import os

from sleuth.errors import PuzzleError, SleuthError

from .game import CardGame


def plot_posteriors(path: str, game: CardGame, title: str | None = None) -> None:
    """One panel per step (the start, then after each guess): P(composition of the remaining deck)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SleuthError("--plot needs matplotlib: pip install 'sleuth[plot]'") from None
    steps = len(game.history) + 1
    cols = min(4, steps)
    rows = math.ceil(steps / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 2.9 * rows), squeeze=False)
    for step in range(steps):
        ax = axes[step // cols][step % cols]
        posterior = game.posterior(step)
        labels = ["(" + ",".join(map(str, x)) + ")" for x in posterior]
        ax.bar(range(len(labels)), [float(q) for q in posterior.values()], color="tab:blue")
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=60 if len(labels) > 4 else 0, fontsize=7)
        ax.set_ylim(0, 1)
        if step == 0:
            ax.set_title("start", fontsize=9)
        else:
            g = game.history[step - 1]
            said = (f"shown {game.types[g.actual]}" if g.actual is not None
                    else ("yes" if g.correct else "no"))
            ax.set_title(f"guess {step}: {game.types[g.card]} - {said}", fontsize=9)
    for k in range(steps, rows * cols):
        axes[k // cols][k % cols].axis("off")
    head = "P(composition of the remaining deck), types (" + ",".join(game.types) + ")"
    fig.suptitle(f"{title}\n{head}" if title else head, fontsize=10)
    fig.tight_layout()
    try:
        fig.savefig(os.fspath(path))
    except (OSError, ValueError) as exc:
        raise PuzzleError(f"cannot write the figure: {exc}", place="--plot", allowed="a writable FILE.png") \
            from None
    finally:
        plt.close(fig)
