"""Exact records of card guessing with yes/no feedback: the Zener deck (5 symbols x 5 cards) and every deck of
``m`` types x ``n`` copies up to 30 cards (``sleuth experiment cardguess --records``).

The optimal total ``T`` comes from :class:`.optimal.OptimalSolver` (memoised on the canonical statistic:
states that differ by a permutation of the types are one state).  A strategy's score distribution is then a
second recursion over the same canonical states, ``D(state)[k]``: the deck orders consistent with the state on
which the strategy makes exactly ``k`` further correct guesses (integers; they sum to ``N(c, p)``).  Two
strategies, both decided on the canonical state alone:

* ``optimal``: a guess of largest ``T`` (``N(yes) + T(yes) + T(no)``);
* ``greedy``: a guess of largest probability to be the next card (``N(yes)``).

Ties go to the type of least code ``c << 7 | p`` (fewest cards unplaced, then fewest "no" answers), which
is the order :class:`.optimal.OptimalSolver` breaks them in; every tie-break of ``optimal`` has the same
expected score, not always the same distribution.  The p-value of a score ``k`` is ``P(score >= k)`` for a
player without any extrasensory perception who plays the strategy.
"""

from __future__ import annotations

import resource
import time
from fractions import Fraction
from typing import Any

from .counting import BITS, Arrangements, Key, Statistic, canonical
from .optimal import Feedback, OptimalSolver, ensure_recursion

ONE_CARD = 1 << BITS
ZENER = (5, 5, 5, 5, 5)
STATE_BYTES = 450  # one memoised state of the optimal recursion with its count (measured: 314 MB for 750,198)
MEMORY_GB = 8.0
RULES = ("optimal", "greedy")


def _recode(key: Key, i: int, code: int) -> Key:
    """``key`` with its ``i``-th type recoded (dropped when no card of it is left unplaced)."""
    rest = key[:i] + key[i + 1:]
    return tuple(sorted(rest + (code,))) if code >> BITS else rest


class Distributions:
    """Score distributions of the canonical ``optimal`` and ``greedy`` strategies (yes/no feedback) over one
    shared :class:`OptimalSolver` (its memo and its counts serve every deck)."""

    def __init__(self, max_states: int | None = None) -> None:
        self.n = Arrangements(max_entries=max_states or 10**12)
        self.solver = OptimalSolver(Feedback.PARTIAL, self.n, max_states=max_states)
        self.memo: dict[tuple[str, Key, int], tuple[int, ...]] = {}

    def choose(self, rule: str, key: Key, left: int) -> int:
        """The index in ``key`` of the type the strategy ``rule`` guesses."""
        best, pick, previous = -1, -1, -1
        for i, code in enumerate(key):
            if code == previous:
                continue
            previous = code
            yes = _recode(key, i, code - ONE_CARD)
            w = self.n.of_key(yes)
            if not w:
                continue
            if rule == "greedy":
                value = w
            else:
                value = w + self.solver.key_total(yes, left - 1)
                no = _recode(key, i, code + 1)
                if self.n.of_key(no):
                    value += self.solver.key_total(no, left - 1)
            if value > best:
                best, pick = value, i
        return pick

    def counts(self, rule: str, key: Key, left: int) -> tuple[int, ...]:
        """``D(state)`` of ``rule`` (see the module docstring)."""
        if left <= 0:
            return (self.n.of_key(key),)
        found = self.memo.get((rule, key, left))
        if found is not None:
            return found
        i = self.choose(rule, key, left)
        code = key[i]
        acc = [0] * (left + 1)
        yes = _recode(key, i, code - ONE_CARD)
        for k, w in enumerate(self.counts(rule, yes, left - 1)):
            acc[k + 1] += w
        no = _recode(key, i, code + 1)
        if self.n.of_key(no):
            for k, w in enumerate(self.counts(rule, no, left - 1)):
                acc[k] += w
        out = tuple(acc)
        self.memo[(rule, key, left)] = out
        return out


def p_values(counts: tuple[int, ...]) -> list[Fraction]:
    """``P(score >= k)`` for ``k = 0 .. len(counts) - 1``."""
    total = sum(counts)
    out, tail = [], 0
    for w in reversed(counts):
        tail += w
        out.append(Fraction(tail, total))
    return out[::-1]


def _describe(counts: tuple[int, ...]) -> dict[str, Any]:
    total = sum(counts)
    expected = Fraction(sum(k * w for k, w in enumerate(counts)), total)
    return {"expected": str(expected), "expected_decimal": float(expected),
            "counts": [str(w) for w in counts],
            "distribution": {str(k): str(Fraction(w, total)) for k, w in enumerate(counts) if w},
            "p_values": {str(k): str(q) for k, q in enumerate(p_values(counts)) if counts[k] or k == 0}}


def deck_record(deck: tuple[int, ...], *, memory_gb: float = MEMORY_GB, complete: bool = True) -> dict[str, Any]:
    """One deck's exact record: the optimal and greedy expected scores, distributions and p-values (yes/no
    feedback), the complete-feedback optimum beside them (more information: an upper bound), the states, CPU
    seconds and the process's peak memory; ``status`` ``refused`` (with the state count reached) when the
    optimal recursion would pass ``memory_gb`` (:data:`STATE_BYTES` a state)."""
    from sleuth.limits import TooLarge

    from .optimal import StateBudgetExceeded

    cpu = time.process_time()
    cards = sum(deck)
    ensure_recursion(4 * cards + 50)
    budget = int(memory_gb * 1e9 / STATE_BYTES)
    d = Distributions(max_states=budget)
    key = canonical(deck, (0,) * len(deck))
    out: dict[str, Any] = {"deck": list(deck), "cards": cards, "types": len(deck)}
    try:
        total = d.solver.total(Statistic.initial(deck))
    except (StateBudgetExceeded, TooLarge):
        return {**out, "status": "refused", "states": len(d.solver.memo), "memory_gb": memory_gb,
                "cpu_seconds": round(time.process_time() - cpu, 1)}
    orders = d.n.of_key(key)
    out.update(status="exact", orders=str(orders), optimal_total=str(total),
               states=len(d.solver.memo), optimal_cpu_seconds=round(time.process_time() - cpu, 2))
    for rule in RULES:
        counts = d.counts(rule, key, cards)
        out[rule] = _describe(counts)
    if Fraction(out["optimal"]["expected"]) != Fraction(total, orders):
        raise AssertionError("the optimal strategy's distribution does not average to its value")
    if complete:
        full = OptimalSolver(Feedback.COMPLETE, d.n).expected(Statistic.initial(deck))
        out["complete_optimal"] = {"expected": str(full), "expected_decimal": float(full)}
    out.update(cpu_seconds=round(time.process_time() - cpu, 2),
               peak_memory_mb=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))
    return out


def table_decks(max_cards: int = 30) -> list[tuple[int, ...]]:
    """Every deck of ``m >= 2`` types x ``n`` copies with ``m * n <= max_cards``, smallest first."""
    decks = [(n,) * m for m in range(2, max_cards + 1) for n in range(1, max_cards // m + 1)]
    return sorted(decks, key=lambda d: (sum(d), len(d)))


def record_task(job: tuple[tuple[int, ...], float]) -> dict[str, Any]:
    """One task of ``--records-table``: a deck and the memory allowed (GB)."""
    deck, memory_gb = job
    return deck_record(deck, memory_gb=memory_gb)


def _frac(text: str) -> float:
    return float(Fraction(text))


def show_record(r: dict[str, Any]) -> list[str]:
    """A deck's record as text: expectations, then the score distributions with p-values side by side."""
    deck = ",".join(map(str, r["deck"]))
    if r["status"] != "exact":
        return [f"deck {deck}: refused (more than {r['states']:,} states would pass {r['memory_gb']:g} GB)"]
    lines = [f"deck {deck}, yes/no feedback: {r['orders']} deck orders, {r['states']:,} states, "
             f"{r['cpu_seconds']:.1f} s CPU, peak memory {r['peak_memory_mb']} MB"]
    for rule in RULES:
        lines.append(f"  {rule:<8} E = {r[rule]['expected']} = {r[rule]['expected_decimal']:.6f}")
    full = r["complete_optimal"]
    lines.append(f"  complete feedback (the card shown), optimal: {full['expected']} = {full['expected_decimal']:.6f}")
    lines.append(f"  {'score':>5}  {'P(optimal = k)':>14} {'p-value':>10}  {'P(greedy = k)':>14} {'p-value':>10}")
    for k in range(r["cards"] + 1):
        cells = []
        for rule in RULES:
            dist, pv = r[rule]["distribution"], r[rule]["p_values"]
            cells.append(f"{_frac(dist.get(str(k), '0')):>14.3e} {_frac(pv.get(str(k), '0')):>10.3e}")
        if any(str(k) in r[rule]["distribution"] for rule in RULES):
            lines.append(f"  {k:>5}  " + "  ".join(cells))
    return lines


def main_records(deck: tuple[int, ...], as_json: bool, memory_gb: float = MEMORY_GB) -> int:
    """``experiment cardguess --records --deck 5,5,5,5,5``: one deck's record (exit 3 when refused)."""
    import json

    r = deck_record(deck, memory_gb=memory_gb)
    print(json.dumps(r) if as_json else "\n".join(show_record(r)))
    return 0 if r["status"] == "exact" else 3


def main_table(max_cards: int, memory_gb: float, as_json: bool, ex: Any, plot: str | None) -> int:
    """``experiment cardguess --records-table``: every ``m x n`` deck up to ``max_cards`` cards, one task a
    deck on the executor (``--workers``, ``--cluster``, ``--resume``)."""
    import json
    import math

    decks = table_decks(max_cards)
    rows = ex.map_tasks(record_task, [(d, memory_gb) for d in decks], label="decks", unit="deck",
                        weights=[float(sum(d)) for d in decks])
    if plot:
        plot_table(plot, rows)
    if as_json:
        print(json.dumps({"max_cards": max_cards, "memory_gb": memory_gb, "decks": rows}))
        return 0
    print(f"every deck of m types x n copies, m*n <= {max_cards}, yes/no feedback (exact; n: always guessing one "
          "type; complete: the card shown)")
    print(f"  {'m':>2} {'n':>2} {'cards':>5} {'optimal':>10} {'greedy':>10} {'n':>4} {'(opt-n)/sqrt n':>14} "
          f"{'complete':>9} {'states':>10} {'CPU s':>8}")
    for r in rows:
        m, n = r["types"], r["deck"][0]
        if r["status"] != "exact":
            print(f"  {m:>2} {n:>2} {r['cards']:>5}  refused: more than {r['states']:,} states ({memory_gb:g} GB)")
            continue
        opt, greedy = r["optimal"]["expected_decimal"], r["greedy"]["expected_decimal"]
        print(f"  {m:>2} {n:>2} {r['cards']:>5} {opt:>10.5f} {greedy:>10.5f} {n:>4} {(opt - n) / math.sqrt(n):>14.4f} "
              f"{r['complete_optimal']['expected_decimal']:>9.4f} {r['states']:>10,} {r['cpu_seconds']:>8.1f}")
    return 0


def plot_table(path: str, rows: list[dict[str, Any]]) -> None:
    """The table's figure: the optimal and greedy excess over ``n`` against ``n``, one line per ``m``."""
    from sleuth.figures import pyplot, save

    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    by_m: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        if r["status"] == "exact":
            by_m.setdefault(r["types"], []).append(r)
    families = [(m, rs) for m, rs in sorted(by_m.items()) if len(rs) >= 2]
    for i, (m, rs) in enumerate(families):
        colour = plt.cm.viridis(i / max(1, len(families) - 1))
        ns = [r["deck"][0] for r in rs]
        axes[0].plot(ns, [r["optimal"]["expected_decimal"] - n for r, n in zip(rs, ns, strict=True)],
                     marker="o", ms=4, color=colour, label=f"m = {m}")
        axes[0].plot(ns, [r["greedy"]["expected_decimal"] - n for r, n in zip(rs, ns, strict=True)], ls=":",
                     color=colour)
        axes[1].plot(ns, [(r["optimal"]["expected_decimal"] - n) / n ** 0.5 for r, n in zip(rs, ns, strict=True)],
                     marker="o", ms=4, color=colour, label=f"m = {m}")
    axes[0].set_xlabel("n (copies of each type)")
    axes[0].set_ylabel("expected correct guesses - n")
    axes[0].set_title("optimal (solid) and greedy (dotted), yes/no feedback", fontsize=9)
    axes[1].set_xlabel("n (copies of each type)")
    axes[1].set_ylabel("(optimal - n) / sqrt(n)")
    axes[1].set_title("the optimal excess over n, scaled by sqrt(n)", fontsize=9)
    axes[0].legend(fontsize=7, ncol=2)
    fig.suptitle(f"every deck of m types x n copies solved exactly ({len(rows)} decks; n: always guessing one type)",
                 fontsize=10)
    fig.tight_layout()
    save(fig, path)
