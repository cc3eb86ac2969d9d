"""Card guessing: the seed's numbers, and every derivation cross-checked against an independent one."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from sleuth.models.cardguess.bounds import complete_feedback_bounds, fano, feder_merhav, inverse
from sleuth.models.cardguess.counting import Arrangements, Statistic, brute_force_posterior, multinomial
from sleuth.models.cardguess.optimal import Feedback, OptimalSolver
from sleuth.models.cardguess.model import Guess, enumerate_posterior
from sleuth.models.cardguess.scores import score_distribution
from sleuth.models.cardguess.seed import SeedAgent, SeedOptimalAgent
from sleuth.models.cardguess.strategies import STRATEGIES, ConstantStep, ExpectedCounts, make_strategy

SEED_HISTORY = [(0, True), (1, False), (1, False), (1, False), (1, True), (1, True)]  # section 2.3


def knowledge_after(counts, history):
    know = Statistic.initial(counts)
    for g, ok in history:
        know = know.after(g, ok)
    return know


def random_history(rng, counts, feedback=Feedback.PARTIAL):
    cards = [a for a, k in enumerate(counts) for _ in range(k)]
    rng.shuffle(cards)
    history = []
    for i in range(rng.randint(0, len(cards))):
        g = rng.randrange(len(counts))
        actual = cards[i] if feedback is Feedback.COMPLETE else None
        history.append((g, cards[i] == g, actual))
    return history


# -- the seed's numbers --------------------------------------------------------------------------------

def test_seed_section_2_3_posterior_and_next_card():
    n = Arrangements()
    know = knowledge_after((3, 3, 3), SEED_HISTORY)
    assert know.posterior(n) == {(0, 1, 2): Fraction(3, 10), (1, 1, 1): Fraction(3, 5), (2, 1, 0): Fraction(1, 10)}
    assert know.next_probabilities(n) == [Fraction(4, 15), Fraction(1, 3), Fraction(2, 5)]


def test_seed_section_2_3_conditional_entropies():
    n = Arrangements()
    know = knowledge_after((3, 3, 3), SEED_HISTORY)
    assert [round(know.conditional_entropy(a, n), 3) for a in range(3)] == [1.777, 1.079, 1.643]


def test_seed_section_2_3_optimal_guess_is_not_greedy():
    know = knowledge_after((3, 3, 3), SEED_HISTORY)
    greedy, optimal = make_strategy("greedy"), make_strategy("optimal")
    assert greedy.choose(None, know) == 2  # c, probability 2/5
    assert optimal.choose(None, know) == 1  # b, probability 1/3
    assert make_strategy("entropy", gamma=0.15).choose(None, know) == 1


@pytest.mark.parametrize("name, expected", [("greedy", Fraction(475, 112)), ("optimal", Fraction(2383, 560))])
def test_seed_section_5_expected_scores(name, expected):
    assert score_distribution(make_strategy(name), (3, 3, 3)).expected == expected


def test_entropy_heuristic_with_gamma_0_15_matches_optimal():
    assert score_distribution(make_strategy("entropy", gamma=0.15), (3, 3, 3)).expected == Fraction(2383, 560)


@pytest.mark.parametrize("name, simulated", [("expected-counts", 4.2387), ("constant-step", 4.2482)])
def test_playable_strategies_match_the_seed_simulation(name, simulated):
    exact = score_distribution(make_strategy(name), (3, 3, 3)).expected
    assert abs(float(exact) - simulated) < 5e-4
    assert exact < Fraction(2383, 560)  # never above optimal


@pytest.mark.parametrize("n_cards", range(1, 7))
def test_distinct_cards_partial_feedback_sum_of_inverse_factorials(n_cards):
    deck = (1,) * n_cards
    target = sum(Fraction(1, math.factorial(k)) for k in range(1, n_cards + 1))
    for name in ("greedy", "optimal"):
        assert score_distribution(make_strategy(name), deck).expected == target


@pytest.mark.parametrize("n_cards", range(1, 7))
def test_distinct_cards_complete_feedback_harmonic_number(n_cards):
    deck = (1,) * n_cards
    harmonic = sum(Fraction(1, k) for k in range(1, n_cards + 1))
    for name in ("greedy", "optimal"):
        assert score_distribution(make_strategy(name, Feedback.COMPLETE), deck).expected == harmonic


def test_greedy_breaks_ties_to_the_lowest_index():
    know = Statistic.initial((3, 3, 3))
    assert make_strategy("greedy").choose(None, know) == 0
    assert make_strategy("greedy").choose(None, Statistic.initial((2, 3, 3))) == 1


# -- cross-checks of the posterior -------------------------------------------------------------------

@pytest.mark.parametrize("feedback", list(Feedback))
def test_counting_posterior_matches_brute_force(feedback):
    rng = random.Random(7)
    n = Arrangements()
    for _ in range(120):
        counts = tuple(rng.randint(1, 3) for _ in range(rng.randint(1, 3)))
        history = random_history(rng, counts, feedback)
        know = Statistic.initial(counts)
        for g, ok, actual in history:
            know = know.after(g, ok, actual)
        assert know.posterior(n) == brute_force_posterior(counts, history)


@pytest.mark.parametrize("feedback", list(Feedback))
def test_counting_posterior_matches_cpsat_enumeration(feedback):
    rng = random.Random(11)
    n = Arrangements()
    types = ["J", "Q", "K"]
    for counts in [(3, 3, 3), (2, 1, 2), (3, 3, 3)]:
        history = random_history(rng, counts, feedback)
        guesses = [Guess(g, ok, actual) for g, ok, actual in history]
        know = Statistic.initial(counts)
        for g, ok, actual in history:
            know = know.after(g, ok, actual)
        enumerated = enumerate_posterior(types, counts, guesses, "cpsat")
        assert enumerated.orders == know.count(n)
        assert enumerated.remaining == know.posterior(n)
        if know.cards_left:
            assert enumerated.next_card == know.next_probabilities(n)


def test_seed_example_on_both_engines():
    guesses = [Guess(g, ok) for g, ok in SEED_HISTORY]
    for backend in ("cpsat", "python-constraint"):
        e = enumerate_posterior(["J", "Q", "K"], (3, 3, 3), guesses, backend)
        assert e.orders == 30
        assert e.remaining == {(0, 1, 2): Fraction(3, 10), (1, 1, 1): Fraction(3, 5), (2, 1, 0): Fraction(1, 10)}


def test_seed_filter_agrees_with_counting():
    rng = random.Random(3)
    n = Arrangements()
    for _ in range(60):
        counts = tuple(rng.randint(1, 4) for _ in range(3))
        history = random_history(rng, counts)
        agent, know = SeedAgent(counts), Statistic.initial(counts)
        for g, ok, _ in history:
            assert agent.update_state(g, ok)
            know = know.after(g, ok)
        assert dict(sorted(agent.states.items())) == know.posterior(n)
        if know.cards_left:
            assert agent.group_prob == know.next_probabilities(n)
        assert agent.get_state_entropy() == pytest.approx(know.entropy(n))


def test_arrangement_count_matches_inclusion_exclusion():
    n = Arrangements()
    for c in itertools.product(range(4), repeat=3):
        for p in itertools.product(range(4), repeat=3):
            if sum(p) > sum(c):
                continue
            formula = sum(
                math.prod((-1) ** j * math.comb(pa, j) for j, pa in zip(js, p, strict=False))
                * multinomial([ca - j for ca, j in zip(c, js, strict=False)])
                for js in itertools.product(*[range(min(pa, ca) + 1) for pa, ca in zip(p, c, strict=False)]))
            assert n(c, p) == formula, (c, p)


# -- the optimal recursion against plain references ----------------------------------------------------

def plain_optimal(counts, feedback):
    """Eq. (1) with fractions over every guess, no canonical keys, no pruning."""
    n = Arrangements()
    memo = {}

    def e(know):
        if know.cards_left == 0:
            return Fraction(0)
        if (know.c, know.p) not in memo:
            probs = know.next_probabilities(n)
            values = []
            for a in range(len(counts)):
                if feedback is Feedback.PARTIAL:
                    v = Fraction(0)
                    if probs[a]:
                        v += probs[a] * (1 + e(know.after(a, True)))
                    if probs[a] != 1:
                        v += (1 - probs[a]) * e(know.after(a, False))
                else:
                    v = sum((probs[b] * ((b == a) + e(know.after(b, b == a, b))) for b in range(len(counts))
                             if probs[b]), Fraction(0))
                values.append(v)
            memo[(know.c, know.p)] = max(values)
        return memo[(know.c, know.p)]

    return e(Statistic.initial(counts))


@pytest.mark.parametrize("feedback", list(Feedback))
@pytest.mark.parametrize("counts", [(2, 2, 2), (3, 2, 1), (1, 2, 3, 1), (2, 2, 2, 2), (4, 1)])
def test_optimal_recursion_matches_plain_eq1(counts, feedback):
    assert OptimalSolver(feedback).expected(Statistic.initial(counts)) == plain_optimal(counts, feedback)


def test_optimal_matches_the_seed_program():
    assert SeedOptimalAgent((2, 2, 3)).ev() == OptimalSolver().expected(Statistic.initial((2, 2, 3)))
    assert SeedAgent((3, 3, 3)).ev() == Fraction(475, 112)


def test_optimal_is_at_least_every_strategy_and_policy_value_agrees():
    for counts in [(2, 2, 2), (3, 3, 3), (3, 1, 2)]:
        best = OptimalSolver().expected(Statistic.initial(counts))
        assert score_distribution(make_strategy("optimal"), counts).expected == best
        for name in STRATEGIES:
            assert score_distribution(make_strategy(name), counts).expected <= best


def test_complete_feedback_greedy_is_optimal():
    for counts in [(3, 3, 3), (4, 2, 1), (2, 2, 2, 2)]:
        greedy = score_distribution(make_strategy("greedy", Feedback.COMPLETE), counts).expected
        assert greedy == OptimalSolver(Feedback.COMPLETE).expected(Statistic.initial(counts))


# -- score distributions against playing every deck order ----------------------------------------------

def play(strategy, counts, order):
    state, know, score = strategy.start(counts), Statistic.initial(counts), 0
    for card in order:
        g = strategy.choose(state, know)
        ok = g == card
        actual = card if strategy.feedback is Feedback.COMPLETE else None
        score += ok
        state = strategy.observe(state, g, ok, actual)
        know = know.after(g, ok, actual)
    return score


@pytest.mark.parametrize("name", list(STRATEGIES))
@pytest.mark.parametrize("feedback", list(Feedback))
def test_distribution_matches_playing_every_order(name, feedback):
    counts = (3, 2, 2)
    strategy = make_strategy(name, feedback)
    orders = set(itertools.permutations([a for a, k in enumerate(counts) for _ in range(k)]))
    tally = {}
    for order in orders:
        s = play(strategy, counts, order)
        tally[s] = tally.get(s, 0) + 1
    dist = score_distribution(strategy, counts)
    assert dist.total == len(orders) == multinomial(counts)
    assert dist.probabilities == {k: Fraction(w, len(orders)) for k, w in sorted(tally.items())}


# -- playable strategies ------------------------------------------------------------------------------

def test_expected_counts_update_rule():
    s = ExpectedCounts()
    state = s.start((3, 3, 3))
    state = s.observe(state, 0, True, None)
    assert state == (2, 3, 3)
    state = s.observe(state, 1, False, None)  # the 3 Q stay; J and K lose their share of one card
    assert state == (Fraction(2) - Fraction(2, 5), 3, Fraction(3) - Fraction(3, 5))


def test_constant_step_clamps_at_zero():
    s = ConstantStep(step=Fraction(11, 20))
    state = s.start((1, 1))
    for _ in range(2):
        state = s.observe(state, 0, False, None)
    assert state == (1, 0)


# -- section 4 bounds ---------------------------------------------------------------------------------

def test_section_4_bounds_on_3_3_3():
    b = complete_feedback_bounds((3, 3, 3))
    assert b.greedy == score_distribution(make_strategy("greedy", Feedback.COMPLETE), (3, 3, 3)).expected
    assert math.floor(float(b.greedy) * 100) / 100 == 4.78  # the seed's 4.78
    assert round(b.total("lower_avg"), 2) == 4.70          # the seed's lower bound
    assert b.total("lower_state") <= float(b.greedy) <= b.total("upper_state")
    for s in b.steps:  # the per-state bounds hold at every step
        assert s.lower_state - 1e-6 <= float(s.greedy) <= s.upper_state + 1e-6


def test_bound_functions_are_inverted():
    for m in (2, 3, 5):
        for pi in (0.0, 0.1, 0.3, (m - 1) / m - 0.01):
            assert inverse(fano, fano(pi, m), m) == pytest.approx(pi, abs=1e-9)
            assert inverse(feder_merhav, feder_merhav(pi, m), m) == pytest.approx(pi, abs=1e-9)
    # phi is the least entropy with largest probability 1 - pi: (1/2, 1/2, 0) for pi = 1/2
    assert feder_merhav(0.5, 3) == pytest.approx(1.0)


def test_api_expected_score():
    from sleuth.models.cardguess import expected_score
    assert expected_score((3, 3, 3)).expected == Fraction(2383, 560)
    assert expected_score((1, 1, 1), "greedy", "complete").expected == Fraction(11, 6)
