//! `gdl/goal-missing` and `gdl/goal-ambiguous`: a role with no goal value, or several, in a
//! terminal state that play reached.

use crate::gdl::keywords::GOAL;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::anchors::Anchors;
use super::run::Observed;

pub const GOAL_MISSING: Rule = Rule {
    code: "gdl/goal-missing",
    severity: Severity::Error,
    summary: "a role has no goal value in a terminal state reached by random play",
    explanation: "\
When a game ends, the game manager reads one goal value (0 to 100) for every role. Random play
(`ludeme check --simulate`) reached a terminal state where no `goal` rule gives the role a
value; the message shows how play got there and part of the state.

    (<= (goal white 100) (line x))
    (<= (goal white 0) (line o))
    (<= (goal white 50) (not (line x)) (not (line o)))   ; the case often forgotten: a draw

Fix: add the `goal` rule for the missing outcome, or widen an existing one. The error points
at the role's `goal` rules (at its `role` fact when it has none). GDL-II's `random` role needs
no goals and is not checked.",
};

pub const GOAL_AMBIGUOUS: Rule = Rule {
    code: "gdl/goal-ambiguous",
    severity: Severity::Error,
    summary: "a role has several goal values in a terminal state reached by random play",
    explanation: "\
A role's goal value must be unique in every terminal state: with two values the outcome is
undefined (game managers pick one or reject the game). Random play (`ludeme check
--simulate`) reached a terminal state where `goal` rules give the role more than one value;
the message lists them and shows how play got there.

    (<= (goal white 100) (line x))
    (<= (goal white 0) (not open))          ; also true when the board is full with a line of x

Fix: make the conditions of the role's `goal` rules exclusive, e.g. add `(not (line x))` to
the second rule. The error points at the role's `goal` rules.",
};

pub fn report(observed: &Observed, anchors: &Anchors<'_>, out: &mut Vec<Diagnostic>) {
    for (&role, found) in &observed.goal_missing {
        let name = &observed.roles[role];
        let message = format!(
            "`{name}` has no goal value in a terminal state reached {} ({} of {} finished \
             playouts). Add a `goal` rule for `{name}` that covers this end of the game",
            found.first.describe(),
            found.count,
            observed.completed
        );
        out.push(
            anchors
                .for_role(GOAL, name)
                .diagnostic(&GOAL_MISSING, message),
        );
    }
    for (&role, found) in &observed.goal_ambiguous {
        let name = &observed.roles[role];
        let (trace, values) = &found.first;
        let values = values
            .iter()
            .map(|value| value.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let message = format!(
            "`{name}` has several goal values ({values}) in a terminal state reached {} ({} of \
             {} finished playouts). Make the conditions of `{name}`'s `goal` rules exclusive",
            trace.describe(),
            found.count,
            observed.completed
        );
        out.push(
            anchors
                .for_role(GOAL, name)
                .diagnostic(&GOAL_AMBIGUOUS, message),
        );
    }
}
