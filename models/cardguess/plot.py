"""The teaching view (seed Figure 4): the posterior over compositions after each guess, as bars.

matplotlib comes from the ``plot`` extra and is imported only here, when a plot is asked for.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from sleuth.figures import pyplot, save

from .state import CardGuessState

if TYPE_CHECKING:
    from .bounds import FanoBounds
    from .scores import ScoreDistribution


def plot_posteriors(path: str, game: CardGuessState, title: str | None = None) -> None:
    """One panel per step (the start, then after each guess): P(composition of the remaining deck)."""
    plt = pyplot()
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
    save(fig, path, dpi=100)


def plot_scores(path: str, results: Mapping[str, ScoreDistribution], title: str) -> None:
    """The exact distribution of the number of correct guesses, one group of bars per strategy."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(max(7.0, 0.5 * len(results) * 4), 4.8))
    top = max(len(d.counts) for d in results.values())
    width = 0.8 / len(results)
    cmap = plt.get_cmap("tab10")
    for i, (name, dist) in enumerate(results.items()):
        probs = [float(Fraction(w, dist.total)) for w in dist.counts] + [0.0] * (top - len(dist.counts))
        ax.bar(np.arange(top) + (i - (len(results) - 1) / 2) * width, probs, width=width, color=cmap(i % 10),
               label=f"{name} (E = {float(dist.expected):.4f})")
    ax.set_xticks(range(top))
    ax.set(xlabel="correct guesses", ylabel="probability", title=title)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    save(fig, path)


def plot_sweep(path: str, rows: Sequence[tuple[Fraction, Fraction]], greedy: Fraction, optimal: Fraction,
               title: str) -> None:
    """The seed's Figure 3: the entropy heuristic's exact expected score against gamma, greedy and optimal."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    ax.plot([float(g) for g, _ in rows], [float(v) for _, v in rows], marker="o", color="tab:blue",
            label="entropy heuristic")
    ax.axhline(float(greedy), color="tab:red", ls="--", label=f"greedy ({float(greedy):.4f})")
    ax.axhline(float(optimal), color="tab:green", ls="--", label=f"optimal ({float(optimal):.4f})")
    ax.set(xlabel="gamma (weight of the information term)", ylabel="expected correct guesses (exact)", title=title)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save(fig, path)


def plot_bounds(path: str, b: FanoBounds, title: str) -> None:
    """Complete feedback: P(greedy right) per step against the Fano and Feder-Merhav bounds (seed Fig. 2)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.8))
    steps = [s.step for s in b.steps]
    ax.plot(steps, [float(s.greedy) for s in b.steps], marker="o", color="black", label="greedy (exact)")
    for attr, style, label in (("lower_avg", "--", "Feder-Merhav, average entropy"),
                               ("upper_avg", "--", "Fano, average entropy"),
                               ("lower_state", ":", "Feder-Merhav, per state"),
                               ("upper_state", ":", "Fano, per state")):
        ax.plot(steps, [getattr(s, attr) for s in b.steps], ls=style, label=label)
    ax.set(xlabel="step", ylabel="P(guess right)", title=title)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save(fig, path)


def plot_benchmark(path: str, rows: Sequence[Mapping[str, Any]], title: str) -> None:
    """CPU seconds per deck (log scale) for the fast recursion and the seed's approach, by number of cards."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 5))
    for impl, marker in (("fast", "o"), ("seed", "s")):
        done = [r for r in rows if r.get(impl, {}).get("status") == "ok"]
        for k in sorted({len(r["deck"].split(",")) for r in done}):
            mine = [r for r in done if len(r["deck"].split(",")) == k]
            xs = [sum(map(int, r["deck"].split(","))) for r in mine]
            ys = [float(np.median(r[impl]["cpu"])) for r in mine]
            ax.plot(xs, ys, marker=marker, ls="-" if impl == "fast" else "--",
                    color=plt.get_cmap("tab10")(k % 10),
                    label=f"{k} types, {'fast recursion' if impl == 'fast' else 'seed approach'}")
    ax.set_yscale("log")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set(xlabel="cards in the deck", ylabel="CPU seconds (log scale)", title=title)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save(fig, path)
