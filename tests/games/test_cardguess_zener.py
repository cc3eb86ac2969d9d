"""Exact records of card guessing with yes/no feedback (:mod:`sleuth.models.cardguess.zener`,
``experiment cardguess --records`` and ``--records-table``) against brute force over every deck order."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from functools import cache

import pytest

from sleuth.models.cardguess import zener
from sleuth.models.cardguess.counting import Statistic, canonical
from sleuth.models.cardguess.scores import score_distribution
from sleuth.models.cardguess.strategies import make_strategy

from tests.conftest import run_cli

DECKS = [(2, 2), (3, 1), (2, 2, 1), (3, 2), (2, 2, 2), (1, 1, 1, 1), (3, 3, 1), (4, 3)]


def _orders(deck: tuple[int, ...]) -> list[tuple[int, ...]]:
    cards = [a for a, k in enumerate(deck) for _ in range(k)]
    return sorted(set(itertools.permutations(cards)))


def _brute_optimum(deck: tuple[int, ...]) -> Fraction:
    """The best expected score over every strategy, on the sets of deck orders themselves."""
    m, cards = len(deck), sum(deck)

    @cache
    def total(orders: frozenset[tuple[int, ...]], pos: int) -> int:
        if not orders or pos == cards:
            return 0
        best = 0
        for g in range(m):
            yes = frozenset(o for o in orders if o[pos] == g)
            value = len(yes) + total(yes, pos + 1) + total(orders - yes, pos + 1)
            best = max(best, value)
        return best

    orders = _orders(deck)
    return Fraction(total(frozenset(orders), 0), len(orders))


def _play(d: zener.Distributions, rule: str, deck: tuple[int, ...], order: tuple[int, ...]) -> int:
    """The strategy ``rule`` played on one deck order, through the statistic the player sees."""
    c, p = list(deck), [0] * len(deck)
    score = 0
    for card in order:
        key = canonical(c, p)
        code = key[d.choose(rule, key, sum(c) - sum(p))]
        # the type guessed: any type whose (c, p) has that code (they are interchangeable to the player)
        g = next(a for a in range(len(deck)) if c[a] > 0 and (c[a] << 7 | p[a]) == code)
        if g == card:
            score += 1
            c[g] -= 1
        else:
            p[g] += 1
    return score


@pytest.mark.parametrize("deck", DECKS, ids=str)
def test_distributions_against_every_deck_order(deck: tuple[int, ...]) -> None:
    r = zener.deck_record(deck)
    d = zener.Distributions()
    orders = _orders(deck)
    assert int(r["orders"]) == len(orders)
    for rule in zener.RULES:
        tally = [0] * (len(orders[0]) + 1)
        for order in orders:
            tally[_play(d, rule, deck, order)] += 1
        assert [int(x) for x in r[rule]["counts"]] + [0] * (len(tally) - len(r[rule]["counts"])) == tally
        pv = [Fraction(x) for x in r[rule]["p_values"].values()]
        assert pv[0] == 1 and pv == sorted(pv, reverse=True)
    best = _brute_optimum(deck)
    assert Fraction(r["optimal"]["expected"]) == best >= Fraction(r["greedy"]["expected"])
    assert best <= Fraction(r["complete_optimal"]["expected"])
    # the seed's optimal strategy (ties by deck order) has the same expectation
    assert score_distribution(make_strategy("optimal"), deck).expected == best


def test_seed_values_and_greedy_tie_break() -> None:
    r = zener.deck_record((3, 3, 3))
    assert r["optimal"]["expected"] == "2383/560"  # the seed's exact optimum
    # greedy depends on how ties are broken: the seed's (deck order) 475/112, ours (least code) 2379/560
    assert score_distribution(make_strategy("greedy"), (3, 3, 3)).expected == Fraction(475, 112)
    assert r["greedy"]["expected"] == "2379/560"
    assert Statistic.initial((3, 3, 3)).cards_left == r["cards"]


def test_a_deck_past_the_memory_is_refused() -> None:
    r = zener.deck_record((4, 4, 4, 4), memory_gb=1e-5)
    assert r["status"] == "refused" and r["states"] <= int(1e-5 * 1e9 / zener.STATE_BYTES)
    res = run_cli(["experiment", "cardguess", "--records", "--deck", "5,5,5,5,5", "--memory-gb", "0.01"])
    assert res.code == 3 and "refused" in res.out


def test_records_cli_json_and_the_table() -> None:
    res = run_cli(["experiment", "cardguess", "--records", "--deck", "3,3,3", "--json"])
    assert res.code == 0, res.err
    assert json.loads(res.out)["optimal"]["expected"] == "2383/560"
    res = run_cli(["experiment", "cardguess", "--records-table", "--max-cards", "8", "--json"])
    assert res.code == 0, res.err
    rows = json.loads(res.out)["decks"]
    assert [tuple(r["deck"]) for r in rows] == zener.table_decks(8)
    assert len(rows) == sum(8 // m for m in range(2, 9))
    for r in rows:
        n = r["deck"][0]
        opt, greedy = Fraction(r["optimal"]["expected"]), Fraction(r["greedy"]["expected"])
        assert greedy <= opt <= Fraction(r["complete_optimal"]["expected"]) and n <= opt
    res = run_cli(["experiment", "cardguess", "--records-table", "--max-cards", "1"])
    assert res.code == 2 and "--max-cards" in res.err
