"""The Clue arena: the table's rules and views, the bots, outside programs, the arena command and the referee.

The referee's facts and envelope probabilities are checked against a brute force over every deal of a small
deck, written here from the transcript's events alone (no sleuth solver involved)."""

from __future__ import annotations

import itertools
import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from sleuth.errors import PuzzleError
from sleuth.models.clue.arena import lineup, play_one, wilson
from sleuth.models.clue.bots import ClausesBot, RandomBot, RulesBot, SleuthBot, make_bot
from sleuth.models.clue.outside import ProgramBot
from sleuth.models.clue.referee import documents, read_transcript, referee
from sleuth.models.clue.state import Deck, Suggestion
from sleuth.models.clue.table import Bot, SeatView, play

BOTS = Path(__file__).resolve().parents[1] / "data" / "clue" / "bots"
SMALL = Deck(("Scarlet", "Mustard", "White"), ("Rope", "Knife", "Wrench"), ("Hall", "Study", "Lounge"))
MEDIUM = Deck(("Scarlet", "Mustard", "White", "Green"), ("Rope", "Knife", "Wrench"),
              ("Hall", "Study", "Lounge", "Kitchen"))


def program(name: str) -> str:
    return f"{sys.executable} {BOTS / name}"


def write(tmp_path: Path, lines: list[dict], name: str = "game.jsonl") -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return str(path)


# -- brute force, from the transcript alone ----------------------------------------------------------------

def all_deals(deck: Deck, sizes: tuple[int, ...]):
    n = len(sizes)
    for env in itertools.product(*(deck.members(k) for k in range(3))):
        rest = [c for c in range(len(deck)) if c not in env]
        for owners in itertools.product(range(n), repeat=len(rest)):
            if all(owners.count(p) == sizes[p] for p in range(n)):
                deal = [n] * len(deck)
                for c, p in zip(rest, owners, strict=True):
                    deal[c] = p
                yield tuple(deal)


def fits(deal, player, hand, events, n) -> bool:
    """Whether ``deal`` agrees with what ``player`` saw: their hand and each event read literally."""
    if any(deal[c] != player for c in hand):
        return False
    env = sorted(c for c, p in enumerate(deal) if p == n)
    for kind, e in events:
        if kind == "accusation":
            if (sorted(e["cards"]) == env) != e["correct"]:
                return False
            continue
        by, cards, shower, card = e
        for i in range(1, n):
            q = (by + i) % n
            if q == shower:
                if not any(deal[c] == q for c in cards):
                    return False
                if card is not None and player in (by, shower) and deal[card] != q:
                    return False
                break
            if any(deal[c] == q for c in cards):
                return False
    return True


def brute_views(t, lines):
    """Per step (start, then every suggestion and accusation), per player: (known cells, P(envelope triple))."""
    deck, n = t.deck, len(t.players)
    index = {name: i for i, name in enumerate(deck.cards)}
    who = {name: i for i, name in enumerate(t.players)}
    deals = list(all_deals(deck, t.sizes))
    events, out = [], []

    def step():
        row = []
        for p in range(n):
            ok = [d for d in deals if fits(d, p, t.hands[p], events, n)]
            known = {(c, q, d0[c] == q) for d0 in ok[:1] for c in range(len(deck)) for q in range(n + 1)
                     if all((d[c] == q) == (d0[c] == q) for d in ok)}
            envs = {}
            for d in ok:
                e = tuple(sorted(c for c in range(len(deck)) if d[c] == n))
                envs[e] = envs.get(e, 0) + 1
            row.append((known, {e: Fraction(k, len(ok)) for e, k in envs.items()}))
        out.append(row)

    step()
    for line in lines:
        if line["type"] == "suggestion":
            cards = tuple(index[c] for c in line["cards"])
            shower = None if line["shown_by"] is None else who[line["shown_by"]]
            card = None if line["card"] is None else index[line["card"]]
            events.append(("suggestion", (who[line["by"]], cards, shower, card)))
            step()
        elif line["type"] == "accusation":
            events.append(("accusation", {"cards": [index[c] for c in line["cards"]], "correct": line["correct"]}))
            step()
    return out


@pytest.mark.parametrize("seed", range(4))
def test_referee_facts_and_probabilities_match_a_brute_force(tmp_path, seed):
    bots = [RandomBot(), ClausesBot(), RulesBot()]
    result = play(SMALL, bots, seed, transcript=True)
    path = write(tmp_path, result.transcript)
    t = read_transcript(path)
    report = referee(t)
    brute = brute_views(t, result.transcript)
    assert len(report["steps"]) == len(brute) > 1
    names = {c: i for i, c in enumerate(SMALL.cards)}
    places = {p: i for i, p in enumerate((*t.players, "envelope"))}
    known = [set() for _ in t.players]
    for step, expected in zip(report["steps"], brute, strict=True):
        for p, name in enumerate(t.players):
            got = step["players"][name]
            known[p] |= {(names[f["card"]], places[f["place"]], f["holds"]) for f in got["new_facts"]}
            cells, envs = expected[p]
            assert known[p] == cells
            assert got["known_cells"] == len(cells)
            assert got["envelopes"] == len(envs)
            top = tuple(sorted(names[c] for c in got["most_probable"]["cards"]))
            assert Fraction(got["most_probable"]["p"]) == envs[top] == max(envs.values())
            for c, prob in got["envelope_cards"].items():
                assert Fraction(prob) == sum(v for e, v in envs.items() if names[c] in e)
            assert got["knows"] == (len(envs) == 1)


def test_referee_labels_deductions_and_accusations(tmp_path):
    lines = [
        {"type": "game", "game": "clue", "deck": {"suspects": list(SMALL.suspects), "weapons": list(SMALL.weapons),
                                                  "rooms": list(SMALL.rooms)}, "players": ["A", "B", "C"]},
        {"type": "deal", "hands": {"A": ["Scarlet", "Rope"], "B": ["Mustard", "Knife"], "C": ["Hall", "Study"]},
         "envelope": ["White", "Wrench", "Lounge"]},
        {"type": "suggestion", "by": "A", "cards": ["Mustard", "Knife", "Hall"], "shown_by": "B", "card": "Knife"},
        {"type": "deduction", "by": "A", "facts": [
            {"card": "Knife", "place": "B", "holds": True},          # entailed (shown to A)
            {"card": "Knife", "place": "C", "holds": True},          # refuted
            {"card": "Mustard", "place": "B", "holds": True}]},      # open for A
        {"type": "accusation", "by": "C", "cards": ["White", "Wrench", "Lounge"], "correct": True, "certain": True},
    ]
    report = referee(read_transcript(write(tmp_path, lines)))
    d = report["deductions"][0]
    assert [e["card"] for e in d["entailed"]] == ["Knife"]
    assert sorted((e["card"], e["place"], e["why"]) for e in d["errors"]) == [("Knife", "C", "refuted"),
                                                                                ("Mustard", "B", "open")]
    assert {"card": "Knife", "place": "C", "holds": False} in d["missed"]
    assert all(m["place"] != "A" for m in d["missed"])
    a = report["accusations"][0]
    assert a["label"] == "premature" and a["correct"] and a["certain_not_entailed"]
    assert 0 < Fraction(a["probability"]) < 1
    lines[-1] = {"type": "accusation", "by": "A", "cards": ["Scarlet", "Wrench", "Lounge"], "correct": False}
    a = referee(read_transcript(write(tmp_path, lines)))["accusations"][0]
    assert a["label"] == "impossible" and a["probability"] == "0"


def test_sleuth_never_accuses_wrongly_when_it_says_certain():
    certain = 0
    for seed in range(12):
        deck = SMALL if seed % 2 else MEDIUM
        bots = [SleuthBot(), ClausesBot(), RulesBot()] if seed % 3 else [SleuthBot(), SleuthBot(), RandomBot()]
        result = play(deck, bots, seed, transcript=True)
        for line in result.transcript:
            if line["type"] == "accusation" and line["certain"]:
                certain += 1
                assert line["correct"], line
        assert all(s.certain_wrong == 0 for s in result.seats)
    assert certain >= 6


class Spy(Bot):
    """Records what its view holds at every decision; plays like the random bot."""

    name = "spy"

    def new_game(self, view, rng):
        super().new_game(view, rng)
        self.seen: list[tuple] = []

    def look(self):
        v = self.view
        self.seen.append((v.seat, v.hand, tuple(v.suggestions), set(vars(v))))

    def suggest(self):
        self.look()
        return tuple(self.rng.choice(list(self.view.deck.members(k))) for k in range(3))

    def show(self, by, cards):
        self.look()
        return self.rng.choice([c for c in cards if c in self.view.hand])


def test_a_bot_sees_only_what_its_seat_sees():
    spies = [Spy() for _ in range(4)]
    result = play(Deck.named("classic"), spies, 5, transcript=True, max_rounds=4)
    deal = result.transcript[1]
    cards = Deck.named("classic").cards
    fields = {"deck", "players", "hand_sizes", "seat", "hand", "suggestions", "accusations", "out", "events",
              "version", "_state"}
    for spy in spies:
        assert spy.seen
        for seat, hand, suggestions, names in spy.seen:
            assert names == fields   # nothing else: no deal, no table, no other hand
            assert sorted(cards[c] for c in hand) == sorted(deal["hands"][f"P{seat + 1}"])
            for s in suggestions:
                assert (s.card is not None) == (seat in (s.by, s.shown_by) and s.shown_by is not None)
    assert not any(isinstance(v, (list, tuple)) and len(v) == len(cards) for v in vars(spies[0].view).values())


def test_view_state_is_the_seats_viewpoint():
    view = SeatView(SMALL, ("A", "B", "C"), (2, 2, 2), 1, frozenset({0, 3}))
    view.see_suggestion(Suggestion(0, (1, 4, 7), 2, 4))   # C shows A the Knife: B sees only that C showed
    view.see_suggestion(Suggestion(2, (1, 3, 8), 1, 3))   # B shows C the Rope: B saw it
    state = view.state()
    assert state.viewer == 1 and state.hands[1] == frozenset({0, 3}) and not state.hands[0]
    assert [s.card for s in state.suggestions] == [None, 3]


def test_games_replay_from_the_seed():
    job = ("classic", ("rules", "clauses", "random", "clauses"), 7, 3, 10.0, True)
    a, b = play_one(job), play_one(job)
    assert a["transcript"] == b["transcript"] and a["winner"] == b["winner"] and a["turns"] == b["turns"]
    other = play_one(("classic", ("rules", "clauses", "random", "clauses"), 7, 4, 10.0, True))
    assert other["transcript"][1] != a["transcript"][1]   # another game, another deal


def test_seats_rotate_so_every_entry_sits_everywhere():
    entries = ["sleuth", "clauses", "clauses", "rules"]
    seats = [lineup(entries, g) for g in range(4)]
    for e in range(4):
        assert sorted(row.index(e) for row in seats) == [0, 1, 2, 3]


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert abs(lo - 0.2366) < 1e-4 and abs(hi - 0.7634) < 1e-4
    assert wilson(0, 10)[0] == 0.0 and wilson(0, 0) == (0.0, 1.0)


# -- outside programs --------------------------------------------------------------------------------------

def test_an_outside_program_plays_a_whole_game():
    bots = [ProgramBot(program("good_bot.py"), 60.0), RandomBot(), RandomBot()]
    result = play(SMALL, bots, 3, transcript=True)
    assert result.seats[0].forfeit is None and result.seats[0].decisions > 0
    assert result.reason in ("accusation", "all out")
    assert bots[0].proc is None   # stopped


@pytest.mark.parametrize(("script", "reason"), [("hang_bot.py", "no answer within"),
                                                ("garbage_bot.py", "not a JSON object")])
def test_a_broken_program_forfeits_and_the_game_goes_on(script, reason):
    bots = [ProgramBot(program(script), 1.5), ClausesBot(), ClausesBot()]
    result = play(SMALL, bots, 1, transcript=True)
    assert reason in (result.seats[0].forfeit or "")
    assert result.winner in (1, 2)   # the other two played on to the end
    assert any(line["type"] == "forfeit" for line in result.transcript)


def test_outside_messages_follow_their_schemas(monkeypatch):
    jsonschema = pytest.importorskip("jsonschema")
    sent: list[dict] = []
    real = ProgramBot.write

    def write(self, message):
        sent.append(message)
        real(self, message)

    monkeypatch.setattr(ProgramBot, "write", write)
    play(SMALL, [ProgramBot(program("good_bot.py"), 60.0), RandomBot(), RulesBot()], 2)
    schema = documents()["bot-request"]
    assert {m["type"] for m in sent} >= {"suggest", "accuse"}
    for m in sent:
        jsonschema.validate(m, schema)
    for reply in ({"suggest": ["Scarlet", "Rope", "Hall"]}, {"show": "Rope"}, {"accuse": None},
                  {"accuse": ["Scarlet", "Rope", "Hall"], "certain": True}):
        jsonschema.validate(reply, documents()["bot-reply"])


def test_transcripts_follow_their_schema():
    jsonschema = pytest.importorskip("jsonschema")
    result = play(MEDIUM, [SleuthBot(), RulesBot(), ClausesBot()], 4, transcript=True)
    for line in result.transcript:
        jsonschema.validate(line, documents()["transcript"])


def test_a_plug_in_bot_plays_by_its_entry_point_name(monkeypatch):
    from sleuth.models.clue import bots

    monkeypatch.setattr(bots, "plugin_bots", lambda: {"spy": "tests.games.test_clue_arena:Spy",
                                                      "clauses": "tests.games.test_clue_arena:Spy"})
    spy = bots.make_bot("spy", 1.0)
    assert isinstance(spy, Spy) and spy.name == "spy"
    assert isinstance(bots.make_bot("clauses", 1.0), ClausesBot)   # a built-in name is never taken
    assert "spy" in bots.bot_names()
    result = play(SMALL, [spy, RandomBot(), RandomBot()], 2, max_rounds=3)
    assert result.seats[0].forfeit is None and spy.seen


class Crash(RandomBot):
    name = "crash"

    def suggest(self):
        raise ZeroDivisionError("a bug")


def test_a_bot_that_raises_forfeits_its_game_not_the_run():
    result = play(SMALL, [Crash(), ClausesBot(), ClausesBot()], 0)
    assert result.seats[0].forfeit == "raised ZeroDivisionError: a bug" and result.winner in (1, 2)


def test_plug_in_bot_names_are_checked():
    assert isinstance(make_bot("clauses", 1.0), ClausesBot)
    with pytest.raises(PuzzleError, match="unknown bot 'nosuch'"):
        make_bot("nosuch", 1.0)


# -- the command line --------------------------------------------------------------------------------------

def test_arena_cli_json_and_transcripts(cli, tmp_path):
    folder = tmp_path / "games"
    res = cli(["arena", "clue", "--players", "3", "--games", "3", "--bots", "rules,clauses,random", "--json",
               "--quiet", "--transcripts", folder])
    assert res.code == 0, res.err
    data = json.loads(res.out)
    rows = {r["bot"]: r for r in data["bots"]}
    assert set(rows) == {"rules", "clauses", "random"} and all(r["plays"] == 3 for r in rows.values())
    assert sum(r["wins"] for r in rows.values()) + data["draws"] == 3
    for r in rows.values():
        assert r["interval"][0] <= r["win_share"] <= r["interval"][1]
    files = sorted(folder.iterdir())
    assert len(files) == 3
    ref = cli(["referee", files[0], "--json"])
    assert ref.code == 0, ref.err
    assert json.loads(ref.out)["players"] == ["P1", "P2", "P3"]
    assert cli(["referee", files[0]]).out.startswith("Referee:")


def test_arena_cli_with_a_hanging_program_finishes_the_run(cli):
    res = cli(["arena", "clue", "--players", "3", "--games", "2", "--quiet", "--timeout", "1.5", "--json",
               "--bots", f"cmd:{program('hang_bot.py')},clauses"])
    assert res.code == 0, res.err
    rows = {r["bot"]: r for r in json.loads(res.out)["bots"]}
    assert rows[f"cmd:{program('hang_bot.py')}"]["forfeits"] == 2 and rows["clauses"]["forfeits"] == 0


@pytest.mark.parametrize(("args", "words"), [
    (["--bots", "nosuch"], "unknown bot 'nosuch'"),
    (["--players", "1"], "--players"),
    (["--bots", "rules,rules,rules,rules", "--players", "3"], "names 4 bots for 3 players"),
    (["--bots", "cmd:"], "cmd: names no program"),
    (["--plot", "x.txt"], "not a .png"),
])
def test_arena_bad_input_is_one_line(cli, args, words):
    res = cli(["arena", "clue", *args])
    assert res.code == 2 and words in res.err and "Traceback" not in res.err
    assert len(res.err.strip().splitlines()) == 1


def test_arena_of_a_game_without_one(cli):
    res = cli(["arena", "wordle"])
    assert res.code == 2 and "has no arena" in res.err


def test_arena_of_an_unknown_game_lists_only_games_with_an_arena(cli):
    res = cli(["arena", "nosuch"])
    assert res.code == 2 and "unknown game 'nosuch'" in res.err and "Traceback" not in res.err
    assert len(res.err.strip().splitlines()) == 1
    allowed = res.err.split("allowed:")[1]
    assert "clue" in allowed and "wordle" not in allowed and "motus" not in allowed


@pytest.mark.parametrize(("lines", "words"), [
    (["not json"], "line 1"),
    ([{"type": "suggestion"}], "line 1"),
    ([{"type": "game", "game": "clue", "players": ["A", "B"]}, {"type": "suggestion", "by": "Zed",
                                                                 "cards": ["Plum", "Rope", "Hall"]}],
     "line 2: unknown player 'Zed'"),
    ([{"type": "game", "game": "clue", "players": ["A", "B"]}, {"type": "suggestion", "by": "A",
                                                                 "cards": ["Plum", "Rope", "Knife"]}],
     "not one suspect, one weapon and one room"),
])
def test_referee_bad_input_is_one_line(cli, tmp_path, lines, words):
    path = tmp_path / "bad.jsonl"
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines), encoding="utf-8")
    before = path.read_bytes()
    res = cli(["referee", path])
    assert res.code == 2 and words in res.err and "Traceback" not in res.err
    assert len(res.err.strip().splitlines()) == 1
    assert path.read_bytes() == before


def test_referee_of_an_impossible_game_is_bad_input(cli, tmp_path):
    lines = [{"type": "game", "game": "clue", "players": ["A", "B", "C"]},
             {"type": "deal", "hands": {"A": ["Plum", "Rope", "Hall", "Knife", "Study", "Lounge"]}},
             {"type": "suggestion", "by": "B", "cards": ["Plum", "Rope", "Hall"], "shown_by": "C"}]
    res = cli(["referee", write(tmp_path, lines)])
    assert res.code == 2 and "no deal agrees with what A saw" in res.err


def test_schema_documents(cli):
    for name in ("transcript", "bot-request", "bot-reply"):
        res = cli(["schema", "clue", name])
        assert res.code == 0 and "$schema" in json.loads(res.out)
    res = cli(["schema", "clue", "nosuch"])
    assert res.code == 2 and "transcript" in res.err


def test_referee_without_a_hand_judges_from_the_public_events(tmp_path):
    lines = [{"type": "game", "game": "clue", "deck": {"suspects": list(SMALL.suspects),
                                                       "weapons": list(SMALL.weapons), "rooms": list(SMALL.rooms)},
              "players": ["A", "B", "C"]},
             {"type": "deal", "hands": {"A": ["Scarlet", "Rope"]}},
             {"type": "suggestion", "by": "B", "cards": ["Scarlet", "Knife", "Hall"], "shown_by": "C",
              "card": "Knife"}]
    step = referee(read_transcript(write(tmp_path, lines)))["steps"][-1]["players"]
    assert step["A"]["hand_known"] and not step["B"]["hand_known"]
    # B saw the Knife: it is not in the envelope for B; A did not see it
    assert "Knife" not in step["B"]["envelope_cards"] and "Knife" in step["A"]["envelope_cards"]
    assert {"card": "Knife", "place": "C", "holds": True} in step["B"]["new_facts"]


def test_the_same_games_on_two_workers(cli, tmp_path):
    runs = []
    for extra in ([], ["--workers", "2"]):
        folder = tmp_path / f"run{len(runs)}"
        res = cli(["arena", "clue", "--players", "4", "--games", "4", "--bots", "rules,clauses,random", "--quiet",
                   "--json", "--transcripts", folder, *extra])
        assert res.code == 0, res.err
        rows = [{k: v for k, v in r.items() if "decision" not in k} for r in json.loads(res.out)["bots"]]
        runs.append((rows, [p.read_text() for p in sorted(folder.iterdir())]))
    assert runs[0] == runs[1]


def test_finish_chances_against_a_plain_count():
    from sleuth.models.clue.bots import finish_chances

    n, by = 3, 1
    deals = [d for d in all_deals(SMALL, (2, 2, 2)) if d[0] == 1 and d[3] == 1][:120]   # by holds Scarlet, Rope
    triples = [(s, w, r) for s in SMALL.members(0) for w in SMALL.members(1) for r in SMALL.members(2)]
    got = finish_chances(deals, by, triples, n)
    for t, chance in zip(triples, got, strict=True):
        answers = {}   # answer -> {envelope: weight}
        for d in deals:
            env = tuple(c for c in range(len(SMALL)) if d[c] == n)
            shower = next((q for q in ((by + i) % n for i in range(1, n)) if any(d[c] == q for c in t)), None)
            held = [c for c in t if shower is not None and d[c] == shower]
            for a in ([(shower, c) for c in held] or [None]):
                answers.setdefault(a, {}).setdefault(env, 0)
                answers[a][env] += Fraction(1, len(held) or 1)
        expected = sum(sum(w.values()) for w in answers.values() if len(w) == 1) / len(deals)
        assert abs(chance - float(expected)) < 1e-9, t


def test_sleuth_past_the_memory_budget_still_plays(monkeypatch):
    from sleuth.limits import TooLarge
    from sleuth.models.clue import others

    calls = []

    def refuse(*args, **kwargs):
        calls.append(args)
        raise TooLarge("past the budget")

    monkeypatch.setattr(others, "show_advice", refuse)
    monkeypatch.setattr(others, "chances_others_know", refuse)
    for seed in range(6):
        result = play(MEDIUM, [SleuthBot(), SleuthBot(), ClausesBot()], seed)
        assert all(s.forfeit is None for s in result.seats)
    assert calls   # the refusals were met, and played through


def gambler(monkeypatch, triples, knows):
    """A sleuth bot at seat 0 of 3 on the small deck whose counts are ``triples`` (envelope -> deals) and
    whose model of the others gives them probability ``knows[q]`` of knowing the envelope."""
    from sleuth.models.clue import others
    from sleuth.models.clue.counting import Counts

    bot = SleuthBot()
    bot.new_game(SeatView(SMALL, ("A", "B", "C"), (2, 2, 2), 0, frozenset({0, 3})), None)
    total = sum(triples.values())
    monkeypatch.setattr(bot, "counts", lambda: Counts(total, (), triples))
    monkeypatch.setattr(others, "chances_others_know",
                        lambda state, players: {q: {"envelope": Fraction(knows[q])} for q in players})
    return bot


@pytest.mark.parametrize(("ways", "knows", "after", "gambles"), [
    ((60, 40), {1: 0, 2: 0}, True, False),            # p = 3/5 <= (4/5)^2 = 16/25: waiting is worth more
    ((60, 40), {1: Fraction(1, 10), 2: 0}, True, True),   # W = 16/25 * 9/10 = 72/125 < 3/5
    ((60, 40), {1: Fraction(1, 10), 2: 0}, False, False),  # never before its own suggestion
    ((66, 34), {1: 0, 2: 0}, True, True),             # p = 33/50 > 16/25
    ((24, 76), {1: 1, 2: 1}, True, True),             # both others know it: W = 0; the best is the second
    ((20, 20, 20, 20, 20), {1: 1, 2: 1}, True, False),  # p = 1/5 < 1/4: no gamble
])
def test_sleuth_gamble_rule(monkeypatch, ways, knows, after, gambles):
    envelopes = [(1, 4, 7), (1, 4, 8), (2, 4, 7), (2, 5, 7), (2, 5, 8)]
    bot = gambler(monkeypatch, dict(zip(envelopes, ways, strict=False)), knows)
    bot.suggested = after
    choice = bot.accuse()
    assert (choice is not None) == gambles
    if choice is not None:
        best = max(zip(ways, envelopes, strict=False))[1]
        assert choice.cards == best and not choice.certain
    assert not bot.suggested   # the question after the suggestion is answered: the next one is a new turn's


def test_sleuth_gambles_only_right_after_its_suggestion():
    gambles = 0
    for seed in range(10):
        result = play(MEDIUM, [SleuthBot(), RulesBot(), RulesBot(), ClausesBot()], seed, transcript=True)
        lines = [x for x in result.transcript if x["type"] in ("suggestion", "accusation")]
        for before, line in itertools.pairwise(lines):
            if line["type"] == "accusation" and not line["certain"] and line["by"] == "P1":
                gambles += 1
                assert before["type"] == "suggestion" and before["by"] == "P1" and before["turn"] == line["turn"]
    assert gambles >= 1
