"""One explanation routine for every game: shrink a set of observations to a minimal one that still works.

A verdict's explanation (the observations that force it) and a contradiction's conflict (observations that
admit no world together) are both *minimal* subsets for a monotone test: the test holds of the subset, and
fails as soon as any one item is left out.  Each game supplies the test (an engine solve under assumptions,
an exact belief, a replay of rounds, a filtered world table); the deletion is the same everywhere.

>>> minimal_subset(range(1, 7), lambda s: sum(s) >= 10)   # drop what is not needed, first items first
[5, 6]
>>> minimal_subset(range(1, 7), lambda s: sum(s) >= 10, last_first=True)
[1, 2, 3, 4]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")


def minimal_subset(items: Iterable[T], holds: Callable[[list[T]], bool | Sequence[T]], *,
                   last_first: bool = False) -> list[T]:
    """Deletion: drop each item whose removal keeps ``holds`` true; the rest is minimal (in the items' order).

    ``holds`` may answer with a list that still holds and is smaller than the one it was given (a solver's
    unsat core); the search then continues from that list.  ``last_first`` tries the later items first
    (earlier observations often suffice).  Assumes ``holds`` is monotone: true of a set, true of any superset.
    """
    current = list(dict.fromkeys(items))
    i = len(current) - 1 if last_first else 0
    while 0 <= i < len(current):
        trial = current[:i] + current[i + 1:]
        answer = holds(trial)
        if answer is False:
            i = i - 1 if last_first else i + 1
            continue
        if answer is not True:  # a core: keep only what it used, in order
            used = set(answer)
            trial = [x for x in trial if x in used]
        current = trial
        if last_first:
            i = min(i, len(current)) - 1
    return current
