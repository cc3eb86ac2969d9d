"""Metamorphic tests, epistemic puzzles: renamed, converted, reordered and scaled puzzles give the same answers.

Answers compared: the worlds left (mapped through the transformation), their count, the count at the start and
after each round, who knows the actual world, and every claim's verdict; on the table and on both solvers.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from sleuth.formula import Int, parse, rename, to_text, transform
from sleuth.loading import load_data

from tests.conftest import BACKENDS
from tests.metamorphic_util import example, file_claims, names, verdicts, via_json_and_toml

SMALL = ["epistemic/cheryl", "epistemic/muddy-children-3", "epistemic/what-sum-10"]
LARGE = ["epistemic/muddy-children-5", "epistemic/what-sum-20", "epistemic/sum-and-product"]
K = 999_999_937           # a prime: scaled literals stay below the parser's 10^15
QUICK = [Phase.explicit, Phase.reuse, Phase.generate]   # a failure is reported as found (no long shrinking)
HUGE = 2 ** 64 + 13       # scaled values leave int64 (exact object arithmetic)


def answer(doc: dict[str, Any], backend: str = "cpsat", worlds: str = "auto") -> dict[str, Any]:
    puzzle = load_data(doc)
    opts = {"method": worlds} if worlds != "auto" else None
    f = puzzle.solve(backend=backend, options=opts).fields
    return {"worlds": {frozenset(w.items()) for w in f["worlds"]}, "count": f["count"], "initial": f["initial"],
            "steps": [s["worlds"] for s in f["steps"]],
            "knowers": [(k["actual_possible"], frozenset(k["know"])) for k in f.get("knowers", [])],
            "verdicts": verdicts(doc, file_claims(doc, ("after", "at")), backend, **(opts or {}))}


def labels(doc: dict[str, Any]) -> list[str]:
    out = [v for dom in doc.get("variables", {}).values() if isinstance(dom, list) for v in dom if isinstance(v, str)]
    out += [v for w in doc.get("worlds", []) for v in w.values() if isinstance(v, str)]
    return list(dict.fromkeys(out))


def rewrite(doc: dict[str, Any], formula: Any, var: Any, agent: Any, value: Any) -> dict[str, Any]:
    """The document with every formula, variable, agent and value passed through the given maps."""
    new = copy.deepcopy(doc)
    if "variables" in doc:
        new["variables"] = {var(k): [value(x) for x in d] if isinstance(d, list) else d
                            for k, d in doc["variables"].items()}
    if "worlds" in doc:
        new["worlds"] = [{var(k): value(x) for k, x in w.items()} for w in doc["worlds"]]
    if "actual" in doc:
        new["actual"] = {var(k): value(x) for k, x in doc["actual"].items()}
    new["agents"] = {agent(a): [formula(e) for e in (es if isinstance(es, list) else [es])]
                     for a, es in doc["agents"].items()}
    new["constraints"] = [formula(c) for c in doc.get("constraints", [])]
    for a in new.get("announcement", []):
        a["formula"] = formula(a["formula"])
        if "by" in a:
            a["by"] = agent(a["by"])
    for c in new.get("claim", []):
        c["text"] = formula(c["text"])
    return new


def renamed(doc: dict[str, Any], new_names: list[str]) -> tuple[dict[str, Any], dict[str, str], dict[str, str]]:
    vs, ags, vals = list(doc.get("variables") or doc["worlds"][0]), list(doc["agents"]), labels(doc)
    it = iter(new_names)
    vmap, amap, valmap = {v: next(it) for v in vs}, {a: next(it) for a in ags}, {x: next(it) for x in vals}
    new = rewrite(doc, lambda t: to_text(rename(parse(t), vmap, valmap, amap)), lambda k: vmap[k], lambda a: amap[a],
                  lambda x: valmap.get(x, x) if isinstance(x, str) else x)
    return new, vmap, {**valmap, **amap}


def map_answer(ans: dict[str, Any], var: dict[str, str], other: dict[str, str]) -> dict[str, Any]:
    out = dict(ans)
    out["worlds"] = {frozenset((var[k], other.get(v, v) if isinstance(v, str) else v) for k, v in w)
                     for w in ans["worlds"]}
    out["knowers"] = [(p, frozenset(other[a] for a in k)) for p, k in ans["knowers"]]
    return out


def scaled(doc: dict[str, Any], k: int) -> dict[str, Any]:
    """Every integer value and every integer literal times ``k`` (the bundled puzzles' arithmetic is
    homogeneous: sums and comparisons of values, products observed only through equality)."""
    def num(x: Any) -> Any:
        return x * k if isinstance(x, int) and not isinstance(x, bool) else x

    def lit(n: Any) -> Any:
        return parse(big(n.value * k)) if isinstance(n, Int) else n

    new = rewrite(doc, lambda t: to_text(transform(parse(t), lit)), lambda v: v, lambda a: a, num)
    for name, dom in doc.get("variables", {}).items():
        if isinstance(dom, str):
            lo, hi = map(int, dom.split(".."))
            new["variables"][name] = [v * k for v in range(lo, hi + 1)]
    return new


def big(v: int) -> str:
    """An integer as an expression of literals the parser takes (each at most 10^15)."""
    if v <= 10 ** 15:
        return str(v)
    return f"({big(v >> 40)}) * {2 ** 40} + {v & (2 ** 40 - 1)}"


def scale_answer(ans: dict[str, Any], k: int) -> dict[str, Any]:
    out = dict(ans)
    out["worlds"] = {frozenset((n, v * k if isinstance(v, int) else v) for n, v in w) for w in ans["worlds"]}
    return out


# -- the bundled puzzles -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SMALL)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          phases=QUICK)
@given(data=st.data())
def test_renaming_everything_keeps_every_answer(name, data):
    doc = example(name)
    n = len(doc.get("variables") or doc["worlds"][0]) + len(doc["agents"]) + len(labels(doc))
    new, var, other = renamed(doc, data.draw(names(n)))
    assert answer(via_json_and_toml(new)) == map_answer(answer(doc), var, other)


@pytest.mark.parametrize("name", SMALL)
def test_toml_to_json_and_back_reorders_nothing_that_matters(name):
    doc = example(name)
    rng = random.Random(name)
    shuffled = copy.deepcopy(doc)
    for key in ("worlds",):
        if key in shuffled:
            rng.shuffle(shuffled[key])
    for key in ("variables", "agents"):
        if key in shuffled:
            items = list(shuffled[key].items())
            rng.shuffle(items)
            shuffled[key] = dict(items)
    assert answer(via_json_and_toml(shuffled)) == answer(doc)


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize("k", [K, HUGE])
def test_scaling_values_keeps_every_answer(name, k):
    base = answer(example(name))
    assert answer(scaled(example(name), k)) == scale_answer(base, k)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["epistemic/muddy-children-3", pytest.param("epistemic/what-sum-10",
                                                                             marks=pytest.mark.slow)])
def test_solvers_build_the_same_worlds_after_renaming_and_scaling(name, backend):
    doc = example(name)
    new, var, other = renamed(doc, [f"v {i}'x" for i in range(20)])
    want = map_answer(answer(doc), var, other)
    assert answer(new, backend, "solver") == want
    assert answer(scaled(doc, K), backend, "solver") == scale_answer(answer(doc), K)


@pytest.mark.slow
@pytest.mark.parametrize("name", LARGE)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_large_puzzles_renamed_and_scaled(name, data):
    doc = example(name)
    n = len(doc.get("variables") or doc["worlds"][0]) + len(doc["agents"]) + len(labels(doc))
    new, var, other = renamed(doc, data.draw(names(n)))
    base = answer(doc)
    assert answer(new) == map_answer(base, var, other)
    assert answer(scaled(doc, K)) == scale_answer(base, K)


# -- generated small puzzles ----------------------------------------------------------------------------------

TEMPLATES = ["not knows({a})", "knows({a})", "knows({a}, {x})", "{x} + {y} >= 2", "knows({a}, not knows({b}))",
             "not knows({a}, {x} > {y})", "{x} != {y}", "knows({a}, {x} + {y})"]


@st.composite
def small_puzzles(draw: Any) -> dict[str, Any]:
    nv = draw(st.integers(2, 3))
    vs = ["x", "y", "z"][:nv]
    doms = {v: sorted(draw(st.sets(st.integers(0, 4), min_size=1, max_size=4))) for v in vs}
    agents = {a: draw(st.lists(st.sampled_from([*vs, "x + y", "max(x, y)"]), min_size=1, max_size=2, unique=True))
              for a in ("A", "B")}

    def formula() -> str:
        x, y = draw(st.permutations(vs))[:2]
        a, b = draw(st.permutations(["A", "B"]))
        return draw(st.sampled_from(TEMPLATES)).format(a=a, b=b, x=x, y=y)

    doc: dict[str, Any] = {"game": "epistemic", "variables": doms, "agents": agents,
                           "constraints": [draw(st.sampled_from(["x != y", "x + y <= 5", "x <= y"]))],
                           "announcement": [{"formula": formula()} for _ in range(draw(st.integers(0, 2)))],
                           "claim": [{"text": formula(), "after": draw(st.integers(0, 2))} for _ in range(3)]}
    return doc


@settings(max_examples=25, deadline=None, phases=QUICK)
@given(small_puzzles(), st.data())
def test_generated_puzzles_on_every_transformation_and_backend(doc, data):
    base = answer(doc)
    new, var, other = renamed(doc, data.draw(names(7)))
    assert answer(via_json_and_toml(new)) == map_answer(base, var, other)
    assert answer(scaled(doc, HUGE)) == scale_answer(base, HUGE)
    backend = data.draw(st.sampled_from(BACKENDS))
    assert answer(doc, backend, "solver") == base
