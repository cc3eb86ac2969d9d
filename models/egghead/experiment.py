"""``sleuth experiment egghead``: the seed's simulation study, and the benchmark (``--bench``).

The study plays long games (the score cap removed, as in the seed) in which the first ``k`` players use
behavioural analysis (BA), for each requested ``k``.  Every solve is one observation of "rounds needed to
solve" (the count restarts with each new hand); observations are pooled per player type.  It reports mean,
variance and the empirical CDF per type, the CDF of the rounds needed to score ``--points`` points (the
``points``-fold convolution of the empirical distribution, as the seed does) and, from those CDFs under the
seed's independence assumption, each player's probability of winning (ties count for every tied player).

Each configuration is one game of ``--rounds`` rounds (the seed's design), one task of :mod:`sleuth.executor`;
``--batch B`` splits it into independent games of ``B`` rounds (fresh deals, seeded from the experiment's seed,
``k`` and the batch index) so that one configuration spreads over several workers.  Hands not solved when a
game ends are not observations, so smaller batches drop a few more long solves.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
import tracemalloc
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

import numpy as np

from sleuth.timing import percentile
from sleuth.errors import PuzzleError
from sleuth.executor import Executor, ExperimentParser, add_run_options, bounded, comma_list, ints, task_seed
from sleuth.figures import check_target, pyplot, save

from .game import REACT_KERNEL
from .hands import Setup
from .questions import CompiledQuestion, load_catalogue
from .reference import ReferenceTables
from .rounds import RoundRecord, play_round
from .tables import DERIVATIONS, LayerTables, PackedSpace, PackedTables

SEED_TABLE = {"no BA": (9.78, 29.3), "BA": (6.16, 14.0)}


@dataclass
class Game:
    """A simulated game: which players analyse, the rounds played and the rounds each solve took."""

    setup: Setup
    behavioural: list[bool]
    records: list[RoundRecord] = field(default_factory=list)
    solve_rounds: list[list[int]] = field(default_factory=list)   # per player
    round_times: list[float] = field(default_factory=list)


def simulate(setup: Setup, questions: Sequence[CompiledQuestion], behavioural: Sequence[bool], rounds: int,
             seed: int, *, moderator: str = "external", tables: Any = None) -> Game:
    """Play ``rounds`` rounds with uniformly drawn questions and hands of independent uniform cards."""
    rng = np.random.default_rng(seed)
    n = setup.players
    tables = tables if tables is not None else PackedTables(setup, behavioural)
    world: list[int | None] = [setup.deal(rng) for _ in range(n)]
    game = Game(setup, list(behavioural), solve_rounds=[[] for _ in range(n)])
    dealt_at = [0] * n          # a hand dealt during round t is first asked about in round t + 1
    for t in range(1, rounds + 1):
        q = questions[int(rng.integers(len(questions)))]
        start = time.perf_counter()
        rec = play_round(tables, world, q, (t - 1) % n if moderator == "rotating" else None,
                         lambda p: setup.deal(rng), label=f"round {t}")
        game.round_times.append(time.perf_counter() - start)
        game.records.append(rec)
        for stage in rec.stages:
            for p in stage:
                game.solve_rounds[p].append(t - dealt_at[p])
                dealt_at[p] = t
    return game


@lru_cache(maxsize=4)
def _space(setup: Setup) -> PackedSpace:
    return PackedSpace(setup)


@lru_cache(maxsize=4)
def _questions(setup: Setup, ids: tuple[str, ...]) -> list[CompiledQuestion]:
    by_id = {q.qid: q for q in load_catalogue(setup.values)}
    return [by_id[x].compile_for(setup) for x in ids]


def warm(setup: Setup, ids: tuple[str, ...]) -> None:
    """Build what every task of this setup shares (run once per worker before timing it)."""
    _space(setup)
    _questions(setup, ids)
    kernels_ready()


@lru_cache(maxsize=1)
def kernels_ready() -> None:
    """:func:`warm_kernel` once per process, under the kernel cache's lock: the workers of one machine compile
    the kernels once (the first), not once each."""
    from sleuth.jit import compile_lock

    with compile_lock("egghead", sources=(REACT_KERNEL.module,)):
        warm_kernel()


def compile_kernels() -> None:
    """``sleuth cache compile``: the tables' kernels as an experiment loads them (:func:`kernels_ready`), and eq. 3
    on rows of two words (more than 64 hands: ``--values 12 --hand-size 2``), which experiments of the seed's
    sizes never load."""
    kernels_ready()
    k = REACT_KERNEL.load()
    if k is not None:
        k.react_table(np.ones((4, 2), dtype=np.uint64), 2, 3, np.array([1, 0, -1], dtype=np.int64))


def warm_kernel() -> float:
    """Load (or compile, the first time) the compiled tables' kernels on a tiny table; CPU seconds spent."""
    cpu = time.process_time()
    k = REACT_KERNEL.load()
    if k is not None:
        t = np.ones((4, 1), dtype=np.uint64)
        occ = np.ones(2, dtype=np.uint8)
        act = np.zeros(3, dtype=np.int64)
        once, twice = np.zeros((2, 1, 2), dtype=np.uint64)
        changed, todo = np.zeros((2, 2), dtype=np.uint8)
        k.react_blocks(t, occ, 2, 3, act, once, twice, changed)
        k.react_again(t, occ, 2, 3, act, once, twice, changed, np.zeros((1, 1), dtype=np.uint8), todo,
                      1.0)
        k.and_into(t, t, occ, changed, occ)
        k.and_gather(t, np.ones((1, 2, 1), dtype=np.uint64), np.zeros(2, dtype=np.int32), occ, changed)
        k.fix_axis(t, occ, 2, 3, 0, 0, np.ones(1, dtype=np.uint64), changed)
        k.occupancy(t, 2, occ)
    return time.process_time() - cpu


Batch = tuple[int, int, int, tuple[str, ...], tuple[bool, ...], int, int, str]


MAX_LAYER_WORLDS = 2_000_000   # the layer lists every world (one row of hand indices per world and player)


def simulate_batch(job: Batch | tuple[Any, ...]) -> tuple[list[list[int]], list[float]]:
    """One task: a game of ``rounds`` rounds; the rounds each player's solves took, and each round's seconds.
    A ninth entry names the derivation of :data:`.tables.DERIVATIONS` (default ``packed``)."""
    players, values, hand_size, ids, flags, rounds, seed, moderator = job[:8]
    setup = Setup(players, values, hand_size)
    derivation = DERIVATIONS[job[8] if len(job) > 8 else "packed"]
    kernels_ready()
    game = simulate(setup, _questions(setup, ids), flags, rounds, seed, moderator=moderator,
                    tables=derivation(setup, flags, _space(setup)))
    return game.solve_rounds, game.round_times


# -- statistics ---------------------------------------------------------------------------------------

def pmf(observations: Sequence[int]) -> np.ndarray:
    """Empirical probability of needing exactly ``t`` rounds, for ``t = 0, 1, ..., max``."""
    if not observations:
        return np.zeros(1)
    counts = np.bincount(np.asarray(observations, dtype=np.int64))
    return counts / counts.sum()


def convolve_power(p: np.ndarray, k: int) -> np.ndarray:
    """Distribution of the sum of ``k`` independent copies."""
    out = np.array([1.0])
    for _ in range(k):
        out = np.convolve(out, p)
    return out


def win_probabilities(pmfs: Sequence[np.ndarray]) -> list[float]:
    """P(player i reaches the goal no later than every other player), players independent."""
    size = max(len(p) for p in pmfs)
    padded = [np.pad(p, (0, size - len(p))) for p in pmfs]
    survive = [1.0 - np.concatenate([[0.0], np.cumsum(p)[:-1]]) for p in padded]  # P(T >= t)
    out = []
    for i, p in enumerate(padded):
        others = np.ones(size)
        for j, s in enumerate(survive):
            if j != i:
                others = others * s
        out.append(float((p * others).sum()))
    return out


@dataclass
class TypeStats:
    label: str
    observations: list[int]
    points: int

    @property
    def mean(self) -> float:
        return statistics.fmean(self.observations) if self.observations else float("nan")

    @property
    def variance(self) -> float:
        return statistics.variance(self.observations) if len(self.observations) > 1 else float("nan")

    @property
    def cdf(self) -> np.ndarray:
        return np.cumsum(pmf(self.observations))

    @property
    def cdf_points(self) -> np.ndarray:
        return np.cumsum(convolve_power(pmf(self.observations), self.points))

    def to_json(self) -> dict[str, Any]:
        cdf10 = self.cdf_points
        return {"type": self.label, "solves": len(self.observations), "mean": self.mean, "variance": self.variance,
                "cdf": [round(float(x), 6) for x in self.cdf],
                f"cdf_{self.points}_points": [round(float(x), 6) for x in cdf10],
                f"median_rounds_{self.points}_points": int(np.searchsorted(cdf10, 0.5)) if len(cdf10) > 1 else None}


def type_stats(game: Game, points: int) -> list[TypeStats]:
    out = []
    for label, flag in (("BA", True), ("no BA", False)):
        obs = [x for p, xs in enumerate(game.solve_rounds) if game.behavioural[p] == flag for x in xs]
        if any(b == flag for b in game.behavioural):
            out.append(TypeStats(label, obs, points))
    return out


def game_wins(game: Game, stats: list[TypeStats]) -> list[float]:
    by_type = {s.label: convolve_power(pmf(s.observations), s.points) for s in stats}
    return win_probabilities([by_type["BA" if b else "no BA"] for b in game.behavioural])


# -- command line ---------------------------------------------------------------------------------------

def _parser() -> argparse.ArgumentParser:
    p = ExperimentParser(prog="sleuth experiment egghead", description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=bounded(int, 2, 8), default=4)
    p.add_argument("--values", type=bounded(int, 2, 12), default=6)
    p.add_argument("--hand-size", type=bounded(int, 1, 8), default=3)
    p.add_argument("--questions", default="all", help="'all' or comma-separated question ids")
    p.add_argument("--ba", default="1,2,3,4",
                   help="comma-separated numbers of BA players, one game each (the first k players analyse)")
    p.add_argument("--rounds", type=bounded(int, 1, 10**7), default=1000)
    p.add_argument("--batch", type=bounded(int, 0, 10**7), default=0,
                   help="rounds per task: each configuration's game is split into independent games of this "
                        "many rounds (default 0: one game per configuration)")
    p.add_argument("--seed", type=bounded(int, 0, 2**63 - 1), default=0)
    p.add_argument("--moderator", choices=("external", "rotating"), default="external")
    p.add_argument("--points", type=bounded(int, 1, 1000), default=10, help="points to win (for the convolved CDF)")
    p.add_argument("--knowledge", dest="derivation", choices=tuple(DERIVATIONS), default="packed",
                   help="how behavioural analysis is derived: packed master table (default, fast) or listed "
                        f"worlds on the knowledge layer (the reference; at most {MAX_LAYER_WORLDS:,} worlds); "
                        "the figures are the same")
    p.add_argument("--json", action="store_true")
    p.add_argument("--bench", action="store_true", help="run the benchmark instead of the study")
    p.add_argument("--bench-rounds", type=bounded(int, 1, 10**5), default=40,
                   help="benchmark: rounds timed per configuration")
    p.add_argument("--no-five", action="store_true", help="benchmark: skip the 5-player run")
    add_run_options(p)
    return p


def _setup(args: argparse.Namespace) -> tuple[Setup, list[CompiledQuestion]]:
    setup = Setup(args.players, args.values, args.hand_size)
    if setup.n_worlds > 600_000_000:
        raise PuzzleError(f"{setup.n_worlds} worlds are too many", place="--players",
                          allowed="at most 600000000 worlds (hands ** players)")
    catalogue = load_catalogue(args.values)
    if args.questions != "all":
        ids = {q.qid: q for q in catalogue}
        wanted = comma_list(args.questions)
        for x in wanted:
            if x not in ids:
                raise PuzzleError(f"unknown question {x!r}", place="--questions", allowed=list(ids))
        catalogue = [ids[x] for x in wanted]
    if getattr(args, "derivation", "packed") == "layer" and setup.n_worlds > MAX_LAYER_WORLDS:
        raise PuzzleError(f"{setup.n_worlds} worlds are too many to list", place="--knowledge layer",
                          allowed=f"at most {MAX_LAYER_WORLDS} worlds (hands ** players), or --knowledge packed")
    return setup, [q.compile_for(setup) for q in catalogue]


def _ba_counts(text: str, players: int) -> list[int]:
    return ints(text, 0, players, "--ba", allowed=f"numbers from 0 to {players}, e.g. 1,2,3,4")


def study(args: argparse.Namespace, setup: Setup, questions: Sequence[CompiledQuestion], counts: Sequence[int],
          ex: Executor) -> list[dict[str, Any]]:
    """One game per BA count (or ``--batch``-round games), on the executor; the statistics per count."""
    size = args.batch or args.rounds
    ids = tuple(q.qid for q in questions)
    jobs: list[Batch | tuple[Any, ...]] = []
    for k in counts:
        flags = tuple(p < k for p in range(setup.players))
        for b, first in enumerate(range(0, args.rounds, size)):
            seed = args.seed if not args.batch else task_seed(args.seed, k, b)
            job: Batch = (setup.players, setup.values, setup.hand_size, ids, flags, min(size, args.rounds - first),
                          seed, args.moderator)
            jobs.append(job if args.derivation == "packed" else (*job, args.derivation))
    parts = ex.map_tasks(simulate_batch, jobs, label="rounds", unit="round", weights=[j[5] for j in jobs])
    results = []
    for k in counts:
        mine = [(job, part) for job, part in zip(jobs, parts, strict=True) if job[4] == tuple(
            p < k for p in range(setup.players))]
        game = Game(setup, [p < k for p in range(setup.players)],
                    solve_rounds=[[x for _, (solves, _) in mine for x in solves[p]] for p in range(setup.players)],
                    round_times=[t for _, (_, times) in mine for t in times])
        stats = type_stats(game, args.points)
        results.append({"ba_players": k, "seconds": sum(game.round_times), "types": stats,
                        "wins": game_wins(game, stats), "median_round_seconds": statistics.median(game.round_times)})
    return results


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    setup, questions = _setup(args)
    if args.bench:
        return bench(args, setup, questions)
    check_target(args.plot)
    counts = _ba_counts(args.ba, setup.players)
    ids = tuple(q.qid for q in questions)
    shared = partial(warm, setup, ids)
    with Executor.from_args(args, "egghead", prepare=shared, warm=shared) as ex:
        results = study(args, setup, questions, counts, ex)
    if args.json:
        print(json.dumps({"setup": _setup_json(args, setup, questions), "seed_table": SEED_TABLE,
                          "results": [{**r, "types": [s.to_json() for s in r["types"]]} for r in results]},
                         indent=2))
    else:
        print(_table(args, setup, questions, results))
    if args.plot:
        plot(results, args.plot, args.points, f"Egghead: {setup.players} players, values 1-{setup.values}, "
             f"{setup.hand_size} cards, {args.rounds} rounds per configuration, seed {args.seed}")
        if not args.json:
            print(f"figure written to {args.plot}")
    return 0


def _setup_json(args: argparse.Namespace, setup: Setup, questions: Sequence[CompiledQuestion]) -> dict[str, Any]:
    return {"players": setup.players, "values": setup.values, "hand_size": setup.hand_size,
            "moderator": args.moderator, "questions": [q.qid for q in questions], "rounds": args.rounds,
            "seed": args.seed, "points": args.points}


def _table(args: argparse.Namespace, setup: Setup, questions: Sequence[CompiledQuestion],
           results: list[dict[str, Any]]) -> str:
    lines = [f"Egghead study: {setup.players} players, values 1-{setup.values}, {setup.hand_size} cards, "
             f"{args.moderator} moderator, {len(questions)} questions, {args.rounds} rounds, seed {args.seed}",
             f"{'BA players':>10}  {'type':<6} {'solves':>6} {'mean':>6} {'variance':>8}  "
             f"{'CDF at 1/2/4/8/16 rounds':<29} {'median to ' + str(args.points):>12}  P(win) per player  time"]
    for r in results:
        for s in r["types"]:
            cdf = s.cdf
            at = [float(cdf[min(t, len(cdf) - 1)]) for t in (1, 2, 4, 8, 16)]
            med = s.to_json()[f"median_rounds_{args.points}_points"]
            lines.append(f"{r['ba_players']:>10}  {s.label:<6} {len(s.observations):>6} {s.mean:>6.2f} "
                         f"{s.variance:>8.2f}  {' '.join(f'{x:.2f}' for x in at):<29} {med!s:>12}  "
                         + " ".join(f"{w:.3f}" for w in r["wins"]) + f"  {r['seconds']:.1f}s")
    lines.append("seed (Java, 1000 rounds): no BA 9.78 / 29.3, BA 6.16 / 14  (mean / variance of rounds to solve)")
    lines.append("P(win): from the convolved CDFs, players independent, ties count for each tied player; "
                 "the first k players use BA")
    return "\n".join(lines)


def plot(results: list[dict[str, Any]], path: str, points: int, title: str = "") -> None:
    """The seed's Figures 1-3: one colour per configuration (k BA players) in every panel, solid lines for
    the BA players and dashed lines for the others."""
    plt = pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.8))
    colours = {r["ba_players"]: plt.get_cmap("tab10")(i % 10) for i, r in enumerate(results)}
    style = {"BA": "-", "no BA": "--"}
    for r in results:
        for s in r["types"]:
            kw = dict(where="post", color=colours[r["ba_players"]], ls=style[s.label],
                      label=f"k={r['ba_players']}: {s.label}")
            axes[0].step(np.arange(len(s.cdf)), s.cdf, **kw)
            axes[1].step(np.arange(len(s.cdf_points)), s.cdf_points, **kw)
    axes[0].set(title="(a) rounds needed to score 1 point", xlabel="rounds", ylabel="empirical CDF")
    axes[1].set(title=f"(b) rounds needed to score {points} points", xlabel="rounds", ylabel="CDF")
    width = 0.8 / max(1, len(results))
    for i, r in enumerate(results):
        xs = np.arange(len(r["wins"])) + i * width
        axes[2].bar(xs, r["wins"], width=width, color=colours[r["ba_players"]], label=f"k={r['ba_players']}")
    players = len(results[0]["wins"]) if results else 0
    axes[2].set_xticks(np.arange(players) + width * (len(results) - 1) / 2,
                       [f"player {i + 1}" for i in range(players)])
    axes[2].set(title=f"(c) P(first to {points} points) per player", xlabel="player", ylabel="P(win)")
    tail = max((len(s.cdf_points) for r in results for s in r["types"]), default=1)
    last = [int(np.searchsorted(s.cdf_points, 0.999)) for r in results for s in r["types"]]
    axes[1].set_xlim(0, min(tail, max(last, default=tail) + 5))
    axes[0].set_xlim(0, max((int(np.searchsorted(s.cdf, 0.999)) for r in results for s in r["types"]),
                            default=1) + 2)
    for ax in axes[:2]:
        ax.legend(fontsize=7, title="k = players using BA (the first k)", title_fontsize=7)
        ax.grid(alpha=0.3)
    axes[2].legend(fontsize=7, title="players using BA", title_fontsize=7)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    save(fig, path)


# -- benchmark --------------------------------------------------------------------------------------------

def _timed_rounds(setup: Setup, questions: Sequence[CompiledQuestion], flags: list[bool], rounds: int,
                  seed: int, tables: Any = None, traced_rounds: int = 0) -> tuple[Game, int]:
    """Play ``rounds`` timed rounds, then ``traced_rounds`` more under tracemalloc for the peak (bytes)."""
    game = simulate(setup, questions, flags, rounds, seed, tables=tables)
    peak = 0
    if traced_rounds:
        tracemalloc.start()
        simulate(setup, questions, flags, traced_rounds, seed + 1)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return game, peak


def bench(args: argparse.Namespace, setup: Setup, questions: Sequence[CompiledQuestion]) -> int:
    mb = 1 << 20
    print(f"Egghead benchmark ({setup.players} players, values 1-{setup.values}, {setup.hand_size} cards, "
          f"{setup.n_worlds:,} worlds, {len(questions)} questions); medians over {args.bench_rounds} rounds")
    print(f"  {warm_kernel():.2f} s CPU to load the compiled kernels (numba; compiled once and cached), apart")
    for k in (setup.players, 1):
        flags = [p < k for p in range(setup.players)]
        game, peak = _timed_rounds(setup, questions, flags, args.bench_rounds, args.seed, traced_rounds=10)
        t = sorted(game.round_times)
        print(f"  one full round, {k} BA player(s): median {statistics.median(t) * 1000:.1f} ms, "
              f"p90 {percentile(t, 0.9) * 1000:.1f} ms, max {t[-1] * 1000:.1f} ms; "
              f"traced peak {peak / mb:.1f} MB")
    start = time.perf_counter()
    simulate(setup, questions, [p < 1 for p in range(setup.players)], args.rounds, args.seed)
    print(f"  study, 1 BA player, {args.rounds} rounds: {time.perf_counter() - start:.1f} s")

    print(f"  process peak RSS so far {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    for small, rounds in ((Setup(3, 4, 2), 30), (Setup(3, setup.values, setup.hand_size), 5)):
        small_q = [q.compile_for(small) for q in load_catalogue(small.values)]
        flags = [True, True, False]
        fast = simulate(small, small_q, flags, rounds, args.seed)
        f_med = statistics.median(fast.round_times)
        for name, cls in (("literal reference (eq. 2-5)", ReferenceTables), ("knowledge layer (listed worlds)",
                                                                            LayerTables)):
            ref = simulate(small, small_q, flags, rounds, args.seed, tables=cls(small, flags))
            same = [(a.answer, a.stages) for a in fast.records] == [(b.answer, b.stages) for b in ref.records]
            r_med = statistics.median(ref.round_times)
            print(f"  {name}, 3 players, values 1-{small.values}, {small.hand_size} cards "
                  f"({small.n_worlds:,} worlds, 2 BA, {rounds} rounds): median round {r_med * 1000:.1f} ms vs "
                  f"packed {f_med * 1000:.2f} ms = {r_med / f_med:.0f}x slower; same answers and solves: "
                  f"{'yes' if same else 'NO'}")
    if not args.no_five and setup.players == 4:
        five = Setup(5, setup.values, setup.hand_size)
        five_q = [q.compile_for(five) for q in load_catalogue(setup.values)]
        for k in (5, 1):
            game, peak = _timed_rounds(five, five_q, [p < k for p in range(5)], 6, args.seed, traced_rounds=2)
            print(f"  5 players ({five.n_worlds:,} worlds), {k} BA: median round "
                  f"{statistics.median(game.round_times):.2f} s over {len(game.round_times)} rounds, traced peak "
                  f"{peak / mb:.0f} MB, solves {sum(len(s) for s in game.solve_rounds)}")
    print(f"  process peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB "
          "(includes Python and numpy; the machine is shared, figures are noisy)")
    return 0
