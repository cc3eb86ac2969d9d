"""The epistemic puzzle file, options and claim forms (the source of docs/epistemic.md's tables)."""

from sleuth.spec import GameSpec, Key, Option

SPEC = GameSpec(
    "epistemic", "Epistemic puzzles: worlds, agents who observe expressions, public announcements",
    keys=(
        Key("variables", "table", "the variables and their domains", default="read from worlds",
            names="name = \"lo..hi\" | [values] | { min = lo, max = hi }"),
        Key("worlds", "list of tables", "the starting worlds, listed instead of (or within) the domains",
            default="every combination of the domains"),
        Key("constraints", "list of strings", "formulas without knows() that every world satisfies",
            default="none"),
        Key("agents", "table", "the expressions each agent observes", required=True,
            names="agent = [expressions]"),
        Key("announcement", "array of tables", "public truthful announcements, in order", default="none", keys=(
            Key("formula", "string", "what is announced", required=True),
            Key("by", "string", "who announces (for display)", default="none"),
            Key("repeat", "integer or string", "rounds, or \"stable\" (until nothing changes)", default="1"))),
        Key("actual", "table", "the real world, for claims judged there", default="none",
            names="variable = value"),
    ),
    claim_keys=(Key("after", "integer", "judge after the first N announcement rounds", default="all of them"),
                Key("at", "string", "judge at the actual world only, or over all worlds left", default="all",
                    choices=("actual", "all"))),
    claims=("a formula, e.g. x == 4 and knows(S, not knows(P))",),
    options=(Option("worlds", "string", "auto", "how the starting worlds are built: auto, table, solver",
                    ("solve", "verify")),),
    template="epistemic/cheryl",
)
