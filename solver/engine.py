"""What the engine reads off a model: valids, backbone, verdicts with explanations, conflicts.

Every function takes the model, the assumptions to hold (normally the observation literals) and a backend
name; the model itself is never changed in a way that outlives the call except for guarded helper
constraints (switched off again by not assuming their guard).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from .backends import Backend, Outcome, SolveStatus, make_backend
from .errors import InternalError
from .explain import minimal_subset
from .limits import SolverTimeout, TooLarge, max_items
from .model import Constraint, Lit, Model, Var
from .results import ClaimResult, Verdict


class Engine:
    """A model with one backend instance, so that repeated questions reuse its translation."""

    def __init__(self, model: Model, backend: str | Backend = "cpsat", *, time_limit: float | None = None,
                 assumptions: Sequence[Lit] | None = None) -> None:
        self.model = model
        self.backend = backend if isinstance(backend, Backend) else make_backend(
            model, backend, time_limit=time_limit)
        self.assumptions = list(model.observation_lits() if assumptions is None else assumptions)

    # -- consistency --------------------------------------------------------------------------------
    def solve(self, extra: Sequence[Lit] = ()) -> Outcome:
        return self.backend.solve([*self.assumptions, *extra])

    def conflict(self) -> tuple[str, ...] | None:
        """None when the observations are consistent, else a minimal set of conflicting observation names."""
        out = self.solve()
        if out.status is SolveStatus.FEASIBLE:
            return None
        if out.status is SolveStatus.UNKNOWN:
            raise SolverTimeout("consistency check reached the time limit")
        core = self.shrink(out.core)
        return tuple(self._names(core))

    def shrink(self, core: Sequence[Lit], keep: Sequence[Lit] = ()) -> list[Lit]:
        """Deletion-based shrinking of an infeasible set of assumptions to a minimal one.

        ``keep`` literals (e.g. a negated claim) stay in every test and are not returned.
        """
        def infeasible(trial: list[Lit]) -> bool | list[Lit]:
            out = self.backend.solve([*keep, *trial])
            if out.status is SolveStatus.UNKNOWN:  # never a smaller set by default: no answer at all
                raise SolverTimeout("explaining: a solve reached the time limit")
            if out.status is not SolveStatus.INFEASIBLE:
                return False
            return [x for x in out.core if x not in keep] if out.core else True

        return minimal_subset((x for x in core if x not in keep), infeasible)

    def _names(self, lits: Sequence[Lit]) -> list[str]:
        names = {o.lit: o.name for o in self.model.observations}
        return [names[x] for x in lits if x in names]

    # -- valids ---------------------------------------------------------------------------------------
    def valids(self, project: Sequence[Var], *, limit: int | None = None,
               extra: Sequence[Lit] = ()) -> Iterator[tuple[int, ...]]:
        """Distinct projections of the solutions onto ``project``, streamed (at most ``limit``).

        The set of projections seen stays within the memory budget (:mod:`sleuth.limits`): past it,
        :class:`~sleuth.limits.TooLarge`.
        """
        seen: set[tuple[int, ...]] = set()
        most = max_items(None, 120 + 8 * len(project))  # a tuple of small ints and its set slot
        for sol in self.backend.solutions([*self.assumptions, *extra], project=project):
            key = tuple(sol[v] for v in project)
            if key not in seen:
                if len(seen) >= most:
                    raise TooLarge(f"more than {most:,} distinct solutions to keep apart (the memory budget); "
                                   "raise SLEUTH_MEMORY_BUDGET or narrow the puzzle")
                seen.add(key)
                yield key
                if limit is not None and len(seen) >= limit:
                    return

    def count(self, project: Sequence[Var], *, limit: int | None = None) -> int:
        return sum(1 for _ in self.valids(project, limit=limit))

    # -- backbone -------------------------------------------------------------------------------------
    def backbone(self, lits: Sequence[Lit]) -> Backbone:
        """Which of ``lits`` are true in every solution and which are false in every solution.

        Solution-guided elimination: every solution found clears each candidate it contradicts, and each
        round asks for one solution that flips *any* remaining candidate (a single guarded clause), so a
        round either clears at least one candidate or proves all remaining ones at once.
        """
        out = self.solve()
        if out.status is SolveStatus.INFEASIBLE:
            return Backbone(consistent=False)
        if out.status is SolveStatus.UNKNOWN or out.values is None:
            raise SolverTimeout("backbone: first solve reached the time limit")
        candidates = {x: x.value_in(out.values) for x in dict.fromkeys(lits)}
        solves = 1
        while candidates:
            guard = self.model.bool_var("backbone-round", aux=True).lit()
            with self.model.unguarded():
                self.model.add_any([~x if value else x for x, value in candidates.items()], when=guard)
            out = self.solve([guard])
            solves += 1
            with self.model.unguarded():  # retire the round: a free guard would double every enumeration
                self.model.add_all([~guard])
            if out.status is SolveStatus.UNKNOWN or (out.status is SolveStatus.FEASIBLE and out.values is None):
                raise SolverTimeout("backbone: a solve reached the time limit")
            if out.status is SolveStatus.INFEASIBLE:
                break
            values = _assignment(out)
            candidates = {x: v for x, v in candidates.items() if x.value_in(values) == v}
        return Backbone(True, frozenset(x for x, v in candidates.items() if v),
                        frozenset(x for x, v in candidates.items() if not v), solves)

    # -- verdicts -------------------------------------------------------------------------------------
    def verify(self, claim: Lit | Constraint, text: str = "", expect: Verdict | None = Verdict.ENTAILED,
               world: Callable[[Mapping[Var, int]], object] | None = None) -> ClaimResult:
        """Entailed / refuted / open, with a minimal set of observations or witness worlds.

        ``world`` maps a full assignment to what the witness shows (default: the raw assignment).
        """
        show = world or self.model.world
        lit = claim if isinstance(claim, Lit) else self.model.reify(claim, f"claim:{text}")
        against = self.solve([~lit])
        if against.status is SolveStatus.UNKNOWN:
            return ClaimResult(text, Verdict.TIMEOUT, expect=expect, detail="time limit reached")
        if against.status is SolveStatus.INFEASIBLE:
            if self.solve().status is SolveStatus.INFEASIBLE:
                return ClaimResult(text, Verdict.CONTRADICTION, tuple(self.conflict() or ()), expect=expect,
                                   detail="the observations admit no world")
            core = self.shrink(against.core, keep=[~lit])
            return ClaimResult(text, Verdict.ENTAILED, tuple(self._names(core)), expect=expect)
        witness_false = show(_assignment(against))
        towards = self.solve([lit])
        if towards.status is SolveStatus.UNKNOWN:
            return ClaimResult(text, Verdict.TIMEOUT, expect=expect, detail="time limit reached")
        if towards.status is SolveStatus.INFEASIBLE:
            core = self.shrink(towards.core, keep=[lit])
            return ClaimResult(text, Verdict.REFUTED, tuple(self._names(core)), witness_false, expect=expect)
        return ClaimResult(text, Verdict.OPEN, (), {"true": show(_assignment(towards)), "false": witness_false},
                           expect=expect)


def _assignment(out: Outcome) -> dict[Var, int]:
    """The values of a feasible outcome (a feasible solve without them is a backend bug)."""
    if out.values is None:
        raise InternalError("a feasible solve returned no assignment")
    return out.values


@dataclass(frozen=True)
class Backbone:
    consistent: bool
    true: frozenset[Lit] = field(default_factory=frozenset)
    false: frozenset[Lit] = field(default_factory=frozenset)
    solves: int = 0

    def value(self, lit: Lit) -> bool | None:
        """True / False when fixed in every solution, None when it varies."""
        if lit in self.true:
            return True
        if lit in self.false:
            return False
        return None
