"""The Motus, Wordle and Mastermind games: puzzle files, options, methods and claim forms (docs/motus.md)."""

from dataclasses import replace

from sleuth.derive import Derivation, model
from sleuth.game import Companion, Experiment, Game
from sleuth.jit import Kernel
from sleuth.spec import Key, Option

_OPTIMAL_INTERNAL = ("sort_keys", "_sift", "new_memo", "memo_get", "_slot", "memo_put", "_place", "guess_bound",
                     "enter", "others", "classes", "_put")  # called by the kernel only: no Python wrappers
OPTIMAL_KERNEL = Kernel("sleuth.models.motus._optimal_kernel", ("hard_filter", "solve", "ply_bound",
                                                                *_OPTIMAL_INTERNAL), "SLEUTH_MOTUS_KERNEL",
                        "the exact optimal-average search (suggest --set top=N, experiment optimal)",
                        internal=_OPTIMAL_INTERNAL)
EMI_KERNEL = Kernel("sleuth.models.motus._emi_kernel", switch="SLEUTH_MOTUS_KERNEL", self_compiled=True,
                    summary="the minimax search (suggest --method minimax, experiment emi; compiled in each "
                    "process: its recursion cannot be cached)")

_CLAIMS = ("answer is <WORD>", "answer is not <WORD>", "best guess is <WORD>")
_METHODS = (Derivation("sum", "the source paper's Sum"),
            Derivation("max", "the source paper's Max (Knuth's minimax partition; Mastermind's default)",
                       aliases=("knuth",)),
            Derivation("gmax", "Gmax"),
            Derivation("gini", "Gini"),
            Derivation("entropy", "the source paper's Entropy (lowest entropy)"),
            Derivation("bobo", "Bobo"),
            Derivation("sumgini", "Sum Gini (default for words)", aliases=("sum-gini",)),
            Derivation("possible-gmax", "Gmax among possible words", aliases=("possiblegmax", "pgmax")),
            Derivation("minimax", "exact game value (bounded by --time-limit)"),
            Derivation("information", "maximum expected information (entropy of the feedback partition)",
                       aliases=("info", "max-entropy")))
_OPTIONS = (
    Option("method", "string", "auto / sumgini (mastermind: max)", "solve: how the possible answers are derived "
           "(see methods); suggest, and verify's `best guess` claims: the scoring method", ("solve", "verify",
                                                                                             "suggest"), flag=True),
    Option("top", "integer", "none", "list the N guesses of least exact expected number of guesses (a labelled "
           "heuristic ranking when the exact search would be too long)", ("suggest",)),
)
_ANSWER = ("possible", "count")
_DERIVATIONS = (Derivation("table", "the vectorised feedback rule over the answer list"),
                model("enumerate the declarative model's words on --backend"))
_CLAIM_KEYS = (Key("method", "string", "the method a `best guess is` claim is judged by",
                   default="the game's default"),)


def _guess(item: str, feedback: Key) -> Key:
    return Key("guess", "array of tables", "the guesses made, in order", default="none", keys=(
        Key(item, "string" if item == "word" else "string or list", f"the {item} proposed", required=True),
        feedback,
        Key("secret", "string", "instead of feedback: the secret, and sleuth computes the feedback",
            default="none")))


_WORD_FEEDBACK = Key("feedback", "string", "one mark per letter: G right place, Y elsewhere, B absent (or the "
                     "squares Wordle shares: 🟩 🟨 ⬛/⬜)",
                     default="required unless secret is given")


_EXPERIMENTS = (
    Experiment("motus", "sleuth.models.motus.experiment:main_study", "every word with every scoring method (Table 4)"),
    Experiment("emi", "sleuth.models.motus.experiment:main_emi", "Evil Motus Index per (first letter, length) cell"),
    Experiment("wordle", "sleuth.models.motus.wordle_study:main_wordle", "Wordle and Mastermind strategy studies"),
)


_HARD = Key("hard", "boolean", "hard mode: every guess keeps the hints so far (`suggest` picks only such guesses, "
            "`review` plays by it)",
            default="false")


def _word_keys(dictionary: str, *extra: Key) -> tuple[Key, ...]:
    return (Key("dictionary", "string", "fr (the French DELA list), wordle (the official lists), or a path to a "
                "UTF-8 file, one word per line", default=dictionary), *extra, _HARD, _guess("word", _WORD_FEEDBACK))


MOTUS = Game(
    "motus", "Motus / Lingo: possible words, the source paper's scoring methods", "sleuth.models.motus",
    aliases=("lingo",),
    keys=_word_keys("fr", Key("length", "integer", "letters per word (2 to 30)", required=True),
                    Key("first", "string", "the first letter, shown", default="read from the first guess"),
                    Key("tries", "integer", "the rules' limit on guesses", default="5 for 5 letters, 6 otherwise")),
    claim_keys=_CLAIM_KEYS, claims=_CLAIMS, methods=_DERIVATIONS, answer=_ANSWER, suggest_methods=_METHODS,
    suggest_default="sumgini",
    options=_OPTIONS, template="motus/logique", viewer=False, docs="motus", experiments=_EXPERIMENTS,
    kernels=(OPTIMAL_KERNEL, EMI_KERNEL), warm_kernels="sleuth.models.motus.optimal:compile_kernels",
    review="sleuth.models.motus.review:report",
    companion=Companion(page=("static/words.js", "static/words.css")))  # one page for the three games
# Wordle and Mastermind: the same package, rules and methods; their own keys and template.
_GRID = (Key("grid", "string", "a shared grid (lines of 🟩 🟨 ⬛/⬜, the header optional, each row's word after "
               "it when known): instead of [[guess]]", default="none"),
         Key("answer", "string", "with grid: the answer (checks each row; `sleuth review` needs the words)",
             default="none"),
         Key("words", "list of strings", "with grid: the word of each row, in order", default="none"))
WORDLE = replace(
    MOTUS, name="wordle", summary="Wordle: possible answers and guesses", aliases=(), experiments=(),
    keys=_word_keys("wordle", Key("length", "integer", "letters per word", default="5"),
                    Key("tries", "integer", "the rules' limit on guesses", default="6"), *_GRID),
    template="wordle/example", docs="wordle", text_input="sleuth.models.motus.grid:grid_document")
def _counts(what: str, right: str, elsewhere: str, example: str, unit: str, table: str) -> Key:
    """Mastermind's and Bulls and Cows' feedback key: two counts, as a string of letters or a table."""
    a, b = right.rstrip("s"), elsewhere.rstrip("s")
    return Key("feedback", "string or table", f"{what}: \"{example}\" (a {example[0]} per {a}, a {example[-1]} per "
               f"{b}, \"\" or \"-\" for none) or {table}", default="required unless secret is given",
               keys=(Key(right, "integer", f"right {unit}, right place", required=True),
                     Key(elsewhere, "integer", f"right {unit}, wrong place", default="0")))


MASTERMIND = replace(
    MOTUS, name="mastermind", summary="Mastermind: possible codes, Knuth's strategy", aliases=(), experiments=(),
    keys=(Key("pegs", "integer", "pegs per code (1 to 8)", default="4"),
          Key("colours", "integer or list", "how many colours (2 to 9), written 1..colours in codes; or their "
              "names (colours = [\"red\", \"green\", ...]), then a code is names or first letters too",
              default="6"),
          Key("tries", "integer", "the rules' limit on guesses", default="10"),
          _guess("code", _counts("black and white pegs", "black", "white", "BBW", "colour",
                                 "{ black = 2, white = 1 }"))),
    suggest_default="max", template="mastermind/knuth", docs="mastermind")
BULLS = replace(
    MASTERMIND, name="bulls", summary="Bulls and Cows: codes without a repeated symbol, bulls and cows",
    aliases=("bullscows", "bulls-and-cows"),
    keys=(Key("length", "integer", "symbols per code, all different (1 to 10)", default="4"),
          Key("symbols", "integer or string", "how many symbols, written 0..9 then A..F (2 to 16); or the "
              "symbols themselves (symbols = \"ABCDEF\": 2 to 16 different letters or digits)", default="10"),
          Key("tries", "integer", "the rules' limit on guesses", default="10"),
          _guess("code", _counts("bulls and cows", "bulls", "cows", "BCC", "symbol", "{ bulls = 1, cows = 2 }"))),
    suggest_default="max", template="bulls/example", docs="mastermind",
    companion=Companion())  # the generic page: the word games' page draws pegs, not bulls and cows
