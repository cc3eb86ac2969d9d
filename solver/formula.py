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
    atom     := INTEGER | STRING | "true" | "false" | NAME | QUOTED_NAME | NAME "(" args ")" | "(" formula ")"

Functions: ``knows(agent)`` (the agent knows the whole world), ``knows(agent, formula)`` (knows that it
holds), ``knows(agent, expression)`` (knows its value, e.g. ``knows(c1, m1)``: child 1 knows whether it is
muddy), ``believes(...)`` (the same operator, read as belief once private events exist),
``common(group, formula)`` and ``distributed(group, formula)`` (common / distributed knowledge of a group,
written ``[a, b]`` or ``all``), ``after(f, g)`` (``[!f]g``: after a truthful public announcement of *f*, *g*
holds; true where *f* is false), ``min(a, b, ...)``, ``max(a, b, ...)``, ``abs(a)``, ``count(f1, f2, ...)``
(how many hold).
Strings (``'July'``) compare with variables whose domain is a list of names.  A variable or agent whose
name is not a plain identifier (or is a keyword) is written in backquotes: ```my var` + 1``,
``knows(`and`)``; a backquote inside is doubled.

Claims in the games use the same parser (:func:`parse_claim`): a *statement* (a run of words, such as
``Bob holds Rope`` or ``answer is CRANE``) is an :class:`Atom` that the game reads, combined with ``not``,
``and``, ``or``, ``implies`` and parentheses exactly as formulas are.

Chains of ``and``, ``or``, ``+``/``-`` and ``*``/``//``/``%`` are flat n-ary nodes, so a sum of thousands
of terms never recurses deeply.  Nesting (parentheses, ``not``, unary minus, ``implies``, calls, and the
depth of the tree) is limited to :data:`MAX_DEPTH` levels; deeper formulas get a one-line error.

>>> f = parse("x+y <= 100 and not knows(P)")
>>> to_text(f)
'((x + y) <= 100) and (not knows(P))'
>>> parse(to_text(f)) == f
True

The syntax tree (the nodes, :func:`to_text`, :func:`rename`...) is in :mod:`sleuth.syntax`; every name is
importable from here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn, TypeVar

from .syntax import (FUNCTIONS, KEYWORDS, After, And, Arith, Atom, BoolConst, Call, Common, Compare,
                     Distributed, FormulaError, Implies, Int, Knows, Name, Neg, Node, Not, Or, Str, children,
                     is_epistemic, names_in, quote_name, rename, to_text, transform, walk)

__all__ = ["FUNCTIONS", "KEYWORDS", "MAX_DEPTH", "MAX_INT", "After", "And", "Arith", "Atom", "BoolConst",
           "Call", "Common", "Compare", "Distributed", "FormulaError", "Implies", "Int", "Knows", "Name", "Neg", "Node",
           "Not", "Or", "Str", "children", "combines", "is_epistemic", "names_in", "parse", "parse_claim",
           "quote_name", "rename", "to_text", "transform", "walk"]


MAX_DEPTH = 100   # deepest nesting a formula may have (parentheses, not, -, implies, calls, tree depth)
_A = TypeVar("_A")  # the argument of a parsing rule run one level deeper


# -- tokens -------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<int>\d+)
  | (?P<str>'[^']*'|"[^"]*")
  | (?P<quoted>`(?:[^`]|``)+`)
  | (?P<op>->|==|!=|<=|>=|//|[<>+\-*%(),\[\]])
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
""", re.VERBOSE)

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
                               allowed="names, `quoted names`, integers, 'strings', + - * // %, comparisons,"
                                       " and/or/not/implies, [ ] for groups, knows/common/distributed/after(...),"
                                       " min/max/abs/count(...)")
        kind = m.lastgroup or ""
        if kind != "space":
            word = m.group()
            if kind == "name" and word.lower() in KEYWORDS:
                kind, word = "kw", word.lower()
            elif kind == "quoted":
                kind, word = "name", word[1:-1].replace("``", "`")
            out.append(_Tok(kind, word, pos + 1))
        pos = m.end()
    out.append(_Tok("end", "", len(text) + 1))
    return out


# A claim's words: a quoted name, a parenthesis, or a run of other characters that may carry a parenthesised
# part glued to it (``P(next is Q)``); the keywords and ``->`` combine statements.
_CLAIM_TOKEN = re.compile(r'"[^"]*"|`(?:[^`]|``)*`|[^\s()"`]+(?:\([^()]*\)[^\s()"`]*)*|\(|\)')
CLAIM_KEYWORDS = frozenset({"and", "or", "not", "implies"})


def _claim_tokens(text: str) -> list[_Tok]:
    out = []
    for m in _CLAIM_TOKEN.finditer(text):
        word = m.group()
        if word.lower() in CLAIM_KEYWORDS:
            out.append(_Tok("kw", word.lower(), m.start() + 1))
        elif word in ("(", ")", "->"):
            out.append(_Tok("op", word, m.start() + 1))
        else:
            out.append(_Tok("word", word, m.start() + 1))
    unread = _CLAIM_TOKEN.sub("", text).strip()
    if unread:
        raise FormulaError(f"unbalanced quote or backquote ({unread[:20]!r}) in {_short(text)!r}")
    out.append(_Tok("end", "", len(text) + 1))
    return out


_COMPARE = ("==", "!=", "<", "<=", ">", ">=")
_IMPLIES, _OR, _AND, _NOT, _COMPARE_LEVEL, _SUM, _TERM, _UNARY = range(1, 9)
_LEVELS = {"implies": _IMPLIES, "->": _IMPLIES, "or": _OR, "and": _AND, **dict.fromkeys(_COMPARE, _COMPARE_LEVEL),
           "+": _SUM, "-": _SUM, "*": _TERM, "//": _TERM, "%": _TERM}


class _Parser:
    """Precedence climbing; parentheses, calls and pending operators are counted before recursing, and the
    height of every node built is checked, so that nothing recurses past :data:`MAX_DEPTH` levels."""

    def __init__(self, text: str, statements: bool = False) -> None:
        self.text = text
        self.statements = statements   # a claim: runs of words are game statements (Atom)
        self.toks = _claim_tokens(text) if statements else _tokens(text)
        self.i = 0
        self.parens = 0    # open parentheses and calls
        self.pending = 0   # binary operators whose right operand is being parsed
        self.heights: dict[int, int] = {}   # id(node) -> height of its tree, for the depth limit
        self.made: list[Node] = []          # keeps the nodes alive, so that their ids stay unique

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

    def fail(self, message: str) -> NoReturn:
        tok = self.peek()
        found = "the end" if tok.kind == "end" else repr(tok.text)
        raise FormulaError(f"{message} at column {tok.col} (found {found}) in {_short(self.text)!r}")

    def nest(self, rule: Callable[[_A], Node], arg: _A) -> Node:
        """Parse ``rule`` inside one more parenthesis or call; past :data:`MAX_DEPTH`, a clear error."""
        return self._deeper("parens", rule, arg)

    def operand(self, level: int) -> Node:
        """The right operand of a binary operator: a future ancestor is pending, so the tree will be at
        least as tall as the pending operators; counting them bounds the recursion before it happens."""
        return self._deeper("pending", self.expr, level)

    def _deeper(self, counter: str, rule: Callable[[_A], Node], arg: _A) -> Node:
        depth: int = getattr(self, counter)
        if depth >= MAX_DEPTH:
            self.fail(f"formula nested more than {MAX_DEPTH} levels deep")
        setattr(self, counter, depth + 1)
        try:
            return rule(arg)
        finally:
            setattr(self, counter, depth)

    def make(self, node: Node) -> Node:
        """Record the height of a new node; a tree taller than :data:`MAX_DEPTH` is refused."""
        height = 1 + max((self.heights.get(id(c), 1) for c in children(node)), default=0)
        if height > MAX_DEPTH:
            self.fail(f"formula nested more than {MAX_DEPTH} levels deep")
        self.heights[id(node)] = height
        self.made.append(node)
        return node

    def parse(self) -> Node:
        node = self.expr(_IMPLIES)
        if self.peek().kind != "end":
            self.fail("unexpected text")
        return node

    def formula(self) -> Node:
        return self.expr(_IMPLIES)

    def level(self) -> int | None:
        tok = self.peek()
        return _LEVELS.get(tok.text) if tok.kind in ("op", "kw") else None

    def expr(self, min_level: int) -> Node:
        """Precedence climbing over the binary levels; chains of one level are collected in a loop."""
        left = self.prefix(min_level)
        while (level := self.level()) is not None and level >= min_level:
            if level == _COMPARE_LEVEL:
                op = self.take().text
                left = self.make(Compare(left, op, self.operand(_COMPARE_LEVEL + 1)))
                if self.level() == _COMPARE_LEVEL:
                    self.fail("comparisons do not chain; use 'and'")
                continue
            items: list[tuple[str, Node]] = []
            while self.level() == level:
                op = self.take().text
                items.append((op, self.operand(level + 1)))
            if level == _IMPLIES:   # right-associative: a -> b -> c is a -> (b -> c)
                right = items[-1][1]
                for i in range(len(items) - 2, -1, -1):
                    right = self.make(Implies(items[i][1], right))
                left = self.make(Implies(left, right))
            elif level in (_OR, _AND):
                left = self.make((Or if level == _OR else And)((left, *(x for _, x in items))))
            else:
                left = self.make(Arith(left, tuple(items)))
        return left

    def prefix(self, min_level: int) -> Node:
        """``not``s and unary minuses, counted in a loop (a long chain never recurses)."""
        nots = 0
        while self.at("not") and min_level <= _NOT:
            self.take()
            nots += 1
        if nots:
            node = self.expr(_NOT)
            for _ in range(nots):
                node = self.make(Not(node))
            return node
        negs = 0
        while self.at("-"):
            self.take()
            negs += 1
        node = self.atom()
        for _ in range(negs):
            node = self.make(Neg(node))
        return node

    def atom(self) -> Node:
        tok = self.peek()
        if self.statements:
            return self.statement()
        if tok.kind == "int":
            self.take()
            value = int(tok.text) if len(tok.text) <= 20 else MAX_INT + 1
            if value > MAX_INT:
                self.i -= 1
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
            node = self.nest(self.expr, _IMPLIES)
            self.expect(")")
            return node
        if tok.kind == "name":
            self.take()
            if not self.at("("):
                return Name(tok.text)
            return self.nest(self.call, tok)
        self.fail("expected a value, a name or '('")

    def statement(self) -> Node:
        """A claim's operand: ``( claim )`` or a statement, the words up to ``and``, ``or``, ``implies``, a
        parenthesis or the end (a ``not`` inside, as in ``Bob does not have Rope``, is one of its words)."""
        if self.at("("):
            self.take()
            node = self.nest(self.expr, _IMPLIES)
            self.expect(")")
            return node
        words: list[str] = []
        while self.peek().kind == "word" or (words and self.at("not")):
            words.append(self.take().text)
        if not words:
            self.fail("expected a statement")
        return self.make(Atom(" ".join(words)))

    def call(self, tok: _Tok) -> Node:
        func = tok.text.lower()
        if func not in FUNCTIONS:
            raise FormulaError(f"unknown function {tok.text!r} at column {tok.col} in {_short(self.text)!r}",
                               allowed=", ".join(FUNCTIONS))
        self.take()
        if func in ("common", "distributed"):
            group = self.group()
            self.expect(",")
            what = self.formula()
            self.expect(")")
            return self.make((Common if func == "common" else Distributed)(group, what))
        if func in ("knows", "believes"):
            agent = self.take()
            if agent.kind != "name":
                self.i -= 1
                self.fail("knows() takes an agent name first")
            known: Node | None = None  # None: the whole world
            if self.at(","):
                self.take()
                known = self.formula()
            self.expect(")")
            return self.make(Knows(agent.text, known))
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
            return self.make(After(args[0], args[1]))
        return self.make(Call(func, tuple(args)))


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


def _short(text: str) -> str:
    return text if len(text) <= 200 else text[:197] + "..."


def parse(text: str) -> Node:
    """Parse a formula or expression; raises :class:`FormulaError` quoting the text and the column."""
    if not isinstance(text, str) or not text.strip():
        raise FormulaError("empty formula")
    return _Parser(text).parse()


def combines(text: str) -> bool:
    """Whether a claim uses a combinator: ``and``, ``or``, ``not``, ``implies``, ``->`` or a parenthesis that
    is not glued to a word (an unbalanced quote counts: the parser then says what is wrong)."""
    try:
        return any(tok.kind in ("kw", "op") for tok in _claim_tokens(text))
    except FormulaError:
        return True


def parse_claim(text: str) -> Node:
    """Parse a game's claim: statements (:class:`Atom`) joined by ``not``, ``and``, ``or``, ``implies`` and
    parentheses; raises :class:`FormulaError` quoting the text and the column.

    >>> to_text(parse_claim("Bob has the Rope and not (Ann holds Knife or Cy holds Rope)"))
    '(Bob has the Rope) and (not ((Ann holds Knife) or (Cy holds Rope)))'
    """
    if not isinstance(text, str) or not text.strip():
        raise FormulaError("empty claim")
    return _Parser(text, statements=True).parse()
