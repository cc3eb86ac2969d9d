"""The epistemic-puzzle game: puzzle file, options, methods and claims (the source of docs/epistemic.md's tables)."""

from sleuth.derive import Derivation, model
from sleuth.game import Experiment, Game
from sleuth.spec import Key, Option

GAME = Game(
    "epistemic", "Epistemic puzzles: worlds, agents who observe expressions, public announcements",
    "sleuth.models.epistemic",
    keys=(
        Key("variables", "table", "the variables and their domains", default="read from worlds",
            names="name = \"lo..hi\" | [values] | { min = lo, max = hi }"),
        Key("worlds", "list of tables", "the starting worlds, listed instead of (or within) the domains",
            default="every combination of the domains"),
        Key("constraints", "list of strings", "formulas without knows() that every world satisfies",
            default="none"),
        Key("agents", "table", "the expressions each agent observes", required=True,
            names="agent = [expressions] ([] = observes nothing)"),
        Key("announcement", "array of tables", "public truthful announcements, in order", default="none", keys=(
            Key("formula", "string", "what is announced", required=True),
            Key("by", "string", "who announces, for display only: an agent or any speaker (the father)",
                default="none"),
            Key("repeat", "integer or string", "rounds, or \"stable\" (until nothing changes)", default="1"))),
        Key("event", "array of tables", "events in order, instead of [[announcement]]: public, private and "
            "semi-private announcements, action models, factual change", default="none", keys=(
                Key("kind", "string", "what kind of event", default="public",
                    choices=("public", "private", "semi-private", "action")),
                Key("formula", "string", "public: what is announced; private: what the agents `to` learn holds",
                    default="none"),
                Key("by", "string", "who acts, for display only: an agent or anyone", default="none"),
                Key("repeat", "integer or string", "a public announcement's rounds, or \"stable\"", default="1"),
                Key("to", "string or list", "private, semi-private: who learns (agents, or \"all\")",
                    default="required for those kinds"),
                Key("learn", "string", "an expression whose value `to` learn (public: everyone)",
                    default="none (required for semi-private)"),
                Key("set", "table", "factual change, each value computed before the event", default="none",
                    names="variable = expression or value"),
                Key("events", "array of tables", "action: the events of the action model",
                    default="required for an action", keys=(
                        Key("name", "string", "the event's name", required=True),
                        Key("pre", "string", "where it can happen (a formula)", default="true"),
                        Key("set", "table", "factual change", default="none", names="variable = expression or value"),
                        Key("designated", "boolean", "it may be the event that really happens", default="true"))),
                Key("observers", "table", "action: per agent, a partition of the events, or event -> events it "
                    "considers possible", default="nobody tells the events apart",
                    names="agent = [[events], ...] | { event = [events] }"),
                Key("actual", "string", "action: the event that happens at the actual world",
                    default="the only one that can"))),
        Key("actual", "table", "the real world, for claims judged there", default="none",
            names="variable = value"),
    ),
    claim_keys=(Key("after", "integer", "judge after the first N announcement rounds or events", default="all of them"),
                Key("at", "string", "judge at the actual world only, or over all worlds left", default="all",
                    choices=("actual", "all"))),
    claims=("a formula, e.g. x == 4 and knows(S, not knows(P))",),
    methods=(Derivation("table", "the worlds as a vectorised table: the product of the domains filtered (or the "
                        "listed worlds), announcements applied to the table"),
             Derivation("symbolic", "knowledge structures on binary decision diagrams (needs the symbolic extra, "
                        "oxidd): the worlds as a state law, knowledge by quantifying what an agent does not observe; "
                        "the count is exact, the worlds listed are bounded; beliefs after private events as relations "
                        "on a doubled vocabulary"),
             model("the starting worlds enumerated from the declarative model on --backend (the listed worlds "
                   "as a table constraint), then the same announcements", "solver")),
    answer=("worlds", "count"),
    options=(Option("method", "string", "auto", "how the worlds are built (see methods; auto: symbolic past "
                    "16,384 worlds when every domain has at most 16 values, or past the table's limit when at most "
                    "1,024, and no formula multiplies two expressions of the variables; else table while the product "
                    "of the domains fits, else model)",
                    ("solve", "verify"), flag=True),),
    template="epistemic/cheryl",
    aliases=("del", "knowledge"),
    viewer=False,
    max_worlds=True,
    experiments=(Experiment("epistemic", "sleuth.models.epistemic.experiment:main",
                            "benchmark: Sum and Product, What Sum, muddy children"),),
)
