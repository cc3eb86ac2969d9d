"""Issue 51: the code-breaking table's proven bounds read from a checkpoint (``--from-checkpoint``, no search)
against brute force, and docs/mastermind.md's table against the shipped data files it is generated from."""

from __future__ import annotations

import json
import random

import pytest

from sleuth.models.motus.codes import PegSpace
from sleuth.models.motus.symmetry import SymmetricSearch

from tests.conftest import ROOT, run_cli
from tests.helpers.motus_brute import brute_total, pegs_feedback


def _feedback(family: str):
    if family == "black":
        return lambda g, s: sum(a == b for a, b in zip(g, s, strict=True))
    return pegs_feedback  # bulls and cows: black and white pegs without repeats


@pytest.mark.parametrize(("family", "pegs", "colours"), [("mastermind", 3, 3), ("bullscows", 2, 5),
                                                         ("black", 3, 3), ("bullscows", 4, 4)])
def test_bounds_from_a_checkpoint_hold_the_brute_force_optimum(tmp_path, family: str, pegs: int,
                                                                colours: int) -> None:
    space = PegSpace(pegs=pegs, colours=colours, family=family)
    truth = brute_total(space.answers, space.answers, _feedback(family))
    path = tmp_path / "c.jsonl"
    assert SymmetricSearch(space, checkpoint=str(path)).result()["total"] == truth
    full = SymmetricSearch(space, checkpoint=str(path)).bounds()  # every class the search finished
    assert full["exact"] and full["lower"] == full["upper"] == full["total"] == truth
    lines = path.read_text().splitlines()
    rng = random.Random(51)
    for keep in (0, len(lines) // 3, len(lines) // 2, len(lines) - 2):
        part = tmp_path / f"p{keep}.jsonl"
        part.write_text("\n".join([lines[0], *rng.sample(lines[1:], max(0, keep))]) + "\n")
        b = SymmetricSearch(space, checkpoint=str(part)).bounds()
        assert b["lower"] <= truth <= b["upper"], (keep, b)
        assert b["exact"] == (b["lower"] == b["upper"])
        assert all(o["lower"] >= b["lower"] and 0 <= o["classes_exact"] <= o["classes"] for o in b["openers"])
    empty = SymmetricSearch(space, checkpoint=str(tmp_path / "new.jsonl")).bounds()
    assert empty["lower"] <= truth and empty["lower"] >= int(SymmetricSearch(space).search.lbt[40, len(
        space.answers)])


def test_from_checkpoint_on_the_command_line(tmp_path) -> None:
    args = ["experiment", "wordle", "--mastermind-table", "--cells", "bullscows:3x5", "--symmetry", "2",
            "--checkpoint", tmp_path, "--json"]
    done = json.loads(run_cli(args).out)["cells"][0]
    read = run_cli([*args, "--from-checkpoint"])
    assert read.code == 0, read.err
    row = json.loads(read.out)["cells"][0]
    assert row["exact"] and row["total"] == done["total"] and "kernel_calls" not in row
    bad = run_cli(["experiment", "wordle", "--mastermind-table", "--cells", "bullscows:3x5", "--from-checkpoint"])
    assert bad.code == 2 and "--checkpoint" in bad.err and len(bad.err.strip().splitlines()) == 1


def test_the_docs_table_is_the_data_files_one() -> None:
    from sleuth.models.motus.table_doc import BLOCK, render

    page = (ROOT / "docs" / "mastermind.md").read_text(encoding="utf-8")
    assert BLOCK.search(page), "docs/mastermind.md has no generated table"
    assert render(page) == page, "run: python -m sleuth.models.motus.table_doc docs/mastermind.md"


@pytest.mark.parametrize(("family", "pegs", "colours", "seed"), [("bullscows", 4, 6, 1), ("mastermind", 3, 4, 2),
                                                                 ("black", 3, 4, 3), ("bullscows", 3, 6, 4)])
def test_the_symmetries_of_a_class_keep_it_and_every_feedback(family: str, pegs: int, colours: int,
                                                               seed: int) -> None:
    import numpy as np

    from sleuth.models.motus.optimal import Optimal
    from sleuth.models.motus.symmetry import class_reps, class_symmetries, guess_bounds

    space = PegSpace(pegs=pegs, colours=colours, family=family)
    m = space.matrix()
    rng = np.random.default_rng(seed)
    first, second = rng.choice(len(space.guesses), 2, replace=False)
    everything = np.arange(len(space.answers))
    answers = everything[(m[first] == m[first, 0]) & (m[second] == m[second, 0])]  # a class after two guesses
    images, complete = class_symmetries(space, answers)
    for img in images:
        assert sorted(img[answers]) == sorted(answers)  # the class onto itself (guesses and codes are one list)
        assert (m[np.ix_(img, img)] == m).all()  # every feedback kept
    assert complete or len(images) > 0
    reps = class_reps(space, lambda: everything, answers, everything)  # (ids: no symmetry of the guesses)
    search = Optimal(space)
    values = {int(g): search.guess_value(int(g), answers) for g in everything}
    by_rep = {int(r): values[int(r)] for r in reps}
    assert min(by_rep.values()) == min(values.values())  # one guess per orbit keeps the optimum
    assert (guess_bounds(search, answers, everything) == search.guess_bounds(answers, everything, 0)).all()


def test_the_shipped_runs_agree_and_a_sample_rederives() -> None:
    """Every shipped run of the table (:data:`.table_doc.RUNS`) within the plain run's bounds and the others'
    (equal where exact, published values within), the checkpoint run's row up to date with its checkpoint,
    and a random small exact cell of each run derived again."""
    from sleuth.models.motus.codes import PUBLISHED, PUBLISHED_AVERAGE
    from sleuth.models.motus.table_doc import RUNS, load

    seen: dict[tuple[str, int, int], list[dict]] = {}
    for name, _, _ in RUNS:
        for r in load(name):
            assert r["lower"] <= r["upper"] and (not r["exact"] or r["lower"] == r["total"] == r["upper"]), r
            seen.setdefault((r["family"], r["pegs"], r["colours"]), []).append(r)
    for cell, rows in seen.items():
        assert max(r["lower"] for r in rows) <= min(r["upper"] for r in rows), cell
        pub = PUBLISHED.get(cell, (None, ""))[0]
        if pub is not None:
            assert all(r["lower"] <= pub <= r["upper"] for r in rows), cell
        if cell in PUBLISHED_AVERAGE:
            exact = [r for r in rows if r["exact"]]
            assert all(round(r["total"] / r["codes"], 3) == PUBLISHED_AVERAGE[cell] for r in exact), cell
    for name, where in (("mastermind-table-checkpoints.resume", "checkpoints"),
                        ("mastermind-table-partial.resume", "table-checkpoints")):
        for r in load(name):
            path = ROOT / "models" / "motus" / "data" / where / f"{r['family']}-{r['pegs']}x{r['colours']}.jsonl"
            lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
            assert r["saved_classes"] == len({(x["h1"], x["h2"]) for x in lines}), f"{name} is older than {path}"
    rng = random.Random(51)
    for name, _, _ in RUNS:
        small = [r for r in load(name) if r["exact"] and 20 <= r["codes"] <= 400 and r["cpu_seconds"] < 0.5]
        for r in rng.sample(small, min(1, len(small))):
            space = PegSpace(pegs=r["pegs"], colours=r["colours"], family=r["family"])
            assert SymmetricSearch(space).result()["total"] == r["total"], (name, r)


@pytest.mark.parametrize(("family", "pegs", "colours", "brute"), [("black", 3, 3, True), ("mastermind", 3, 3, True),
                                                                  ("bullscows", 4, 4, True), ("black", 3, 5, False),
                                                                  ("mastermind", 4, 4, False)])
def test_isomorphic_classes_take_a_solved_value(family: str, pegs: int, colours: int, brute: bool) -> None:
    """A class that a symmetry maps onto a class already solved takes its value: the same totals as the search
    without it (and brute force on the smallest cells), at two and three levels of symmetry."""
    space = PegSpace(pegs=pegs, colours=colours, family=family)
    truth = brute_total(space.answers, space.answers, _feedback(family)) if brute else None
    for levels in (2, 3):
        plain = SymmetricSearch(space, levels=levels, iso=False).result()
        iso = SymmetricSearch(space, levels=levels).result()
        assert plain["exact"] and iso["exact"] and iso["total"] == plain["total"], (levels, iso, plain)
        assert truth is None or iso["total"] == truth
        assert plain["iso_hits"] == 0 and (brute or iso["iso_hits"] > 0)


def test_isomorphic_finds_real_symmetries_only() -> None:
    """:func:`isomorphic` is True for a class and its image under a random symmetry, and every True it gives
    between classes after two random guesses is a map that keeps the optimal value (checked by the search)."""
    import numpy as np

    from sleuth.models.motus.optimal import Optimal
    from sleuth.models.motus.symmetry import ISO_MIN, isomorphic

    assert ISO_MIN > 2
    rng = np.random.default_rng(51)
    for family, pegs, colours in (("mastermind", 3, 5), ("black", 3, 5), ("bullscows", 3, 6)):
        space = PegSpace(pegs=pegs, colours=colours, family=family)
        m, codes, search = space.matrix(), space.answer_array.astype(np.int64), Optimal(space)
        keys = {w: i for i, w in enumerate(space.answers)}
        classes = []
        for _ in range(12):
            a, b = rng.choice(len(space.guesses), 2, replace=False)
            secret = rng.integers(len(space.answers))
            cls = np.flatnonzero((m[a] == m[a, secret]) & (m[b] == m[b, secret]))
            classes.append(cls)
            perm, sigma = rng.permutation(pegs), rng.permutation(colours)
            image = np.sort([keys["".join(space.symbols[sigma[s]] for s in codes[i, perm])] for i in cls])
            assert isomorphic(codes[cls], codes[image], colours)
            assert search.value(cls) == search.value(image)
        for x in classes:
            for y in classes:
                if len(x) == len(y) and isomorphic(codes[x], codes[y], colours):
                    assert search.value(x) == search.value(y)
        bigger = np.arange(len(classes[0]) + 1)
        assert not isomorphic(codes[classes[0]], codes[bigger], colours)


def _root(parent: list[int], i: int) -> int:
    while parent[i] != i:
        i = parent[i]
    return i


@pytest.mark.parametrize(("pegs", "colours", "seed"), [(5, 2, 1), (4, 3, 2), (6, 2, 3), (3, 4, 4)])
def test_canonical_names_the_orbits_of_the_guesses_stabiliser(pegs: int, colours: int, seed: int) -> None:
    """:func:`.symmetry.canonical` (by position permutations, or by symbol renamings when there are fewer of
    those) against the orbits found by applying every symmetry that fixes the guesses made."""
    import itertools

    import numpy as np

    from sleuth.models.motus.symmetry import canonical

    codes = np.array(list(itertools.product(range(colours), repeat=pegs)), dtype=np.int8)
    index = {tuple(c): i for i, c in enumerate(codes.tolist())}
    rng = np.random.default_rng(seed)
    for k in (1, 2):
        prefix = codes[rng.choice(len(codes), k, replace=False)]
        ids = canonical(prefix, codes)
        orbit = list(range(len(codes)))
        for perm in itertools.permutations(range(pegs)):
            for sigma in itertools.permutations(range(colours)):
                s = np.array(sigma)
                if (s[prefix[:, list(perm)]] == prefix).all():
                    for i, c in enumerate(codes):
                        a, b = _root(orbit, i), _root(orbit, index[tuple(s[c[list(perm)]])])
                        orbit[max(a, b)] = min(a, b)
        roots = [_root(orbit, i) for i in range(len(codes))]
        assert all((ids[i] == ids[j]) == (roots[i] == roots[j]) for i in range(len(codes))
                   for j in range(i + 1, len(codes)))
