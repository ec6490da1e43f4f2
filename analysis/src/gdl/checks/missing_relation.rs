//! gdl/missing-*: a game needs roles, legal moves, goals and a terminal condition; without any
//! one of them a game manager cannot run it.

use super::Context;
use crate::rules::Rule;
use crate::{Diagnostic, Severity, TextRange};

pub const MISSING_ROLE: Rule = Rule {
    code: "gdl/missing-role",
    severity: Severity::Error,
    summary: "the game declares no role",
    explanation: "\
Every GDL game declares its players with `role` facts; a game manager cannot start a match
without them.

    (role xplayer)
    (role oplayer)

Fix: add one `role` fact per player.",
};

pub const MISSING_LEGAL: Rule = Rule {
    code: "gdl/missing-legal",
    severity: Severity::Error,
    summary: "the game defines no legal move",
    explanation: "\
`legal` says which actions each role may take; without any `legal` rule or fact no role can
ever move.

    (<= (legal ?p (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?p)))

Fix: define `legal` for every role.",
};

pub const MISSING_GOAL: Rule = Rule {
    code: "gdl/missing-goal",
    severity: Severity::Error,
    summary: "the game defines no goal",
    explanation: "\
`goal` gives each role its reward (0 to 100) in terminal states; without it a finished match
has no result.

    (<= (goal xplayer 100) (line x))

Fix: define `goal` for every role and every way the game can end.",
};

pub const MISSING_TERMINAL: Rule = Rule {
    code: "gdl/missing-terminal",
    severity: Severity::Error,
    summary: "the game defines no terminal condition",
    explanation: "\
`terminal` says when the game is over; without it no match ever ends.

    (<= terminal (not open))

Fix: define `terminal`.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // The problem is an absence, not a place: reported at the start of the first rule or fact.
    let start = TextRange::empty(context.rules.first().map_or(0, |rule| rule.range.start));
    let requirements = [
        (
            &MISSING_ROLE,
            "role",
            "declare the players with facts such as `(role white)`",
        ),
        (
            &MISSING_LEGAL,
            "legal",
            "define what each role may do with `legal` rules",
        ),
        (
            &MISSING_GOAL,
            "goal",
            "give each role its reward in terminal states with `goal` rules",
        ),
        (
            &MISSING_TERMINAL,
            "terminal",
            "say when the game is over with a `terminal` rule",
        ),
    ];
    for (rule, relation, advice) in requirements {
        let defined = context
            .relation(relation)
            .is_some_and(|info| !info.definitions.is_empty());
        if !defined {
            out.push(Diagnostic::new(
                rule,
                start,
                format!("the game has no `{relation}`: {advice}"),
            ));
        }
    }
}
