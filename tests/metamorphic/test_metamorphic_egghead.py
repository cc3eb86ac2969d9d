"""Metamorphic tests, Egghead: renamed players (table, solves, new hands, analysts, viewer and claims rewritten),
reordered tables and TOML/JSON keep every valid hand, the undetermined players and the claim verdicts."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from sleuth.names import NAME, quote, unquote
from sleuth.loading import load_data

from tests.conftest import BACKENDS
from tests.metamorphic_util import example, file_claims, names, verdicts, via_json_and_toml

QUICK = [Phase.explicit, Phase.reuse, Phase.generate]
PUZZLES = ["egghead/seed_example", "egghead/seed_example_basic", "egghead/viewer_cy",
           "egghead/rotating_partial_ba"]
WORDS = ["holds", "has", "a", "an", "no"]
_WHO = re.compile(rf"^\s*({NAME}) (holds|has)\b(.*)$", re.I)


def answer(doc: dict[str, Any], backend: str = "cpsat") -> dict[str, Any]:
    f = load_data(doc).solve(backend=backend).fields
    return {"valids": f["valids"], "undetermined": set(f["undetermined"]),
            "verdicts": verdicts(doc, file_claims(doc), backend)}


def renamed(doc: dict[str, Any], new: list[str], rng: random.Random) -> tuple[dict[str, Any], dict[str, str]]:
    doc = copy.deepcopy(doc)
    pmap = dict(zip(doc["players"], new, strict=True))
    p = lambda x: pmap[x]  # noqa: E731

    def table(t: dict[str, Any]) -> dict[str, Any]:
        items = [(p(k), v) for k, v in t.items()]
        rng.shuffle(items)   # the order of a table's keys carries no meaning
        return dict(items)

    doc["players"] = [p(x) for x in doc["players"]]
    for key in ("viewer",):
        if key in doc:
            doc[key] = p(doc[key])
    if "analysts" in doc:
        doc["analysts"] = [p(x) for x in doc["analysts"]]
    if "table" in doc:
        doc["table"] = table(doc["table"])
    for r in doc.get("round", []):
        if "solves" in r:
            r["solves"] = [[p(x) for x in s] if isinstance(s, list) else p(s) for s in r["solves"]]
        if "new_hands" in r:
            r["new_hands"] = table(r["new_hands"])
    for c in doc.get("claim", []):
        m = _WHO.match(" ".join(c["text"].split()))
        assert m, c["text"]
        c["text"] = f"{quote(pmap[unquote(m.group(1))], WORDS)} {m.group(2)}{m.group(3)}"
    return doc, pmap


def mapped(ans: dict[str, Any], pmap: dict[str, str]) -> dict[str, Any]:
    return {**ans, "valids": {pmap[k]: v for k, v in ans["valids"].items()},
            "undetermined": {pmap[k] for k in ans["undetermined"]}}


@pytest.mark.parametrize("name", PUZZLES)
@settings(max_examples=2, deadline=None, phases=QUICK, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_renaming_players(name, data):
    doc = example(name)
    new, pmap = renamed(doc, data.draw(names(len(doc["players"]))), data.draw(st.randoms(use_true_random=False)))
    assert answer(via_json_and_toml(new)) == mapped(answer(doc), pmap)


TINY = {"game": "egghead", "values": 3, "hand_size": 2, "players": ["A", "B", "C"], "analysis": "basic",
        "table": {"A": [1, 2], "B": [3, 3], "C": [1, 1]},
        "round": [{"question": "missing", "answer": 0, "solves": []}],
        "claim": [{"text": "A has no 3"}, {"text": "C holds 1 1", "expect": "open"}, {"text": "B has a 3"}]}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", [None, pytest.param("egghead/seed_example_basic", marks=pytest.mark.slow)])
def test_renaming_on_both_backends(backend, name):
    doc = example(name) if name else copy.deepcopy(TINY)
    new, pmap = renamed(doc, ["Bob holds", "has", "Zoë d'Arc"], random.Random(1))
    assert answer(new, backend) == mapped(answer(doc, backend), pmap)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["egghead/rotating_two_stages"])
@settings(max_examples=2, deadline=None, phases=QUICK, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_renaming_larger_games(name, data):
    doc = example(name)
    new, pmap = renamed(doc, data.draw(names(len(doc["players"]))), random.Random(0))
    assert answer(new) == mapped(answer(doc), pmap)
