"""Advice: the suggestion that tells the suggester the most about the envelope, and when to accuse.

The score of a suggestion is the mutual information (bits) between the envelope triple and what the
suggester will see (who shows, and which card; a player holding several of the cards shows one at random),
deals uniform over those consistent with the file.  It is computed exactly (:func:`exact_information`:
counting passes kept apart by the holders of the suggested cards and by the envelope); past
:data:`EXACT_BUDGET`, or with ``--method sampled``, it is estimated from deals drawn uniformly from the
consistent deals with the Miller-Madow bias correction, and labelled so.  The envelope's entropy and the
certainty of an accusation are exact.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sleuth.errors import InternalError, PuzzleError
from sleuth.results import Report, Status, decimal
from sleuth.schema import Names

import numpy as np

from .counting import Problem, _Counter, sample_deals
from .sheet import counted_sheet

if TYPE_CHECKING:
    from .puzzle import CluePuzzle

DEFAULT_SAMPLES = 1000


def information(deals: list[tuple[int, ...]], by: int, triple: tuple[int, int, int], n: int) -> float:
    """Estimated mutual information between the envelope and the answer to ``triple`` asked by ``by``."""
    joint: dict[tuple[Any, Any], float] = defaultdict(float)
    for deal in deals:
        key_env = tuple(sorted(c for c, p in enumerate(deal) if p == n))
        outcome: list[tuple[Any, float]] = [(None, 1.0)]
        for i in range(1, n):
            p = (by + i) % n
            held = [c for c in triple if deal[c] == p]
            if held:
                outcome = [((p, c), 1.0 / len(held)) for c in held]
                break
        for o, w in outcome:
            joint[(o, key_env)] += w
    total = float(len(deals))
    p_o: dict[Any, float] = defaultdict(float)
    p_e: dict[Any, float] = defaultdict(float)
    for (o, e), w in joint.items():
        p_o[o] += w
        p_e[e] += w
    mi = 0.0
    for (o, e), w in joint.items():
        mi += (w / total) * math.log2(w * total / (p_o[o] * p_e[e]))
    # Miller-Madow correction of the plug-in estimate's upward bias (fewer samples than joint cells).
    bias = (len(joint) - len(p_o) - len(p_e) + 1) / (2 * total * math.log(2))
    return max(mi - bias, 0.0)


@dataclass(frozen=True)
class Score:
    """The exact mutual information (bits) of one suggestion, and a key equal for two suggestions exactly
    when their sums have the same terms (then the two are tied exactly, not just to float precision)."""

    bits: float
    key: tuple[tuple[int, int], ...]


EXACT_BUDGET = 5_000_000   # counting states (summed over the passes) the exact advice may take, ~5 s on one core


def exact_work(problem: Problem, suggestions: Sequence[tuple[int, int, int]]) -> int:
    """An estimate of :func:`exact_information`'s work, in counting states: one pass per suggestion up to
    symmetry, each about the size of the plain count's layers (all of them) plus a fixed cost of 1000."""
    reduced = problem.propagate()
    if reduced is None:
        return 0
    counter = _Counter(reduced, True)
    counter.run()
    size = sum(layer.size for layer in counter.layers)
    rep = _representatives(reduced)
    return len({(rep[t[0]], rep[t[1]], rep[t[2]]) for t in suggestions}) * (size + 1000)


def _representatives(reduced: Problem) -> dict[int, int]:
    """Per card, the first card interchangeable with it (same category and place mask, named by no
    shown-card set or accusation)."""
    named = {c for _, s in reduced.some for c in s} | {c for t in reduced.excluded for c in t}
    first: dict[tuple[int, int], int] = {}
    return {c: c if c in named else first.setdefault((reduced.card_category[c], m), c)
            for c, m in enumerate(reduced.allowed)}


def exact_information(problem: Problem, by: int, suggestions: Sequence[tuple[int, int, int]],
                      options: Mapping[str, Any] | None = None) -> dict[tuple[int, int, int], Score]:
    """The exact mutual information between the envelope and what ``by`` sees after each suggestion: who
    shows and which card (a player holding several of the cards shows each with probability 1/|held|),
    deals uniform over those consistent with ``problem``.

    One counting pass per suggestion up to symmetry (cards that share a category and a place mask and that
    no shown-card set or accusation names are interchangeable: swapping them changes no score), kept apart
    by the holder of each suggested card and by the envelope (:meth:`.counting._Counter.split`): the joint
    distribution of (envelope, answer) read off the rows.  {} when no deal is consistent.  Raises
    :class:`.counting.LayerTooLarge` past the budget."""
    reduced = problem.propagate()
    if reduced is None:
        return {}
    rep = _representatives(reduced)
    scores: dict[tuple[int, int, int], Score] = {}
    out = {}
    for t in suggestions:
        r = (rep[t[0]], rep[t[1]], rep[t[2]])
        if r not in scores:
            scores[r] = _information(reduced, by, r, options)
        out[t] = scores[r]
    return out if all(s.key for s in scores.values()) else {}   # no key: no consistent deal


def _information(prob: Problem, by: int, triple: tuple[int, int, int],
                 options: Mapping[str, Any] | None) -> Score:
    """:func:`exact_information` of one suggestion (``prob`` propagated)."""
    n = prob.n
    counter = _Counter(prob, True, refine=lambda c: ("single", c) if c in triple else None)
    watched = [(c, q) for c in triple for q in range(n)]
    records, counts, _ = counter.split(None, watched, by_envelope=True, options=options)
    _, bit = counter.record_layout
    envelope = records >> counter.record_width
    holder = []   # the player holding each suggested card (n: none, the card is in the envelope)
    for c in triple:
        h = np.full(len(counts), n, dtype=np.int64)
        for q in range(n):
            if (c, q) in bit:
                h[((records >> bit[(c, q)]) & 1).astype(bool)] = q
        holder.append(h)
    shower = np.full(len(counts), -1, dtype=np.int64)
    for i in range(n - 1, 0, -1):  # the first player clockwise from the suggester who holds a card shows
        q = (by + i) % n
        shower[(holder[0] == q) | (holder[1] == q) | (holder[2] == q)] = q
    held = sum((h == shower).astype(np.int64) for h in holder)
    weight = np.array(counts, dtype=object if isinstance(records, np.ndarray) and records.dtype == object
                      or max(counts, default=0) >= 1 << 59 else np.int64)
    envs, answers, weights = [envelope[shower < 0]], [np.full(int((shower < 0).sum()), -1)], [6 * weight[shower < 0]]
    for j, h in enumerate(holder):   # each held card shown with probability 1 / held: weight 6 / held
        rows = np.flatnonzero(h == shower)
        envs.append(envelope[rows])
        answers.append(shower[rows] * 3 + j)
        weights.append(6 // held[rows] * weight[rows])
    joint: dict[tuple[int, int], int] = defaultdict(int)
    per_env: dict[int, int] = defaultdict(int)
    per_answer: dict[int, int] = defaultdict(int)
    for e, a, w in zip(np.concatenate(envs).tolist(), np.concatenate(answers).tolist(),
                       np.concatenate(weights).tolist(), strict=True):
        joint[(e, a)] += w
        per_env[e] += w
        per_answer[a] += w
    total = sum(per_env.values())
    if not total:
        return Score(0.0, ())
    terms = sorted((w, per_env[e] * per_answer[a]) for (e, a), w in joint.items())
    bits = sum(w / total * (math.log2(w) + math.log2(total) - math.log2(pe)) for w, pe in terms)
    return Score(max(bits, 0.0), tuple(terms))


def suggest_report(puzzle: CluePuzzle, opts: Mapping[str, Any], method: str = "information") -> Report:
    """Rank the suggestions of ``by`` (the viewer by default) by the information they bring about the
    envelope: exact (``information``; the sampled estimate, labelled, past :data:`EXACT_BUDGET`) or
    estimated from sampled deals (``sampled``)."""
    game = puzzle.state
    file = puzzle.doc.file
    by_name = opts.get("by") or (game.players[game.viewer] if game.viewer is not None else None)
    if by_name is None:
        raise PuzzleError("suggest needs the suggester: set viewer in the file, --viewer NAME or --set by=NAME",
                          file=file, place="--viewer", allowed=list(game.players))
    if by_name not in game.players and by_name.casefold() not in [p.casefold() for p in game.players]:
        raise PuzzleError(f"unknown player {by_name!r}", file=file, place="--set by", allowed=list(game.players))
    by = [p.casefold() for p in game.players].index(by_name.casefold())
    rooms = list(game.deck.members(2))
    if "room" in opts:
        names = {game.card(c).casefold(): c for c in rooms}
        room = names.get(str(opts["room"]).casefold())
        if room is None:
            raise PuzzleError(f"unknown room {opts['room']!r}", file=file, place="--set room",
                              allowed=[game.card(c) for c in rooms])
        rooms = [room]
    samples = puzzle.integer(opts, "samples", DEFAULT_SAMPLES, 10, 100_000)
    seed = puzzle.integer(opts, "seed", 0, 0, 2**31)
    top = puzzle.integer(opts, "top", 5, 1, 1000)
    counts = puzzle.counts(triples=True)
    if counts.total == 0:
        return Report(puzzle.game, Status.CONTRADICTION, {}, conflict=puzzle.conflict())
    triples = counts.triples
    if triples is None:
        raise InternalError("deal counts asked per envelope triple came without them")
    sheet = counted_sheet(counts)
    envelope = sheet.envelope(game)
    certain = all(envelope.values())
    entropy = -sum((k / counts.total) * math.log2(k / counts.total) for k in triples.values() if k)
    fields: dict[str, Any] = {"by": game.players[by], "certain": certain,
                              "accusation": envelope if certain else None, "envelope_entropy": round(entropy, 4)}
    lines = [f"Suggestions for {game.players[by]}"]
    if certain:
        lines.append(f"Accuse now: {envelope['suspect']} with the {envelope['weapon']} in the {envelope['room']} "
                     "(certain: every consistent deal has this envelope).")
        fields.update(suggestion=None, ranking=[], samples=0)
        return Report(puzzle.game, Status.OK, fields, "\n".join(lines))
    n = len(game.players)
    suggestions = [(s, w, r) for s in game.deck.members(0) for w in game.deck.members(1) for r in rooms]
    exact: dict[tuple[int, int, int], Score] = {}
    if method == "information":
        work = exact_work(puzzle.problem(), suggestions)
        if work <= EXACT_BUDGET:
            exact = exact_information(puzzle.problem(), by, suggestions, opts)
        else:
            puzzle.doc.note(f"the exact information of every suggestion is past the budget (about {work:,} counting "
                            f"states, more than {EXACT_BUDGET:,}): the scores are estimated from {samples} sampled "
                            "deals", "--method")
    if exact:
        ranked = sorted(exact.items(), key=lambda x: (-x[1].bits, x[1].key, x[0]))
        rank, ranks = 0, []
        for i, (_, score) in enumerate(ranked):   # equal exact sums share a rank
            if i == 0 or score.key != ranked[i - 1][1].key:
                rank = i + 1
            ranks.append(rank)
        rows = [{"suspect": game.card(t[0]), "weapon": game.card(t[1]), "room": game.card(t[2]),
                 "information": round(score.bits, 4), "rank": r} for (t, score), r in zip(ranked, ranks, strict=True)]
        best = sum(1 for r in ranks if r == 1)
        shown = rows[:max(top, 0)]
        fields.update(suggestion=rows[0], ranking=shown, samples=0, estimate=False, tied_best=best)
        lines.append(f"Envelope entropy now: {entropy:.3f} bits over {sum(1 for k in triples.values() if k)} "
                     "possible triples (exact).")
        lines.append("Information about the envelope (bits, exact over the "
                     f"{counts.total} consistent deals): how much, on average, what {game.players[by]} will see "
                     "(who shows, and which card) lowers the uncertainty about the envelope.")
        for row in shown:
            tie = " (tie)" if sum(1 for r in ranks if r == row["rank"]) > 1 else ""
            lines.append(f"  {row['rank']:>3}. {row['information']:.4f}  {row['suspect']}, {row['weapon']}, "
                         f"{row['room']}{tie}")
        if best > 1:
            lines.append(f"{best} suggestions tie for the most information (exactly equal sums).")
        left = [r for r in rows[len(shown):] if r["rank"] == shown[-1]["rank"]]
        if left:
            lines.append(f"  ... and {len(left)} more tied with the last one listed.")
        lines += _score_words(game.players[by], entropy, len(shown), len(rows))
        return Report(puzzle.game, Status.OK, fields, "\n".join(lines))
    deals = sample_deals(puzzle.problem(), samples, random.Random(seed))
    ranking = []
    for t in suggestions:
        ranking.append((information(deals, by, t, n), t))
    ranking.sort(key=lambda x: (-x[0], x[1]))
    rows = [{"suspect": game.card(t[0]), "weapon": game.card(t[1]), "room": game.card(t[2]),
             "information": round(info, 4)} for info, t in ranking[:top]]
    best_info = round(ranking[0][0], 4)
    tied = sum(1 for info, _ in ranking if round(info, 4) == best_info)
    fields.update(suggestion=rows[0], ranking=rows, samples=samples, estimate=True, tied=tied)
    lines.append(f"Envelope entropy now: {entropy:.3f} bits over {sum(1 for k in triples.values() if k)} "
                 "possible triples (exact).")
    lines.append(f"Expected information about the envelope (bits, estimated from {samples} deals drawn "
                 f"uniformly from the {counts.total} consistent deals; seed {seed}; approximate):")
    for row in rows:
        mark = "  (tie)" if tied > 1 and row["information"] == best_info else ""
        lines.append(f"  {row['information']:.3f}  {row['suspect']}, {row['weapon']}, {row['room']}{mark}")
    lines += _score_words(game.players[by], entropy, len(rows), len(ranking))
    if tied > 1:
        lines.append(f"{tied} suggestions tie for the best score: any of them is as good (listed in the deck's "
                     "order; --set top=N lists more).")
    return Report(puzzle.game, Status.OK, fields, "\n".join(lines))


def _score_words(who: str, entropy: float, listed: int, total: int) -> list[str]:
    """What the score means, in words, and whether the list is cut (both advice methods)."""
    lines = [f"The score is how much the answer to the suggestion is expected to tell {who} about the envelope, "
             f"in bits: each bit halves the possible envelopes on average (of the {entropy:.3f} bits still "
             "unknown). Higher is better."]
    if total > listed:
        lines.append(f"Listed: the {listed} best of {total} suggestions (--set top=N lists more, --json gives the "
                     "same list with exact fields).")
    return lines


def show_report(puzzle: CluePuzzle, opts: Mapping[str, Any]) -> Report:
    """``--set show="BY: SUSPECT, WEAPON, ROOM"``: the viewer must answer this suggestion; which of their
    cards reveals least to the suggester (exact, over the viewer's worlds)."""
    from .others import show_advice
    game, file, place = puzzle.state, puzzle.doc.file, "--show"
    form = "'PLAYER: SUSPECT, WEAPON, ROOM' (the suggestion the viewer must answer)"
    if game.viewer is None:
        raise PuzzleError("show needs the viewer who shows: set viewer in the file or --viewer NAME",
                          file=file, place="--viewer", allowed=list(game.players))
    by_name, sep, rest = str(opts["show"]).partition(":")
    names = [x.strip() for x in rest.split(",")]
    if not sep or len(names) != 3:
        raise PuzzleError(f"cannot read {opts['show']!r}", file=file, place=place, allowed=form)
    try:
        by = Names("player", game.players).index(by_name.strip())
        cards = sorted(game.card_names.index(x) for x in names)
    except PuzzleError as exc:
        raise PuzzleError(exc.message, file=file, place=place, allowed=exc.allowed) from None
    if sorted(game.deck.category(c) for c in cards) != [0, 1, 2]:
        raise PuzzleError("the suggestion must name one suspect, one weapon and one room", file=file,
                          place=place, allowed=form)
    if by == game.viewer:
        raise PuzzleError("the viewer does not show a card to themselves", file=file, place=place,
                          allowed=[p for i, p in enumerate(game.players) if i != by])
    held = [c for c in cards if c in game.hands[game.viewer]]
    if not held:
        raise PuzzleError(f"{game.players[game.viewer]}'s hand holds none of these cards", file=file,
                          place=place, allowed=[game.card(c) for c in game.hands[game.viewer]] or "a listed hand")
    rows = show_advice(game, by, (cards[0], cards[1], cards[2]))
    if not rows:
        n = len(game.players)
        between = [game.players[(by + i) % n] for i in range(1, (game.viewer - by) % n)]
        raise PuzzleError(f"no deal lets this suggestion reach {game.players[game.viewer]}: "
                          f"{' or '.join(between) or 'nobody'} must hold one of the cards",
                          file=file, place=place, allowed="a suggestion the viewer can be the one to answer")
    ranked = [_advice(r) for r in rows]
    fields: dict[str, Any] = {
        "by": game.players[by], "show": game.card(ranked[0][0]),
        "ranking": [{"card": game.card(card), "entropy": round(entropy, 4), "knows_envelope": knows}
                    for card, entropy, knows in ranked]}
    lines = [f"{game.players[game.viewer]} shows {game.players[by]} one of: "
             + ", ".join(game.card(c) for c in held),
             f"What {game.players[by]} then knows (exact expectation over {game.players[game.viewer]}'s worlds):",
             f"  {'card':<16} {'envelope entropy (bits)':>24} {'P(knows the envelope)':>22}"]
    for r in fields["ranking"]:
        lines.append(f"  {r['card']:<16} {r['entropy']:>24.4f} {decimal(r['knows_envelope']):>22}")
    lines.append(f"Show {fields['show']} (reveals least: highest entropy left, then lowest chance of knowing).")
    return Report(puzzle.game, Status.OK, fields, "\n".join(lines))


def _advice(row: Mapping[str, object]) -> tuple[int, float, object]:
    """One row of :func:`.others.show_advice` typed: (card, envelope entropy, P(the suggester knows it))."""
    card, entropy = row["card"], row["entropy"]
    if not isinstance(card, int) or not isinstance(entropy, float):
        raise InternalError(f"malformed advice row {row!r}")
    return card, entropy, row["knows"]
