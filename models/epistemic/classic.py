"""The classic puzzles as puzzle documents built in code, for any size (the benchmark and tests use them;
the files under puzzles/epistemic/ are the same puzzles at fixed sizes, with comments and claims)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sleuth.errors import InternalError
from sleuth.loading import load_data

from .puzzle import EpistemicPuzzle


def load_epistemic(doc: Mapping[str, Any], file: str = "<built in code>") -> EpistemicPuzzle:
    """A document built here, loaded as the epistemic puzzle it is."""
    puzzle = load_data(doc, file=file)
    if not isinstance(puzzle, EpistemicPuzzle):
        raise InternalError(f"{file}: loaded as {type(puzzle).__name__}, not as an epistemic puzzle")
    return puzzle


def sum_and_product(limit: int = 100) -> dict[str, Any]:
    return {
        "game": "epistemic", "title": f"Sum and Product (x + y <= {limit})",
        "constraints": ["x < y", f"x + y <= {limit}"],
        "variables": {"x": f"2..{limit - 2}", "y": f"3..{limit - 1}"},
        "agents": {"S": ["x + y"], "P": ["x * y"]},
        "announcement": [{"by": "S", "formula": "knows(S, not knows(P))"},
                         {"by": "P", "formula": "knows(P)"}, {"by": "S", "formula": "knows(S)"}],
    }


def what_sum(bound: int) -> dict[str, Any]:
    return {
        "game": "epistemic", "title": f"What Sum (1..{bound})",
        "constraints": ["a == b + c or b == a + c or c == a + b"],
        "variables": {v: f"1..{bound}" for v in "abc"},
        "agents": {"A": ["b", "c"], "B": ["a", "c"], "C": ["a", "b"]},
        "announcement": [{"by": x, "formula": f"not knows({x})"} for x in "ABC"],
    }


def muddy_children(n: int, muddy: int) -> dict[str, Any]:
    """``n`` children, the first ``muddy`` of them muddy; the father's announcement and ``muddy - 1`` rounds
    of silence."""
    ms = [f"m{i}" for i in range(1, n + 1)]
    nobody = " and ".join(f"not knows(c{i}, m{i})" for i in range(1, n + 1))
    return {
        "game": "epistemic", "title": f"Muddy children (n = {n}, {muddy} muddy)",
        "variables": {m: [0, 1] for m in ms},
        "agents": {f"c{i}": [m for j, m in enumerate(ms, 1) if j != i] for i in range(1, n + 1)},
        "actual": {m: int(i < muddy) for i, m in enumerate(ms)},
        "announcement": [{"formula": " + ".join(ms) + " >= 1"},
                         {"formula": nobody, "repeat": muddy - 1}],
    }


def dining_cryptographers(n: int) -> dict[str, Any]:
    """SMCDEL's benchmark form: ``n`` cryptographers, a coin shared by every pair (``n (n - 1) / 2`` coins); each
    sees whether it paid and its ``n - 1`` coins; it is announced whether the XOR of everyone's reveal (paid,
    xor its coins) is 1.  The announced text has about ``8 n^2`` characters: past ``n = 35`` it is longer than a
    puzzle file's strings may be (this document is for the API and the benchmark)."""
    agents = [f"A{i}" for i in range(1, n + 1)]
    coin = {(i, j): f"k{i}_{j}" for i in range(1, n + 1) for j in range(i + 1, n + 1)}
    mine = {i: [c for (x, y), c in coin.items() if i in (x, y)] for i in range(1, n + 1)}
    reveal = [f"(count(paid == '{a}') + {' + '.join(mine[i])}) % 2" for i, a in enumerate(agents, 1)]
    return {
        "game": "epistemic", "title": f"Dining cryptographers (n = {n}, every pair shares a coin)",
        "variables": {"paid": ["NSA", *agents], **{c: [0, 1] for c in coin.values()}},
        "agents": {a: [f"paid == '{a}'", *mine[i]] for i, a in enumerate(agents, 1)},
        "event": [{"learn": f"({' + '.join(reveal)}) % 2"}],
    }


def drinking_logicians(n: int) -> dict[str, Any]:
    """Three (or ``n``) logicians walk into a bar; asked "does everyone want beer?" the first ``n - 1`` say
    "I don't know" and the last says "yes" (all want beer).  ``min(w1, ...)`` is 1 when all want beer, so
    ``knows(Li, min(...))`` is "Li knows whether everyone wants beer"."""
    ws = [f"w{i}" for i in range(1, n + 1)]
    every = f"min({', '.join(ws)})"
    return {
        "game": "epistemic", "title": f"Drinking logicians (n = {n})",
        "variables": {w: [0, 1] for w in ws},
        "agents": {f"L{i}": [w] for i, w in enumerate(ws, 1)},
        "actual": {w: 1 for w in ws},
        "announcement": [{"by": f"L{i}", "formula": f"not knows(L{i}, {every})"} for i in range(1, n)],
    }


def drinking_check(n: int) -> str:
    """SMCDEL's ``thirstyF n``: nobody knows at first, and after the first n - 1 say "I don't know" the last
    one knows that everyone wants beer (a formula with nested ``after``, judged at the actual world)."""
    every = f"min({', '.join(f'w{i}' for i in range(1, n + 1))})"
    inner = f"knows(L{n}, {every} == 1)"
    for i in range(n - 1, 0, -1):
        inner = f"after(not knows(L{i}, {every}), {inner})"
    return " and ".join([f"not knows(L{i}, {every})" for i in range(1, n + 1)] + [inner])


def consecutive_numbers(top: int) -> dict[str, Any]:
    """Anne and Bill have consecutive numbers 0..top on their foreheads (each sees the other's); "I don't
    know your number", "I don't know your number", "I know your number", "I know your number"."""
    return {
        "game": "epistemic", "title": f"Consecutive numbers (0..{top})",
        "constraints": ["abs(a - b) == 1"],
        "variables": {"a": f"0..{top}", "b": f"0..{top}"},
        "agents": {"Anne": ["b"], "Bill": ["a"]},
        "announcement": [{"by": "Anne", "formula": "not knows(Anne, a)"},
                         {"by": "Bill", "formula": "not knows(Bill, b)"},
                         {"by": "Anne", "formula": "knows(Anne, a)"},
                         {"by": "Bill", "formula": "knows(Bill, b)"}],
    }


def muddy_some_hear(n: int, muddy: int, hearers: int, rounds: int) -> dict[str, Any]:
    """Muddy children where only the first ``hearers`` children hear the father: they learn whether at least
    one child is muddy, the others know that they learnt it but not the answer (a semi-private event); then
    ``rounds`` public rounds of "nobody knows whether they are muddy"."""
    ms = [f"m{i}" for i in range(1, n + 1)]
    nobody = " and ".join(f"not knows(c{i}, m{i})" for i in range(1, n + 1))
    events: list[dict[str, Any]] = [{"kind": "semi-private", "to": [f"c{i}" for i in range(1, hearers + 1)],
                                     "learn": " + ".join(ms) + " >= 1"}]
    events += [{"formula": nobody} for _ in range(rounds)]
    return {
        "game": "epistemic", "title": f"Muddy children (n = {n}, {muddy} muddy, {hearers} hear the father)",
        "variables": {m: [0, 1] for m in ms},
        "agents": {f"c{i}": [m for j, m in enumerate(ms, 1) if j != i] for i in range(1, n + 1)},
        "actual": {m: int(i < muddy) for i, m in enumerate(ms)},
        "event": events,
    }


def gossip(agents: str, calls: list[str]) -> dict[str, Any]:
    """The gossip problem as in SMCDEL's GossipS5: each agent has a secret; in a call the two agents tell each
    other every secret they have; everyone knows that one call happens each time, only the two callers know
    which.  ``x_y`` is 1 when agent x has y's secret; unlike GossipS5, each agent sees which secrets it has.
    ``calls`` are the calls made, e.g. ``["ab", "cd"]``."""
    pairs = [x + y for i, x in enumerate(agents) for y in agents[i + 1:]]

    def changes(x: str, y: str) -> dict[str, str]:
        out = {f"{x}_{y}": "1", f"{y}_{x}": "1"}
        for z in agents:
            if z not in (x, y):
                out[f"{x}_{z}"] = f"max({x}_{z}, {y}_{z})"
                out[f"{y}_{z}"] = f"max({y}_{z}, {x}_{z})"
        return out

    def view(k: str) -> list[list[str]]:
        mine = [[p] for p in pairs if k in p]
        others = [p for p in pairs if k not in p]
        return mine + ([others] if others else [])

    variables = [f"{x}_{y}" for x in agents for y in agents if x != y]
    return {
        "game": "epistemic", "title": f"Gossip ({len(agents)} agents: {', '.join(calls)})",
        "variables": {v: [0, 1] for v in variables},
        "worlds": [{v: 0 for v in variables}],
        "actual": {v: 0 for v in variables},
        "agents": {k: [f"{k}_{y}" for y in agents if y != k] for k in agents},   # the secrets k has
        "event": [{"kind": "action", "by": call[0], "actual": call,
                   "events": [{"name": p, "set": changes(*p)} for p in pairs],
                   "observers": {k: view(k) for k in agents}} for call in calls],
    }
