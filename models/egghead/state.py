"""An Egghead puzzle as written in its file: the setup, the hands on the table and the rounds played.

:func:`read_state` reads the file into an :class:`EggheadState` (the questions compiled for the setup, every
name and card checked); the geometry of hands and worlds is :mod:`.hands`.
"""

from __future__ import annotations

from dataclasses import dataclass

from sleuth.errors import PuzzleError

from sleuth.puzzle import PuzzleDoc
from sleuth.schema import Names, Section, choose

from .hands import Setup
from .questions import CompiledQuestion, load_catalogue

ANALYSES = ("basic", "behavioural")
MODERATORS = ("external", "rotating")
MAX_BA_WORLDS = 600_000_000     # 56**5 = 551 million fits (79 MB per packed table)
MAX_HANDS = 4096


@dataclass
class RoundSpec:
    question: CompiledQuestion
    answer: int | None
    solves: list[list[int]] | None
    new_hands: dict[int, int]
    place: str


@dataclass(frozen=True)
class EggheadState:
    """The table: setup and names, who moderates, the analysis and who uses it, the viewer, the hands on the
    table (hand indices; None for a viewer's own hand left out) and the rounds."""

    setup: Setup
    names: Names
    moderator: str
    analysis: str
    behavioural: tuple[bool, ...]
    viewer: int | None
    hands: tuple[int | None, ...]
    rounds: tuple[RoundSpec, ...]


def read_state(doc: PuzzleDoc) -> EggheadState:
    """Read an ``egghead`` puzzle file."""
    sec, file = doc.section, doc.file
    values = sec.integer("values", 6, lo=2, hi=12)
    hand_size = sec.integer("hand_size", 3, lo=1, hi=8)
    players = sec.array("players", str, min_len=2, max_len=8)
    try:
        names = Names("player", players)
    except PuzzleError as exc:
        raise exc.located(file, "players") from None
    setup = Setup(len(players), values, hand_size, tuple(players))
    if setup.n_hands > MAX_HANDS:
        raise sec.error(f"{setup.n_hands} different hands are too many", "hand_size",
                        allowed=f"values and hand_size with at most {MAX_HANDS} hands")
    moderator = sec.string("moderator", "external", choices=MODERATORS)
    analysis = choose(sec.string("analysis", "behavioural"), ANALYSES, "analysis", sec, "analysis",
                      aliases={"behavioral": "behavioural", "ba": "behavioural"})
    n = setup.players
    analysts = sec.array("analysts", str, None)
    if analysts is not None and analysis != "behavioural":
        raise sec.error("only applies with analysis = \"behavioural\"", "analysts")
    chosen = {names.index(a, sec, f"analysts[{i}]") for i, a in enumerate(analysts or [], 1)}
    behavioural = [analysis == "behavioural" and (analysts is None or p in chosen) for p in range(n)]
    if analysis == "behavioural" and setup.n_worlds > MAX_BA_WORLDS:
        raise sec.error(f"{setup.n_worlds} worlds are too many for behavioural analysis", "players",
                        allowed=f"at most {MAX_BA_WORLDS} worlds (hands ** players)")
    viewer = names.index(doc.viewer, sec, "viewer") if doc.viewer is not None else None
    catalogue = {q.qid: q for q in load_catalogue(values)}
    hands: list[int | None] = [None] * n
    table = sec.section("table", None)
    if table is not None:
        for key in list(table.data):
            p = names.index(key, table, key)
            hands[p] = _hand(setup, table, key)
        table.finish(list(table.data))
    for p in range(n):
        if hands[p] is None and p != viewer:
            raise PuzzleError(f"the hand of {players[p]} is missing", file=file, place="table",
                              allowed="every hand; only the viewer's own hand may be left out")
    rounds: list[RoundSpec] = []
    compiled: dict[str, CompiledQuestion] = {}
    for k, rs in enumerate(sec.sections("round")):
        qid = choose(rs.string("question"), list(catalogue), "question", rs, "question")
        if qid not in compiled:
            compiled[qid] = catalogue[qid].compile_for(setup)
        answer = rs.integer("answer", None, lo=-10**6, hi=10**6)
        solves = _solves(rs, names, k % n if moderator == "rotating" else None)
        new_hands: dict[int, int] = {}
        nh = rs.section("new_hands", None)
        if nh is not None:
            for key in list(nh.data):
                p = names.index(key, nh, key)
                if solves is not None and not any(p in stage for stage in solves):
                    raise nh.error(f"{players[p]} did not solve in this round", key,
                                   allowed="the players listed in solves")
                new_hands[p] = _hand(setup, nh, key)
            nh.finish(list(nh.data))
        rs.finish()
        rounds.append(RoundSpec(compiled[qid], answer, solves, new_hands, rs.place))
    return EggheadState(setup, names, moderator, analysis, tuple(behavioural), viewer, tuple(hands), tuple(rounds))


def _hand(setup: Setup, sec: Section, key: str) -> int:
    cards = sec.array(key, int, min_len=setup.hand_size, max_len=setup.hand_size)
    for i, c in enumerate(cards, 1):
        if not 1 <= c <= setup.values:
            raise sec.error(f"card {c} is out of range", f"{key}[{i}]", allowed=f"1 to {setup.values}")
    return setup.hand_of(cards)


def _solves(rs: Section, names: Names, moderator: int | None) -> list[list[int]] | None:
    raw = rs.array("solves", None, None)
    if raw is None:
        return None
    stages = [raw] if raw and all(isinstance(x, str) for x in raw) else raw
    out: list[list[int]] = []
    for j, stage in enumerate(stages, 1):
        place = f"solves[{j}]"
        rs.check_type(stage, list, place)
        players = []
        for i, name in enumerate(stage, 1):
            rs.check_type(name, str, f"{place}[{i}]")
            p = names.index(name, rs, f"{place}[{i}]")
            if p == moderator:
                raise rs.error(f"{name} moderates this round and does not react", f"{place}[{i}]",
                               allowed="the other players")
            players.append(p)
        out.append(sorted(set(players)))
    return out
