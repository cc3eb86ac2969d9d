"""The Mascarade game: puzzle file, options, methods and claim forms (the source of docs/mascarade.md's tables)."""

from sleuth.derive import Derivation, model
from sleuth.game import Companion, Experiment, Game
from sleuth.spec import Key, Option

_OUTCOME = (Key("swapped", "boolean", "the outcome, known to the one who swapped (and the viewer if so)",
                default="unknown"),
            Key("public", "boolean", "everyone saw the outcome", default="false"))

GAME = Game(
    "mascarade", "Mascarade: beliefs over card placements after swaps-or-not and reveals, per player",
    "sleuth.models.mascarade",
    keys=(
        Key("players", "list of strings", "the players, in order", required=True),
        Key("cards", "list of strings", "the face-up deal: players[i] starts with cards[i]; equal names are one "
            "identity", required=True),
        Key("middle", "list of strings", "face-down middle cards (positions Middle1, Middle2, ...)",
            default="none"),
        Key("swap_probability", "fraction", "the prior that an unseen swap-or-not really swapped",
            default="1/2"),
        Key("event", "array of tables", "the events in order; each has exactly one of swap, reveal, look, spy, "
            "fool", default="none", keys=(
                Key("swap", "list of strings", "swap-or-not: [player, position]", default="-"),
                Key("reveal", "string", "a position whose card is shown to everyone", default="-"),
                Key("look", "string", "a player who looks at their own card", default="-"),
                Key("spy", "string", "the Spy: looks at their card and another's, then swaps-or-not",
                    default="-"),
                Key("with", "string", "the Spy's other position", default="-"),
                Key("fool", "string", "the Fool: swaps-or-not two other positions", default="-"),
                Key("between", "list of strings", "the Fool's two positions", default="-"),
                Key("card", "string", "the card revealed (required) or looked at (optional)", default="-"),
                Key("cards", "list of strings", "the two cards the Spy saw", default="unknown"),
                *_OUTCOME)),
    ),
    claims=("<player> holds <card>", "not <player> holds <card>", "P(<player> holds <card>) = p/q",
            "<player> knows their card", "P(<player> knows their card) >= p/q", "<player> may know their card",
            "P(<player> believes <position> holds <card>) = p/q"),
    methods=(Derivation("hybrid", "a tree per component while it is small, then a distribution over placements"),
             Derivation("tree", "the source paper's branching-time tree"),
             Derivation("states", "a distribution over distinct placements"),
             model("enumerate the consistent histories of the declarative model on --backend (up to "
                   "--set cpsat_limit histories)", "cpsat"),
             Derivation("matrix", "the source paper's doubly stochastic matrix (exact until a reveal or a look)",
                        exact=False)),
    answer=("marginals", "support"),
    options=(
        Option("method", "string", "auto", "how beliefs are derived (see methods)", ("solve", "verify"),
               flag=True),
        Option("probabilities", "flag", "off", "accepted; the marginals are always exact", ("solve",), flag=True),
        Option("swap_probability", "fraction", "the file's", "override the swap prior", ("solve", "verify")),
        Option("max_states", "integer", "6000000", "placements one component may hold", ("solve", "verify")),
        Option("tree_cap", "integer", "1024", "leaves a component's tree may have under auto",
               ("solve", "verify")),
        Option("cpsat_limit", "integer", "65536", "histories the cpsat method may enumerate",
               ("solve", "verify")),
        Option("others", "flag", "off", "every other player's belief about their own card and about the "
               "viewer's card (second order), and who can claim safely", ("solve",), flag=True),
        Option("knowledge", "boolean", "true", "also compute every player's knowledge of their own card",
               ("solve",)),
    ),
    template="mascarade/seed-figure2",
    companion=Companion(page=("static/mascarade.js",)),
    max_worlds=True,
    experiments=(Experiment("mascarade", "sleuth.models.mascarade.experiment:main",
                            "benchmark: belief updates per method"),),
)
