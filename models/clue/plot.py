"""``solve --plot FILE.png`` for Clue: the exact cell probabilities as a heat map (the ``plot`` extra)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np

from sleuth.figures import pyplot, save


def plot_probabilities(path: str, probs: Mapping[str, Mapping[str, Fraction]], title: str,
                       category_sizes: tuple[int, ...] = ()) -> None:
    """Cards down (in deck order, a line between categories), players and the envelope across; each cell
    P(that place holds that card) over the consistent deals, written in the cell."""
    plt = pyplot()
    cards = list(probs)
    places = list(next(iter(probs.values())))
    grid = np.array([[float(probs[c][q]) for q in places] for c in cards])
    fig, ax = plt.subplots(figsize=(2.2 + 1.1 * len(places), 1.6 + 0.3 * len(cards)))
    im = ax.imshow(grid, cmap="Blues", vmin=0, vmax=1, aspect="auto")
    for i, row in enumerate(grid):
        for j, p in enumerate(row):
            text = "1" if p == 1 else ("0" if p == 0 else f"{p:.2f}")
            ax.text(j, i, text, ha="center", va="center", fontsize=7, color="white" if p > 0.6 else "black")
    edge = 0
    for size in category_sizes[:-1]:
        edge += size
        ax.axhline(edge - 0.5, color="black", lw=1)
    ax.set_xticks(range(len(places)), places)
    ax.set_yticks(range(len(cards)), cards, fontsize=8)
    ax.xaxis.tick_top()
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.05).set_label("P(place holds card)")
    fig.tight_layout()
    save(fig, path)
