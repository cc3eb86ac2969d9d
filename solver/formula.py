"""The formula language of epistemic puzzles: parsed by hand, type-checked, never eval'd.

Grammar (lowest precedence first)::

    formula  := or ( ("implies" | "->") formula )?          # right-associative
    or       := and ( "or" and )*
    and      := not ( "and" not )*
    not      := "not" not | compare
    compare  := sum ( ("==" | "!=" | "<" | "<=" | ">" | ">=") sum )?
    sum      := term ( ("+" | "-") term )*
    term     := unary ( ("*" | "//" | "%") unary )*
    unary    := "-" unary | atom
    atom     := INTEGER | STRING | "true" | "false" | NAME | NAME "(" args ")" | "(" formula ")"

Functions: ``knows(agent)`` (the agent knows the whole world), ``knows(agent, formula)`` (knows that it
holds), ``knows(agent, expression)`` (knows its value, e.g. ``knows(c1, m1)``: child 1 knows whether it is
muddy), ``believes(...)`` (the same operator, read as belief once private events exist),
``common(group, formula)`` and ``distributed(group, formula)`` (common / distributed knowledge of a group,
written ``[a, b]`` or ``all``), ``after(f, g)`` (``[!f]g``: after a truthful public announcement of *f*, *g*
holds; true where *f* is false), ``min(a, b, ...)``, ``max(a, b, ...)``, ``abs(a)``, ``count(f1, f2, ...)``
(how many hold).
Strings (``'July'``) compare with variables whose domain is a list of names.

>>> f = parse("x+y <= 100 and not knows(P)")
>>> to_text(f)
'((x + y) <= 100) and (not knows(P))'
>>> parse(to_text(f)) == f
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import PuzzleError


class FormulaError(PuzzleError):
    """A formula that does not parse or does not type-check; the message quotes it and the column."""


# -- syntax tree --------------------------------------------------------------------------------------

class Node:
    pass


@dataclass(frozen=True)
class Int(Node):
    value: int


@dataclass(frozen=True)
class Str(Node):
    value: str


@dataclass(frozen=True)
class BoolConst(Node):
    value: bool


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Arith(Node):
    left: Node
    op: str
    right: Node


@dataclass(frozen=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True)
class Compare(Node):
    left: Node
    op: str
    right: Node


@dataclass(frozen=True)
class And(Node):
    left: Node
    right: Node


@dataclass(frozen=True)
class Or(Node):
    left: Node
    right: Node


@dataclass(frozen=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True)
class Implies(Node):
    left: Node
    right: Node


@dataclass(frozen=True)
class Knows(Node):
    agent: str
    what: Node | None  # None: the whole world


@dataclass(frozen=True)
class Common(Node):
    agents: tuple[str, ...] | None  # None: every agent
    what: Node


@dataclass(frozen=True)
class Distributed(Node):
    agents: tuple[str, ...] | None
    what: Node


@dataclass(frozen=True)
class After(Node):
    """``[!announcement] what``: box semantics of a truthful public announcement."""

    announcement: Node
    what: Node


@dataclass(frozen=True)
class Call(Node):
    func: str
    args: tuple[Node, ...]


FUNCTIONS = ("knows", "believes", "common", "distributed", "after", "min", "max", "abs", "count")
EPISTEMIC = (Knows, Common, Distributed, After)

# -- tokens -------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<int>\d+)
  | (?P<str>'[^']*'|"[^"]*")
  | (?P<op>->|==|!=|<=|>=|//|[<>+\-*%(),\[\]])
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
""", re.VERBOSE)

_KEYWORDS = {"and", "or", "not", "implies", "true", "false"}
MAX_INT = 10 ** 15


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    col: int


def _tokens(text: str) -> list[_Tok]:
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise FormulaError(f"unexpected character {text[pos]!r} at column {pos + 1} in {text!r}",
                               allowed="names, integers, 'strings', + - * // %, comparisons, and/or/not/implies,"
                                       " [ ] for groups, knows/common/distributed/after(...), min/max/abs/count(...)")
        kind = m.lastgroup or ""
        if kind != "space":
            word = m.group()
            if kind == "name" and word.lower() in _KEYWORDS:
                kind, word = "kw", word.lower()
            out.append(_Tok(kind, word, pos + 1))
        pos = m.end()
    out.append(_Tok("end", "", len(text) + 1))
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> _Tok:
        return self.toks[self.i]

    def take(self) -> _Tok:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def at(self, *texts: str) -> bool:
        tok = self.peek()
        return tok.kind in ("op", "kw") and tok.text in texts

    def expect(self, text: str) -> None:
        if not self.at(text):
            self.fail(f"expected {text!r}")
        self.take()

    def fail(self, message: str) -> None:
        tok = self.peek()
        found = "the end" if tok.kind == "end" else repr(tok.text)
        raise FormulaError(f"{message} at column {tok.col} (found {found}) in {self.text!r}")

    def parse(self) -> Node:
        node = self.formula()
        if self.peek().kind != "end":
            self.fail("unexpected text")
        return node

    def formula(self) -> Node:
        left = self.or_()
        if self.at("implies", "->"):
            self.take()
            return Implies(left, self.formula())
        return left

    def or_(self) -> Node:
        node = self.and_()
        while self.at("or"):
            self.take()
            node = Or(node, self.and_())
        return node

    def and_(self) -> Node:
        node = self.not_()
        while self.at("and"):
            self.take()
            node = And(node, self.not_())
        return node

    def not_(self) -> Node:
        if self.at("not"):
            self.take()
            return Not(self.not_())
        return self.compare()

    def compare(self) -> Node:
        left = self.sum()
        if self.at("==", "!=", "<", "<=", ">", ">="):
            op = self.take().text
            right = self.sum()
            if self.at("==", "!=", "<", "<=", ">", ">="):
                self.fail("comparisons do not chain; use 'and'")
            return Compare(left, op, right)
        return left

    def sum(self) -> Node:
        node = self.term()
        while self.at("+", "-"):
            op = self.take().text
            node = Arith(node, op, self.term())
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.at("*", "//", "%"):
            op = self.take().text
            node = Arith(node, op, self.unary())
        return node

    def unary(self) -> Node:
        if self.at("-"):
            self.take()
            return Neg(self.unary())
        return self.atom()

    def atom(self) -> Node:
        tok = self.peek()
        if tok.kind == "int":
            self.take()
            value = int(tok.text)
            if value > MAX_INT:
                self.fail(f"integer larger than {MAX_INT}")
            return Int(value)
        if tok.kind == "str":
            self.take()
            return Str(tok.text[1:-1])
        if tok.kind == "kw" and tok.text in ("true", "false"):
            self.take()
            return BoolConst(tok.text == "true")
        if self.at("("):
            self.take()
            node = self.formula()
            self.expect(")")
            return node
        if tok.kind == "name":
            self.take()
            if not self.at("("):
                return Name(tok.text)
            func = tok.text.lower()
            if func not in FUNCTIONS:
                raise FormulaError(f"unknown function {tok.text!r} at column {tok.col} in {self.text!r}",
                                   allowed=", ".join(FUNCTIONS))
            self.take()
            if func in ("common", "distributed"):
                group = self.group()
                self.expect(",")
                what = self.formula()
                self.expect(")")
                return (Common if func == "common" else Distributed)(group, what)
            if func in ("knows", "believes"):
                agent = self.take()
                if agent.kind != "name":
                    self.i -= 1
                    self.fail("knows() takes an agent name first")
                what = None
                if self.at(","):
                    self.take()
                    what = self.formula()
                self.expect(")")
                return Knows(agent.text, what)
            args = [self.formula()]
            while self.at(","):
                self.take()
                args.append(self.formula())
            self.expect(")")
            if func == "abs" and len(args) != 1:
                self.fail("abs() takes one argument")
            if func == "after":
                if len(args) != 2:
                    self.fail("after() takes an announcement and a formula")
                return After(args[0], args[1])
            return Call(func, tuple(args))
        self.fail("expected a value, a name or '('")
        raise AssertionError  # pragma: no cover


    def group(self) -> tuple[str, ...] | None:
        """``all`` or ``[a, b, ...]``: the agents of common / distributed knowledge."""
        if self.peek().kind == "name" and self.peek().text.lower() == "all":
            self.take()
            return None
        self.expect("[")
        names: list[str] = []
        while not self.at("]"):
            if names:
                self.expect(",")
            tok = self.take()
            if tok.kind != "name":
                self.i -= 1
                self.fail("a group lists agent names")
            names.append(tok.text)
        self.take()
        if not names:
            self.fail("a group needs at least one agent")
        return tuple(names)


def parse(text: str) -> Node:
    """Parse a formula or expression; raises :class:`FormulaError` quoting the text and the column."""
    if not isinstance(text, str) or not text.strip():
        raise FormulaError("empty formula")
    return _Parser(text).parse()


def names_in(node: Node) -> set[str]:
    """Variable names a formula mentions (agents in ``knows`` are not variables)."""
    if isinstance(node, Name):
        return {node.name}
    out: set[str] = set()
    for value in vars(node).values():
        if isinstance(value, Node):
            out |= names_in(value)
        elif isinstance(value, tuple):
            for v in value:
                if isinstance(v, Node):
                    out |= names_in(v)
    return out


def is_epistemic(node: Node) -> bool:
    if isinstance(node, EPISTEMIC):
        return True
    return any(is_epistemic(v) for v in vars(node).values() if isinstance(v, Node)) or any(
        is_epistemic(x) for v in vars(node).values() if isinstance(v, tuple) for x in v if isinstance(x, Node))


def to_text(node: Node) -> str:
    """Fully parenthesised text that parses back to the same tree."""
    if isinstance(node, Int):
        return str(node.value)
    if isinstance(node, Str):
        return f"'{node.value}'"
    if isinstance(node, BoolConst):
        return "true" if node.value else "false"
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Neg):
        return f"-({to_text(node.operand)})"
    if isinstance(node, Not):
        return f"not {_wrap(node.operand)}"
    if isinstance(node, (Arith, Compare)):
        return f"{_wrap(node.left)} {node.op} {_wrap(node.right)}"
    if isinstance(node, (And, Or, Implies)):
        op = {And: "and", Or: "or", Implies: "implies"}[type(node)]
        return f"{_wrap(node.left)} {op} {_wrap(node.right)}"
    if isinstance(node, Knows):
        return f"knows({node.agent})" if node.what is None else f"knows({node.agent}, {to_text(node.what)})"
    if isinstance(node, (Common, Distributed)):
        group = "all" if node.agents is None else f"[{', '.join(node.agents)}]"
        return f"{type(node).__name__.lower()}({group}, {to_text(node.what)})"
    if isinstance(node, After):
        return f"after({to_text(node.announcement)}, {to_text(node.what)})"
    if isinstance(node, Call):
        return f"{node.func}({', '.join(to_text(a) for a in node.args)})"
    raise TypeError(node)


def _wrap(node: Node) -> str:
    text = to_text(node)
    return text if isinstance(node, (Int, Str, BoolConst, Name, Call) + EPISTEMIC) else f"({text})"
