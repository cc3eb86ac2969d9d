"""Shared pieces of the metamorphic tests: generated names, TOML/JSON round trips, answers to compare."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from sleuth.files import parse_text, read_document
from sleuth.loading import load_data
from sleuth.results import ClaimSpec, Verdict
from sleuth.schema import fold

# Unicode letters (no digits: some claim forms end in numbers), spaces, apostrophes, keyword-like words.
_LETTERS = st.characters(categories=("Lu", "Ll", "Lo"), exclude_characters="ǅǈǋǲ")
_WORD = st.text(_LETTERS, min_size=1, max_size=5)
KEYWORDS = ["holds", "lacks", "not", "and", "or", "knows", "has", "no", "a", "true", "implies", "P", "is"]
NAME = st.one_of(_WORD, st.tuples(_WORD, _WORD).map(" ".join), _WORD.map(lambda w: f"{w}'s"),
                 st.sampled_from(KEYWORDS), st.sampled_from(KEYWORDS).map(lambda w: f"Bob {w}"))


def names(n: int, banned: Sequence[str] = ()) -> st.SearchStrategy[list[str]]:
    """``n`` generated names, distinct up to case, none of them ``banned`` (compared case-insensitively)."""
    bad = {fold(b) for b in banned}
    return st.lists(NAME.filter(lambda s: fold(s) not in bad and fold(s) == fold(s.strip()) and fold(s)),
                    min_size=n, max_size=n, unique_by=fold)


def example(name: str) -> dict[str, Any]:
    return read_document(f"example:{name}")


def to_toml(doc: dict[str, Any]) -> str:
    """A TOML text for a puzzle table (inline tables and arrays; strings escaped as JSON escapes them)."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float, str)):
            return json.dumps(v, ensure_ascii=False) if isinstance(v, str) else repr(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)} = {value(x)}" for k, x in v.items()) + "}"
        raise TypeError(v)
    return "\n".join(f"{json.dumps(k, ensure_ascii=False)} = {value(v)}" for k, v in doc.items()) + "\n"


def via_json_and_toml(doc: dict[str, Any]) -> dict[str, Any]:
    """The document written as JSON, read back, written as TOML and read back: must be the same puzzle."""
    back = parse_text(json.dumps(doc, ensure_ascii=False), "p.json")
    again = parse_text(to_toml(back), "p.toml")
    assert again == doc
    return again


def verdicts(doc: dict[str, Any], claims: Sequence[tuple[str, dict[str, Any]]], backend: str = "cpsat",
             **options: Any) -> list[str]:
    puzzle = load_data(doc)
    specs = [ClaimSpec(text, Verdict.ENTAILED, f"claim[{i}]", opts) for i, (text, opts) in enumerate(claims)]
    return [r.verdict.value for r in puzzle.verify(specs, backend=backend, options=options or None)]


def file_claims(doc: dict[str, Any], keys: Sequence[str] = ()) -> list[tuple[str, dict[str, Any]]]:
    return [(c["text"], {k: c[k] for k in keys if k in c}) for c in doc.get("claim", [])]
