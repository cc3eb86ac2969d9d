"""The formula language's syntax tree (:mod:`sleuth.formula` parses text into it): the nodes, walking them,
printing them back as text that parses to the same tree, rebuilding and renaming them.

>>> to_text(And((Name("x"), Not(Knows("P", None)))))
'x and (not knows(P))'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
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
    """``first op1 x1 op2 x2 ...`` evaluated left to right; the operators are all ``+``/``-`` or all
    ``*``/``//``/``%`` (one precedence level)."""

    first: Node
    rest: tuple[tuple[str, Node], ...]

    def operands(self) -> tuple[Node, ...]:
        return (self.first, *(x for _, x in self.rest))


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
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Or(Node):
    args: tuple[Node, ...]


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
class Atom(Node):
    """A game's statement inside a claim (``Bob holds Rope``), as written; the game reads it."""

    text: str


@dataclass(frozen=True)
class Call(Node):
    func: str
    args: tuple[Node, ...]


FUNCTIONS = ("knows", "believes", "common", "distributed", "after", "min", "max", "abs", "count")
EPISTEMIC = (Knows, Common, Distributed, After)

def children(node: Node) -> tuple[Node, ...]:
    """The direct sub-formulas of a node."""
    if isinstance(node, Arith):
        return node.operands()
    if isinstance(node, (And, Or, Call)):
        return node.args
    if isinstance(node, (Neg, Not)):
        return (node.operand,)
    if isinstance(node, (Compare, Implies)):
        return (node.left, node.right)
    if isinstance(node, Knows):
        return () if node.what is None else (node.what,)
    if isinstance(node, (Common, Distributed)):
        return (node.what,)
    if isinstance(node, After):
        return (node.announcement, node.what)
    return ()


def walk(node: Node) -> list[Node]:
    """Every node of the tree (iteratively, parents before children)."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(children(n)))
    return out


KEYWORDS = frozenset({"and", "or", "not", "implies", "true", "false"})
_IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")


def quote_name(name: str) -> str:
    """How a variable or agent name is written in a formula: bare when it is a plain identifier that is
    not a keyword, else in backquotes (a backquote inside doubled)."""
    if _IDENT.match(name) and name.lower() not in KEYWORDS:
        return name
    return "`" + name.replace("`", "``") + "`"


def names_in(node: Node) -> set[str]:
    """Variable names a formula mentions (agents in ``knows`` are not variables)."""
    return {n.name for n in walk(node) if isinstance(n, Name)}


def is_epistemic(node: Node) -> bool:
    return any(isinstance(n, EPISTEMIC) for n in walk(node))


def to_text(node: Node) -> str:
    """Fully parenthesised text that parses back to the same tree."""
    if isinstance(node, Int):
        return str(node.value)
    if isinstance(node, Str):
        return f"'{node.value}'" if "'" not in node.value else f'"{node.value}"'
    if isinstance(node, BoolConst):
        return "true" if node.value else "false"
    if isinstance(node, Name):
        return quote_name(node.name)
    if isinstance(node, Neg):
        return f"-({to_text(node.operand)})"
    if isinstance(node, Not):
        return f"not {_wrap(node.operand)}"
    if isinstance(node, Arith):
        return " ".join([_wrap(node.first), *(f"{op} {_wrap(x)}" for op, x in node.rest)])
    if isinstance(node, (Compare, Implies)):
        op = node.op if isinstance(node, Compare) else "implies"
        return f"{_wrap(node.left)} {op} {_wrap(node.right)}"
    if isinstance(node, (And, Or)):
        return f" {'and' if isinstance(node, And) else 'or'} ".join(_wrap(a) for a in node.args)
    if isinstance(node, Knows):
        agent = quote_name(node.agent)
        return f"knows({agent})" if node.what is None else f"knows({agent}, {to_text(node.what)})"
    if isinstance(node, (Common, Distributed)):
        group = "all" if node.agents is None else f"[{', '.join(map(quote_name, node.agents))}]"
        return f"{type(node).__name__.lower()}({group}, {to_text(node.what)})"
    if isinstance(node, After):
        return f"after({to_text(node.announcement)}, {to_text(node.what)})"
    if isinstance(node, Call):
        return f"{node.func}({', '.join(to_text(a) for a in node.args)})"
    if isinstance(node, Atom):
        return node.text
    raise TypeError(node)


def _wrap(node: Node) -> str:
    text = to_text(node)
    return text if isinstance(node, (Int, Str, BoolConst, Name, Call) + EPISTEMIC) else f"({text})"


def transform(node: Node, fn: Callable[[Node], Node]) -> Node:
    """Rebuild the tree bottom-up, replacing every node ``n`` by ``fn(n)`` (its children already rebuilt)."""
    if isinstance(node, Arith):
        node = Arith(transform(node.first, fn), tuple((op, transform(x, fn)) for op, x in node.rest))
    elif isinstance(node, (And, Or)):
        node = type(node)(tuple(transform(a, fn) for a in node.args))
    elif isinstance(node, Call):
        node = Call(node.func, tuple(transform(a, fn) for a in node.args))
    elif isinstance(node, (Neg, Not)):
        node = type(node)(transform(node.operand, fn))
    elif isinstance(node, Compare):
        node = Compare(transform(node.left, fn), node.op, transform(node.right, fn))
    elif isinstance(node, Implies):
        node = Implies(transform(node.left, fn), transform(node.right, fn))
    elif isinstance(node, Knows) and node.what is not None:
        node = Knows(node.agent, transform(node.what, fn))
    elif isinstance(node, (Common, Distributed)):
        node = type(node)(node.agents, transform(node.what, fn))
    elif isinstance(node, After):
        node = After(transform(node.announcement, fn), transform(node.what, fn))
    return fn(node)


def rename(node: Node, names: Mapping[str, str], values: Mapping[str, str] | None = None,
           agents: Mapping[str, str] | None = None) -> Node:
    """The same formula with variables renamed (``names``: old to new), named values (``values``, for
    ``'July'``) and agents (``agents``; default: ``names``); names match case-insensitively, others are kept."""
    from .schema import fold

    by_name = {fold(k): v for k, v in names.items()}
    by_value = {fold(k): v for k, v in (values or {}).items()}
    by_agent = by_name if agents is None else {fold(k): v for k, v in agents.items()}

    def one(n: Node) -> Node:
        if isinstance(n, Name):
            return Name(by_name.get(fold(n.name), n.name))
        if isinstance(n, Knows):
            return Knows(by_agent.get(fold(n.agent), n.agent), n.what)
        if isinstance(n, (Common, Distributed)) and n.agents is not None:
            return type(n)(tuple(by_agent.get(fold(a), a) for a in n.agents), n.what)
        if isinstance(n, Str):
            return Str(by_value.get(fold(n.value), n.value))
        return n
    return transform(node, one)
