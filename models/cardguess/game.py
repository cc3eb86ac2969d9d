"""The card-guessing game: puzzle file, options, methods and claim forms (the source of docs/cardguess.md's tables)."""

from sleuth.derive import Derivation, model
from sleuth.game import Experiment, Game
from sleuth.spec import Key, Option

GAME = Game(
    "cardguess", "Card guessing with partial or complete feedback: posteriors and strategies, exact",
    "sleuth.models.cardguess",
    keys=(
        Key("deck", "table", "card types in the deck's order and their counts (1 to 100; at most 120 cards)",
            required=True, names="type = count"),
        Key("feedback", "string", "partial: told right or wrong; complete: the card is shown",
            default="partial", choices=("partial", "complete")),
        Key("guess", "array of tables", "the guesses made, in order", default="none", keys=(
            Key("card", "string", "the type guessed", required=True),
            Key("correct", "boolean", "whether it was right", default="required with partial feedback"),
            Key("actual", "string", "the card shown (complete feedback only)", default="-"))),
    ),
    claim_keys=(Key("method", "string", "the strategy for `E(...)` and `best guess` claims", default="optimal"),
                Key("gamma", "number", "the entropy strategy's weight", default="0.15"),
                Key("step", "number", "the constant-step strategy's step", default="0.55")),
    claims=("P(next is <type>) = p/q", "P(remaining is J=0 Q=1 K=2) = p/q", "E(further correct) = p/q",
            "best guess is <type>"),
    methods=(Derivation("count", "the sufficient statistic and its recursion", aliases=("counting",)),
             model("count the solutions of the declarative deck-order model on --backend (small decks)",
                   "enumerate", "cpsat"),
             Derivation("filter", "the source paper's Bayes filter over compositions (partial feedback)",
                        aliases=("seed", "bayes"))),
    answer=("remaining", "next"),
    suggest_methods=(Derivation("greedy", "most likely next card"),
                     Derivation("optimal", "eq. 1, exact"),
                     Derivation("entropy", "P(next) - gamma * H(remaining | answer)", aliases=("info", "information")),
                     Derivation("expected-counts", "running expected counts", aliases=("counts", "running")),
                     Derivation("constant-step", "the source paper's section 6", aliases=("constant", "0.55"))),
    suggest_default="optimal",
    options=(
        Option("method", "string", "count / optimal", "derivation (solve) or strategy (suggest)",
               ("solve", "verify", "suggest"), flag=True),
        Option("probabilities", "flag", "off", "accepted; the posteriors are always exact", ("solve",),
               flag=True),
        Option("plot", "FILE.png", "none", "draw the posterior after each guess", ("solve",), flag=True),
        Option("gamma", "number", "0.15", "the entropy strategy's weight", ("verify", "suggest")),
        Option("step", "number", "0.55", "the constant-step strategy's step", ("verify", "suggest")),
    ),
    template="cardguess/seed_example",
    aliases=("card-guessing", "guessing"),
    viewer=False,
    max_worlds=True,
    experiments=(Experiment("cardguess", "sleuth.models.cardguess.experiment:main",
                            "exact expected scores of the strategies"),),
)
