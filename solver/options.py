"""Options of ``solve``, ``verify`` and ``suggest`` given as keyword arguments in the API.

``puzzle.solve(probabilities=True, time_limit=5)`` means ``puzzle.solve(options={"probabilities": True,
"time-limit": 5})``: a keyword that is not a parameter of the method is an option, named as the command line
names it (``time_limit`` is ``--time-limit``, ``max_worlds`` is ``--set max_worlds``).  Both forms combine; a
keyword wins over the same key in ``options``.  Each game refuses an option it does not take, naming those it
does (docs/api.md lists them per game).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from typing import Any

from .spec import Option


def option_key(keyword: str, options: Sequence[Option]) -> str:
    """The option a Python keyword names among ``options`` (``time_limit`` -> ``time-limit``); else itself."""
    return next((o.name for o in options if o.name.replace("-", "_") == keyword), keyword)


def keyword_options(method: Callable[..., Any], options: Mapping[str, Any] | None,
                    kwargs: MutableMapping[str, Any], known: Sequence[Option]) -> Mapping[str, Any] | None:
    """``options`` with every keyword of ``kwargs`` that ``method`` does not take moved into it, named as
    ``known`` (the game's options) names it."""
    params = inspect.signature(method).parameters
    extra = {option_key(k, known): kwargs.pop(k) for k in list(kwargs) if k not in params}
    if not extra:
        return options
    return {**(options or {}), **extra}


def keyword(option: str) -> str:
    """The Python keyword of an option (``time-limit`` -> ``time_limit``)."""
    return option.replace("-", "_")


def markdown_keywords(options: Sequence[Option]) -> str:
    """The keyword arguments a game's ``solve``/``verify``/``suggest`` take (docs/api.md, kept by docgen)."""
    head = ["| keyword | command line | methods | type | default | meaning |", "| --- | --- | --- | --- | --- | --- |"]
    rows = [f"| `{keyword(o.name)}=` | `{o.usage}` | {', '.join(o.commands)} | {o.kind} | {o.default} | {o.meaning} |"
            for o in options]
    return "\n".join(head + rows)
