"""A tiny outside Clue bot for the arena's tests (JSON lines on stdin/stdout; docs/arena.md).

It suggests, per category, the first card it has neither in hand nor been shown; shows the first card it may;
accuses when one card per category is left unseen."""
import json
import sys

seen = set()
cards = None
for line in sys.stdin:
    msg = json.loads(line)
    if "game" in msg:
        cards = msg["game"]["cards"]
        seen.update(msg["game"]["hand"])
    for e in msg["events"]:
        if e["type"] == "suggestion" and e.get("card"):
            seen.add(e["card"])
    left = [[c for c in cards[k] if c not in seen] or cards[k] for k in ("suspects", "weapons", "rooms")]
    if msg["type"] == "end":
        break
    if msg["type"] == "suggest":
        reply = {"suggest": [cat[0] for cat in left]}
    elif msg["type"] == "show":
        reply = {"show": msg["options"][0]}
    else:
        one = all(len([c for c in cards[k] if c not in seen]) == 1 for k in ("suspects", "weapons", "rooms"))
        reply = {"accuse": [cat[0] for cat in left] if one else None, "certain": one}
    print(json.dumps(reply), flush=True)
