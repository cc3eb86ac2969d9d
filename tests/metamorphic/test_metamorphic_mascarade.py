"""Metamorphic tests, Mascarade: renamed players and card identities (events, viewer and claims rewritten)
and TOML/JSON keep the marginals, the support, the certain cards and every claim verdict, on both backends."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from sleuth.models.mascarade.puzzle import _HOLDS, _KNOWS, _P_CLAIM
from sleuth.names import quote, unquote
from sleuth.loading import load_data
from sleuth.schema import fold

from tests.conftest import BACKENDS
from tests.metamorphic_util import example, file_claims, names, verdicts, via_json_and_toml

QUICK = [Phase.explicit, Phase.reuse, Phase.generate]
SMALL = ["mascarade/seed-figure2", "mascarade/seed-figure3", "mascarade/five-players-middle"]
WORDS = ["holds", "knows", "not"]


def answer(doc: dict[str, Any], backend: str = "cpsat") -> dict[str, Any]:
    f = load_data(doc).solve(backend=backend).fields
    return {"marginals": f["marginals"], "support": f["support"], "certain": f["certain"],
            "verdicts": verdicts(doc, file_claims(doc), backend)}


def renamed(doc: dict[str, Any], new: list[str]) -> tuple[dict[str, Any], dict[str, str], dict[str, str]]:
    doc = copy.deepcopy(doc)
    it = iter(new)
    pmap = {p: next(it) for p in doc["players"]}
    cmap: dict[str, str] = {}
    for c in doc["cards"] + doc.get("middle", []):
        if fold(c) not in cmap:   # a repeated character is one identity
            cmap[fold(c)] = next(it)
    p = lambda x: pmap.get(x, x)  # noqa: E731  (middle positions keep their names)
    c = lambda x: cmap[fold(x)]  # noqa: E731
    doc["players"] = [p(x) for x in doc["players"]]
    doc["cards"] = [c(x) for x in doc["cards"]]
    if "middle" in doc:
        doc["middle"] = [c(x) for x in doc["middle"]]
    if "viewer" in doc:
        doc["viewer"] = p(doc["viewer"])
    for e in doc.get("event", []):
        for key in ("swap", "between"):
            if key in e:
                e[key] = [p(x) for x in e[key]]
        for key in ("reveal", "look", "spy", "with", "fool"):
            if key in e:
                e[key] = p(e[key])
        if "card" in e:
            e["card"] = c(e["card"])
        if "cards" in e:
            e["cards"] = [c(x) for x in e["cards"]]
    q = lambda x: quote(x, WORDS)  # noqa: E731
    for claim in doc.get("claim", []):
        t = claim["text"]
        if m := _P_CLAIM.match(t):
            claim["text"] = f"P({q(p(unquote(m['who'])))} holds {q(c(unquote(m['card'])))}) {m['op']} {m['value']}"
        elif m := _KNOWS.match(t):
            claim["text"] = f"{m['neg'] or ''}{q(p(unquote(m['who'])))} knows their card"
        elif m := _HOLDS.match(t):
            claim["text"] = f"{m['neg'] or ''}{q(p(unquote(m['who'])))} holds {q(c(unquote(m['card'])))}"
    return doc, pmap, cmap


def mapped(ans: dict[str, Any], pmap: dict[str, str], cmap: dict[str, str]) -> dict[str, Any]:
    p, c = (lambda x: pmap.get(x, x)), (lambda x: cmap[fold(x)])
    out = dict(ans)
    out["marginals"] = {p(k): {c(card): v for card, v in row.items()} for k, row in ans["marginals"].items()}
    out["certain"] = {p(k): c(v) for k, v in ans["certain"].items()}
    return out


def size(doc: dict[str, Any]) -> int:
    return len(doc["players"]) + len({fold(c) for c in doc["cards"] + doc.get("middle", [])})


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=2, deadline=None, phases=QUICK, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_renaming_players_and_cards(name, backend, data):
    doc = example(name)
    banned = [f"Middle{i + 1}" for i in range(len(doc.get("middle", [])))]
    new, pmap, cmap = renamed(doc, data.draw(names(size(doc), banned=banned)))
    assert answer(via_json_and_toml(new), backend) == mapped(answer(doc, backend), pmap, cmap)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mascarade/six-players", "mascarade/thirteen-players"])
@settings(max_examples=2, deadline=None, phases=QUICK, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_renaming_larger_games(name, data):
    doc = example(name)
    banned = [f"Middle{i + 1}" for i in range(len(doc.get("middle", [])))]
    new, pmap, cmap = renamed(doc, data.draw(names(size(doc), banned=banned)))
    assert answer(new) == mapped(answer(doc), pmap, cmap)


def test_a_player_named_with_holds_is_quoted_not_refused():
    doc = example("mascarade/seed-figure2")
    new, pmap, cmap = renamed(doc, ["Bob holds", "not", "J 2", "C0", "holds", "C 2"])
    assert answer(new) == mapped(answer(doc), pmap, cmap)
    assert any(c["text"].startswith('P("Bob holds" holds') for c in new["claim"])
