"""``sleuth arena clue``: bots play boardless Clue against each other; win shares with 95% intervals.

Each game is one task of the experiment runtime (:mod:`sleuth.executor`: progress, ``--workers``,
``--cluster``, ``--resume``), dealt from a seed derived from ``--seed`` and the game's index, so that every
game replays exactly whatever the workers.  The line-up is rotated one seat per game: over any ``N``
consecutive games every entry of ``--bots`` sits in every seat once.  Rules and bots: :mod:`.table`,
:mod:`.bots`, docs/arena.md.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from functools import partial
from typing import Any

from sleuth.errors import PuzzleError
from sleuth.executor import Executor, ExperimentParser, add_run_options, bounded, comma_list, task_seed
from sleuth.figures import check_target, pyplot, save

from .bots import bot_names, check_bot, make_bot
from .state import MAX_PLAYERS, NAMED_DECKS, Deck
from .table import play

DEFAULT_BOTS = "sleuth,clauses"
Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (0.0 if wins == 0 else max(0.0, centre - half)), (1.0 if wins == n else min(1.0, centre + half))


def lineup(entries: Sequence[str], game: int) -> list[int]:
    """Which entry of ``entries`` sits in each seat in game ``game`` (rotated one seat per game)."""
    n = len(entries)
    return [(s + game) % n for s in range(n)]


def play_one(job: tuple[str, tuple[str, ...], int, int, float, bool]) -> dict[str, Any]:
    """One task: one game; the winner's entry, the length, each seat's figures, the transcript if asked."""
    deck_name, entries, seed, game, timeout, keep = job
    seats = lineup(entries, game)
    bots = [make_bot(entries[e], timeout) for e in seats]
    result = play(Deck.named(deck_name), bots, task_seed(seed, game), transcript=keep)
    return {"game": game, "winner": None if result.winner is None else seats[result.winner], "turns": result.turns,
            "reason": result.reason,
            "seats": [[seats[s], r.wrong, r.certain_wrong, r.forfeit, r.decisions, r.seconds, r.max_seconds,
                       r.max_cpu] for s, r in enumerate(result.seats)],
            "transcript": result.transcript if keep else None}


def warm(kernels: bool = True, solver: bool = True) -> None:
    """Load what the bots use before the games, so that no decision time includes loading it: sleuth's compiled
    kernels, each variant compiled where the disk cache lacks it (the game's declared warm-up, that of ``sleuth
    cache compile``: about 2.5 s of CPU with the cache warm, tens of seconds once after an install; without it a
    first decision paid 10.7 s compiling), and the CP-SAT solver of the rules' minimal hitting sets."""
    if kernels:
        from .game import SPLIT_KERNEL
        from .kernels import compile_kernels

        if SPLIT_KERNEL.available():
            compile_kernels()
    if solver:
        from sleuth.hitting import minimum_hitting_set

        minimum_hitting_set([frozenset({0, 1}), frozenset({1, 2})])


def summarise(entries: Sequence[str], games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per bot name (entries with the same name together): plays, wins, the win share with its Wilson 95%
    interval, the seat-adjusted share (the mean over seats of the share in that seat), draws, wrong
    accusations, forfeits, the mean turn of its wins and its decision times (wall: mean and maximum; the
    maximum's CPU seconds too, which a machine shared with other work does not inflate)."""
    n = len(entries)
    rows = []
    for name in dict.fromkeys(entries):
        mine = {e for e, x in enumerate(entries) if x == name}
        plays = wins = draws = wrong = certain_wrong = forfeits = decisions = 0
        seconds = worst = worst_cpu = 0.0
        win_turns: list[int] = []
        by_seat = [[0, 0] for _ in range(n)]
        for g in games:
            for seat, (e, w, cw, forfeit, dec, sec, mx, cpu) in enumerate(g["seats"]):
                if e not in mine:
                    continue
                plays += 1
                by_seat[seat][1] += 1
                wrong, certain_wrong, forfeits = wrong + w, certain_wrong + cw, forfeits + (forfeit is not None)
                decisions, seconds, worst = decisions + dec, seconds + sec, max(worst, mx)
                worst_cpu = max(worst_cpu, cpu)
                if g["winner"] == e:
                    wins += 1
                    by_seat[seat][0] += 1
                    win_turns.append(g["turns"])
                elif g["winner"] is None:
                    draws += 1
        lo, hi = wilson(wins, plays)
        seated = [w / p for w, p in by_seat if p]
        rows.append({"bot": name, "entries": len(mine), "plays": plays, "wins": wins,
                     "win_share": wins / plays if plays else 0.0, "interval": [lo, hi],
                     "seat_adjusted": sum(seated) / len(seated) if seated else 0.0,
                     "draws": draws, "wrong_accusations": wrong, "certain_but_wrong": certain_wrong,
                     "forfeits": forfeits,
                     "mean_win_turn": sum(win_turns) / len(win_turns) if win_turns else None,
                     "decisions": decisions, "mean_decision_ms": 1e3 * seconds / decisions if decisions else 0.0,
                     "max_decision_ms": 1e3 * worst, "max_decision_cpu_ms": 1e3 * worst_cpu})
    return rows


def lineup_text(entries: Sequence[str]) -> str:
    """A line-up in words: "1 sleuth, 5 clauses"."""
    return ", ".join(f"{entries.count(name)} {name}" for name in dict.fromkeys(entries))


def plot(path: str, rows: Sequence[dict[str, Any]], title: str, par: float) -> None:
    """Win share per bot with its 95% interval, and par (1 / players)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(rows) + 1.6))
    y = list(range(len(rows)))[::-1]
    share = [100 * r["win_share"] for r in rows]
    err = [[100 * (r["win_share"] - r["interval"][0]) for r in rows],
           [100 * (r["interval"][1] - r["win_share"]) for r in rows]]
    ax.barh(y, share, xerr=err, color="#4c72b0", capsize=4, height=0.6)
    for yi, r in zip(y, rows, strict=True):
        ax.text(100 * r["interval"][1] + 1.5, yi, f"{100 * r['win_share']:.1f}%", va="center", fontsize=9)
    ax.axvline(100 * par, color="#c44e52", ls="--", lw=1, label=f"par 1/{round(1 / par)}")
    ax.set_yticks(y, [f"{r['bot']} ({r['plays']} seats)" for r in rows])
    ax.set(xlabel="win share, % of seats played (95% Wilson interval)", title=title, xlim=(0, 100))
    ax.grid(alpha=0.3, axis="x")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    save(fig, path)


def write_transcripts(folder: str, games: Sequence[dict[str, Any]]) -> None:
    for g in games:
        path = os.path.join(folder, f"game-{g['game'] + 1:05d}.jsonl")
        try:
            with open(path, "w", encoding="utf-8") as f:
                for line in g["transcript"] or ():
                    f.write(json.dumps(line, ensure_ascii=False) + "\n")
        except OSError as exc:
            raise PuzzleError(f"cannot write {path!r} ({exc.strerror})", place="--transcripts") from None


def check_folder(folder: str) -> None:
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise PuzzleError(f"cannot make the folder {folder!r} ({exc.strerror})", place="--transcripts",
                          allowed="a writable folder") from None
    if not os.access(folder, os.W_OK):
        raise PuzzleError(f"cannot write in {folder!r}", place="--transcripts", allowed="a writable folder")


def parse_bots(text: str, players: int) -> list[str]:
    """``--bots``: comma-separated names; fewer than the players: the last one fills the other seats."""
    names = comma_list(text)
    if not names:
        raise PuzzleError("names no bot", place="--bots", allowed=bot_names())
    if len(names) > players:
        raise PuzzleError(f"names {len(names)} bots for {players} players", place="--bots",
                          allowed=f"at most {players} names (the last one fills the other seats)")
    for name in names:
        check_bot(name)
    return names + [names[-1]] * (players - len(names))


def main(argv: list[str]) -> int:
    ap = ExperimentParser(prog="sleuth arena clue", description="Bots play boardless Clue against each other: "
                          "win shares with 95%% intervals (sleuth docs arena).")
    ap.add_argument("--players", type=bounded(int, 2, MAX_PLAYERS), default=6, help="players (default 6)")
    ap.add_argument("--games", type=bounded(int, 1, 10**6), default=60, help="games (default 60)")
    ap.add_argument("--seed", type=bounded(int, 0, 2**63 - 1), default=1, help="seed of every deal (default 1)")
    ap.add_argument("--bots", default=DEFAULT_BOTS,
                    help=f"the line-up, comma separated: {', '.join(bot_names())}; the last fills the other "
                         f"seats (default {DEFAULT_BOTS})")
    ap.add_argument("--deck", choices=list(NAMED_DECKS), default="classic", help="the deck (default classic)")
    ap.add_argument("--timeout", type=bounded(float, 0, 3600, above=True), default=10.0,
                    help="seconds an outside program (cmd:) may take per decision (default 10)")
    ap.add_argument("--transcripts", metavar="DIR", help="write each game's transcript (sleuth referee reads it)")
    ap.add_argument("--json", action="store_true")
    add_run_options(ap)
    args = ap.parse_args(argv)
    entries = parse_bots(args.bots, args.players)
    deck = Deck.named(args.deck)
    if len(deck) - 3 < args.players:
        raise PuzzleError(f"{args.players} players need {args.players + 3} cards", place="--players",
                          allowed=f"at most {len(deck) - 3} with deck {args.deck}")
    check_target(args.plot)
    if args.transcripts:
        check_folder(args.transcripts)
    keep = bool(args.transcripts)
    jobs = [(args.deck, tuple(entries), args.seed, g, args.timeout, keep) for g in range(args.games)]
    ready = partial(warm, "sleuth" in entries, "rules" in entries)
    ready()
    with Executor.from_args(args, "clue-arena", warm=ready) as ex:
        games = ex.map_tasks(play_one, jobs, label="games", unit="game")
    if keep:
        write_transcripts(args.transcripts, games)
    rows = summarise(entries, games)
    par = 1 / args.players
    line = ", ".join(entries)
    if args.plot:
        plot(args.plot, rows, f"Clue arena: {lineup_text(entries)}; {args.games} games", par)
    reasons = {k: sum(g["reason"] == k for g in games) for k in ("accusation", "all out", "turn limit")}
    turns = sum(g["turns"] for g in games) / len(games)
    if args.json:
        print(json.dumps({"game": "clue", "players": args.players, "games": args.games, "seed": args.seed,
                          "deck": args.deck, "lineup": entries, "par": par, "bots": rows,
                          "draws": reasons["all out"] + reasons["turn limit"], "ends": reasons,
                          "mean_turns": turns}, indent=2))
        return 0
    print(f"Clue arena: {args.players} players ({line}), deck {args.deck}, {args.games} games (seed {args.seed}), "
          f"seats rotated; par 1/{args.players} = {100 * par:.1f}%")
    print(f"{'bot':<16} {'seats':>6} {'wins':>5}  {'win share (95% CI)':<22} {'seat-adj.':>9} {'draws':>5} "
          f"{'wrong':>5} {'forfeit':>7} {'win turn':>8}  {'decision ms: mean / max (CPU)':>29}")
    for r in rows:
        lo, hi = r["interval"]
        share = f"{100 * r['win_share']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"
        turn = f"{r['mean_win_turn']:.1f}" if r["mean_win_turn"] is not None else "-"
        times = f"{r['mean_decision_ms']:.1f} / {r['max_decision_ms']:.0f} ({r['max_decision_cpu_ms']:.0f})"
        print(f"{r['bot'][:16]:<16} {r['plays']:>6} {r['wins']:>5}  {share:<22} {100 * r['seat_adjusted']:>8.1f}% "
              f"{r['draws']:>5} {r['wrong_accusations']:>5} {r['forfeits']:>7} {turn:>8}  {times:>29}")
    print(f"games: {args.games}; won by an accusation {reasons['accusation']}, drawn {reasons['all out']} (all out) "
          f"+ {reasons['turn limit']} (turn limit); mean length {turns:.1f} turns")
    wrong = [r["bot"] for r in rows if r["certain_but_wrong"]]
    if wrong:
        print(f"accusations said certain but wrong: {', '.join(wrong)} (a bot's bug)")
    return 0
