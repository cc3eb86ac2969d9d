"""Result types shared by every game: statuses and verdicts as enums, results as frozen dataclasses.

Exact numbers are :class:`fractions.Fraction` in the API and ``"p/q"`` strings in JSON.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


class Status(enum.Enum):
    OK = "ok"
    CONTRADICTION = "contradiction"  # the observations admit no world
    TIMEOUT = "timeout"


class Verdict(enum.Enum):
    ENTAILED = "entailed"  # true in every consistent world
    REFUTED = "refuted"    # false in every consistent world
    OPEN = "open"          # true in some, false in others
    TIMEOUT = "timeout"    # the solver ran out of time: no verdict
    CONTRADICTION = "contradiction"  # no consistent world at all: nothing to judge

    @classmethod
    def parse(cls, text: str) -> Verdict:
        from .schema import choose
        return cls(choose(text, [v.value for v in (cls.ENTAILED, cls.REFUTED, cls.OPEN)], "verdict"))


@dataclass(frozen=True)
class ClaimSpec:
    """A claim to verify, as written: in a ``[[claim]]`` table or after ``--claim``."""

    text: str
    expect: Verdict = Verdict.ENTAILED
    place: str = "--claim"
    options: Mapping[str, Any] = field(default_factory=dict)  # game-specific keys of the claim table


@dataclass(frozen=True)
class ClaimResult:
    """The verdict on one claim, the observations that force it and witness worlds."""

    text: str
    verdict: Verdict
    because: tuple[str, ...] = ()
    witness: Any = None          # open: {"true": world, "false": world}; refuted: a counter-example world
    expect: Verdict = Verdict.ENTAILED
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.verdict is self.expect

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "verdict": self.verdict.value, "because": list(self.because),
                "witness": jsonable(self.witness), "expect": self.expect.value, "ok": self.ok,
                **({"detail": self.detail} if self.detail else {})}

    def to_text(self) -> str:
        mark = "ok  " if self.ok else "FAIL"
        line = f"[{mark}] {self.text}: {self.verdict.value}"
        if not self.ok:
            line += f" (expected {self.expect.value})"
        if self.because:
            line += "\n       because: " + "; ".join(self.because)
        if self.detail:
            line += "\n       " + self.detail
        if self.witness is not None and self.verdict is not Verdict.ENTAILED:
            line += "\n       witness: " + _short(self.witness)
        return line


def _short(value: Any) -> str:
    import json
    text = json.dumps(jsonable(value), ensure_ascii=False)
    return text if len(text) < 400 else text[:397] + "..."


class Answer:
    """Base of each game's typed answer: a frozen dataclass whose JSON view is derived from its fields.

    A field declared with :func:`optional` is left out of the JSON while it is None; every other field is
    written as :func:`jsonable` makes it (Fractions as "p/q", enums by value).
    """

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if value is None and f.metadata.get("optional"):
                continue
            out[f.name] = jsonable(value)
        return out


def optional() -> Any:
    """A field of an :class:`Answer` that is absent from the JSON while it is None."""
    return field(default=None, metadata={"optional": True})


@dataclass(frozen=True)
class Report:
    """What ``solve`` or ``suggest`` returns: JSON fields named by DESIGN.md plus a human rendering."""

    game: str
    status: Status
    fields: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""
    conflict: tuple[str, ...] = ()  # with CONTRADICTION: a minimal set of conflicting observations
    notes: tuple[str, ...] = ()     # facts of the file or options that were ignored, hands listed short...
    answer: Answer | None = None    # the game's typed answer (``fields`` is its JSON view)

    @classmethod
    def of(cls, game: str, answer: Answer, text: str = "") -> Report:
        """An OK report whose ``fields`` are the JSON view of the game's typed ``answer``."""
        return cls(game, Status.OK, answer.to_json(), text, answer=answer)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "status": self.status.value}
        if self.status is Status.CONTRADICTION:
            out["conflict"] = list(self.conflict)
        out.update({k: jsonable(v) for k, v in self.fields.items()})
        out["notes"] = list(self.notes)
        return out


def jsonable(value: Any) -> Any:
    """Fractions as ``"p/q"``, enums by value, tuples and sets as lists, dataclasses via ``to_json``."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(jsonable(v) for v in value)
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return value.item()
    return value


def contradiction_text(conflict: Sequence[str]) -> str:
    return ("CONTRADICTION: no world is consistent with the observations.\n"
            "These observations conflict (remove any one and the rest are consistent):\n  - "
            + "\n  - ".join(conflict))
