"""A toy game in one package, to show what a game is: three cards A, B, C lie face down on positions 1-3;
each fact says a position does not hold a card.  It is registered the way a third-party package would be
(an entry point in the ``sleuth.games`` group naming ``tests.toygame.game:GAME``; the test fakes the entry point).

The package gives its declaration (:mod:`.game`: name, keys, claims), ``load(doc)`` (read the file into a
state, build the declarative model: one named observation per fact) and :mod:`.world`; solving and verifying
are the engine's.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from sleuth import Engine, Model, Puzzle, PuzzleDoc, Report, Status
from sleuth import claims as claims_lang
from sleuth.errors import PuzzleError
from sleuth.results import ClaimResult, ClaimSpec
from sleuth.schema import Names

CARDS = ("A", "B", "C")
_CLAIM = re.compile(r"^\s*position\s+([123])\s+holds\s+(\w+)\s*$", re.I)


class ThreeCards(Puzzle):
    def __init__(self, doc: PuzzleDoc) -> None:
        super().__init__(doc)
        self.names = Names("card", CARDS)
        self.facts = [(fs.integer("position", lo=1, hi=3) - 1, self.names.index(fs.string("not"), fs, "not"))
                      for fs in doc.section.sections("fact")]
        self.model = Model()
        self.at = [self.model.int_var(0, 2, f"position {i + 1}") for i in range(3)]
        self.model.add_all_different(self.at)
        for k, (pos, card) in enumerate(self.facts):
            with self.model.observation(f"fact {k + 1}: position {pos + 1} is not {CARDS[card]}"):
                self.model.add(self.at[pos] != card)

    def check(self, world: Sequence[int]) -> bool:
        """The rules in plain Python: a permutation that breaks no fact."""
        return sorted(world) == [0, 1, 2] and all(world[p] != c for p, c in self.facts)

    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        valids = sorted(Engine(self.model, backend).valids(self.at))[:1 if (options or {}).get("first") else None]
        if not valids:
            return Report(self.game, Status.CONTRADICTION, {"valids": []}, "", tuple(Engine(self.model).conflict()
                                                                                      or ()))
        rows = [[CARDS[c] for c in v] for v in valids]
        return Report(self.game, Status.OK, {"valids": rows, "count": len(rows)},
                      "\n".join(" ".join(r) for r in rows))

    def statement(self, text: str) -> tuple[int, int]:
        """The game's one statement, ``position N holds CARD``: the claim language combines them."""
        m = _CLAIM.match(text)
        if m is None:
            raise PuzzleError(f"cannot read claim {text!r}", allowed="position N holds CARD")
        return int(m.group(1)) - 1, self.names.index(m.group(2))

    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        return [self._verify_one(spec, backend) for spec in claims]

    def _verify_one(self, spec: ClaimSpec, backend: str) -> ClaimResult:
        tree, read = claims_lang.read(spec.text, self.statement, file=self.doc.file, place=spec.place)
        lit = claims_lang.to_lit(self.model, tree, lambda a: self.model.reify(self.at[read[a][0]] == read[a][1]))
        return Engine(self.model, backend).verify(lit, spec.text, spec.expect)


def load(doc: PuzzleDoc) -> ThreeCards:
    return ThreeCards(doc)


def all_worlds() -> list[tuple[int, ...]]:
    return list(itertools.permutations(range(3)))
