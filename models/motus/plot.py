"""Figures of the Motus, EMI and Wordle/Mastermind studies (``--plot FILE.png``; the ``plot`` extra)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from sleuth.figures import pyplot, save

from . import strategy as st

if TYPE_CHECKING:
    from .experiment import EmiCell, Tally


def _colours(methods: Sequence[st.Method]) -> dict[st.Method, Any]:
    """One colour per method, the same in every panel and figure."""
    cmap = pyplot().get_cmap("tab10")
    return {m: cmap(list(st.Method).index(m) % 10) for m in methods}


def _distribution(ax: Any, tallies: Mapping[st.Method, Tally], colours: Mapping[st.Method, Any],
                  limit: int | None) -> None:
    """Share of the secrets found in exactly k tries, one line per method (best average first)."""
    order = sorted((m for m in tallies if tallies[m].words), key=lambda m: tallies[m].average)
    top = max((max(tallies[m].histogram, default=1) for m in order), default=1)
    ks = np.arange(1, top + 1)
    for m in order:
        t = tallies[m]
        share = np.array([t.histogram.get(int(k), 0) for k in ks]) / t.words
        ax.plot(ks, 100 * share, marker="o", ms=3, color=colours[m], label=f"{m.title} ({t.average:.3f})")
    if limit is not None:
        ax.axvline(limit + 0.5, color="grey", ls=":", lw=1)
        ax.text(limit + 0.6, ax.get_ylim()[1] * 0.95, "fail", color="grey", fontsize=8, va="top")
    ax.set_xticks(ks)
    ax.set(xlabel="tries to find the secret", ylabel="% of secrets")
    ax.legend(fontsize=7, title="method (average)", title_fontsize=7)
    ax.grid(alpha=0.3)


def plot_study(path: str, tallies: Mapping[st.Method, Tally], by_length: Mapping[int, Mapping[st.Method, Tally]],
               title: str) -> None:
    """The seed's Figures 1 and 2 (average and worst tries per method, by word length) and the distribution
    of tries per method over every word."""
    plt = pyplot()
    methods = sorted(tallies, key=lambda m: tallies[m].average)
    colours = _colours(methods)
    fig, axes = plt.subplots(1, 3, figsize=(17, 5))
    lengths = sorted(by_length)
    for m in methods:
        avg = [by_length[n][m].average if by_length[n][m].words else np.nan for n in lengths]
        worst = [by_length[n][m].worst if by_length[n][m].words else np.nan for n in lengths]
        axes[0].plot(lengths, avg, marker="o", color=colours[m], label=m.title)
        axes[1].plot(lengths, worst, marker="o", color=colours[m], label=m.title)
    axes[0].set(title="(a) average tries per word length (seed Fig. 1)", xlabel="word length",
                ylabel="average tries")
    axes[1].set(title="(b) worst case per word length (seed Fig. 2)", xlabel="word length", ylabel="worst tries")
    for ax in axes[:2]:
        ax.set_xticks(lengths)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    _distribution(axes[2], tallies, colours, None)
    axes[2].set_title("(c) distribution of tries, all lengths")
    fig.suptitle(title)
    fig.tight_layout()
    save(fig, path)


def plot_emi(path: str, cells: Mapping[tuple[int, str], EmiCell], title: str) -> None:
    """The Evil Motus Index table as a heat map: rows word length, columns first letter; a cell whose search
    stopped at the time limit shows its proven bounds ``a-b?`` and is hatched."""
    plt = pyplot()
    lengths = sorted({n for n, _ in cells})
    letters = sorted({x for _, x in cells})
    grid = np.full((len(lengths), len(letters)), np.nan)
    for (n, x), c in cells.items():
        grid[lengths.index(n), letters.index(x)] = c.value.lower
    fig, ax = plt.subplots(figsize=(max(7.0, 0.42 * len(letters) + 3.0), max(3.2, 0.55 * len(lengths) + 2.0)))
    lo, hi = np.nanmin(grid), np.nanmax(grid)
    cmap = plt.get_cmap("viridis", int(hi - lo + 1)).with_extremes(bad="white")
    im = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=lo - 0.5, vmax=hi + 0.5, aspect="auto")
    for (n, x), c in cells.items():
        i, j = lengths.index(n), letters.index(x)
        shade = (grid[i, j] - lo) / max(1.0, hi - lo)
        ax.text(j, i, c.show(), ha="center", va="center", fontsize=8 if c.value.exact else 6,
                color="black" if shade > 0.6 else "white")
        if not c.value.exact:
            ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", ec="red", lw=0))
    ax.set_xticks(range(len(letters)), letters)
    ax.set_yticks(range(len(lengths)), [str(n) for n in lengths])
    ax.set(xlabel="first letter", ylabel="word length")
    ax.set_title(f"{title}\nhatched: search stopped at the time limit (proven lower bound - strategy bound)",
                 fontsize=9)
    fig.colorbar(im, ax=ax, ticks=range(int(lo), int(hi) + 1)).set_label("EMI (proposals)")
    fig.tight_layout()
    save(fig, path)


def plot_games(path: str, per_game: Mapping[str, Mapping[st.Method, Tally]], limits: Sequence[int]) -> None:
    """Wordle and Mastermind: the distribution of tries per method, one panel per game."""
    plt = pyplot()
    fig, axes = plt.subplots(1, len(per_game), figsize=(7 * len(per_game), 4.8), squeeze=False)
    for ax, (label, tallies), limit in zip(axes[0], per_game.items(), limits, strict=True):
        _distribution(ax, tallies, _colours(list(tallies)), limit)
        some = next(iter(tallies.values()))
        ax.set_title(f"{label}: {some.words} secrets")
    fig.suptitle("Tries needed per method (Knuth's strategy for Mastermind is Max)")
    fig.tight_layout()
    save(fig, path)
