"""A plain re-implementation of the seed's own program (sections 5.1-5.6), kept as a reference.

The agent's state is a dictionary ``{composition of the remaining deck: exact probability}`` updated by
Bayes' rule on each answer (section 5.2); expectations recurse by deep-copying the agent for each answer
(section 5.3); the optimal agent tries every pick (section 5.5) with a memo keyed on the state dictionary.
It is deliberately the seed's approach, not a fast one: the benchmark times it against
:mod:`models.cardguess.optimal`, and tests compare its posteriors and values with the counting derivation.
"""

from __future__ import annotations

import math
from copy import deepcopy
from fractions import Fraction

Composition = tuple[int, ...]
MemoKey = tuple[tuple[Composition, Fraction], ...]  # a mixed state, sorted
Memo = dict[MemoKey, Fraction]                      # expected correct guesses per mixed state


class SeedAgent:
    """The seed's agent: a mixed state over compositions, greedy guesses (section 5.4)."""

    def __init__(self, initial: Composition = (3, 3, 3)) -> None:
        self.initial = tuple(initial)
        self.group_num = len(self.initial)
        self.states: dict[Composition, Fraction] = {self.initial: Fraction(1)}

    @property
    def group_prob(self) -> list[Fraction]:
        """P(next card is each type): the fraction of the type, weighted by the states' probabilities."""
        probs = [Fraction(0)] * self.group_num
        for k, v in self.states.items():
            for g in range(self.group_num):
                probs[g] += Fraction(k[g], sum(k)) * v
        return probs

    def cards_left(self) -> int:
        return sum(next(iter(self.states)))

    def update_state(self, guess: int, correct: bool) -> bool:
        """Bayes' rule over compositions (section 5.2); False when the answer is impossible."""
        prob = self.group_prob[guess]
        if (correct and prob == 0) or (not correct and prob == 1):
            return False
        next_states: dict[Composition, Fraction] = {}
        for k, v in self.states.items():
            if correct and k[guess]:
                bayes = Fraction(k[guess], sum(k)) * v / prob
                kl = list(k)
                kl[guess] -= 1
                next_states[tuple(kl)] = next_states.get(tuple(kl), Fraction(0)) + bayes
            if not correct and sum(k) - k[guess]:
                bayes0 = (1 - Fraction(k[guess], sum(k))) * v / (1 - prob)
                for other in range(self.group_num):
                    if other == guess or not k[other]:
                        continue
                    bayes = bayes0 * Fraction(k[other], sum(k) - k[guess])
                    kl = list(k)
                    kl[other] -= 1
                    next_states[tuple(kl)] = next_states.get(tuple(kl), Fraction(0)) + bayes
        self.states = next_states
        return True

    def get_state_entropy(self) -> float:
        return -sum(float(v) * math.log2(v) for v in self.states.values() if v)

    def make_guess(self, memo: Memo) -> int:
        probs = self.group_prob
        return max(range(self.group_num), key=lambda g: (probs[g], -g))

    def memo_key(self) -> MemoKey:
        return tuple(sorted(self.states.items()))

    def ev(self, memo: Memo | None = None) -> Fraction:
        """Expected number of correct guesses from this state (section 5.3)."""
        memo = {} if memo is None else memo
        if self.cards_left() == 0:
            return Fraction(0)
        key = self.memo_key()
        if key in memo:
            return memo[key]
        guess = self.make_guess(memo)
        value = self.expected_correct(guess, memo)
        memo[key] = value
        return value

    def expected_correct(self, pick: int, memo: Memo) -> Fraction:
        prob = self.group_prob[pick]
        copy0 = deepcopy(self)
        ev0 = copy0.ev(memo) if copy0.update_state(pick, False) else Fraction(0)
        copy1 = deepcopy(self)
        ev1 = copy1.ev(memo) + 1 if copy1.update_state(pick, True) else Fraction(0)
        return (1 - prob) * ev0 + prob * ev1


class SeedOptimalAgent(SeedAgent):
    """Section 5.5: simulate every pick and keep the best (strictly better replaces, so ties go low)."""

    def make_guess(self, memo: Memo) -> int:
        best_ev, best_pick = Fraction(-1), 0
        for pick in range(self.group_num):
            ev = self.expected_correct(pick, memo)
            if ev > best_ev:
                best_ev, best_pick = ev, pick
        return best_pick

    def ev(self, memo: Memo | None = None) -> Fraction:
        memo = {} if memo is None else memo
        if self.cards_left() == 0:
            return Fraction(0)
        key = self.memo_key()
        if key not in memo:
            memo[key] = max(self.expected_correct(pick, memo) for pick in range(self.group_num))
        return memo[key]
