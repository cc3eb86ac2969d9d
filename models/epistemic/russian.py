"""Russian cards (Moscow Mathematical Olympiad 2000; van Ditmarsch 2003): Alice and Bob hold three of seven
cards each, Carol the last; Alice announces a list of hands, one of them hers, then Bob announces Carol's card.
An announcement is *safe* when, after it, Bob knows Alice's hand and Carol learns no card's owner, and both
are common knowledge; SMCDEL's ``checkSet`` adds Bob's reply.  :func:`safe_announcements` counts the lists of
five to seven hands (any two sharing at most one card) that pass SMCDEL's ``checkSet`` at the standard deal
(Alice 0 1 2, Bob 3 4 5, Carol 6): SMCDEL's test suite reports 102 (``length (filter checkSet allHandLists)``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations
from typing import Any

from sleuth.errors import InternalError
from sleuth.formula import After, And, Common, Knows, Node, Or, parse

from .classic import load_epistemic

AGENTS = ("Alice", "Bob", "Carol")
CARDS = range(7)
DEAL = {f"c{k}": "Alice" if k < 3 else "Bob" if k < 6 else "Carol" for k in CARDS}
Hand = tuple[int, ...]


def holds(agent: str, card: int) -> str:
    return f"c{card} == '{agent}'"


def hand(cards: Sequence[int], agent: str = "Alice") -> str:
    return "(" + " and ".join(holds(agent, k) for k in cards) + ")"


def alice_says(hands: Sequence[Hand]) -> str:
    return f"knows(Alice, {' or '.join(hand(h) for h in hands)})"


def knows_whether(agent: str, formula: str) -> str:
    return f"(knows({agent}, {formula}) or knows({agent}, not ({formula})))"


BOB_SAYS = f"knows(Bob, {holds('Carol', 6)})"
A_KNOWS_BS = " and ".join(knows_whether("Alice", holds("Bob", k)) for k in CARDS)
B_KNOWS_AS = " and ".join(knows_whether("Bob", holds("Alice", k)) for k in CARDS)
C_IGNORANT = " and ".join(f"not knows(Carol, {holds(a, k)})" for k in CARDS for a in ("Alice", "Bob"))


def document() -> dict[str, Any]:
    """The deal as an epistemic puzzle: 140 worlds, each agent observes which cards it holds."""
    return {
        "game": "epistemic", "title": "Russian cards (3, 3, 1)",
        "variables": {f"c{k}": list(AGENTS) for k in CARDS},
        "constraints": [f"count({', '.join(holds(a, k) for k in CARDS)}) == {n}" for a, n in (("Alice", 3),
                                                                                             ("Bob", 3))],
        "agents": {a: [holds(a, k) for k in CARDS] for a in AGENTS},
        "actual": dict(DEAL),
    }


def check_set(hands: Sequence[Hand]) -> list[str]:
    """SMCDEL's ``checkSet``: the six formulas that must hold at the actual deal."""
    a = alice_says(hands)
    return [a, f"after({a}, {B_KNOWS_AS})", f"after({a}, common([Alice, Bob], {B_KNOWS_AS}))",
            f"after({a}, common(all, {C_IGNORANT}))",
            f"after({a}, after({BOB_SAYS}, common([Alice, Bob], {A_KNOWS_BS} and {B_KNOWS_AS})))",
            f"after({a}, after({BOB_SAYS}, common(all, {C_IGNORANT})))"]


@cache
def _hand(cards: Hand) -> Node:
    return parse(hand(cards))


@cache
def _shared() -> tuple[Node, Node, Node, Node]:
    """Bob's announcement, "Bob knows Alice's cards", "both know the others' cards", Carol's ignorance."""
    b_knows, a_knows, ignorant = parse(B_KNOWS_AS), parse(A_KNOWS_BS), parse(C_IGNORANT)
    both = And(tuple(x for f in (a_knows, b_knows) for x in (f.args if isinstance(f, And) else (f,))))
    return parse(BOB_SAYS), b_knows, both, ignorant


def check_nodes(hands: Sequence[Hand]) -> list[Node]:
    """:func:`check_set` as formula trees, the parts every list shares parsed once (1,290 lists share them)."""
    a = Knows("Alice", Or(tuple(_hand(tuple(h)) for h in hands)))
    bob, b_knows, both, ignorant = _shared()
    return [a, After(a, b_knows), After(a, Common(("Alice", "Bob"), b_knows)), After(a, Common(None, ignorant)),
            After(a, After(bob, Common(("Alice", "Bob"), both))), After(a, After(bob, Common(None, ignorant)))]


def hand_lists(sizes: Sequence[int] = (5, 6, 7)) -> Iterator[tuple[Hand, ...]]:
    """SMCDEL's ``allHandLists``: increasing lists of hands, any two sharing at most one card."""
    hands: list[Hand] = list(combinations(CARDS, 3))

    def extend(chosen: tuple[Hand, ...], rest: list[Hand], n: int) -> Iterator[tuple[Hand, ...]]:
        if len(chosen) == n:
            yield chosen
            return
        for i, h in enumerate(rest):
            yield from extend(chosen + (h,), [x for x in rest[i + 1:] if len(set(h) & set(x)) < 2], n)

    for n in sizes:
        yield from extend((), hands, n)


def state(method: str = "auto") -> tuple[Any, Any]:
    """The initial state (by ``method``: table, symbolic...) and the actual deal in it."""
    puzzle = load_epistemic(document(), file="<russian cards>")
    start = puzzle.final_state(after=0, method=method)
    if start.point is None:
        raise InternalError("the Russian cards document names no actual deal")
    return start, start.point


def safe_announcements(lists: Sequence[tuple[Hand, ...]] | None = None,
                       method: str = "auto") -> list[tuple[Hand, ...]]:
    """The hand lists that pass every check of :func:`check_set` at the actual deal."""
    start, _ = state(method)
    out = []
    for hands in (hand_lists() if lists is None else lists):
        if all(start.at_point(f) for f in check_nodes(hands)):
            out.append(hands)
    return out
