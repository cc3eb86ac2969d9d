"""The toy game's declaration: everything the engine, the command line and the companion know about it."""

from dataclasses import replace

from sleuth.game import Companion, Game
from sleuth.spec import Key, Option

GAME = Game(
    "three-cards", "Three face-down cards and facts about where they are not", "tests.toygame", aliases=("toy",),
    keys=(Key("fact", "array of tables", "facts: a position does not hold a card", default="none", keys=(
        Key("position", "integer", "1, 2 or 3", required=True),
        Key("not", "string", "the card it does not hold: A, B or C", required=True))),),
    claims=("position <n> holds <card>",),
    options=(Option("first", "flag", "off", "list only the first arrangement", ("solve",), flag=True),),
    companion=Companion(page=("static/toy.js",), info="tests.toygame.companion:page_info"),  # `sleuth serve`
)
# The same game declared without a page: the companion shows it on its generic page.
BARE = replace(GAME, name="bare-cards", aliases=(), summary="Three cards, without a page of its own",
               companion=Companion())
