"""Advice: the suggestion that tells the suggester the most about the envelope, and when to accuse.

The score of a suggestion is the mutual information (bits) between the envelope triple and what the
suggester will see (who shows, and which card; a player holding several of the cards is assumed to show
one at random).  It is estimated from deals drawn uniformly from the consistent deals (exact sampling from
the counts of :mod:`.counting`) with the Miller-Madow bias correction, so the scores are labelled as
estimates; the envelope's entropy and the
certainty of an accusation are exact.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sleuth.errors import InternalError, PuzzleError
from sleuth.results import Report, Status, decimal
from sleuth.schema import Names

from .counting import sample_deals
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


def suggest_report(puzzle: CluePuzzle, opts: Mapping[str, Any]) -> Report:
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
    deals = sample_deals(puzzle.problem(), samples, random.Random(seed))
    n = len(game.players)
    ranking = []
    for s in game.deck.members(0):
        for w in game.deck.members(1):
            for r in rooms:
                ranking.append((information(deals, by, (s, w, r), n), (s, w, r)))
    ranking.sort(key=lambda x: (-x[0], x[1]))
    rows = [{"suspect": game.card(t[0]), "weapon": game.card(t[1]), "room": game.card(t[2]),
             "information": round(info, 4)} for info, t in ranking[:top]]
    best = round(ranking[0][0], 4)
    tied = sum(1 for info, _ in ranking if round(info, 4) == best)
    fields.update(suggestion=rows[0], ranking=rows, samples=samples, estimate=True, tied=tied)
    lines.append(f"Envelope entropy now: {entropy:.3f} bits over {sum(1 for k in triples.values() if k)} "
                 "possible triples (exact).")
    lines.append(f"Expected information about the envelope (bits, estimated from {samples} deals drawn "
                 f"uniformly from the {counts.total} consistent deals; seed {seed}):")
    for row in rows:
        mark = "  (tie)" if tied > 1 and row["information"] == best else ""
        lines.append(f"  {row['information']:.3f}  {row['suspect']}, {row['weapon']}, {row['room']}{mark}")
    lines.append(f"The score is how much the answer to the suggestion is expected to tell {game.players[by]} "
                 f"about the envelope, in bits: each bit halves the possible envelopes on average (of the "
                 f"{entropy:.3f} bits still unknown). Higher is better.")
    if tied > 1:
        lines.append(f"{tied} suggestions tie for the best score: any of them is as good (listed in the deck's "
                     "order; --set top=N lists more).")
    if len(ranking) > len(rows):
        lines.append(f"Listed: the {len(rows)} best of {len(ranking)} suggestions (--set top=N lists more, "
                     "--json gives the same list with exact fields).")
    return Report(puzzle.game, Status.OK, fields, "\n".join(lines))


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
