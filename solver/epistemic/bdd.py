"""Decision diagrams for the symbolic engine: the manager (its node capacity from the memory budget) and
exact integer arithmetic on bit vectors of decision diagrams (:class:`Vec`, :class:`Arithmetic`).

Integers are two's complement bit vectors whose width comes from the exact range of the value, so no
operation wraps.  The decision diagrams are bounded by the memory budget (:data:`NODE_BYTES` a node): past it,
:class:`DiagramLimit` (exit 3) says how many nodes were reached.  :mod:`.symbolic` builds knowledge structures
on them.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..derive import NotServed
from ..errors import PuzzleError
from ..formula import Arith, Call, Compare, Int, Name, Neg, Node, Str, children
from ..limits import LimitReached, TooLarge, memory_budget
from .tables import Domain

if TYPE_CHECKING:
    from oxidd.bdd import BDDFunction, BDDManager

PURE_TYPES = (Int, Name, Neg, Arith, Compare, Str, Call)   # and Call only for min, max, abs
NODE_BYTES = 64           # per decision-diagram node: the node, its unique-table slot and the apply cache share
CASES_LIMIT = 1 << 16     # // and % are tabulated over the operands' values up to this many pairs


class NotSymbolic(NotServed):
    """What the puzzle uses has no symbolic form yet (the explicit methods serve it)."""


class DiagramLimit(LimitReached):
    """The decision diagrams outgrew the memory budget (or the time limit stopped a fixpoint)."""



def available() -> bool:
    """Whether the decision-diagram package (oxidd, the ``symbolic`` extra) is installed."""
    try:
        import oxidd.bdd  # noqa: F401
    except ImportError:
        return False
    return True


MANAGER_RESERVE = 1280 << 20   # address space oxidd reserves for a manager of any size (measured 1.1 GB) and headroom
NODE_RESERVE = 96              # ... and per node of capacity, its apply cache included (measured 86 bytes)


def address_room() -> int | None:
    """The address space this process may still reserve (its ``RLIMIT_AS`` less what it uses; None: no limit)."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/statm", encoding="ascii") as fh:
            return soft - int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, OSError, ValueError, IndexError):
        return None


def fits() -> bool:
    """Whether a decision-diagram manager fits the process's address-space limit (``auto`` asks first)."""
    room = address_room()
    return room is None or room >= MANAGER_RESERVE + (NODE_RESERVE << 16)


class BddManager:
    """One decision-diagram manager, its node capacity taken from the memory budget."""

    def __init__(self) -> None:
        try:
            from oxidd.bdd import BDDManager
        except ImportError:
            raise PuzzleError("--method symbolic needs the decision-diagram package oxidd",
                              allowed="pip install 'sleuth[symbolic]' (or oxidd), or --method table / model") \
                from None
        self.capacity = max(1 << 16, min(memory_budget() // NODE_BYTES, (1 << 32) - 1))
        room = address_room()
        if room is not None:   # the package aborts the process when it cannot reserve its address space
            fit = (room - MANAGER_RESERVE) // NODE_RESERVE
            if fit < 1 << 16:
                raise TooLarge(f"the symbolic engine reserves about {MANAGER_RESERVE >> 20:,} MB of address space "
                               f"and the process's limit (ulimit -v) leaves {max(0, room) >> 20:,} MB; raise the "
                               "limit, or use --method table or model")
            self.capacity = min(self.capacity, fit)
        self.mgr: BDDManager = BDDManager(self.capacity, 1 << 20, 1)
        self.true, self.false = self.mgr.true(), self.mgr.false()
        self.names: list[str] = []
        self.primes: dict[int, int] = {}   # a variable's primed copy (belief relations, :mod:`.belief`)
        self._purity: dict[int, tuple[Node, bool]] = {}   # by node identity (the node kept, so the id stays its)

    def pure(self, node: Node) -> bool:
        """Arithmetic and comparisons of the variables only: the same bits in every state of one puzzle run
        (memoised, so a formula's parts are looked at once, not once per enclosing level)."""
        hit = self._purity.get(id(node))
        if hit is not None and hit[0] is node:
            return hit[1]
        ok = isinstance(node, PURE_TYPES) and (not isinstance(node, Call) or node.func in ("min", "max", "abs")) and \
            all(self.pure(c) for c in children(node))
        self._purity[id(node)] = (node, ok)
        return ok

    def fresh(self, names: Sequence[str], after: Sequence[int] = ()) -> list[int]:
        """New variables, one per name: right below the lowest of ``after`` in the order (a defined bit next to
        what defines it keeps the law small), else at the bottom."""
        return self.fresh_groups([(names, after)])[0]

    def fresh_groups(self, groups: Sequence[tuple[Sequence[str], Sequence[int]]]) -> list[list[int]]:
        """:meth:`fresh` for several groups, reordered once."""
        first = self.mgr.num_vars()
        placed = any(after for _, after in groups)   # else every new variable goes at the bottom, in order
        order = [self.mgr.level_to_var(level) for level in range(first)] if placed else []
        level = {v: i for i, v in enumerate(order)}
        slots: dict[int, list[int]] = {}
        out = []
        for names, after in groups:
            start = self.mgr.num_vars()
            self.mgr.add_vars(len(names))
            self.names += list(names)
            new = list(range(start, start + len(names)))
            out.append(new)
            at = max((level[v] for v in after if v in level), default=first - 1) + 1
            slots.setdefault(at, []).extend(new)
        if any(at < first for at in slots):
            merged = []
            for i in range(first + 1):
                merged += slots.get(i, [])
                if i < first:
                    merged.append(order[i])
            self.mgr.set_var_order(merged)
        return out

    def var(self, v: int) -> BDDFunction:
        return self.mgr.var(v)

    def cube(self, variables: Sequence[int]) -> BDDFunction:
        out = self.true
        for v in sorted(variables, key=self.mgr.var_to_level, reverse=True):
            out = out & self.mgr.var(v)
        return out

    def nodes(self) -> int:
        return self.mgr.num_inner_nodes()


@contextlib.contextmanager
def guard(engine: BddManager) -> Iterator[None]:
    """Turn the package's out-of-memory error into :class:`DiagramLimit` (with the size reached)."""
    try:
        yield
    except MemoryError:
        raise diagram_limit(engine) from None


def diagram_limit(engine: BddManager) -> DiagramLimit:
    return DiagramLimit(f"the decision diagrams reached {engine.nodes():,} nodes, the memory budget's "
                        f"{engine.capacity:,} ({NODE_BYTES} bytes each); raise SLEUTH_MEMORY_BUDGET "
                        "or use --method table")


@dataclass(frozen=True)
class Encoded:
    """A puzzle variable in the structure: its domain and its index bits (most significant first)."""

    domain: Domain
    bits: tuple[int, ...]


# -- bit vectors ------------------------------------------------------------------------------------------

def width(lo: int, hi: int) -> int:
    """Bits of the smallest two's complement form holding every integer in ``lo..hi``."""
    w = 1
    while not (-(1 << (w - 1)) <= lo and hi <= (1 << (w - 1)) - 1):
        w += 1
    return w


def index_bits(n: int) -> int:
    """Bits of a log encoding of ``n`` values (0 for a single value)."""
    return max(0, (n - 1).bit_length())


@dataclass(frozen=True)
class Vec:
    """An integer-valued function of the worlds: two's complement bits (least significant first) and the exact
    range of its values."""

    bits: tuple[BDDFunction, ...]
    lo: int
    hi: int

    def to(self, w: int) -> tuple[BDDFunction, ...]:
        """The bits sign-extended or cut to ``w``: arithmetic modulo ``2^w`` is exact for results whose range fits
        in ``w`` bits, which is how every caller picks ``w``."""
        if len(self.bits) >= w:
            return self.bits[:w]
        return self.bits + (self.bits[-1],) * (w - len(self.bits))


class Arithmetic:
    """Exact arithmetic on :class:`Vec`: every result's width comes from its range, so nothing wraps."""

    def __init__(self, engine: BddManager) -> None:
        self.e = engine

    def const(self, value: int) -> Vec:
        w = width(value, value)
        return Vec(tuple(self.e.true if (value >> i) & 1 else self.e.false for i in range(w)), value, value)

    def unsigned(self, bits: Sequence[BDDFunction]) -> Vec:
        """An unsigned number from its bits (most significant first), e.g. a domain index."""
        lsb = tuple(reversed(bits)) + (self.e.false,)
        return Vec(lsb, 0, (1 << len(bits)) - 1)

    def add(self, a: Vec, b: Vec, lo: int, hi: int) -> Vec:
        w = width(lo, hi)
        x, y = a.to(w), b.to(w)
        carry, out = self.e.false, []
        for i in range(w):
            out.append(x[i] ^ y[i] ^ carry)
            carry = (x[i] & y[i]) | (carry & (x[i] ^ y[i]))
        return Vec(tuple(out), lo, hi)

    def neg(self, a: Vec) -> Vec:
        lo, hi = -a.hi, -a.lo
        w = width(lo, hi)
        inverted = Vec(tuple(~b for b in a.to(w)), -a.hi - 1, -a.lo - 1)
        return self.add(inverted, self.const(1), lo, hi)

    def mul(self, a: Vec, b: Vec, lo: int, hi: int) -> Vec:
        if a.lo == a.hi:
            a, b = b, a
        w = width(lo, hi)
        x, y = a.to(w), b.to(w)
        if b.lo == b.hi:   # by a constant: shifted copies of a where the constant's bits are set
            acc = self.const(0)
            for i in range(w):
                if (b.lo >> i) & 1:
                    shifted = Vec((self.e.false,) * i + x[:w - i], -(1 << (w - 1)), (1 << (w - 1)) - 1)
                    acc = self._wrapless(acc, shifted, w)
            return Vec(acc.to(w)[:w], lo, hi)
        acc_bits = [self.e.false] * w
        for i in range(w):   # modulo 2^w: exact, since the true product lies in lo..hi
            carry = self.e.false
            for j in range(i, w):
                term = x[j - i] & y[i]
                s = acc_bits[j] ^ term ^ carry
                carry = (acc_bits[j] & term) | (carry & (acc_bits[j] ^ term))
                acc_bits[j] = s
        return Vec(tuple(acc_bits), lo, hi)

    def _wrapless(self, a: Vec, b: Vec, w: int) -> Vec:
        """``a + b`` modulo ``2^w`` (a partial sum whose final value is in range)."""
        x, y = a.to(w), b.to(w)
        carry, out = self.e.false, []
        for i in range(w):
            out.append(x[i] ^ y[i] ^ carry)
            carry = (x[i] & y[i]) | (carry & (x[i] ^ y[i]))
        return Vec(tuple(out), -(1 << (w - 1)), (1 << (w - 1)) - 1)

    def eq(self, a: Vec, b: Vec) -> BDDFunction:
        if a.hi < b.lo or b.hi < a.lo:
            return self.e.false
        w = max(len(a.bits), len(b.bits))
        out = self.e.true
        for x, y in zip(a.to(w), b.to(w), strict=True):
            out = out & x.equiv(y)
        return out

    def lt(self, a: Vec, b: Vec) -> BDDFunction:
        """``a < b``: the sign of ``a - b`` computed wide enough."""
        if a.hi < b.lo:
            return self.e.true
        if a.lo >= b.hi:
            return self.e.false
        lo, hi = a.lo - b.hi, a.hi - b.lo
        d = self.add(a, self.neg(b), lo, hi)
        return d.bits[-1]

    def ite(self, c: BDDFunction, a: Vec, b: Vec) -> Vec:
        lo, hi = min(a.lo, b.lo), max(a.hi, b.hi)
        w = width(lo, hi)
        return Vec(tuple(c.ite(x, y) for x, y in zip(a.to(w), b.to(w), strict=True)), lo, hi)

    def shift(self, a: Vec, k: int, op: str) -> Vec:
        """``a // 2^k`` (the bits above the k lowest: floor division, as two's complement shifts) or ``a % 2^k``
        (the k lowest bits, never negative)."""
        if op == "//":
            return Vec(a.to(max(len(a.bits), k + 1))[k:], a.lo >> k, a.hi >> k)
        if a.lo >= 0 and a.hi < 1 << k:
            return a
        return Vec(a.to(k) + (self.e.false,), 0, (1 << k) - 1)

    def cases(self, a: Vec, b: Vec, fn: Any, text: str) -> Vec:
        """``fn(a, b)`` tabulated over the operands' values (for ``//`` and ``%``)."""
        pairs = (a.hi - a.lo + 1) * (b.hi - b.lo + 1)
        if pairs > CASES_LIMIT:
            raise NotSymbolic(f"{text!r}: // and % over {pairs:,} pairs of values are not yet symbolic",
                              allowed=f"operand ranges with at most {CASES_LIMIT:,} pairs, or --method table")
        results: dict[int, list[tuple[int, int]]] = {}
        for x in range(a.lo, a.hi + 1):
            for y in range(b.lo, b.hi + 1):
                if y != 0:
                    results.setdefault(fn(x, y), []).append((x, y))
        lo, hi = (min(results), max(results)) if results else (0, 0)
        w = width(lo, hi)
        out = [self.e.false] * w
        for value, where in results.items():
            cond = self.e.false
            for x, y in where:
                cond = cond | (self.eq(a, self.const(x)) & self.eq(b, self.const(y)))
            for i in range(w):
                if (value >> i) & 1:
                    out[i] = out[i] | cond
        return Vec(tuple(out), lo, hi)



def add_low(x: Sequence[BDDFunction], y: Sequence[BDDFunction], e: BddManager) -> list[BDDFunction]:
    """``x + y`` modulo ``2^len(x)`` (the carry out of the top bit dropped)."""
    carry, out = e.false, []
    for i, (a, b) in enumerate(zip(x, y, strict=True)):
        half = a ^ b
        out.append(half if i == 0 else half ^ carry)
        if i + 1 < len(x):
            carry = (a & b) if i == 0 else (a & b) | (carry & half)
    return out


def neg_low(x: Sequence[BDDFunction], e: BddManager) -> list[BDDFunction]:
    one = [e.true] + [e.false] * (len(x) - 1)
    return add_low([~b for b in x], one, e) if x else []


def mul_low(x: Sequence[BDDFunction], y: Sequence[BDDFunction], e: BddManager) -> list[BDDFunction]:
    acc = [e.false] * len(x)
    for i, b in enumerate(y):   # shifted copies of x where y's bits are set
        acc = add_low(acc, [e.false] * i + [a & b for a in x[:len(x) - i]], e)
    return acc


def eval_cube(f: BDDFunction, cube: Sequence[bool | None]) -> bool:
    return bool(f.eval([(v, bool(b)) for v, b in enumerate(cube)]))
