"""The toy game's keys and claims."""

from sleuth.spec import GameSpec, Key

SPEC = GameSpec(
    "three-cards", "Three face-down cards and facts about where they are not",
    keys=(Key("fact", "array of tables", "facts: a position does not hold a card", default="none", keys=(
        Key("position", "integer", "1, 2 or 3", required=True),
        Key("not", "string", "the card it does not hold: A, B or C", required=True))),),
    claims=("position <n> holds <card>",),
)
