"""The Clue game: puzzle file, options, methods and claim forms (the source of docs/clue.md's tables)."""

from sleuth.derive import Derivation, model
from sleuth.game import Companion, Experiment, Game
from sleuth.jit import Kernel
from sleuth.spec import Key, Option

SPLIT_KERNEL = Kernel(
    "sleuth.models.clue._split_kernel",
    ("_reach", "_mix", "_mix_ratio", "_proportions", "_multiple", "split_layer", "merge_records", "record_copies",
     "resolve_records", "finish", "_codes", "_record_codes", "_remaining", "knowledge_sums", "belief_sums",
     "read_records", "entries_bound"),
    "SLEUTH_CLUE_KERNEL", "the counting passes split by a player's view (what the others know, beliefs)",
    # called only by the other kernels; _reach inlined into its caller (a call per entry: up to twice as slow)
    internal=("_reach", "_mix", "_mix_ratio", "_proportions", "_multiple", "_codes", "_record_codes", "_remaining"),
    inline=("_reach",))
ADVICE_KERNEL = Kernel("sleuth.models.clue._advice_kernel", ("move", "move_columns"), "SLEUTH_CLUE_KERNEL",
                       "the exact advice's inner loop (suggest --method information, --show)")

_TRIPLE = "one suspect, one weapon and one room, in any order"

GAME = Game(
    "clue", "Clue / Cluedo: who holds which card, and what is in the envelope",
    "sleuth.models.clue",
    keys=(
        Key("deck", "string or table", "the deck: a named deck, or a table of the three categories",
            default="classic", choices=("classic", "master-detective"), keys=(
                Key("suspects", "list of strings", "the suspect cards", required=True),
                Key("weapons", "list of strings", "the weapon cards", required=True),
                Key("rooms", "list of strings", "the room cards", required=True))),
        Key("players", "list of strings", "the players in seating order, clockwise (2 to 10)", required=True),
        Key("hand_sizes", "list of integers", "cards per player, same order; must add up to the deck minus 3",
            default="deal evenly, earlier seats get the extras"),
        Key("hands", "table", "cards known to be in a hand (the viewer's own, cards seen)", default="none",
            names="player = list of cards"),
        Key("suggestion", "array of tables", "suggestions in the order they were made", default="none", keys=(
            Key("by", "string", "the player who suggested", required=True),
            Key("cards", "list of strings", _TRIPLE, required=True),
            Key("shown_by", "string", "the player who showed a card; those between the suggester and them "
                "could not", default="nobody could show"),
            Key("card", "string", "the card shown, when the viewer saw it", default="unknown"))),
        Key("accusation", "array of tables", "accusations made", default="none", keys=(
            Key("by", "string", "the accusing player", required=True),
            Key("cards", "list of strings", _TRIPLE, required=True),
            Key("correct", "boolean", "whether the accusation was right", required=True))),
        Key("log", "list of strings", "the events in play order, as the companion's log shows them: "
            "`suggestion N`, `accusation N` (the Nth of its array) and `shown PLAYER: CARD` (a card of `hands` "
            "shown to the viewer); every command ignores it, and events it does not list come after it",
            default="by kind"),
    ),
    claims=("<player> holds <card>", "<player> lacks <card>", "envelope holds <card>", "envelope lacks <card>",
            "<player> knows the envelope|suspect|weapon|room", "<player> may know the envelope|suspect|weapon|room",
            "not <claim>"),
    methods=(Derivation("count", "exact counting of the consistent deals, layer by layer (the engine's "
                        "backbone past its state budget)"),
             model("the declarative model on --backend: its backbone for the sheet (solution-guided), its "
                   "deals enumerated for --probabilities (up to --set max_worlds)", "backbone"),
             Derivation("naive", "two solver calls per cell of the model, on --backend", engine=True),
             Derivation("rules", "the source paper's deduction rules, iterated to a fixpoint: sound, may know less",
                        exact=False)),
    answer=("sheet", "envelope", "probabilities", "envelope_probabilities", "deals"),
    suggest_methods=(Derivation("information", "exact expected information about the envelope (mutual "
                                "information with who shows and which card); past the budget, the sampled "
                                "estimate, labelled"),
                     Derivation("sampled", "the same, estimated from sampled deals (approximate; --set samples, "
                                "seed)", exact=False)),
    options=(
        Option("method", "string", "auto", "how the sheet is derived (see methods)", ("solve",), flag=True),
        Option("probabilities", "flag", "off", "exact probabilities per cell and per envelope triple",
               ("solve",), flag=True),
        Option("plot", "FILE.png", "none", "draw the exact cell probabilities as a heat map (the 'plot' extra)",
               ("solve",), flag=True),
        Option("others", "flag", "off", "for every other player, the exact probability that they already know "
               "the envelope and each part (JSON others); a note when one may accuse", ("solve",), flag=True),
        Option("show", "'PLAYER: C1, C2, C3'", "none", "PLAYER suggested C1, C2, C3 and you must show one: which "
               "card reveals least to them (exact expected entropy, probability they then know)", ("suggest",),
               flag=True),
        Option("room", "string", "any room", "suggest only in this room", ("suggest",)),
        Option("by", "string", "the viewer", "whose suggestion to rank", ("suggest",)),
        Option("samples", "integer", "1000", "deals sampled for the estimate (--method sampled, or past the exact "
               "advice's budget; 10 to 100000)", ("suggest",)),
        Option("seed", "integer", "0", "random seed of the sample", ("suggest",)),
        Option("top", "integer", "5", "how many suggestions to list", ("suggest",)),
    ),
    template="clue/classic-3-players",
    aliases=("cluedo",),
    max_worlds=True,
    help="sleuth.models.clue.state:deck_lines",
    kernels=(SPLIT_KERNEL, ADVICE_KERNEL), warm_kernels="sleuth.models.clue.kernels:compile_kernels",
    review="sleuth.models.clue.review:report",
    templates="sleuth.models.clue.simulate:template",
    companion=Companion(page=("static/clue.js", "static/clue.css"), info="sleuth.models.clue.companion:page_info",
                        warm="sleuth.models.clue.companion:warm"),
    arena="sleuth.models.clue.arena:main",
    referee="sleuth.models.clue.referee:main",
    documents="sleuth.models.clue.referee:documents",
    experiments=(Experiment("clue", "sleuth.models.clue.experiment:main",
                            "benchmark: exact sheet, rules engine, probabilities"),),
)
