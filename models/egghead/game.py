"""The Egghead game: puzzle file, options, methods and claim forms (the source of docs/egghead.md's tables)."""

from sleuth.derive import Derivation, model
from sleuth.game import Experiment, Game
from sleuth.jit import Kernel
from sleuth.spec import Key, Option

_INLINE = ("_empty", "_store", "_settle", "_own_rows", "_gather", "_keep", "_kept_here", "_exactly_one_rows",
           "_strides", "_left_out", "_elsewhere", "_run_lines")
REACT_KERNEL = Kernel(
    "sleuth.models.egghead._react_kernel",
    (*_INLINE, "occupancy", "react_narrow", "react_wide", "react_again", "and_into", "and_gather", "fix_axis"),
    "SLEUTH_EGGHEAD_KERNEL", "eq. 2, 3 and 5 on the packed tables, over their blocks holding worlds",
    # the helpers are inlined into their callers (a call per block made eq. 3 up to twice as slow);
    # react_blocks and react_table, plain Python, choose between the two eq. 3 kernels
    internal=_INLINE, inline=_INLINE)

GAME = Game(
    "egghead", "Egghead: each player's valids, with basic or behavioural analysis",
    "sleuth.models.egghead",
    keys=(
        Key("values", "integer", "cards show 1..values (2 to 12)", default="6"),
        Key("hand_size", "integer", "cards per hand (1 to 8)", default="3"),
        Key("players", "list of strings", "the players (2 to 8)", required=True),
        Key("moderator", "string", "who answers: an external moderator, or players in turn (round i: "
            "players[i mod n])", default="external", choices=("external", "rotating")),
        Key("analysis", "string", "eq. 1 only, or the behavioural analysis (Algorithm 1)",
            default="behavioural", choices=("basic", "behavioural")),
        Key("analysts", "list of strings", "with behavioural analysis: only these players analyse",
            default="everyone"),
        Key("table", "table", "the hands on the table; only the viewer's own may be left out", required=True,
            names="player = list of hand_size cards"),
        Key("round", "array of tables", "the rounds played", default="none", keys=(
            Key("question", "string", "a question of the catalogue, by id (sleuth games egghead lists them)",
                required=True),
            Key("answer", "integer", "the moderator's answer", default="computed from the table"),
            Key("solves", "list", "who solved, stage by stage: [[\"B\"], [\"A\"]]; [] means nobody",
                default="computed from the table"),
            Key("new_hands", "table", "hands dealt to solvers, when known", default="none",
                names="player = list of cards"))),
    ),
    claims=("<player> holds 1 2 2", "<player> has a <v>", "<player> has no <v>"),
    methods=(Derivation("tables", "the packed master table (behavioural analysis) and each player's table"),
             Derivation("layer", "the same analysis as knowledge of others on the shared layer (sleuth.knowledge):"
                        " every world listed, a reaction read as 'knows their own hand' (small setups)"),
             model("the declarative model on --backend: basic analysis, one model per player and hand (its "
                   "solutions are the valids); behavioural analysis, each answer's model over the hands seen "
                   "enumerated to list the worlds, the reactions read as knowledge of others (small setups)")),
    answer=("valids", "undetermined"),
    options=(Option("method", "string", "auto", "how the valids are derived (see methods)", ("solve", "verify"),
                    flag=True),),
    template="egghead/seed_example",
    max_worlds=True,
    help="sleuth.models.egghead.questions:catalogue_help",
    kernels=(REACT_KERNEL,), warm_kernels="sleuth.models.egghead.experiment:compile_kernels",
    experiments=(Experiment("egghead", "sleuth.models.egghead.experiment:main",
                            "simulation study of behavioural analysis"),),
)
