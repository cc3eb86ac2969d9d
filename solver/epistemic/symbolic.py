"""The symbolic engine: epistemic puzzles as knowledge structures on binary decision diagrams.

After van Benthem, van Eijck, Gattinger and Su, "Symbolic model checking for Dynamic Epistemic Logic"
(and their tool SMCDEL): a *knowledge structure* is a vocabulary of boolean variables, a *state law* θ (a BDD
whose satisfying assignments are the worlds) and, per agent, the variables it observes.  Agent *a* cannot tell
two worlds apart when they agree on its observed variables, so ``knows(a, φ)`` is ∀(unobserved).(θ → φ); a
public announcement conjoins the law; common knowledge is the greatest fixpoint of "everyone knows";
distributed knowledge quantifies the variables nobody in the group observes.

The puzzle format maps onto it as follows.  Each variable's domain is log-encoded (its value's index in the
domain, most significant bit first; the domain is part of the law).  An agent that observes an expression
observes fresh bits defined by it in the law.  Integer expressions are two's complement bit vectors whose
width comes from the exact range of the expression (:meth:`~.evaluation.Evaluator.bounds`'s interval
arithmetic; :mod:`.bdd`, with the decision-diagram manager), so no operation wraps.  Events are the paper's
knowledge transformers (:mod:`.symbolic_events`).  Events that make beliefs differ from knowledge (a private
announcement's outsiders, observers that are not a partition) give the agent an observation law over a
doubled vocabulary (:mod:`.belief`); the others keep the observed bits.

Worlds are counted exactly (``sat_count``, Python integers); listing walks the worlds in the explicit
engine's order (the latest event first, then earlier events, then the starting world's values).  The
decision diagrams are bounded by the memory budget (:data:`~.bdd.NODE_BYTES` a node): past it,
:class:`DiagramLimit` (exit 3) says how many nodes were reached.

>>> from .tables import Domain
>>> s = SymbolicState.start([Domain("x", tuple(range(1, 4))), Domain("y", tuple(range(1, 4)))],
...                         [parse("x <= y")], {"S": [parse("x + y")], "P": [parse("x * y")]})
>>> s.count, s.announce(parse("knows(S)")).count
(6, 4)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..errors import PuzzleError
from ..formula import (After, And, Arith, BoolConst, Call, Common, Compare, Distributed, FormulaError, Implies, Int,
                       Knows, Name, Neg, Node, Not, Or, Str, names_in, parse, to_text)
from ..limits import expired
from ..schema import fold
from . import belief, symbolic_events
from .bdd import (PURE_TYPES, Arithmetic, BddManager, DiagramLimit, Encoded, NotSymbolic, Vec, add_low, available,
                  diagram_limit, fits, guard, index_bits, mul_low, neg_low, width)
from .evaluation import interval
from .tables import Domain

if TYPE_CHECKING:
    from oxidd.bdd import BDDFunction

    from .explicit import ActionModel

__all__ = ["FIXPOINT_LIMIT", "BddManager", "DiagramLimit", "Encoded", "NotSymbolic", "SymbolicState", "available",
           "fits"]

FIXPOINT_LIMIT = 100_000  # rounds of a common-knowledge fixpoint (each removes a world, so never reached)


# -- knowledge structures ---------------------------------------------------------------------------------

@dataclass
class SymbolicState:
    """A knowledge structure (law, observed variables) and the puzzle's view of it: which worlds may be the
    actual one (``designated``), the actual world if known (``point``), and the order worlds are listed in."""

    engine: BddManager
    domains: tuple[Domain, ...]
    variables: dict[str, Encoded]            # each puzzle variable's current bits
    agents: dict[str, tuple[Node, ...]]      # the expressions each agent observes
    observed: dict[str, frozenset[int]]      # the bits each agent observes
    vocabulary: tuple[int, ...]              # every bit of the structure
    law: BDDFunction
    designated: BDDFunction
    key: tuple[int, ...]                     # listing order: latest event bits first, then the start's values
    point: BDDFunction | None = None
    point_lost: str | None = None
    _cache: dict[int, tuple[Node, str | Domain, Any]] = field(default_factory=dict, repr=False)
    _hidden: dict[frozenset[str], BDDFunction] = field(default_factory=dict, repr=False)
    _pure: dict[int, tuple[Node, str | Domain, Any]] = field(default_factory=dict, repr=False)   # kept by updates
    _pure_text: dict[Node, tuple[Node, str | Domain, Any]] = field(default_factory=dict, repr=False)   # by value
    _arith: Arithmetic | None = field(default=None, repr=False)
    _told: tuple[Node, SymbolicState] | None = field(default=None, repr=False)   # the last after(...)'s
    beliefs: dict[str, BDDFunction] = field(default_factory=dict)   # observation laws Ω_a (:mod:`.belief`)
    _relations: dict[frozenset[str], Any] = field(default_factory=dict, repr=False)   # with the law: per law

    # -- building ------------------------------------------------------------------------------------
    @classmethod
    def start(cls, domains: Sequence[Domain], constraints: Sequence[Node], agents: Mapping[str, Sequence[Node]],
              rows: Sequence[Sequence[int]] | None = None, actual: Mapping[str, int] | None = None,
              engine: BddManager | None = None) -> SymbolicState:
        """The starting structure: the domains (or the listed ``rows`` of codes) and the constraints as the law,
        each agent observing its expressions; ``actual`` (codes) points at the real world."""
        e = engine or BddManager()
        with guard(e):
            variables: dict[str, Encoded] = {}
            law = e.true
            groups = e.fresh_groups([([f"{d.name}[{i}]" for i in range(index_bits(len(d.values)))], ())
                                     for d in domains])
            for d, bits in zip(domains, groups, strict=True):
                variables[d.name] = Encoded(d, tuple(bits))
            vocabulary = tuple(b for enc in variables.values() for b in enc.bits)
            state = cls(e, tuple(domains), variables, {}, {}, vocabulary, law, e.true, vocabulary)
            for enc in variables.values():
                law = law & state._index_below(enc, len(enc.domain.values))
            if rows is not None:
                listed = e.false
                positions = {d.name: {v: i for i, v in enumerate(d.values)} for d in domains}
                for row in rows:
                    cube = e.true
                    for d, code in zip(domains, row, strict=True):
                        cube = cube & state.index_is(variables[d.name], positions[d.name][code])
                    listed = listed | cube
                law = law & listed
            state.law = law
            for c in constraints:
                law = law & state.truth(c)
            state = state.with_changes(law=law, designated=law)
            state = state.observe({a: tuple(x) for a, x in agents.items()}, None)
            if actual is not None:
                point = state.law
                for d in domains:
                    point = point & state.index_is(variables[d.name], d.values.index(actual[d.name]))
                if point.satisfiable():
                    state.point = point
                else:
                    state.point_lost = "the actual world breaks the constraints"
            return state

    def with_changes(self, **changes: Any) -> SymbolicState:
        """A copy with ``changes``; the compiled formulas are dropped (they hold in this law only), the agents'
        quantification cubes kept while the vocabulary and the observations stay."""
        same = "vocabulary" not in changes and "observed" not in changes
        return replace(self, _cache={}, _hidden=self._hidden if same else {}, _told=None, _relations={}, **changes)

    def index_is(self, enc: Encoded, index: int) -> BDDFunction:
        out = self.engine.true
        for i, v in enumerate(reversed(enc.bits)):
            out = out & (self.engine.var(v) if (index >> i) & 1 else ~self.engine.var(v))
        return out

    def _index_below(self, enc: Encoded, n: int) -> BDDFunction:
        if n >= 1 << len(enc.bits):
            return self.engine.true
        return self.arith.lt(self.arith.unsigned([self.engine.var(v) for v in enc.bits]), self.arith.const(n))

    @property
    def arith(self) -> Arithmetic:
        if self._arith is None:   # one per state, handed on to the states made from it
            self._arith = Arithmetic(self.engine)
        return self._arith

    def define(self, label: str, bits: Sequence[BDDFunction], after: Sequence[int] = ()) -> tuple[list[int],
                                                                                                   BDDFunction]:
        """Fresh variables equal to ``bits`` (placed below ``after``), and the law's part that defines them."""
        fresh = self.engine.fresh([f"{label}[{i}]" for i in range(len(bits))], after)
        definition = self.engine.true
        for v, b in zip(fresh, bits, strict=True):
            definition = definition & self.engine.var(v).equiv(b)
        return fresh, definition

    def _expression_bits(self, node: Node) -> list[BDDFunction] | list[int]:
        """The bits an observer of ``node`` sees: a variable's own (as numbers) or the value's (as functions)."""
        if isinstance(node, Name):
            return list(self.variable(node.name).bits)
        kind, val = self.value(node)
        if kind == "bool":
            return [val]
        return list(val.bits)

    def observe(self, agents: Mapping[str, tuple[Node, ...]], only: set[str] | None) -> SymbolicState:
        """Each agent observes its expressions (``only``: re-read those mentioning these variables)."""
        observed = dict(self.observed)
        law, vocabulary = self.law, list(self.vocabulary)
        defined: dict[str, list[int]] = {}
        pending: dict[str, tuple[list[BDDFunction], list[int]]] = {}   # defined bits, made in one reordering
        for exprs in agents.values():
            for node in exprs:
                text = to_text(node)
                if text not in defined and text not in pending and \
                        (only is None or {fold(n) for n in names_in(node)} & only):
                    bits = self._expression_bits(node)
                    if bits and isinstance(bits[0], int):
                        defined[text] = [b for b in bits if isinstance(b, int)]
                    else:
                        pending[text] = ([b for b in bits if not isinstance(b, int)], self.support(node))
        groups = self.engine.fresh_groups([([f"{t}[{i}]" for i in range(len(b))], after)
                                           for t, (b, after) in pending.items()])
        for (text, (bits, _)), fresh in zip(pending.items(), groups, strict=True):
            for v, b in zip(fresh, bits, strict=True):
                law = law & self.engine.var(v).equiv(b)
            vocabulary += fresh
            defined[text] = fresh
        for agent, exprs in agents.items():
            seen = set(observed.get(agent, frozenset()))
            for node in exprs:
                text = to_text(node)
                if text in defined:
                    seen |= set(defined[text])
            observed[agent] = frozenset(seen)
        return self.with_changes(agents=dict(agents), observed=observed, law=law, vocabulary=tuple(vocabulary),
                          designated=self.designated & law)

    def support(self, node: Node) -> list[int]:
        """The current bits of the variables a formula names (what its value depends on, knowledge aside)."""
        named = dict.fromkeys(self.variable(n).domain.name for n in names_in(node) if self._has(n))
        return [b for name in named for b in self.variables[name].bits]

    # -- the puzzle's view ---------------------------------------------------------------------------
    def count_of(self, f: BDDFunction) -> int:
        extra = self.engine.mgr.num_vars() - len(self.vocabulary)
        return f.sat_count(self.engine.mgr.num_vars()) >> extra

    @property
    def count(self) -> int:
        """The worlds that may be the actual one (exact)."""
        return self.count_of(self.designated)

    @property
    def size(self) -> int:
        """Every world of the structure, designated or not."""
        return self.count_of(self.law)

    def nodes(self) -> int:
        return self.law.node_count()

    def judge(self, node: Node) -> tuple[int, int]:
        """In how many of the worlds that may be the actual one the formula holds, and how many there are."""
        return self.count_of(self.designated & self.truth(node)), self.count

    def at_point(self, node: Node) -> bool:
        assert self.point is not None
        return (self.point & self.truth(node)).satisfiable()

    def witness(self, node: Node, value: bool) -> dict[str, int | str]:
        """The first world (in listing order) where the formula has this truth value."""
        f = self.truth(node)
        return next(self._walk(self.designated & (f if value else ~f)))

    def rows(self, limit: int | None = None) -> list[dict[str, int | str]]:
        """The worlds that may be the actual one, in the explicit engine's order (the first ``limit``)."""
        out: list[dict[str, int | str]] = []
        for row in self._walk(self.designated):
            if limit is not None and len(out) >= limit:
                break
            out.append(row)
        return out

    def shared(self) -> dict[str, int | str]:
        """The variables that have the same value in every world that may be the actual one."""
        out: dict[str, int | str] = {}
        f = self.designated
        if not f.satisfiable():
            return out
        for name, enc in self.variables.items():
            index = 0
            for v in enc.bits:
                x = self.engine.var(v)
                if not (f & ~x).satisfiable():
                    index = 2 * index + 1
                elif not (f & x).satisfiable():
                    index = 2 * index
                else:
                    break
            else:
                out[name] = enc.domain.show(enc.domain.values[index])
        return out

    def sure_at_point(self, agent: str) -> tuple[bool, bool]:
        """At the actual world: the agent knows the whole world, and its view includes the actual world."""
        assert self.point is not None
        return self.at_point(Knows(agent, None)), belief.reflexive_at(self, agent, self.point)

    def _walk(self, f: BDDFunction) -> Iterator[dict[str, int | str]]:
        """The worlds of ``f`` in the order of the key bits (each fixes one world: the rest are functions)."""
        e = self.engine
        stack = [(f, 0)] if f.satisfiable() else []
        while stack:
            g, i = stack.pop()
            if i == len(self.key):
                cube = g.pick_cube()
                assert cube is not None
                row: dict[str, int | str] = {}
                for name, enc in self.variables.items():
                    index = 0
                    for v in enc.bits:
                        index = 2 * index + int(bool(cube[v]))
                    row[name] = enc.domain.show(enc.domain.values[index])
                yield row
                continue
            x = e.var(self.key[i])
            for branch in (g & x, g & ~x):   # popped in reverse: 0 first
                if branch.satisfiable():
                    stack.append((branch, i + 1))

    # -- formulas ------------------------------------------------------------------------------------
    def agent(self, name: str) -> str:
        if name in self.agents:
            return name
        for a in self.agents:
            if fold(a) == fold(name):
                return a
        raise FormulaError(f"unknown agent {name!r}", allowed=list(self.agents))

    def _has(self, name: str) -> bool:
        return name in self.variables or any(fold(k) == fold(name) for k in self.variables)

    def variable(self, name: str) -> Encoded:
        enc = self.variables.get(name)
        if enc is None:
            for k, x in self.variables.items():
                if fold(k) == fold(name):
                    return x
            raise FormulaError(f"unknown variable {name!r}", allowed=list(self.variables))
        return enc

    def truth(self, node: Node | str) -> BDDFunction:
        node = parse(node) if isinstance(node, str) else node
        kind, val = self.value(node)
        if kind != "bool":
            raise FormulaError(f"{to_text(node)!r} is not a condition")
        f: BDDFunction = val
        return f

    def value(self, node: Node) -> tuple[str | Domain, Any]:
        """``("bool", BDD)``, ``("int", Vec)`` or ``(domain, Vec of its index)`` for a named value."""
        key = id(node)
        hit = self._cache.get(key) or self._pure.get(key)
        if hit is not None and hit[0] is node:
            return hit[1], hit[2]
        if isinstance(node, PURE_TYPES):   # the same expression parsed again (another announcement)
            same = self._pure_text.get(node)
            if same is not None:
                self._pure[id(node)] = (node, same[1], same[2])
                return same[1], same[2]
        if expired():
            from ..backends import SolverTimeout
            raise SolverTimeout("the time limit was reached")
        try:
            kind, val = self._value(node)
        except MemoryError:
            raise diagram_limit(self.engine) from None
        if self.engine.pure(node):   # arithmetic depends on the bits only, not the law: kept by updates
            self._pure[id(node)] = self._pure_text[node] = (node, kind, val)
        else:
            self._cache[id(node)] = (node, kind, val)
        return kind, val

    def number(self, node: Node) -> Vec:
        kind, val = self.value(node)
        if kind == "bool":
            return Vec((val, self.engine.false), 0, 1)
        if kind != "int":
            raise FormulaError(f"{to_text(node)!r} is not a number")
        v: Vec = val
        return v

    def _value(self, node: Node) -> tuple[str | Domain, Any]:
        e, ar = self.engine, self.arith
        # a condition is kept inside the law (negation, knowledge: the worlds outside are false): functions of
        # different agents' views, unrelated outside the law, would otherwise multiply their sizes when combined
        if isinstance(node, BoolConst):
            return "bool", self.law if node.value else e.false
        if isinstance(node, Int):
            return "int", ar.const(node.value)
        if isinstance(node, Name):
            enc = self.variable(node.name)
            index = ar.unsigned([e.var(v) for v in enc.bits]) if enc.bits else ar.const(0)
            d = enc.domain
            if d.labels is not None:
                return d, Vec(index.bits, 0, len(d.values) - 1)
            lo, hi = d.values[0], d.values[-1]
            if hi - lo + 1 == len(d.values):
                return "int", Vec(index.bits, lo, hi) if lo == 0 else ar.add(index, ar.const(lo), lo, hi)
            w = width(lo, hi)
            bits = [e.false] * w
            for i, v in enumerate(d.values):
                cond = self.index_is(enc, i)
                for j in range(w):
                    if (v >> j) & 1:
                        bits[j] = bits[j] | cond
            return "int", Vec(tuple(bits), lo, hi)
        if isinstance(node, Str):
            raise FormulaError(f"the name '{node.value}' can only be compared with a variable")
        if isinstance(node, Neg):
            return "int", ar.neg(self.number(node.operand))
        if isinstance(node, Arith):
            k = _power_of_two(node.rest[0]) if node.rest[0][0] == "%" else None
            if k is not None:   # x % 2^k needs x's k lowest bits only (a sum's carries out of them are not made)
                acc = Vec(tuple(self._low(node.first, k)) + (e.false,), 0, (1 << k) - 1)
            else:
                acc = self.number(node.first)
            for op, x in node.rest[1 if k is not None else 0:]:
                y = self.number(x)
                lo, hi = interval(op, (acc.lo, acc.hi), (y.lo, y.hi))
                if op == "+":
                    acc = ar.add(acc, y, lo, hi)
                elif op == "-":
                    acc = ar.add(acc, ar.neg(y), lo, hi)
                elif op == "*":
                    acc = ar.mul(acc, y, lo, hi)
                elif y.lo == y.hi and y.lo > 0 and y.lo & (y.lo - 1) == 0:   # by 2^k: bits, exactly
                    acc = ar.shift(acc, y.lo.bit_length() - 1, op)
                else:
                    if (ar.eq(y, ar.const(0)) & self.law).satisfiable():
                        raise FormulaError(f"division by zero in {to_text(node)!r}")
                    fn = (lambda p, q: p // q) if op == "//" else (lambda p, q: p % q)
                    acc = ar.cases(acc, y, fn, to_text(node))
            return "int", acc
        if isinstance(node, Compare):
            return "bool", self._compare(node)
        if isinstance(node, (And, Or)):
            out = self.truth(node.args[0])
            for arg in node.args[1:]:
                out = (out & self.truth(arg)) if isinstance(node, And) else (out | self.truth(arg))
            return "bool", out
        if isinstance(node, Implies):
            return "bool", self.law & (~self.truth(node.left) | self.truth(node.right))
        if isinstance(node, Not):
            return "bool", self.law & ~self.truth(node.operand)
        if isinstance(node, Knows):
            return "bool", self.law & self._knows([self.agent(node.agent)], node.what)
        if isinstance(node, Distributed):
            return "bool", self.law & self._knows(self.group(node.agents), node.what)
        if isinstance(node, Common):
            return "bool", self.law & self._common(self.group(node.agents), self.truth(node.what))
        if isinstance(node, After):
            told = self.truth(node.announcement)
            return "bool", self.law & (~told | self._after(node.announcement).truth(node.what))
        if isinstance(node, Call):
            if node.func == "count":
                acc = ar.const(0)
                for i, a in enumerate(node.args):
                    acc = ar.add(acc, Vec((self.truth(a), e.false), 0, 1), 0, i + 1)
                return "int", acc
            nums = [self.number(a) for a in node.args]
            if node.func == "abs":
                num = nums[0]
                if num.lo >= 0:
                    return "int", num
                lo = 0 if num.lo <= 0 <= num.hi else min(abs(num.lo), abs(num.hi))
                res = ar.ite(num.bits[-1], ar.neg(num), num)
                return "int", Vec(res.bits, lo, max(abs(num.lo), abs(num.hi)))
            acc = nums[0]
            for y in nums[1:]:
                if node.func == "min":
                    lo, hi = min(acc.lo, y.lo), min(acc.hi, y.hi)
                    acc = replace(ar.ite(ar.lt(y, acc), y, acc), lo=lo, hi=hi)
                else:
                    lo, hi = max(acc.lo, y.lo), max(acc.hi, y.hi)
                    acc = replace(ar.ite(ar.lt(acc, y), y, acc), lo=lo, hi=hi)
            return "int", acc
        raise FormulaError(f"cannot evaluate {to_text(node)!r} symbolically")

    def _low(self, node: Node, k: int) -> list[BDDFunction]:
        """The ``k`` lowest bits of an integer expression's two's complement value (its value modulo ``2^k``),
        sums, differences, products and counts made on ``k`` bits only."""
        e = self.engine
        if k == 0:   # x % 1
            return []
        if isinstance(node, Arith) and all(op in "+-*" for op, _ in node.rest):
            acc = self._low(node.first, k)
            for op, x in node.rest:
                y = self._low(x, k)
                acc = add_low(acc, neg_low(y, e) if op == "-" else y, e) if op in "+-" else mul_low(acc, y, e)
            return acc
        if isinstance(node, Neg):
            return neg_low(self._low(node.operand, k), e)
        if isinstance(node, Call) and node.func == "count":
            acc = [e.false] * k
            for a in node.args:
                acc = add_low(acc, [self.truth(a)] + [e.false] * (k - 1), e)
            return acc
        return list(self.number(node).to(k))

    def _compare(self, node: Compare) -> BDDFunction:
        left, right, op = node.left, node.right, node.op
        if isinstance(left, Str) and not isinstance(right, Str):
            left, right = right, left
            op = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
        lk: str | Domain
        rk: str | Domain
        lk, lv = self.value(left)
        if isinstance(right, Str):
            if not isinstance(lk, Domain):
                raise FormulaError(f"{to_text(left)!r} is not a named value; it cannot equal '{right.value}'")
            try:
                code = lk.code(right.value)
            except PuzzleError as exc:
                raise FormulaError(f"'{right.value}' is not a value of {lk.name!r}", allowed=exc.allowed) from None
            rk, rv = lk, self.arith.const(code)
        else:
            rk, rv = self.value(right)
        if lk == "bool":
            lk, lv = "int", self.number(left)
        if rk == "bool":
            rk, rv = "int", self.number(right)
        if lk != rk:
            raise FormulaError(f"cannot compare {to_text(left)!r} with {to_text(right)!r}")
        ar = self.arith
        if op == "==":
            return ar.eq(lv, rv)
        if op == "!=":
            return ~ar.eq(lv, rv)
        if lk != "int":
            raise FormulaError(f"only == and != compare named values, in {to_text(node)!r}")
        if op == "<":
            return ar.lt(lv, rv)
        if op == ">":
            return ar.lt(rv, lv)
        if op == "<=":
            return ~ar.lt(rv, lv)
        return ~ar.lt(lv, rv)

    def group(self, names: Sequence[str] | None) -> list[str]:
        return list(self.agents) if names is None else list(dict.fromkeys(self.agent(a) for a in names))

    def _unobserved(self, agents: Sequence[str]) -> BDDFunction:
        """The cube of the variables none of ``agents`` observes: the whole vocabulary's (built once per
        structure) with the observed ones quantified away, so an agent observing a few bits costs a few steps."""
        key = frozenset(agents)
        if key not in self._hidden:
            if not key:
                self._hidden[key] = self.engine.cube(self.vocabulary)
            else:
                seen = frozenset().union(*(self.observed.get(a, frozenset()) for a in agents))
                self._hidden[key] = self._unobserved([]).exists(self.engine.cube(list(seen)))
        return self._hidden[key]

    def _knows(self, agents: Sequence[str], what: Node | None) -> BDDFunction:
        """Knows (distributed among ``agents``) that a formula holds, an expression's value, or the world."""
        hidden = self._unobserved(agents)

        def s5_box(f: BDDFunction) -> BDDFunction:   # not oxidd's fused apply_forall: it blew up on gossip-4
            return ~(self.law & ~f).exists(hidden)

        box = belief.box(self, agents) if self.beliefs.keys() & set(agents) else s5_box

        if what is None:
            bits = [self.engine.var(v) for enc in self.variables.values() for v in enc.bits]
        else:
            kind, val = self.value(what)
            if kind == "bool":
                return box(val)
            bits = list(val.bits)
        out = self.law
        for b in dict.fromkeys(bits):   # a value is known when each of its bits is (constant bits always are)
            if b != self.engine.true and b != self.engine.false:
                out = out & (box(b) | box(~b))
        return out

    def _common(self, agents: Sequence[str], holds: BDDFunction) -> BDDFunction:
        """The greatest fixpoint of X = everyone knows (holds and X): true where ``holds`` is true in every
        world reachable in one step or more."""
        x = self.engine.true
        for _ in range(FIXPOINT_LIMIT):
            if expired():
                from ..backends import SolverTimeout
                raise SolverTimeout("the time limit was reached")
            nxt = self.engine.true
            for a in agents:
                nxt = nxt & (belief.box(self, [a])(holds & x) if a in self.beliefs else
                             ~(self.law & ~(holds & x)).exists(self._unobserved([a])))
            if (nxt & self.law) == (x & self.law):
                return nxt
            x = nxt
        raise DiagramLimit(f"common knowledge did not settle in {FIXPOINT_LIMIT:,} rounds")

    # -- updates -------------------------------------------------------------------------------------
    def _after(self, formula: Node) -> SymbolicState:
        """The structure ``after(formula, ...)`` judges in: the last one is kept, so the checks of one
        announcement (``after(a, x)``, ``after(a, y)``...) share its structure and compiled formulas (the steps of
        a run do not keep theirs: a long run's states are dropped as it goes)."""
        if self._told is not None and (self._told[0] is formula or self._told[0] == formula):
            return self._told[1]
        child = self.announce(formula)
        self._told = (formula, child)
        return child

    def announce(self, formula: Node | str) -> SymbolicState:
        """A truthful public announcement: the law conjoined with the formula (evaluated now)."""
        with guard(self.engine):
            f = self.truth(formula)
            child = self.with_changes(law=self.law & f, designated=self.designated & f)
            if self.point is not None:
                if (self.point & f).satisfiable():
                    child.point = self.point & f
                else:
                    child.point, child.point_lost = None, "the actual world was ruled out"
            return child

    def restrict(self, f: BDDFunction) -> SymbolicState:
        return self.with_changes(law=self.law & f, designated=self.designated & f)

    def update(self, action: ActionModel) -> SymbolicState:
        """The action model's knowledge transformer (events told apart by S5 observers, factual change)."""
        with guard(self.engine):
            return symbolic_events.update(self, action)


def _power_of_two(term: tuple[str, Node]) -> int | None:
    """``k`` when the operand is the constant ``2^k``."""
    x = term[1]
    return x.value.bit_length() - 1 if isinstance(x, Int) and x.value > 0 and x.value & (x.value - 1) == 0 else None

