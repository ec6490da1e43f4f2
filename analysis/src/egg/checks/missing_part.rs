//! `egg/missing-players` and `egg/missing-goal`: a game that never says who plays or what they
//! play for, counting what its bases say.

use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const MISSING_PLAYERS: Rule = Rule {
    code: "egg/missing-players",
    severity: Severity::Warning,
    summary: "no statement says how many play or who the players are",
    explanation: "\
A game needs players: `2 players`, `2..6 players`, `players are white and black`, or, for a
networked game, `players are 0..20`. A game that names an `opponent` (rock-paper-scissors'
`Beat means player(Rock) and opponent(Scissors) ...`) implies two players and is not reported.
Statements inherited through `is like` count; when a base cannot be found, nothing is reported.

Fix: add a players statement.",
};

pub const MISSING_GOAL: Rule = Rule {
    code: "egg/missing-goal",
    severity: Severity::Warning,
    summary: "no statement says what the players play for",
    explanation: "\
A game needs a goal: `goal is Beat` (a name defined with `means`), `goal is highest(hand)`,
`goal is maximize(score)`. Without one, the instructions cannot say how to win and the game
cannot be scored. Statements inherited through `is like` count; when a base cannot be found,
nothing is reported.

Fix: add a `goal is ...` statement.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // With a base missing, the part may well be in the base.
    if !context.lineage.is_complete() {
        return;
    }
    let at = context.anchor();
    if context.game.player_bounds().is_none() {
        out.push(Diagnostic::new(
            &MISSING_PLAYERS,
            at,
            "no statement says who plays: add one such as `2 players` or `players are white and black`",
        ));
    }
    if context.game.goal.is_none() {
        out.push(Diagnostic::new(
            &MISSING_GOAL,
            at,
            "no statement says what the players play for: add one such as `goal is maximize(score)`",
        ));
    }
}
