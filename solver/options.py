"""Options of ``solve``, ``verify`` and ``suggest`` given as keyword arguments in the API.

``puzzle.solve(probabilities=True, time_limit=5)`` means ``puzzle.solve(options={"probabilities": True,
"time-limit": 5})``: a keyword that is not a parameter of the method is an option, named as the command line
names it (``time_limit`` is ``--time-limit``, ``max_worlds`` is ``--set max_worlds``).  Both forms combine; a
keyword wins over the same key in ``options``.  Each game refuses an option it does not take, naming those it
does (docs/api.md lists them per game).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any

from .spec import FLAG_OPTIONS, GameSpec


def option_key(keyword: str) -> str:
    """The option a Python keyword names: a flag's dashes come back (``time_limit`` -> ``time-limit``)."""
    dashed = keyword.replace("_", "-")
    return dashed if dashed in FLAG_OPTIONS else keyword


def keyword_options(method: Callable[..., Any], options: Mapping[str, Any] | None,
                    kwargs: MutableMapping[str, Any]) -> Mapping[str, Any] | None:
    """``options`` with every keyword of ``kwargs`` that ``method`` does not take moved into it."""
    params = inspect.signature(method).parameters
    extra = {option_key(k): kwargs.pop(k) for k in list(kwargs) if k not in params}
    if not extra:
        return options
    return {**(options or {}), **extra}


def keyword(option: str) -> str:
    """The Python keyword of an option (``time-limit`` -> ``time_limit``)."""
    return option.replace("-", "_")


def markdown_keywords(spec: GameSpec) -> str:
    """The keyword arguments a game's ``solve``/``verify``/``suggest`` take (docs/api.md, kept by docgen)."""
    head = ["| keyword | command line | methods | type | default | meaning |", "| --- | --- | --- | --- | --- | --- |"]
    rows = [f"| `{keyword(o.name)}=` | `{o.usage}` | {', '.join(o.commands)} | {o.kind} | {o.default} | {o.meaning} |"
            for o in spec.all_options()]
    return "\n".join(head + rows)
