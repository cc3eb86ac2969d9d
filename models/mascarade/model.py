"""The CP model of one viewer's game: a boolean per swap, reveals and looks as named observations.

Card variables exist per position and per time a card may have moved: a swap-or-not of positions a and b
creates two new variables, equal to the old ones crossed when its boolean is true.  The viewer's known swap
outcomes and every card the viewer saw are observations (named as in explanations), so the engine can name
a minimal set of them that conflicts or that entails a claim.  Enumerating the solutions projected on the
unknown swaps yields the consistent histories; each weighs ``p^k (1-p)^(m-k)`` under the prior.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from sleuth.errors import InternalError
from sleuth.engine import Engine
from sleuth.limits import LimitReached
from sleuth.model import Lit, Model, Var

from .state import SeeStep, Step, SwapStep


@dataclass
class MascaradeModel:
    model: Model
    final: list[Var]           # the card variable of every position at the end
    unknown: list[Var]         # one boolean per swap whose outcome the viewer does not know


def build_model(initial: Sequence[int], steps: Sequence[Step], prior: Fraction,
                position_names: Sequence[str] | None = None) -> MascaradeModel:
    n_ids = max(initial) + 1
    names = list(position_names or [f"p{i}" for i in range(len(initial))])
    m = Model()
    cur = [m.int_var(c, c, f"{names[p]}@0") for p, c in enumerate(initial)]
    unknown: list[Var] = []
    for t, step in enumerate(steps, start=1):
        if isinstance(step, SwapStep):
            a, b = step.a, step.b
            s = m.bool_var(f"swap@{t}")
            na = m.int_var(0, n_ids - 1, f"{names[a]}@{t}")
            nb = m.int_var(0, n_ids - 1, f"{names[b]}@{t}")
            with m.unguarded():
                m.add(na == cur[b], when=s.lit())
                m.add(nb == cur[a], when=s.lit())
                m.add(na == cur[a], when=~s)
                m.add(nb == cur[b], when=~s)
            cur[a], cur[b] = na, nb
            if step.outcome is not None:
                with m.observation(step.name):
                    m.add_all([s.lit() if step.outcome else ~s])
            elif prior in (0, 1):
                with m.unguarded():
                    m.add_all([s.lit() if prior == 1 else ~s])
            else:
                unknown.append(s)
        else:
            if not isinstance(step, SeeStep):
                raise InternalError(f"unknown step {step!r}")
            with m.observation(step.name):
                m.add(cur[step.position] == step.identity)
    return MascaradeModel(m, cur, unknown)


def enumerate_belief(gm: MascaradeModel, prior: Fraction, backend: str = "cpsat", *,
                     limit: int | None = None) -> tuple[dict[tuple[int, ...], Fraction], int]:
    """The posterior {placement: P} from all consistent histories, and how many histories there were.

    Raises :class:`LimitReached` when more than ``limit`` histories exist.
    """
    engine = Engine(gm.model, backend)
    weights: dict[tuple[int, ...], Fraction] = {}
    count = 0
    project = gm.unknown + gm.final
    k = len(gm.unknown)
    for values in engine.valids(project, limit=None if limit is None else limit + 1):
        count += 1
        if limit is not None and count > limit:
            raise HistoryLimit(f"more than {limit} consistent histories")
        yes = sum(values[:k])
        w = prior ** yes * (1 - prior) ** (k - yes)
        placement = tuple(values[k:])
        weights[placement] = weights.get(placement, Fraction(0)) + w
    total = sum(weights.values(), Fraction(0))
    return ({pl: w / total for pl, w in weights.items()} if total else {}), count


class HistoryLimit(LimitReached):
    """Enumeration stopped: too many histories for the model method (``--set cpsat_limit``)."""


def holds_lit(gm: MascaradeModel, position: int, identity: int) -> Lit:
    return gm.model.indicator(gm.final[position], identity)
