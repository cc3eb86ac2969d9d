"""Outside players: a program that plays a seat by speaking JSON lines on its standard input and output.

One message per decision, one line each way (docs/arena.md; the JSON Schemas: ``sleuth schema clue
bot-request`` and ``bot-reply``).  The table writes a request: ``{"type": "suggest" | "show" | "accuse", ...}``
with ``events``, every event its seat saw since the previous request (the first request also carries ``game``:
the seats, the deck, the hand sizes, the seat and its hand); the program answers with one JSON object on one
line: ``{"suggest": [SUSPECT, WEAPON, ROOM]}``, ``{"show": CARD}`` or ``{"accuse": null | [S, W, R]}`` (with
``"certain": true`` when it says it knows).  Cards and players are written by name.  At the end the table
writes ``{"type": "end", ...}`` and closes the program's input.  A program that does not answer within the
timeout, exits, or answers anything else forfeits the game (:class:`.table.BotFailure`); the run goes on.
"""

from __future__ import annotations

import json
import os
import select
import shlex
import subprocess
import time
from typing import Any

from .table import AccuseChoice, Bot, BotFailure, SeatView, Triple, deck_json

MAX_LINE = 1 << 20   # bytes of one reply


class ProgramBot(Bot):
    """A seat played by an outside program (``--bots cmd:PROGRAM``), started once per game."""

    def __init__(self, command: str, timeout: float) -> None:
        self.command, self.timeout = command, timeout
        self.name = f"cmd:{command}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.sent = 0
        self.greeted = False
        self.buffer = b""

    def new_game(self, view: SeatView, rng: Any) -> None:
        super().new_game(view, rng)
        try:
            self.proc = subprocess.Popen(shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, start_new_session=True)
        except (OSError, ValueError) as exc:
            raise BotFailure(f"cannot start {self.command!r} ({exc})") from None

    # -- the protocol ----------------------------------------------------------------------------------------
    def card(self, c: int) -> str:
        return self.view.deck.cards[c]

    def event(self, e: dict[str, Any]) -> dict[str, Any]:
        players = self.view.players
        out = dict(e)
        for key in ("by", "shown_by", "player"):
            if key in out and out[key] is not None:
                out[key] = players[out[key]]
        if "cards" in out:
            out["cards"] = [self.card(c) for c in out["cards"]]
        if out.get("card") is not None:
            out["card"] = self.card(out["card"])
        return out

    def request(self, kind: str, **extra: Any) -> dict[str, Any]:
        """Send one request, read one reply (a JSON object), within the timeout."""
        v = self.view
        message: dict[str, Any] = {"type": kind, **extra,
                                   "events": [self.event(e) for e in v.events[self.sent:]]}
        if not self.greeted:
            self.greeted = True
            message["game"] = {"players": list(v.players), "seat": v.players[v.seat], "deck": deck_json(v.deck),
                               "hand_sizes": list(v.hand_sizes), "hand": [self.card(c) for c in sorted(v.hand)],
                               "cards": {"suspects": list(v.deck.suspects), "weapons": list(v.deck.weapons),
                                         "rooms": list(v.deck.rooms)}}
        self.sent = len(v.events)
        self.write(message)
        line = self.read_line()
        try:
            reply = json.loads(line)
        except ValueError:
            raise BotFailure(f"answered {line[:80]!r}, not a JSON object") from None
        if not isinstance(reply, dict):
            raise BotFailure(f"answered {line[:80]!r}, not a JSON object")
        return reply

    def write(self, message: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError:
            raise BotFailure("the program exited") from None

    def read_line(self) -> str:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotFailure(f"no answer within {self.timeout:g} s")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BotFailure("the program exited")
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE:
                raise BotFailure(f"answered a line longer than {MAX_LINE} bytes")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace").strip()

    def triple(self, value: Any, what: str) -> Triple:
        d = self.view.deck
        if not isinstance(value, list) or len(value) != 3 or not all(isinstance(x, str) for x in value):
            raise BotFailure(f"{what} {value!r}: not a list of three card names")
        cards = []
        for k, name in enumerate(value):
            if name not in d.categories[k]:
                raise BotFailure(f"{what} {value!r}: {name!r} is not a {('suspect', 'weapon', 'room')[k]}")
            cards.append(d.cards.index(name))
        return cards[0], cards[1], cards[2]

    # -- the bot interface -------------------------------------------------------------------------------------
    def suggest(self) -> Triple:
        return self.triple(self.request("suggest").get("suggest"), "suggested")

    def show(self, by: int, cards: Triple) -> int:
        held = [c for c in cards if c in self.view.hand]
        reply = self.request("show", by=self.view.players[by], cards=[self.card(c) for c in cards],
                             options=[self.card(c) for c in held]).get("show")
        if not isinstance(reply, str) or reply not in [self.card(c) for c in held]:
            raise BotFailure(f"showed {reply!r}, not one of {[self.card(c) for c in held]}")
        return self.view.deck.cards.index(reply)

    def accuse(self) -> AccuseChoice | None:
        reply = self.request("accuse")
        if "accuse" not in reply:
            raise BotFailure(f"answered {reply!r} to accuse (expected an 'accuse' key)")
        if reply["accuse"] is None:
            return None
        return AccuseChoice(self.triple(reply["accuse"], "accused"), reply.get("certain") is True)

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(json.dumps({"type": "end", "events": [self.event(e) for e in
                                                                       self.view.events[self.sent:]]}).encode() + b"\n")
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def request_schema() -> dict[str, Any]:
    """The JSON Schema of a request the table writes to an outside bot (one line per decision)."""
    names = {"type": "array", "items": {"type": "string"}}
    triple = {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 3}
    event = {"type": "object", "required": ["type"], "properties": {
        "type": {"enum": ["suggestion", "accusation", "forfeit"]},
        "by": {"type": "string"}, "cards": triple, "shown_by": {"type": ["string", "null"]},
        "card": {"type": ["string", "null"], "description": "the card shown, when this seat saw it"},
        "correct": {"type": "boolean"}, "player": {"type": "string"}}}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "sleuth arena: a request to an outside Clue bot (one JSON line per decision)",
            "type": "object", "required": ["type", "events"],
            "properties": {
                "type": {"enum": ["suggest", "show", "accuse", "end"],
                         "description": "the decision asked (end: the game is over, no answer)"},
                "events": {"type": "array", "items": event,
                           "description": "what this seat saw since the previous request, in order"},
                "game": {"type": "object", "description": "first request only",
                         "required": ["players", "seat", "deck", "hand_sizes", "hand", "cards"],
                         "properties": {"players": names, "seat": {"type": "string"}, "deck": {},
                                        "hand_sizes": {"type": "array", "items": {"type": "integer"}},
                                        "hand": names, "cards": {"type": "object"}}},
                "by": {"type": "string", "description": "show: who suggested"},
                "cards": {**triple, "description": "show: the suggested cards"},
                "options": {**names, "description": "show: the cards this seat may show"}}}


def reply_schema() -> dict[str, Any]:
    """The JSON Schema of an outside bot's reply (one JSON line)."""
    triple = {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 3}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "sleuth arena: an outside Clue bot's reply (one JSON line)",
            "type": "object", "minProperties": 1,
            "properties": {"suggest": {**triple, "description": "to suggest: suspect, weapon, room"},
                           "show": {"type": "string", "description": "to show: one of options"},
                           "accuse": {"oneOf": [{"type": "null"}, triple],
                                      "description": "to accuse: null to go on, or suspect, weapon, room"},
                           "certain": {"type": "boolean", "description": "with accuse: the bot says it knows"}}}
