//! A wrong and a right example for every rule, each drawn from a real game of the project's
//! corpus (`corpus/`: the Stanford tic-tac-toe in KIF and infix, the Ludi paper's games, the
//! EGGG paper's games): the game as published is the right text, and the wrong one is the
//! mistake the rule catches, made in that same place. `ludeme explain CODE` prints them after
//! the explanation and `ludeme rules --format json` lists them; a test keeps one for every rule.

/// A rule's example: where it comes from, the text with the mistake, the text without it.
#[derive(Debug)]
pub struct Example {
    /// The game it is drawn from, as a path of the repository (`corpus/gdl/ticTacToe.kif`).
    pub game: &'static str,
    pub wrong: &'static str,
    pub right: &'static str,
    /// Whether `right` is the game's own text (up to spaces and line breaks) and `wrong` what
    /// it becomes with the mistake, so that putting `wrong` in its place in the game makes
    /// the rule report it (a test does). Otherwise the two say in words what is missing or
    /// where (a whole file, a setting, random play).
    pub verbatim: bool,
}

const TIC_TAC_TOE_KIF: &str = "corpus/gdl/ticTacToe.kif";
const TIC_TAC_TOE_HRF: &str = "corpus/gdl/ticTacToe.hrf";
const TIC_TAC_TOE_LUDI: &str = "corpus/ludi/tic-tac-toe.ludi";
const BREAKTHROUGH_LUDI: &str = "corpus/ludi/breakthrough.ludi";
const ACHI_LUDI: &str = "corpus/ludi/achi.ludi";
const HEX_LUDI: &str = "corpus/ludi/hex.ludi";
const TIC_TAC_TOE_EGG: &str = "corpus/egg/tic-tac-toe.egg";
const ROCK_PAPER_SCISSORS_EGG: &str = "corpus/egg/rock-paper-scissors.egg";
const TETRIS_EGG: &str = "corpus/egg/tetris.egg";
const TWO_PLAYER_TETRIS_EGG: &str = "corpus/egg/two-player-tetris.egg";
const POKER_EGG: &str = "corpus/egg/poker.egg";

const fn example(game: &'static str, wrong: &'static str, right: &'static str) -> Example {
    Example {
        game,
        wrong,
        right,
        verbatim: true,
    }
}

const fn described(game: &'static str, wrong: &'static str, right: &'static str) -> Example {
    Example {
        game,
        wrong,
        right,
        verbatim: false,
    }
}

/// The example of the rule with `code`.
pub fn example_of(code: &str) -> Option<&'static Example> {
    EXAMPLES
        .iter()
        .find(|(with, _)| *with == code)
        .map(|(_, example)| example)
}

/// Every example, by code.
pub const EXAMPLES: &[(&str, Example)] = &[
    (
        "syntax/unexpected-input",
        example(TIC_TAC_TOE_KIF, "(role xplayer))", "(role xplayer)"),
    ),
    (
        "syntax/missing-token",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (legal ?r (mark ?m ?n))\n    (true (cell ?m ?n b))\n    (true (control ?r))",
            "(<= (legal ?r (mark ?m ?n))\n    (true (cell ?m ?n b))\n    (true (control ?r)))",
        ),
    ),
    (
        "syntax/too-deep",
        described(
            TIC_TAC_TOE_KIF,
            "(init (cell (cell (cell (cell ... 300 levels ... )))))",
            "(init (cell 1 1 b))",
        ),
    ),
    (
        "file/invalid-utf8",
        described(
            TIC_TAC_TOE_KIF,
            "; Tic-tac-toe, by J. Mart\\xEDn   (the byte of `í` in Latin-1)",
            "; Tic-tac-toe, by J. Martín   (saved as UTF-8)",
        ),
    ),
    (
        "file/binary",
        described(
            TIC_TAC_TOE_KIF,
            "a compiled or zipped file saved as ticTacToe.kif (NUL bytes)",
            "(role xplayer)\n(role oplayer)",
        ),
    ),
    (
        "gdl/infix-in-kif",
        described(
            TIC_TAC_TOE_HRF,
            "role(x)            in ticTacToe.kif",
            "role(x)            in ticTacToe.hrf (or `(role x)` in ticTacToe.kif)",
        ),
    ),
    (
        "gdl/not-a-sentence",
        example(TIC_TAC_TOE_KIF, "(?r xplayer)", "(role xplayer)"),
    ),
    (
        "gdl/not-a-term",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (input ?r (?m ?n)) (role ?r) (index ?m) (index ?n))",
            "(<= (input ?r (mark ?m ?n)) (role ?r) (index ?m) (index ?n))",
        ),
    ),
    (
        "gdl/misplaced-rule",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (next (control oplayer))\n    (true (control xplayer))\n(<= (next (control xplayer))\n    (true (control oplayer))))",
            "(<= (next (control oplayer))\n    (true (control xplayer)))\n(<= (next (control xplayer))\n    (true (control oplayer)))",
        ),
    ),
    (
        "gdl/malformed-rule",
        example(TIC_TAC_TOE_KIF, "(<=)", "(<= open (true (cell ?m ?n b)))"),
    ),
    (
        "gdl/connective-arity",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (next (cell ?m ?n ?f)) (true (cell ?m ?n ?f)) (distinct ?f b o))",
            "(<= (next (cell ?m ?n ?f)) (true (cell ?m ?n ?f)) (distinct ?f b))",
        ),
    ),
    (
        "gdl/conjunction-in-disjunction",
        example(
            TIC_TAC_TOE_HRF,
            "next(cell(M, N, b)) :- true(cell(M, N, b)) & does(R, mark(J, K)) &\n  (distinct(M, J) & distinct(N, K) | distinct(N, K))",
            "next(cell(M, N, b)) :- true(cell(M, N, b)) & does(R, mark(J, K)) &\n  (distinct(M, J) | distinct(N, K))",
        ),
    ),
    (
        "gdl/negated-non-sentence",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (next (cell ?m ?n ?f)) (true (cell ?m ?n ?f)) (not (distinct ?f b)))",
            "(<= (next (cell ?m ?n ?f)) (true (cell ?m ?n ?f)) (distinct ?f b))",
        ),
    ),
    (
        "gdl/missing-role",
        described(
            TIC_TAC_TOE_KIF,
            "(index 1) (index 2) (index 3) ...   (no `role` fact)",
            "(role xplayer)\n(role oplayer)",
        ),
    ),
    (
        "gdl/missing-legal",
        described(
            TIC_TAC_TOE_KIF,
            "(init (control xplayer)) ...   (no `legal` rule)",
            "(<= (legal ?r (mark ?m ?n))\n    (true (cell ?m ?n b))\n    (true (control ?r)))",
        ),
    ),
    (
        "gdl/missing-goal",
        described(
            TIC_TAC_TOE_KIF,
            "(<= terminal (line x)) ...   (no `goal` rule)",
            "(<= (goal xplayer 100) (line x))",
        ),
    ),
    (
        "gdl/missing-terminal",
        described(
            TIC_TAC_TOE_KIF,
            "(<= (goal xplayer 100) (line x)) ...   (no `terminal` rule)",
            "(<= terminal (line x))\n(<= terminal (not open))",
        ),
    ),
    (
        "gdl/unsafe-variable",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (legal ?r (mark ?m ?n))\n    (true (cell ?m ?n b)))",
            "(<= (legal ?r (mark ?m ?n))\n    (true (cell ?m ?n b))\n    (true (control ?r)))",
        ),
    ),
    (
        "gdl/unstratified-negation",
        example(
            TIC_TAC_TOE_KIF,
            "(<= open (true (cell ?m ?n b)) (not open))",
            "(<= open (true (cell ?m ?n b)))",
        ),
    ),
    (
        "gdl/recursion-restriction",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (line ?f) (row ?m ?f) (line (succ ?f)))",
            "(<= (line ?f) (row ?m ?f))",
        ),
    ),
    (
        "gdl/state-dependency",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (legal xplayer noop) (does oplayer (mark 1 1)))",
            "(<= (legal xplayer noop) (true (control oplayer)))",
        ),
    ),
    (
        "gdl/keyword-arity",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (legal ?r mark ?m ?n) (true (cell ?m ?n b)) (true (control ?r)))",
            "(<= (legal ?r (mark ?m ?n)) (true (cell ?m ?n b)) (true (control ?r)))",
        ),
    ),
    (
        "gdl/keyword-as-function",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (next (true (control oplayer))) (true (control xplayer)))",
            "(<= (next (control oplayer)) (true (control xplayer)))",
        ),
    ),
    (
        "gdl/reserved-word",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (legal xplayer (not (true (control xplayer)))) (role xplayer))",
            "(<= (legal xplayer noop) (true (control oplayer)))",
        ),
    ),
    (
        "gdl/keyword-defined",
        example(
            TIC_TAC_TOE_KIF,
            "(true (control xplayer))",
            "(init (control xplayer))",
        ),
    ),
    (
        "gdl/keyword-in-body",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (next (control xplayer)) (next (control oplayer)))",
            "(<= (next (control xplayer)) (true (control oplayer)))",
        ),
    ),
    (
        "gdl/variable-outside-rule",
        example(
            TIC_TAC_TOE_KIF,
            "(init (cell ?m ?n b))",
            "(init (cell 1 1 b))",
        ),
    ),
    (
        "gdl/inconsistent-case",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (row ?m ?f) (true (Cell ?m 1 ?f)) (true (cell ?m 2 ?f)) (true (cell ?m 3 ?f)))",
            "(<= (row ?m ?f) (true (cell ?m 1 ?f)) (true (cell ?m 2 ?f)) (true (cell ?m 3 ?f)))",
        ),
    ),
    (
        "gdl/role-argument",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (goal xplaye 100) (line x))",
            "(<= (goal xplayer 100) (line x))",
        ),
    ),
    (
        "gdl/goal-value",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (goal xplayer win) (line x))",
            "(<= (goal xplayer 100) (line x))",
        ),
    ),
    (
        "gdl/zero-arity-parentheses",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (terminal) (line x))",
            "(<= terminal (line x))",
        ),
    ),
    (
        "gdl/empty-body",
        example(TIC_TAC_TOE_KIF, "(<= (index 1))", "(index 1)"),
    ),
    (
        "gdl/inconsistent-arity",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (next (cell ?m ?n)) (true (cell ?m ?n ?f)) (distinct ?f b))",
            "(<= (next (cell ?m ?n ?f)) (true (cell ?m ?n ?f)) (distinct ?f b))",
        ),
    ),
    (
        "gdl/relation-as-function",
        example(
            TIC_TAC_TOE_KIF,
            "(filler x)\n(init (filler b))",
            "(filler x)",
        ),
    ),
    (
        "gdl/unproduced-relation",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (line ?f) (rows ?m ?f))",
            "(<= (line ?f) (row ?m ?f))",
        ),
    ),
    (
        "gdl/unused-relation",
        described(
            TIC_TAC_TOE_KIF,
            "(<= (column ?n ?f) ...)   with no `(column ?n ?x)` in the `line` rules",
            "(<= (line ?x) (column ?m ?x))",
        ),
    ),
    (
        "gdl/unusual-character",
        example(TIC_TAC_TOE_KIF, "(role x.player)", "(role xplayer)"),
    ),
    (
        "gdl/playout-no-terminal",
        described(
            TIC_TAC_TOE_KIF,
            "(<= terminal (line x))\n(<= terminal (line o))   (a full board without a line never ends)",
            "(<= terminal (line x))\n(<= terminal (line o))\n(<= terminal (not open))",
        ),
    ),
    (
        "gdl/no-legal-move",
        described(
            TIC_TAC_TOE_KIF,
            "(<= (legal xplayer noop) (true (control oplayer)))   (oplayer's noop left out)",
            "(<= (legal xplayer noop) (true (control oplayer)))\n(<= (legal oplayer noop) (true (control xplayer)))",
        ),
    ),
    (
        "gdl/goal-missing",
        described(
            TIC_TAC_TOE_KIF,
            "(<= (goal xplayer 100) (line x))\n(<= (goal xplayer 0) (line o))   (no value on a drawn board)",
            "(<= (goal xplayer 100) (line x))\n(<= (goal xplayer 50) (not (line x)) (not (line o)))\n(<= (goal xplayer 0) (line o))",
        ),
    ),
    (
        "gdl/goal-ambiguous",
        example(
            TIC_TAC_TOE_KIF,
            "(<= (goal xplayer 100) (line x))\n(<= (goal xplayer 50) (not (line o)))",
            "(<= (goal xplayer 100) (line x))\n(<= (goal xplayer 50) (not (line x)) (not (line o)))",
        ),
    ),
    (
        "gdl/base-incomplete",
        described(
            TIC_TAC_TOE_KIF,
            "(<= (base (cell ?m ?n ?f)) (index ?m) (index ?n) (filler ?f))   (no `(base (control ?r))`)",
            "(<= (base (cell ?m ?n ?f)) (index ?m) (index ?n) (filler ?f))\n(<= (base (control ?r)) (role ?r))",
        ),
    ),
    (
        "gdl/input-incomplete",
        described(
            TIC_TAC_TOE_KIF,
            "(<= (input ?r (mark ?m ?n)) (role ?r) (index ?m) (index ?n))   (no `noop` input)",
            "(<= (input ?r (mark ?m ?n)) (role ?r) (index ?m) (index ?n))\n(<= (input ?r noop) (role ?r))",
        ),
    ),
    (
        "gdl/simulation-failed",
        described(
            TIC_TAC_TOE_KIF,
            "(<= (next (cell ?m ?n ?f)) (true (cell ?m ?n ?f)))   (every cell keeps two fillers: the state grows)",
            "(<= (next (cell ?m ?n ?f)) (true (cell ?m ?n ?f)) (distinct ?f b))",
        ),
    ),
    (
        "gdl/simulation-budget",
        described(
            TIC_TAC_TOE_KIF,
            "(<= (index ?n) (index ?m) (succ ?m ?n))   (an unbounded count of indices)",
            "(index 1)\n(index 2)\n(index 3)",
        ),
    ),
    (
        "gdl/simulation-incomplete",
        described(
            TIC_TAC_TOE_KIF,
            "check --simulate --simulate-seconds 0.001 ticTacToe.kif",
            "check --simulate ticTacToe.kif   (the default time)",
        ),
    ),
    (
        "ludi/unknown-ludeme",
        example(
            TIC_TAC_TOE_LUDI,
            "(end (All win (in-a-rwo 3)))",
            "(end (All win (in-a-row 3)))",
        ),
    ),
    (
        "ludi/misplaced-ludeme",
        example(
            TIC_TAC_TOE_LUDI,
            "(end (All win (in-a-row 3)) (size 3 3))",
            "(end (All win (in-a-row 3)))",
        ),
    ),
    (
        "ludi/wrong-arity",
        example(TIC_TAC_TOE_LUDI, "(size 3 3 3 3)", "(size 3 3)"),
    ),
    (
        "ludi/wrong-argument",
        example(
            TIC_TAC_TOE_LUDI,
            "(end (All win (in-a-row 0)))",
            "(end (All win (in-a-row 3)))",
        ),
    ),
    (
        "ludi/duplicate",
        example(
            TIC_TAC_TOE_LUDI,
            "(players White Black White)",
            "(players White Black)",
        ),
    ),
    (
        "ludi/missing-part",
        described(
            TIC_TAC_TOE_LUDI,
            "(game Tic-Tac-Toe (players White Black) (board (tiling square i-nbors) (size 3 3)))",
            "(game Tic-Tac-Toe (players White Black) (board (tiling square i-nbors) (size 3 3))\n  (end (All win (in-a-row 3))))",
        ),
    ),
    (
        "ludi/undefined-name",
        example(
            BREAKTHROUGH_LUDI,
            "(place (Piece White) WhiteCmap)",
            "(place (Piece White) WhiteCamp)",
        ),
    ),
    (
        "ludi/size-mismatch",
        example(
            HEX_LUDI,
            "(shape rhombus) (size 11 11 11)",
            "(shape rhombus) (size 11)",
        ),
    ),
    (
        "ludi/unsupported-shape",
        example(
            HEX_LUDI,
            "(tiling square) (shape rhombus)",
            "(tiling hex) (shape rhombus)",
        ),
    ),
    (
        "ludi/cell-off-board",
        example(
            BREAKTHROUGH_LUDI,
            "(WhiteCamp White I9 B1 C1",
            "(WhiteCamp White A1 B1 C1",
        ),
    ),
    (
        "ludi/impossible-condition",
        example(
            ACHI_LUDI,
            "(end (All win (in-a-row 4)))",
            "(end (All win (in-a-row 3)))",
        ),
    ),
    (
        "ludi/inert-flag",
        example(
            "corpus/ludi/sentries.ludi",
            "(Soldier All (flags armed veteran)",
            "(Soldier All (flags armed)",
        ),
    ),
    (
        "ludi/inapplicable",
        example("corpus/ludi/turnstiles.ludi", "(rotate f)", "(rotate l)"),
    ),
    (
        "egg/unknown-statement",
        example(TIC_TAC_TOE_EGG, "turns alternat", "turns alternate"),
    ),
    (
        "egg/conflicting-statements",
        example(
            TIC_TAC_TOE_EGG,
            "turns alternate\nturns synchronize",
            "turns alternate",
        ),
    ),
    (
        "egg/empty-range",
        example(POKER_EGG, "6..2 players", "2..6 players"),
    ),
    (
        "egg/undefined-name",
        described(
            TIC_TAC_TOE_EGG,
            "goal is ThreeInRow\nThreeInARow means three pieces in a row ...",
            "goal is ThreeInARow\nThreeInARow means three pieces in a row ...",
        ),
    ),
    (
        "egg/inexact-name",
        described(
            TIC_TAC_TOE_EGG,
            "goal is threeinarow\nThreeInARow means three pieces in a row ...",
            "goal is ThreeInARow\nThreeInARow means three pieces in a row ...",
        ),
    ),
    (
        "egg/missing-players",
        described(
            TETRIS_EGG,
            "game is tetris\nboard is rectangle   (no player count)",
            "game is tetris\n1 player\nboard is rectangle",
        ),
    ),
    (
        "egg/missing-goal",
        described(
            ROCK_PAPER_SCISSORS_EGG,
            "Beat means player(Rock) and opponent(Scissors) or ...   (no `goal is`)",
            "Beat means player(Rock) and opponent(Scissors) or ...\ngoal is Beat",
        ),
    ),
    (
        "egg/unresolved-base",
        example(
            TWO_PLAYER_TETRIS_EGG,
            "TwoPlayerTetris is like Breakout",
            "TwoPlayerTetris is like SideTetris",
        ),
    ),
    (
        "egg/inheritance-cycle",
        described(
            TWO_PLAYER_TETRIS_EGG,
            "TwoPlayerTetris is like SideTetris   (with SideTetris is like TwoPlayerTetris)",
            "TwoPlayerTetris is like SideTetris   (with SideTetris is like Tetris)",
        ),
    ),
    (
        "egg/not-executable",
        described(
            TETRIS_EGG,
            "pieces fall from top to bottom   (a rule in the designer's words: not played)",
            "move is place   (as tic-tac-toe.egg: a move the engine plays)",
        ),
    ),
    (
        "distance/duplicate",
        described(
            TIC_TAC_TOE_KIF,
            "ticTacToe.kif copied to noughts.kif with the variables renamed",
            "noughts.kif with a rule of its own: `(<= terminal (true (cell 2 2 o)))`",
        ),
    ),
    (
        "config/invalid",
        described(
            TIC_TAC_TOE_KIF,
            "[rules]\ndisabel = [\"gdl/unusual-character\"]   (ludeme.toml beside it)",
            "[rules]\ndisable = [\"gdl/unusual-character\"]",
        ),
    ),
    (
        "config/unknown-rule",
        described(
            TIC_TAC_TOE_KIF,
            "[rules]\ndisable = [\"gdl/unusual-characters\"]",
            "[rules]\ndisable = [\"gdl/unusual-character\"]",
        ),
    ),
    (
        "config/conflicting-rule",
        described(
            TIC_TAC_TOE_KIF,
            "[rules]\ndisable = [\"gdl/unused-relation\"]\nenable = [\"gdl/unused-relation\"]",
            "[rules]\ndisable = [\"gdl/unused-relation\"]",
        ),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule has its example, from a game of the corpus, and no example is left for a rule
    /// that is gone.
    #[test]
    fn every_rule_has_a_wrong_and_a_right_example_from_a_real_game() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for rule in crate::rules::all() {
            let example =
                example_of(rule.code).unwrap_or_else(|| panic!("{} has no example", rule.code));
            assert!(
                !example.wrong.trim().is_empty() && !example.right.trim().is_empty(),
                "{}: an example needs both texts",
                rule.code
            );
            assert_ne!(example.wrong, example.right, "{}", rule.code);
            assert!(
                root.join(example.game).is_file(),
                "{}: {} is not a game of the repository",
                rule.code,
                example.game
            );
        }
        for (code, _) in EXAMPLES {
            assert!(
                crate::rules::find(code).is_some(),
                "an example for {code}, which is no rule"
            );
        }
    }
}
