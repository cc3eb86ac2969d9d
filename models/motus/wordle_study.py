"""``sleuth experiment wordle``: Wordle answers and Mastermind codes played with every method, Knuth's strategy
included, and the feedback-matrix throughput against the pair-by-pair reference; with ``--optimal`` the exact
optimal trees (:mod:`.optimal_study`, :mod:`.openers`) and with ``--mastermind-table`` the table of exact
code-breaking optima (:mod:`.codes`).  Runs on :mod:`sleuth.executor` like the studies of :mod:`.experiment`."""

from __future__ import annotations

import json
import statistics
import time


from sleuth.errors import PuzzleError
from sleuth.executor import Executor, ExperimentParser, add_run_options, bounded, comma_list
from sleuth.figures import check_target
from sleuth.timing import peak_memory_mb

from . import feedback as fb
from . import strategy as st
from .experiment import Tally, Timing, merge, study_cell
from .space import CodeSpace, Space, WordSpace, game_key, game_space
from .words import dictionary

def throughput(space: Space, repeat: int = 5, sample: int = 200) -> dict[str, float]:
    """Pairs per second of the vectorised matrix (median of ``repeat`` runs) and of the pair-by-pair
    reference on a ``sample`` x ``sample`` block, measured in the same process."""
    times, cpus = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        m = space.codes(space.guess_array, space.answer_array)
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    def rate(pairs: float, seconds: float) -> float:
        return pairs / seconds if seconds > 0 else float("nan")  # a tiny cell can take less than the clock's step

    fast = rate(m.size, statistics.median(times))
    if isinstance(space, WordSpace):
        g, a = list(space.guesses[:sample]), list(space.answers[:sample])
        t0 = time.perf_counter()
        fb.matrix_reference(g, a)
        ref = rate(len(g) * len(a), time.perf_counter() - t0)
    else:
        ref = float("nan")
    return {"pairs": float(m.size), "pairs_per_second": fast, "reference_pairs_per_second": ref,
            "ratio": rate(fast, ref), "median_seconds": statistics.median(times),
            "median_cpu_seconds": statistics.median(cpus),
            "pairs_per_cpu_second": rate(m.size, statistics.median(cpus))}


def _throughput_cell(text: str) -> WordSpace:
    """The cell of ``--throughput DICT:LENGTH LETTER`` (e.g. ``fr:10R``); PuzzleError when it cannot be read
    or holds no word."""
    spec, _, cellname = text.partition(":")
    try:
        length, first = int(cellname[:-1]), cellname[-1].upper()
    except (ValueError, IndexError):
        raise PuzzleError(f"cannot read {text!r}", place="--throughput", allowed="e.g. fr:10R") from None
    space = WordSpace(dictionary(spec).cell(length, first))
    if not space.answers:
        raise PuzzleError(f"{spec} has no word of {length} letters starting with {first}", place="--throughput",
                          allowed="a cell with words, e.g. fr:10R")
    return space


def _wordle_task(job: tuple[str, int, int, str]) -> tuple[dict[st.Method, Tally], Timing, list[str]]:
    """One task of ``experiment wordle``: one game played with one method."""
    game, pegs, colours, method = job
    return study_cell(game_space(game_key(game, pegs, colours)), [st.Method(method)])


def main_wordle(argv: list[str]) -> int:
    ap = ExperimentParser(prog="sleuth experiment wordle",
                          description="Wordle answers and Mastermind codes with every method "
                                      "(Knuth's strategy is Max), and feedback-matrix throughput.")
    ap.add_argument("--methods", default=",".join(m.value for m in st.Method if m is not st.Method.MINIMAX))
    ap.add_argument("--games", default=None, help="wordle, mastermind or both (default both; with --optimal and "
                                                  "--opener/--openers, the game the openers belong to)")
    ap.add_argument("--pegs", type=bounded(int, 1, 6), default=None, help="Mastermind pegs (default 4)")
    ap.add_argument("--colours", type=bounded(int, 2, 9), default=None, help="Mastermind colours (default 6)")
    ap.add_argument("--throughput", default="", help="also time the feedback matrix of a cell, e.g. fr:10R")
    ap.add_argument("--repeat", type=bounded(int, 1, 1000), default=5)
    ap.add_argument("--json", action="store_true")
    optimal = ap.add_argument_group("exact optimal trees (--optimal)")
    optimal.add_argument("--optimal", action="store_true", help="the tree of least total guesses, exactly")
    optimal.add_argument("--opener", default="", help="fixed first guess (default: rank --openers)")
    optimal.add_argument("--openers", default="",
                         help="openers to rank (default: the 5 Mastermind openers up to symmetry; for Wordle the "
                              "--top openers of least lower bound)")
    optimal.add_argument("--top", type=bounded(int, 1, 20_000), default=5,
                         help="openers ranked by default for Wordle (default 5)")
    optimal.add_argument("--node-limit", type=bounded(int, 1, 10**12), default=None,
                         help="search nodes per opener; past it the opener gets proven bounds (default: none)")
    optimal.add_argument("--wave", type=bounded(int, 1, 10_000), default=4,
                         help="openers searched per wave; each wave is cut off at the best exact total of the "
                              "waves before it (default 4)")
    optimal.add_argument("--no-cutoff", action="store_true",
                         help="every opener's exact total (no cut-off between openers)")
    optimal.add_argument("--hard", action="store_true", help="hard mode (Wordle)")
    optimal.add_argument("--cap", default="", help="most guesses per answer: a number, or none (default: "
                                                   "Wordle's 6 tries; none for Mastermind)")
    optimal.add_argument("--guesses", default="all", choices=["all", "answers"], help="guess set (default all)")
    optimal.add_argument("--tree", default="", help="write the tree to this file (.json or .dot)")
    optimal.add_argument("--all-openers", action="store_true",
                         help="prove the best opener over every allowed guess (Wordle; a certificate per opener)")
    optimal.add_argument("--above", type=bounded(int, 0, 10**9), default=0,
                         help="--all-openers: also give the exact total of every opener totalling at most N")
    optimal.add_argument("--reuse", default="", metavar="FILE",
                         help="--all-openers: an earlier certificate of the same mode; its bounds that still "
                              "refute at this cut-off and its exact totals below it are copied, not derived again")
    optimal.add_argument("--certificate", default="", metavar="FILE",
                         help="--all-openers: write the certificate (JSON lines) to FILE as it grows")
    optimal.add_argument("--save-every", type=bounded(float, 0, 10**6), default=60.0, metavar="SECONDS",
                         help="--all-openers: rewrite --certificate this often (default 60)")
    table = ap.add_argument_group("the table of exact code-breaking optima (--mastermind-table)")
    table.add_argument("--mastermind-table", action="store_true",
                       help="exact expected-case optima of every pegs x colours cell (models/motus/codes.py)")
    table.add_argument("--families", default="mastermind,black,bullscows",
                       help="mastermind (black and white pegs), black (black pegs only), bullscows (no repeated "
                            "symbol; bulls and cows)")
    table.add_argument("--max-codes", type=bounded(int, 2, 10_000), default=2401,
                       help="cells of at most this many codes (default 2401)")
    table.add_argument("--cells", default="", help="these cells only: family:PEGSxCOLOURS, comma-separated "
                                                   "(e.g. mastermind:4x7,bullscows:4x10)")
    table.add_argument("--symmetry", type=bounded(int, 0, 8), default=0, metavar="LEVELS",
                       help="search one guess per orbit of the symmetries of positions and symbols for the first "
                            "LEVELS guesses (2: opener and second guess; default 0: the plain search)")
    table.add_argument("--checkpoint", default="", metavar="DIR",
                       help="with --symmetry: each cell's finished classes in DIR/family-PEGSxCOLOURS.jsonl "
                            "(a stopped run resumes from them)")
    table.add_argument("--from-checkpoint", action="store_true",
                       help="with --checkpoint: search nothing, give each cell's proven bounds from its checkpoint")
    add_run_options(ap)
    args = ap.parse_args(argv)
    check_target(args.plot)
    if args.mastermind_table:
        from .codes import main_table
        return main_table(args)
    if args.games is None:   # a Wordle word names Wordle, a Mastermind code Mastermind: one whole answer
        named = comma_list(args.opener or args.openers) if args.optimal else []
        args.games = ("mastermind" if all(w.isdigit() for w in named) else "wordle") if named else "wordle,mastermind"
    games = [g.lower() for g in comma_list(args.games)]
    if args.optimal and "mastermind" not in games and (args.pegs, args.colours) != (None, None):
        raise PuzzleError("--pegs and --colours size Mastermind", place="--pegs/--colours",
                          allowed="--games mastermind (or leave them out)")
    args.pegs, args.colours = args.pegs or 4, args.colours or 6
    for g in games:
        if g not in ("wordle", "mastermind"):
            raise PuzzleError(f"unknown game {g!r}", place="--games", allowed="wordle, mastermind")
        if g == "mastermind" and args.colours ** args.pegs > 10_000:
            raise PuzzleError("too many codes", place="--pegs/--colours", allowed="at most 10000 codes")
    if args.optimal and args.all_openers:
        from .openers import main_all_openers
        return main_all_openers(args)
    if args.optimal:
        from .optimal_study import main_experiment
        return main_experiment(args)
    cell = _throughput_cell(args.throughput) if args.throughput else None  # read before the games are played
    methods = [st.parse_method(m, "--methods") for m in comma_list(args.methods)]
    spaces = [game_space(game_key(g, args.pegs, args.colours)) for g in games]
    jobs = [(g, args.pegs, args.colours, m.value) for g in games for m in methods]
    with Executor.from_args(args, "wordle") as ex:
        parts = ex.map_tasks(_wordle_task, jobs, label="games x methods", unit="run")
    report: dict[str, object] = {}
    for i, space in enumerate(spaces):
        tallies, timing, _ = merge(parts[i * len(methods):(i + 1) * len(methods)], methods)
        report[space.label] = {m.value: {"average": round(t.average, 4), "total": t.total, "fails": t.fails,
                                         "worst": t.worst, "seconds": round(t.seconds, 2),
                                         "histogram": t.histogram} for m, t in tallies.items()}
        if not args.json:
            limit = space.tries
            print(f"{space.label}: {len(space.answers)} secrets, {len(space.guesses)} allowed proposals "
                  f"(fail = more than {limit} tries)")
            print(f"{'Method':<15}{'Average':>9}{'Total':>8}{'Fails':>7}{'Worst':>7}{'Seconds':>9}")
            for m, t in sorted(tallies.items(), key=lambda kv: kv[1].average):
                name = m.title + (" (Knuth)" if isinstance(space, CodeSpace) and m is st.Method.MAX else "")
                print(f"{name:<15}{t.average:>9.4f}{t.total:>8}{t.fails:>7}{t.worst:>7}{t.seconds:>9.2f}")
    if cell is not None:
        space = cell
        tp = throughput(space, args.repeat)
        report["throughput"] = {space.label: tp}
        if not args.json:
            print(f"feedback matrix {space.label}: {tp['pairs']:.3g} pairs, median {tp['median_seconds']:.2f}s "
                  f"over {args.repeat} runs = {tp['pairs_per_second'] / 1e6:.1f} M pairs/s; pair-by-pair "
                  f"reference {tp['reference_pairs_per_second'] / 1e3:.0f} k pairs/s (x{tp['ratio']:.0f})")
    report["peak_memory_mb"] = round(peak_memory_mb())
    if args.plot:
        from .plot import plot_games

        plot_games(args.plot, {s.label: merge(parts[i * len(methods):(i + 1) * len(methods)], methods)[0]
                               for i, s in enumerate(spaces)}, [s.tries for s in spaces])
    if args.json:
        print(json.dumps(report))
    else:
        print(f"peak memory {peak_memory_mb():.0f} MB")
    return 0
