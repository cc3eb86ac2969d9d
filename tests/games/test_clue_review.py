"""Clue's review against a brute force written here: every deal of a small deck enumerated, the information of
each suggestion of the viewer computed from its definition (mutual information between the envelope and who
shows which card, a player holding several of the three showing each alike), exact fractions inside."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from sleuth.cli import main
from sleuth.models.clue.review import ShowReview, SuggestionReview, review
from sleuth.loading import loads

PLAYERS = ["Ann", "Bob", "Cat"]
SUSPECTS, WEAPONS, ROOMS = ["Ash", "Birch", "Cedar"], ["Axe", "Bow", "Club"], ["Attic", "Barn", "Cellar"]
HAND = ["Ash", "Axe", "Attic"]   # Ann's: the viewer
FILE = f"""
game = "clue"
players = {json.dumps(PLAYERS)}
hand_sizes = [2, 2, 2]
viewer = "Ann"
[deck]
suspects = {json.dumps(SUSPECTS)}
weapons = {json.dumps(WEAPONS)}
rooms = {json.dumps(ROOMS)}
[hands]
Ann = ["Ash", "Axe"]
[[suggestion]]
by = "Bob"
cards = ["Birch", "Club", "Barn"]
shown_by = "Cat"
[[suggestion]]
by = "Ann"
cards = ["Cedar", "Bow", "Barn"]
shown_by = "Bob"
card = "Bow"
[[suggestion]]
by = "Cat"
cards = ["Ash", "Axe", "Cellar"]
shown_by = "Ann"
card = "Axe"
[[suggestion]]
by = "Ann"
cards = ["Birch", "Club", "Cellar"]
"""


def deals() -> list[dict[str, str]]:
    """Every deal: one envelope card per category, the other six cards two per player."""
    out = []
    for env in itertools.product(SUSPECTS, WEAPONS, ROOMS):
        rest = [c for c in SUSPECTS + WEAPONS + ROOMS if c not in env]
        for perm in itertools.permutations(rest):
            hands = [sorted(perm[0:2]), sorted(perm[2:4]), sorted(perm[4:6])]
            if list(perm) != hands[0] + hands[1] + hands[2]:
                continue
            d = {c: "envelope" for c in env}
            d.update({c: PLAYERS[i] for i, h in enumerate(hands) for c in h})
            out.append(d)
    return out


def answers(d: dict[str, str], by: str, cards: tuple[str, ...]) -> list[tuple[Fraction, tuple[str, str] | None]]:
    """What ``by`` sees, with its probability: the first player clockwise holding a card shows one of them."""
    i = PLAYERS.index(by)
    for step in range(1, len(PLAYERS)):
        q = PLAYERS[(i + step) % len(PLAYERS)]
        held = [c for c in cards if d[c] == q]
        if held:
            return [(Fraction(1, len(held)), (q, c)) for c in held]
    return [(Fraction(1), None)]


def shower(d: dict[str, str], by: str, cards: tuple[str, ...]) -> str | None:
    i = PLAYERS.index(by)
    return next((q for q in (PLAYERS[(i + k) % len(PLAYERS)] for k in range(1, len(PLAYERS)))
                 if any(d[c] == q for c in cards)), None)


def consistent(d: dict[str, str], suggestions: list[tuple[str, tuple[str, ...], str | None]]) -> bool:
    """Ann's hand, and each earlier suggestion's public outcome (who showed, or nobody)."""
    return d["Ash"] == "Ann" and d["Axe"] == "Ann" and all(shower(d, by, cards) == q for by, cards, q in suggestions)


def test_suggestions_match_brute_force() -> None:
    r = review(loads(FILE))
    asks = [m for m in r.moves if isinstance(m, SuggestionReview)]
    assert [m.move for m in asks] == [2, 4]
    # the positions: before move 2, Bob's suggestion (Cat showed, card unseen); before move 4 also Ann's own (Bob
    # showed Bow, which Ann saw) and Cat's (Ann showed Axe)
    everything = deals()
    before2 = [d for d in everything if consistent(d, [("Bob", ("Birch", "Club", "Barn"), "Cat")])]
    before4 = [d for d in before2 if consistent(d, [("Ann", ("Cedar", "Bow", "Barn"), "Bob"),
                                                    ("Cat", ("Ash", "Axe", "Cellar"), "Ann")])
               and d["Bow"] == "Bob"]
    # the advice's model (docs/clue.md): deals uniform over those consistent with the file, a card seen a fact of
    # the deal (Bob holds Bow), not weighed by the chance that Bob picked it among the cards he holds
    weights = {id(d): Fraction(1) for d in before4}
    for move, worlds in ((asks[0], before2), (asks[1], before4)):
        room = move.cards[2]
        scores = {}
        for s, w in itertools.product(SUSPECTS, WEAPONS):
            scores[(s, w, room)] = _weighted_mi(worlds, (s, w, room), None if move is asks[0] else weights)
        mine = scores[move.cards]
        top = max(scores.values())
        assert move.information == pytest.approx(mine, abs=1e-9)
        assert move.best == pytest.approx(top, abs=1e-9)
        assert move.regret == pytest.approx(top - mine, abs=1e-9)
        best = sorted(t for t, v in scores.items() if abs(v - top) < 1e-9)
        assert move.best_count == len(best) and sorted(move.best_suggestions) == best[:10]
        assert move.rank == 1 + sum(1 for v in scores.values() if v > mine + 1e-9)
        assert move.of == 9
        every = [_weighted_mi(worlds, t, None if move is asks[0] else weights)
                 for t in itertools.product(SUSPECTS, WEAPONS, ROOMS)]
        assert move.best_any_room == pytest.approx(max(every), abs=1e-9)


def _weighted_mi(worlds: list[dict[str, str]], cards: tuple[str, ...],
                 weights: dict[int, Fraction] | None) -> float:
    joint: Counter[tuple[tuple[str, ...], object]] = Counter()
    for d in worlds:
        env = tuple(sorted(c for c, p in d.items() if p == "envelope"))
        for p, a in answers(d, "Ann", cards):
            joint[(env, a)] += p * (weights[id(d)] if weights else 1)   # type: ignore[assignment]
    total = sum(joint.values())
    pe: Counter[object] = Counter()
    pa: Counter[object] = Counter()
    for (e, a), w in joint.items():
        pe[e] += w
        pa[a] += w
    return sum(float(w / total) * math.log2(float(w * total / (pe[e] * pa[a]))) for (e, a), w in joint.items())


def test_show_fields() -> None:
    r = review(loads(FILE))
    shows = [m for m in r.moves if isinstance(m, ShowReview)]
    assert len(shows) == 1
    s = shows[0]
    assert s.move == 3 and s.to == "Cat" and s.shown == "Axe" and set(s.choices) == {"Ash", "Axe"}
    assert s.revealed == pytest.approx(s.entropy_before - s.entropy_after)
    assert s.regret == pytest.approx(s.revealed - s.least_revealed, abs=1e-12) and s.regret >= 0
    assert s.least == s.choices[0] and 0 <= s.knows <= 1


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "c.toml"
    f.write_text(FILE)
    assert main(["review", str(f), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["kind"] for m in data["moves"]] == ["suggestion", "show", "suggestion"]
    assert data["viewer"] == "Ann" and isinstance(data["regret"], float)
    png = tmp_path / "c.png"
    assert main(["review", str(f), "--plot", str(png)]) == 0 and png.read_bytes()[:4] == b"\x89PNG"
    capsys.readouterr()
    f.write_text(FILE.replace('viewer = "Ann"\n', ""))
    assert main(["review", str(f)]) == 2
    assert "name the viewer" in capsys.readouterr().err


WARM_THEN_REVIEW = """import json, sys
from sleuth.loading import load_puzzle
from sleuth.models.clue.review import review
if sys.argv[1] == "warm":  # what the companion's background answers start from: the kernels loaded, answers given
    from sleuth.models.clue.companion import warm
    warm()
print(json.dumps(review(load_puzzle("example:clue/classic-3-players")).to_json()))
"""


def test_review_numbers_are_the_same_floats_in_every_process() -> None:
    """The bits of a shown card's review do not depend on what the process did before (the companion's warmed
    processes ran the passes compiled, in another order: the last bit differed) nor on the compiled kernels."""
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    def run(mode: str, env: dict[str, str]) -> dict[str, object]:
        res = subprocess.run([sys.executable, "-c", WARM_THEN_REVIEW, mode], capture_output=True, text=True,
                             timeout=600, check=False, cwd=ROOT, env={**os.environ, **env})
        assert res.returncode == 0, res.stderr
        data: dict[str, object] = json.loads(res.stdout)
        return data

    cold = run("cold", {})
    assert any(m["kind"] == "show" for m in cold["moves"])  # type: ignore[attr-defined]
    assert run("warm", {}) == cold
    assert run("cold", {"SLEUTH_CLUE_KERNEL": "numpy"}) == cold
