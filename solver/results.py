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
    """A claim to verify, as written: in a ``[[claim]]`` table or after ``--claim``.

    ``expect`` None makes it a question: it is answered (verdict, probability, a witness world each way) and
    never fails (docs/cli.md, "Asking, and checking").
    """

    text: str
    expect: Verdict | None = Verdict.ENTAILED
    place: str = "--claim"
    options: Mapping[str, Any] = field(default_factory=dict)  # game-specific keys of the claim table


@dataclass(frozen=True)
class ClaimResult:
    """The verdict on one claim, the observations that force it and witness worlds."""

    text: str
    verdict: Verdict
    because: tuple[str, ...] = ()
    witness: Any = None          # open: {"true": world, "false": world}; refuted: a counter-example world
    expect: Verdict | None = Verdict.ENTAILED   # None: a question (answered, never failed)
    detail: str = ""
    probability: Fraction | None = None         # exact chance the claim holds, where the game has one
    shown: Mapping[str, str] = field(default_factory=dict)  # "true"/"false": a witness world as the game draws it

    @property
    def question(self) -> bool:
        return self.expect is None

    @property
    def ok(self) -> bool:
        """The claim met its expectation (a question: it got an answer, not a timeout or contradiction)."""
        if self.expect is None:
            return self.verdict in (Verdict.ENTAILED, Verdict.REFUTED, Verdict.OPEN)
        return self.verdict is self.expect

    def witnesses(self) -> dict[str, Any]:
        """The witness worlds by side: "true" (a world where the claim holds) and/or "false"."""
        if self.witness is None:
            return {}
        sides = isinstance(self.witness, Mapping) and set(self.witness) <= {"true", "false"}
        if self.verdict is Verdict.OPEN and sides:
            return dict(self.witness)
        if self.verdict is Verdict.REFUTED:
            return {"false": self.witness}
        if self.verdict is Verdict.ENTAILED:
            return {"true": self.witness}
        return {"world": self.witness}

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "verdict": self.verdict.value, "because": list(self.because),
                "witness": jsonable(self.witness), "expect": self.expect.value if self.expect else None,
                "question": self.question, "ok": self.ok,
                **({"probability": jsonable(self.probability)} if self.probability is not None else {}),
                **({"detail": self.detail} if self.detail else {})}

    def to_text(self) -> str:
        """The verdict as people read it: a check ([ok]/[FAIL]) or a question ([?]), with witness worlds."""
        mark = "?   " if self.question else "ok  " if self.ok else "FAIL"
        line = f"[{mark}] {self.text}: {self.verdict.value}"
        if self.probability is not None:
            line += f" (probability {decimal(self.probability)})"
        if not self.ok and self.expect is not None:
            line += f" (expected {self.expect.value})"
        if self.because:
            line += "\n       because: " + "; ".join(self.because)
        if self.detail:
            line += "\n       " + self.detail
        label = {"true": "a world where it holds", "false": "a world where it fails", "world": "a world"}
        for side, world in self.witnesses().items():
            drawn = self.shown.get(side) or render_world(world)
            head = f"       {label[side]}: "
            line += "\n" + head + drawn.replace("\n", "\n" + " " * len(head))
        return line


def render_world(world: Any) -> str:
    """A world as text, for games that draw none of their own: whole, never cut.

    A table whose values repeat (card -> holder) is grouped by value, one line per value; another table reads
    ``key = value, ...``; a list is its items separated by spaces.
    """
    if isinstance(world, Mapping):
        values = [v for v in world.values() if isinstance(v, (str, int)) and not isinstance(v, bool)]
        if values and len(values) == len(world) and len(set(values)) < len(values):
            groups: dict[Any, list[str]] = {}
            for k, v in world.items():
                groups.setdefault(v, []).append(str(k))
            return "\n".join(f"{v}: {', '.join(ks)}" for v, ks in groups.items())
        return ", ".join(f"{k} = {render_world(v)}" for k, v in world.items())
    if isinstance(world, (list, tuple)):
        return " ".join(render_world(v) for v in world)
    if isinstance(world, Fraction):
        return decimal(world)
    return str(jsonable(world))


def decimal(p: Fraction | float | int, places: int = 3) -> str:
    """A number in text output: exact when it has at most ``places`` decimals (0.375, 1), else rounded (0.429);
    a value that would round to 0 or 1 without being it reads ``<0.001`` or ``>0.999``.

    The one number format of every game's text output (the exact fraction is in ``--json``).

    >>> [decimal(Fraction(n, d)) for n, d in ((3, 8), (1, 1), (0, 1), (3, 7), (1, 2000), (1999, 2000), (5, 2))]
    ['0.375', '1', '0', '0.429', '<0.001', '>0.999', '2.5']
    """
    q = Fraction(p)
    scale = 10 ** places
    rounded = round(q * scale)
    tiny = "0." + "0" * (places - 1) + "1"
    if rounded == 0 and q != 0:
        return ("<" if q > 0 else ">-") + tiny
    if 0 < q < 1 and rounded == scale:
        return ">0." + "9" * places
    whole, part = divmod(abs(rounded), scale)
    text = f"{'-' if rounded < 0 else ''}{whole}" + (f".{part:0{places}d}".rstrip("0") if part else "")
    return text


class Answer:
    """Base of each game's typed answer: a frozen dataclass whose ``Report.fields`` and JSON view come from it.

    A field declared with :func:`optional` is left out while it is None; in JSON every field is written as
    :func:`jsonable` makes it (Fractions as "p/q", enums by value).
    """

    def fields(self) -> dict[str, Any]:
        """The answer's fields by name, as Python values (Fractions, enums); optional ones only when set."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)  # type: ignore[arg-type]
                if getattr(self, f.name) is not None or not f.metadata.get("optional")}

    def to_json(self) -> dict[str, Any]:
        return {k: jsonable(v) for k, v in self.fields().items()}


@dataclass(frozen=True)
class Labelled(Answer):
    """An answer a derivation gave, labelled in one place: ``method``, ``exact`` and ``backend``, the fields
    :meth:`sleuth.derive.Choice.fields` makes (keywords: a game's own fields keep their order).  In the JSON
    they follow the game's own required fields, before its optional ones."""

    method: str = field(kw_only=True)
    exact: bool = field(kw_only=True)
    backend: str | None = field(kw_only=True)

    def fields(self) -> dict[str, Any]:
        out = super().fields()
        labels = {k: out.pop(k) for k in LABELS}
        optional_ones = {f.name for f in dataclasses.fields(self) if f.metadata.get("optional")}
        ordered = {k: v for k, v in out.items() if k not in optional_ones}
        return {**ordered, **labels, **{k: v for k, v in out.items() if k in optional_ones}}


LABELS = ("method", "exact", "backend")  # what labels every answer of a derivation (Labelled)


def optional() -> Any:
    """A field of an :class:`Answer` that is absent from the JSON while it is None."""
    return field(default=None, metadata={"optional": True})


@dataclass(frozen=True)
class Report:
    """What ``solve`` or ``suggest`` returns: the game's answer and its JSON fields, plus a human rendering."""

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
        return cls(game, Status.OK, answer.fields(), text, answer=answer)

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
