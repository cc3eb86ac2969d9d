"""The question language: parsing, the catalogue, and the two compilations (CP-SAT and numpy).

A question's *meaning* is an integer expression over the cards the moderator sees (see docs/egghead.md, "How it works"):

    expr     := sum of terms with + and -, optionally compared:  a < b, a <= b, a == b, a != b, a >= b, a > b
                (a comparison answers 1 for yes, 0 for no)
    term     := INT | INT * atom | atom | ( expr )
    atom     := count(SET)      cards whose value is in SET
              | sum | sum(SET)  sum of the card values (in SET)
              | present(SET)    values of SET shown on at least one card
              | absent(SET)     values of SET shown on no card
              | highest | lowest   highest / lowest value shown
              | players(PRED)   players whose hand satisfies PRED
    SET      := ITEM {, ITEM}   ITEM: INT | INT..INT | all | even | odd | high (> values/2) | low (<= values/2)
                                (V stands for the number of values: 4..V)
    PRED     := PRED or PRED | PRED and PRED | not PRED | ( PRED )
              | pair | triple | run | distinct | has(SET) | only(SET)
              | HEXPR CMP INT   HEXPR: hsum | hcount(SET) | hmin | hmax

``pair``: two or more equal cards; ``triple``: three or more equal cards; ``run``: all cards different and
consecutive (3 4 5); ``distinct``: all cards different; ``has(S)``: some card in S; ``only(S)``: every card
in S.  The text is parsed by this module, never evaluated as Python.

Each question compiles (a) to linear CP-SAT constraints on a :class:`solver.model.Model` whose hands are
sorted integer variables, and (b) to a numpy evaluation: every atom is either *additive* (a per-hand
integer summed over the visible players) or *presence-based* (a function of the bitmask of values shown),
so the answer is a function of a few aggregates, which the master table exploits (see ``tables.py``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import numpy as np

from sleuth.errors import InternalError, PuzzleError
from sleuth.resources import data_file
from sleuth.model import Clause, Linear, LinearExpr, Lit, Model, Var, as_expr

from .hands import Setup

CATALOGUE = data_file("egghead", "questions.toml")  # shipped inside the package

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(\.\.|<=|>=|==|!=|[-+*(),<>]))")
_CMP = ("<", "<=", ">", ">=", "==", "!=")


class QuestionSyntaxError(PuzzleError):
    pass


# -- AST --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Num:
    value: int


@dataclass(frozen=True)
class Additive:
    """Sum over visible players of a per-hand integer: ``count``, ``sum`` or ``players``."""

    kind: str               # count | sum | players
    values: frozenset[int] = frozenset()
    pred: Any = None


@dataclass(frozen=True)
class Presence:
    kind: str               # present | absent | highest | lowest
    values: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Arith:
    op: str                 # + - *  (for *, left is a Num)
    left: Any
    right: Any


@dataclass(frozen=True)
class Compare:
    op: str
    left: Any
    right: Any


@dataclass(frozen=True)
class HandPred:
    kind: str               # pair triple run distinct has only cmp not and or
    values: frozenset[int] = frozenset()
    args: tuple[Any, ...] = ()
    op: str = ""
    bound: int = 0
    hexpr: str = ""         # hsum | hcount | hmin | hmax


# -- parser -----------------------------------------------------------------------------------------

class _Parser:
    def __init__(self, text: str, values: int) -> None:
        self.text, self.values = text, values
        self.tokens: list[str] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                if text[pos:].strip() == "":
                    break
                raise self.error(f"unexpected character {text[pos:].strip()[0]!r}")
            self.tokens.append(m.group(m.lastindex or 0))
            pos = m.end()
        self.i = 0

    def error(self, msg: str) -> QuestionSyntaxError:
        return QuestionSyntaxError(f"{msg} in {self.text!r}")

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, expect: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expect is not None and tok != expect):
            raise self.error(f"expected {expect or 'more'}, found {tok or 'the end'}")
        self.i += 1
        return tok

    def done(self) -> None:
        if self.peek() is not None:
            raise self.error(f"unexpected {self.peek()!r}")

    # expressions
    def expr(self) -> Any:
        left = self.linear()
        if self.peek() in _CMP:
            op = self.take()
            return Compare(op, left, self.linear())
        return left

    def linear(self) -> Any:
        node = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            node = Arith(op, node, self.term())
        return node

    def term(self) -> Any:
        tok = self.peek()
        if tok == "-":
            self.take()
            return Arith("*", Num(-1), self.term())
        if tok is not None and tok.isdigit():
            k = int(self.take())
            if self.peek() == "*":
                self.take()
                return Arith("*", Num(k), self.term())
            return Num(k)
        if tok == "(":
            self.take()
            node = self.expr()
            self.take(")")
            return node
        name = self.take()
        if name in ("count", "present", "absent"):
            s = self.paren_set()
            return Additive("count", s) if name == "count" else Presence(name, s)
        if name == "sum":
            if self.peek() == "(":
                return Additive("sum", self.paren_set())
            return Additive("sum", frozenset(range(1, self.values + 1)))
        if name in ("highest", "lowest"):
            return Presence(name)
        if name == "players":
            self.take("(")
            pred = self.pred()
            self.take(")")
            return Additive("players", pred=pred)
        raise self.error(f"unknown word {name!r} (allowed: count, sum, present, absent, highest, lowest, players)")

    # value sets
    def paren_set(self) -> frozenset[int]:
        self.take("(")
        s = self.value_set()
        self.take(")")
        return s

    def bound(self) -> int:
        tok = self.take()
        if tok == "V":
            return self.values
        if not tok.isdigit():
            raise self.error(f"expected a value, found {tok!r}")
        return int(tok)

    def value_set(self) -> frozenset[int]:
        out: set[int] = set()
        while True:
            tok = self.peek()
            named = {"all": range(1, self.values + 1),
                     "even": range(2, self.values + 1, 2), "odd": range(1, self.values + 1, 2),
                     "high": [v for v in range(1, self.values + 1) if 2 * v > self.values],
                     "low": [v for v in range(1, self.values + 1) if 2 * v <= self.values]}
            if tok in named:
                self.take()
                out.update(named[tok])
            else:
                lo = self.bound()
                hi = lo
                if self.peek() == "..":
                    self.take()
                    hi = self.bound()
                out.update(range(lo, hi + 1))
            if self.peek() != ",":
                return frozenset(v for v in out if 1 <= v <= self.values)
            self.take(",")

    # hand predicates
    def pred(self) -> HandPred:
        node = self.pred_and()
        while self.peek() == "or":
            self.take()
            node = HandPred("or", args=(node, self.pred_and()))
        return node

    def pred_and(self) -> HandPred:
        node = self.pred_factor()
        while self.peek() == "and":
            self.take()
            node = HandPred("and", args=(node, self.pred_factor()))
        return node

    def pred_factor(self) -> HandPred:
        tok = self.take()
        if tok == "not":
            return HandPred("not", args=(self.pred_factor(),))
        if tok == "(":
            node = self.pred()
            self.take(")")
            return node
        if tok in ("pair", "triple", "run", "distinct"):
            return HandPred(tok)
        if tok in ("has", "only"):
            return HandPred(tok, self.paren_set())
        if tok in ("hsum", "hcount", "hmin", "hmax"):
            values = self.paren_set() if tok == "hcount" else frozenset()
            op = self.take()
            if op not in _CMP:
                raise self.error(f"expected a comparison after {tok}, found {op!r}")
            neg = self.peek() == "-"
            if neg:
                self.take()
            bound = self.take()
            if not bound.isdigit():
                raise self.error(f"expected a number, found {bound!r}")
            return HandPred("cmp", values, op=op, bound=-int(bound) if neg else int(bound), hexpr=tok)
        raise self.error(f"unknown hand property {tok!r} (allowed: pair, triple, run, distinct, has, only, "
                         "hsum, hcount, hmin, hmax, not)")


def parse(text: str, values: int) -> Any:
    """The AST of a question meaning, for cards ``1..values``."""
    p = _Parser(text, values)
    node = p.expr()
    p.done()
    return node


# -- numpy compilation ------------------------------------------------------------------------------

_NP_CMP: dict[str, Callable[[np.ndarray, Any], np.ndarray]] = {
    "<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal, "==": np.equal,
    "!=": np.not_equal}


def _pred_np(pred: HandPred, setup: Setup) -> np.ndarray:
    """Boolean per hand."""
    counts = setup.counts
    hands = np.array(setup.hands, dtype=np.int64).reshape(setup.n_hands, setup.hand_size)
    top = counts.max(axis=1)
    sel = lambda s: counts[:, [v - 1 for v in sorted(s)]].sum(axis=1)  # noqa: E731
    k = pred.kind
    if k == "pair":
        return top >= 2
    if k == "triple":
        return top >= 3
    if k == "distinct":
        return top == 1
    if k == "run":
        return (top == 1) & (hands[:, -1] - hands[:, 0] == setup.hand_size - 1)
    if k == "has":
        return sel(pred.values) > 0
    if k == "only":
        return sel(pred.values) == setup.hand_size
    if k == "cmp":
        value = {"hsum": lambda: hands.sum(axis=1), "hcount": lambda: sel(pred.values),
                 "hmin": lambda: hands[:, 0], "hmax": lambda: hands[:, -1]}[pred.hexpr]()
        return _NP_CMP[pred.op](value, pred.bound)
    if k == "not":
        return ~_pred_np(pred.args[0], setup)
    if k == "and":
        return _pred_np(pred.args[0], setup) & _pred_np(pred.args[1], setup)
    if k == "or":
        return _pred_np(pred.args[0], setup) | _pred_np(pred.args[1], setup)
    raise InternalError(f"unknown hand predicate {k!r}")


def _bits(values: frozenset[int]) -> int:
    return sum(1 << (v - 1) for v in values)


@dataclass
class CompiledQuestion:
    """A question compiled for one setup: per-hand leaf tables and an evaluator over aggregates."""

    qid: str
    text: str
    meaning: str
    setup: Setup
    ast: Any
    leaves: list[Additive] = field(default_factory=list)
    hand_values: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    uses_presence: bool = False

    def __post_init__(self) -> None:
        self._collect(self.ast)
        h = self.setup
        rows = []
        for leaf in self.leaves:
            if leaf.kind == "count":
                rows.append(h.counts[:, [v - 1 for v in sorted(leaf.values)]].sum(axis=1))
            elif leaf.kind == "sum":
                weights = np.array([v if v in leaf.values else 0 for v in range(1, h.values + 1)])
                rows.append(h.counts @ weights)
            else:
                rows.append(_pred_np(leaf.pred, h).astype(np.int64))
        self.hand_values = np.array(rows, dtype=np.int64).reshape(len(self.leaves), h.n_hands)
        masks = np.arange(1 << h.values)
        self._popcount = np.bitwise_count(masks.astype(np.uint64)).astype(np.int64)
        self._highest = np.array([int(m).bit_length() for m in masks], dtype=np.int64)
        self._lowest = np.array([(int(m) & -int(m)).bit_length() for m in masks], dtype=np.int64)

    def _collect(self, node: Any) -> None:
        if isinstance(node, Additive):
            if node not in self.leaves:
                self.leaves.append(node)
        elif isinstance(node, Presence):
            self.uses_presence = True
        elif isinstance(node, (Arith, Compare)):
            self._collect(node.left)
            self._collect(node.right)

    # -- evaluation over aggregates ----------------------------------------------------------------
    def evaluate(self, sums: Sequence[np.ndarray | np.int64], mask: np.ndarray | np.int64) -> np.ndarray:
        """The answer from the leaf sums (in ``self.leaves`` order) and the mask of values shown."""
        return np.asarray(self._eval(self.ast, sums, mask))

    def _eval(self, node: Any, sums: Sequence[np.ndarray | np.int64], mask: np.ndarray | np.int64) -> Any:
        if isinstance(node, Num):
            return node.value
        if isinstance(node, Additive):
            return sums[self.leaves.index(node)]
        if isinstance(node, Presence):
            if node.kind == "present":
                return self._popcount[mask & _bits(node.values)]
            if node.kind == "absent":
                return len(node.values) - self._popcount[mask & _bits(node.values)]
            return (self._highest if node.kind == "highest" else self._lowest)[mask]
        if isinstance(node, Arith):
            a, b = self._eval(node.left, sums, mask), self._eval(node.right, sums, mask)
            return a + b if node.op == "+" else a - b if node.op == "-" else a * b
        if isinstance(node, Compare):
            a, b = self._eval(node.left, sums, mask), self._eval(node.right, sums, mask)
            return _NP_CMP[node.op](a, b).astype(np.int64)
        raise InternalError(f"unknown question node {node!r}")

    def answers_all(self, visible: Sequence[bool]) -> np.ndarray:
        """The answer in every world: an array of shape ``(n_hands,) * players`` (broadcasting)."""
        n, hs = self.setup.players, self.setup.n_hands
        sums: list[Any] = [np.zeros((1,) * n, dtype=np.int64) for _ in self.leaves]
        mask: Any = np.zeros((1,) * n, dtype=np.int64)
        for p in range(n):
            if not visible[p]:
                continue
            shape = [1] * n
            shape[p] = hs
            for i in range(len(self.leaves)):
                sums[i] = sums[i] + self.hand_values[i].reshape(shape)
            mask = mask | self.setup.value_masks.reshape(shape)
        out = self.evaluate(sums, mask)
        return np.broadcast_to(out, (hs,) * n)

    def answer(self, world: Sequence[int], visible: Sequence[bool]) -> int:
        """The answer in one world (hand indices)."""
        sums = [np.int64(sum(int(self.hand_values[i, w]) for w, v in zip(world, visible, strict=False) if v))
                for i in range(len(self.leaves))]
        mask = np.int64(0)
        for w, v in zip(world, visible, strict=False):
            if v:
                mask |= self.setup.value_masks[w]
        return int(self.evaluate(sums, mask))

    # -- CP-SAT compilation --------------------------------------------------------------------------
    def cpsat(self, model: Model, hands: Sequence[Sequence[Var]]) -> LinearExpr:
        """A linear expression equal to the answer over the visible ``hands`` (sorted value variables)."""
        return _CpCompiler(model, hands, self.setup.values).expr(self.ast)


class _CpCompiler:
    def __init__(self, model: Model, hands: Sequence[Sequence[Var]], values: int) -> None:
        self.m, self.hands, self.values = model, hands, values
        self._presence: list[Lit] | None = None

    def const(self, value: bool) -> Lit:
        b = self.m.bool_var(f"const:{int(value)}", aux=True)
        with self.m.unguarded():
            self.m.add(b.expr() == int(value))
        return b.lit()

    def any_of(self, lits: Sequence[Lit]) -> Lit:
        return self.m.reify(Clause(tuple(lits))) if lits else self.const(False)

    def all_of(self, lits: Sequence[Lit]) -> Lit:
        return self.m.reify(Clause(tuple(lits), all_of=True)) if lits else self.const(True)

    def ind(self, x: Var, v: int) -> Lit:
        return self.m.indicator(x, v)

    def in_set(self, x: Var, values: frozenset[int]) -> LinearExpr:
        return LinearExpr.sum_of(self.ind(x, v) for v in sorted(values))

    def presence(self) -> list[Lit]:
        if self._presence is None:
            self._presence = [self.any_of([self.ind(x, v) for hand in self.hands for x in hand])
                              for v in range(1, self.values + 1)]
        return self._presence

    def expr(self, node: Any) -> LinearExpr:
        if isinstance(node, Num):
            return as_expr(node.value)
        if isinstance(node, Arith):
            if node.op == "*":
                return self.expr(node.right) * node.left.value
            a, b = self.expr(node.left), self.expr(node.right)
            return a + b if node.op == "+" else a - b
        if isinstance(node, Compare):
            diff = self.expr(node.left) - self.expr(node.right)
            return as_expr(self.m.reify(_compare(diff, node.op, 0)))
        if isinstance(node, Additive):
            if node.kind == "count":
                return LinearExpr.sum_of(self.in_set(x, node.values) for hand in self.hands for x in hand)
            if node.kind == "sum":
                return LinearExpr.sum_of(as_expr(self.ind(x, v)) * v for hand in self.hands for x in hand
                                      for v in sorted(node.values))
            return LinearExpr.sum_of(self.pred(node.pred, hand) for hand in self.hands)
        if isinstance(node, Presence):
            pres = self.presence()
            if node.kind in ("present", "absent"):
                shown = LinearExpr.sum_of(pres[v - 1] for v in sorted(node.values))
                return shown if node.kind == "present" else len(node.values) - shown
            tops = []
            for v in range(1, self.values + 1):
                others = pres[v:] if node.kind == "highest" else pres[:v - 1]
                tops.append(as_expr(self.all_of([pres[v - 1], *(~p for p in others)])) * v)
            return LinearExpr.sum_of(tops)
        raise InternalError(f"unknown question node {node!r}")

    def pred(self, p: HandPred, hand: Sequence[Var]) -> Lit:
        k, h = p.kind, len(hand)
        if k == "pair":
            return self.any_of([self.m.reify(hand[j] == hand[j + 1]) for j in range(h - 1)])
        if k == "triple":
            return self.any_of([self.m.reify(hand[j] == hand[j + 2]) for j in range(h - 2)])
        if k == "distinct":
            return self.all_of([self.m.reify(hand[j] != hand[j + 1]) for j in range(h - 1)])
        if k == "run":
            return self.all_of([self.m.reify(hand[j + 1] - hand[j] == 1) for j in range(h - 1)])
        if k == "has":
            return self.any_of([self.ind(x, v) for x in hand for v in sorted(p.values)])
        if k == "only":
            return self.all_of([self.any_of([self.ind(x, v) for v in sorted(p.values)]) for x in hand])
        if k == "cmp":
            value = {"hsum": lambda: LinearExpr.sum_of(hand), "hmin": lambda: hand[0].expr(),
                     "hmax": lambda: hand[-1].expr(),
                     "hcount": lambda: LinearExpr.sum_of(self.in_set(x, p.values) for x in hand)}[p.hexpr]()
            return self.m.reify(_compare(value, p.op, p.bound))
        if k == "not":
            return ~self.pred(p.args[0], hand)
        parts = [self.pred(a, hand) for a in p.args]
        return self.all_of(parts) if k == "and" else self.any_of(parts)


def _compare(expr: LinearExpr, op: str, rhs: int) -> Linear:
    return {"<": expr < rhs, "<=": expr <= rhs, ">": expr > rhs, ">=": expr >= rhs,
            "==": expr == rhs, "!=": expr != rhs}[op]


def hand_variables(model: Model, setup: Setup, name: str) -> list[Var]:
    """``hand_size`` sorted value variables for one player's hand."""
    xs = [model.int_var(1, setup.values, f"{name}[{j}]") for j in range(setup.hand_size)]
    with model.unguarded():
        for a, b in zip(xs, xs[1:], strict=False):
            model.add(a <= b)
    return xs


# -- the catalogue ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class QuestionDef:
    """One catalogue entry: id, wording and meaning (in the question language)."""

    qid: str
    text: str
    meaning: str

    def compile_for(self, setup: Setup) -> CompiledQuestion:
        """The question ready to answer for one setup (values, hand size, players)."""
        return CompiledQuestion(self.qid, self.text, self.meaning, setup, parse(self.meaning, setup.values))



def load_catalogue(values: int, path: str | Path | Traversable | None = None) -> list[QuestionDef]:
    """The catalogue for cards ``1..values`` (entries with ``each_value`` expand to one per value)."""
    file = Path(path) if isinstance(path, str) else (path if path is not None else CATALOGUE)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PuzzleError(f"cannot read the question catalogue ({exc})", file=str(file)) from None
    out: list[QuestionDef] = []
    for i, entry in enumerate(data.get("question", [])):
        place = f"question[{i + 1}]"
        try:
            qid, text, meaning = entry["id"], entry["text"], entry["meaning"]
        except KeyError as exc:
            raise PuzzleError(f"missing key {exc.args[0]!r}", file=str(file), place=place,
                              allowed="id, text, meaning, each_value") from None
        for v in (range(1, values + 1) if entry.get("each_value", False) else [None]):
            def fill(s: str, v: int | None = v) -> str:
                return s if v is None else s.replace("{v}", str(v))
            q = QuestionDef(fill(qid), fill(text), fill(meaning))
            try:
                parse(q.meaning, values)
            except QuestionSyntaxError as exc:
                raise PuzzleError(exc.message, file=str(file), place=f"{place}.meaning") from None
            out.append(q)
    ids = [q.qid for q in out]
    if len(set(ids)) != len(ids):
        raise PuzzleError("duplicate question ids", file=str(file))
    return out


def catalogue_help() -> list[str]:
    """The question catalogue, for ``sleuth games egghead``."""
    return ["", "questions (values = 6):"] + [f"  {q.qid:<12} {q.text}" for q in load_catalogue(6)]
