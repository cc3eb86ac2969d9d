"""Metamorphic tests, card guessing: permuting and renaming the card types (deck order, guesses, claims) keeps
the posterior over remaining compositions, the next-card probabilities, the counts and every claim verdict."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from sleuth.models.cardguess.puzzle import _BEST, _ITEM, _NEXT, _REMAINING
from sleuth.names import quote, unquote
from sleuth.loading import load_data

from tests.conftest import BACKENDS
from tests.metamorphic_util import example, names, verdicts, via_json_and_toml

QUICK = [Phase.explicit, Phase.reuse, Phase.generate]
PUZZLES = ["cardguess/seed_example", "cardguess/distinct_cards", "cardguess/complete_feedback",
           "cardguess/fresh_deck", "cardguess/outreach"]
CLAIM_KEYS = ("method", "gamma", "step")


def answer(doc: dict[str, Any], backend: str = "cpsat", method: str = "count") -> dict[str, Any]:
    f = load_data(doc).solve(backend=backend, options={"method": method}).fields
    claims = [(c["text"], {k: c[k] for k in CLAIM_KEYS if k in c}) for c in doc.get("claim", [])]
    return {"remaining": {(frozenset(r["composition"].items()), r["p"]) for r in f["remaining"]},
            "next": f["next"], "orders": f["orders"], "cards_left": f["cards_left"],
            "statistic": f["statistic"], "verdicts": verdicts(doc, claims, backend)}


def rename_claim(text: str, tmap: dict[str, str]) -> str:
    q = lambda name: quote(tmap[unquote(name)], ["="])  # noqa: E731
    if m := _NEXT.match(text):
        return f"P(next is {q(m.group(1))}) {m.group(2)} {m.group(3)}"
    if m := _REMAINING.match(text):
        items = [f"{q(i.group(1))}={i.group(2)}" for i in _ITEM.finditer(m.group(1).strip())]
        return f"P(remaining is {' '.join(items)}) {m.group(2)} {m.group(3)}"
    if m := _BEST.match(text):
        return f"best guess is {q(m.group(1))}"
    return text


def transformed(doc: dict[str, Any], order: list[int], new_names: list[str]) -> tuple[dict[str, Any], dict]:
    """Card types renamed and listed in another order; guesses and claims follow."""
    doc = copy.deepcopy(doc)
    types = list(doc["deck"])
    tmap = {t: new_names[i] for i, t in enumerate(types)}
    doc["deck"] = {tmap[types[i]]: doc["deck"][types[i]] for i in order}
    for g in doc.get("guess", []):
        for key in ("card", "actual"):
            if key in g:
                g[key] = tmap[g[key]]
    for c in doc.get("claim", []):
        c["text"] = rename_claim(c["text"], tmap)
    return doc, tmap


def mapped(ans: dict[str, Any], tmap: dict[str, str]) -> dict[str, Any]:
    out = dict(ans)
    out["remaining"] = {(frozenset((tmap[k], v) for k, v in comp), p) for comp, p in ans["remaining"]}
    out["next"] = {tmap[k]: v for k, v in ans["next"].items()}
    out["statistic"] = {k: {tmap[t]: v for t, v in d.items()} for k, d in ans["statistic"].items()}
    return out


def check(doc: dict[str, Any], order: list[int], new: list[str], backend: str = "cpsat",
          method: str = "count") -> None:
    moved, tmap = transformed(doc, order, new)
    assert answer(via_json_and_toml(moved), backend, method) == mapped(answer(doc, backend, method), tmap)


@pytest.mark.parametrize("name", PUZZLES)
@settings(max_examples=3, deadline=None, phases=QUICK, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_permuting_and_renaming_card_types(name, data):
    doc = example(name)
    n = len(doc["deck"])
    check(doc, data.draw(st.permutations(range(n))), data.draw(names(n)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_permuted_types_on_the_enumerating_backends(backend):
    doc = example("cardguess/seed_example")
    check(doc, [2, 0, 1], ["K", "J", "Q"], backend, "enumerate")   # a pure permutation of the names
    check(doc, [1, 2, 0], ["ace of spades", "Bob's", "holds"], backend, "enumerate")


@st.composite
def small_games(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(2, 3))
    types = ["J", "Q", "K"][:n]
    deck = {t: draw(st.integers(1, 3)) for t in types}
    guesses = [{"card": draw(st.sampled_from(types)), "correct": draw(st.booleans())}
               for _ in range(draw(st.integers(0, sum(deck.values()) - 1)))]
    return {"game": "cardguess", "deck": deck, "guess": guesses,
            "claim": [{"text": f"P(next is {types[0]}) >= 0"}, {"text": f"best guess is {types[-1]}"}]}


@settings(max_examples=25, deadline=None, phases=QUICK)
@given(small_games(), st.data())
def test_generated_games(doc, data):
    n = len(doc["deck"])
    try:
        load_data(doc).solve()
    except Exception as exc:   # an inconsistent history is a contradiction report, never an exception
        raise AssertionError(exc) from exc
    if load_data(doc).solve().status.value != "ok":
        return
    check(doc, data.draw(st.permutations(range(n))), data.draw(names(n)))
    check(doc, list(range(n)), [t for t in doc["deck"]], data.draw(st.sampled_from(BACKENDS)), "enumerate")


def test_claim_rewriting_reads_back():
    assert rename_claim("P(remaining is J=0 Q=1 K=2) = 3/10", {"J": "a b", "Q": "Q", "K": "k=1"}) == \
        'P(remaining is "a b"=0 Q=1 "k=1"=2) = 3/10'
    assert re.sub(r"\s+", " ", rename_claim("best guess is Q", {"Q": "not"})) == "best guess is not"
