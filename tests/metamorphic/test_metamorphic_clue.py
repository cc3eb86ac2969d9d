"""Metamorphic tests, Clue: renamed players and cards, shuffled observations, TOML/JSON give the same sheet,
envelope, probabilities and claim verdicts (mapped through the renaming), on both backends."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from sleuth.models.clue.state import NAMED_DECKS
from sleuth.models.clue.puzzle import _CLAIM
from sleuth.names import quote, unquote
from sleuth.loading import load_data

from tests.conftest import BACKENDS
from tests.metamorphic_util import example, file_claims, names, verdicts, via_json_and_toml

QUICK = [Phase.explicit, Phase.reuse, Phase.generate]
WORDS = ["holds", "lacks", "not"]
SMALL = "clue/small-deck"
CPSAT_ONLY = ["clue/classic-3-players", "clue/four-players-uneven"]


def answer(doc: dict[str, Any], backend: str = "cpsat", probabilities: bool = False) -> dict[str, Any]:
    puzzle = load_data(doc)
    opts = {"probabilities": True} if probabilities else None
    f = puzzle.solve(backend=backend, options=opts).fields
    out = {"sheet": f["sheet"], "envelope": f["envelope"], "verdicts": verdicts(doc, file_claims(doc), backend)}
    if probabilities:
        out["probabilities"], out["deals"] = f["probabilities"], f["deals"]
    return out


def with_deck(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with its deck written out as a table."""
    doc = copy.deepcopy(doc)
    deck = doc.get("deck", "classic")
    if isinstance(deck, str):
        doc["deck"] = dict(zip(("suspects", "weapons", "rooms"), map(list, NAMED_DECKS[deck]), strict=True))
    return doc


def renamed(doc: dict[str, Any], pmap: dict[str, str], cmap: dict[str, str]) -> dict[str, Any]:
    doc = with_deck(doc)
    p, c = (lambda x: pmap[x]), (lambda x: cmap[x])
    doc["deck"] = {k: [c(x) for x in v] for k, v in doc["deck"].items()}
    doc["players"] = [p(x) for x in doc["players"]]
    if "viewer" in doc:
        doc["viewer"] = p(doc["viewer"])
    if "hands" in doc:
        doc["hands"] = {p(k): [c(x) for x in v] for k, v in doc["hands"].items()}
    for row in doc.get("suggestion", []) + doc.get("accusation", []):
        row["by"], row["cards"] = p(row["by"]), [c(x) for x in row["cards"]]
        if "shown_by" in row:
            row["shown_by"] = p(row["shown_by"])
        if "card" in row:
            row["card"] = c(row["card"])
    for claim in doc.get("claim", []):
        neg, who, verb, card = _CLAIM.match(claim["text"]).groups()  # type: ignore[union-attr]
        who = unquote(who)
        who = who if who.casefold() == "envelope" else pmap[who]
        claim["text"] = f"{neg or ''}{quote(who, WORDS)} {verb} {quote(cmap[unquote(card)], WORDS)}"
    return doc


def mapped(ans: dict[str, Any], pmap: dict[str, str], cmap: dict[str, str]) -> dict[str, Any]:
    place = lambda x: pmap.get(x, x)  # noqa: E731  (the envelope keeps its name)
    out = dict(ans)
    out["sheet"] = {cmap[c]: {place(q): m for q, m in row.items()} for c, row in ans["sheet"].items()}
    out["envelope"] = {k: cmap[v] if v else v for k, v in ans["envelope"].items()}
    if "probabilities" in ans:
        out["probabilities"] = {cmap[c]: {place(q): v for q, v in row.items()}
                                for c, row in ans["probabilities"].items()}
    return out


def maps(doc: dict[str, Any], new: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    doc = with_deck(doc)
    cards = [c for cat in doc["deck"].values() for c in cat]
    it = iter(new)
    return {p: next(it) for p in doc["players"]}, {c: next(it) for c in cards}


def size(doc: dict[str, Any]) -> int:
    doc = with_deck(doc)
    return len(doc["players"]) + sum(len(v) for v in doc["deck"].values())


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=3, deadline=None, phases=QUICK, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_renaming_players_and_cards_keeps_the_sheet(backend, data):
    doc = example(SMALL)
    pmap, cmap = maps(doc, data.draw(names(size(doc), banned=["envelope"])))
    new = via_json_and_toml(renamed(doc, pmap, cmap))
    assert answer(new, backend) == mapped(answer(doc, backend), pmap, cmap)


@pytest.mark.parametrize("name", [SMALL, *CPSAT_ONLY])
@settings(max_examples=2, deadline=None, phases=QUICK, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_renaming_keeps_probabilities_and_verdicts(name, data):
    doc = example(name)
    pmap, cmap = maps(doc, data.draw(names(size(doc), banned=["envelope"])))
    new = renamed(doc, pmap, cmap)
    assert answer(new, probabilities=True) == mapped(answer(doc, probabilities=True), pmap, cmap)


@pytest.mark.parametrize("backend", BACKENDS)
def test_shuffled_observations_and_hands_keep_the_sheet(backend):
    doc = example(SMALL)
    rng = random.Random(7)
    for _ in range(3):
        new = copy.deepcopy(doc)
        for key in ("suggestion", "accusation", "claim"):
            rng.shuffle(new.get(key, []))
        if "hands" in new:
            items = list(new["hands"].items())
            rng.shuffle(items)
            new["hands"] = dict(items)
        got, want = answer(via_json_and_toml(new), backend), answer(doc, backend)
        order = [c["text"] for c in new.get("claim", [])]
        back = dict(zip(order, got.pop("verdicts"), strict=True))
        assert [back[c["text"]] for c in doc.get("claim", [])] == want.pop("verdicts")
        assert got == want


@pytest.mark.slow
@pytest.mark.parametrize("name", ["clue/six-players", "clue/master-detective", "clue/rules-stop-short"])
@settings(max_examples=3, deadline=None, phases=QUICK, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_large_clue_puzzles_renamed(name, data):
    doc = example(name)
    pmap, cmap = maps(doc, data.draw(names(size(doc), banned=["envelope"])))
    assert answer(renamed(doc, pmap, cmap)) == mapped(answer(doc), pmap, cmap)
