"""The optimal decision tree by brute force, for the word and code games' tests: every guess at every node,
no bound, no cut-off, and feedback written from the rules here rather than taken from sleuth."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from functools import cache

INF = float("inf")


def pegs_feedback(guess: str, secret: str) -> tuple[int, int]:
    """Mastermind: (black, white) pegs."""
    black = sum(g == s for g, s in zip(guess, secret, strict=True))
    common = sum((Counter(guess) & Counter(secret)).values())
    return black, common - black


def word_feedback(guess: str, secret: str) -> str:
    """Wordle: G (right place), Y (elsewhere, as many times as the secret has it left), B."""
    marks = ["B"] * len(guess)
    left = Counter(s for g, s in zip(guess, secret, strict=True) if g != s)
    for i, (g, s) in enumerate(zip(guess, secret, strict=True)):
        if g == s:
            marks[i] = "G"
        elif left[g] > 0:
            marks[i] = "Y"
            left[g] -= 1
    return "".join(marks)


def keeps_hints(word: str, guess: str, marks: str) -> bool:
    """Hard mode: the greens in place, each revealed letter at least as often as revealed."""
    if any(m == "G" and word[i] != guess[i] for i, m in enumerate(marks)):
        return False
    shown = Counter(c for c, m in zip(guess, marks, strict=True) if m != "B")
    return all(word.count(c) >= k for c, k in shown.items())


def brute_total(secrets: tuple[str, ...], pool: tuple[str, ...],
                feedback: Callable[[str, str], Hashable] = word_feedback, *, cap: int | None = None,
                hard: bool = False) -> float:
    """The least total number of guesses over every decision tree (INF when the cap cannot be met)."""
    found = feedback(secrets[0], secrets[0])

    @cache
    def best(left: frozenset[str], allowed: tuple[str, ...], tries: int) -> float:
        if not left:
            return 0
        if tries == 0:
            return INF
        out = INF
        for g in allowed:
            parts: dict[Hashable, list[str]] = {}
            for s in left:
                parts.setdefault(feedback(g, s), []).append(s)
            if len(parts) == 1 and g not in left:
                continue  # learns nothing: a tree with this guess is beaten by the same tree without it
            total: float = len(left)
            for code, part in parts.items():
                if code != found:
                    sub = tuple(w for w in allowed if keeps_hints(w, g, str(code))) if hard else allowed
                    total += best(frozenset(part), sub, tries - 1)
            out = min(out, total)
        return out

    return best(frozenset(secrets), pool, cap if cap is not None else len(secrets))
