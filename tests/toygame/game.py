"""The toy game's declaration: everything the engine and the command line know about it."""

from sleuth.game import Game
from sleuth.spec import Key, Option

GAME = Game(
    "three-cards", "Three face-down cards and facts about where they are not", "tests.toygame", aliases=("toy",),
    keys=(Key("fact", "array of tables", "facts: a position does not hold a card", default="none", keys=(
        Key("position", "integer", "1, 2 or 3", required=True),
        Key("not", "string", "the card it does not hold: A, B or C", required=True))),),
    claims=("position <n> holds <card>",),
    options=(Option("first", "flag", "off", "list only the first arrangement", ("solve",), flag=True),),
)
