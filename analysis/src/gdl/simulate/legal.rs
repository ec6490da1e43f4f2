//! `gdl/no-legal-move`: a role without a legal move in a non-terminal state that play reached.

use crate::gdl::keywords::LEGAL;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::anchors::Anchors;
use super::run::Observed;

pub const NO_LEGAL_MOVE: Rule = Rule {
    code: "gdl/no-legal-move",
    severity: Severity::Error,
    summary: "a role has no legal move in a non-terminal state reached by random play",
    explanation: "\
In every state that is not terminal, every role must have at least one legal move: the game
manager asks each role for a move and has nothing to accept from a role with none. Random play
(`ludeme check --simulate`) found such a state; the message shows the last moves that led to
it and part of the state.

In turn-taking games the role that is not to move usually gets a `noop`:

    (<= (legal ?p noop) (role ?p) (not (true (control ?p))))

Fix: add a `legal` rule for the situation (often a `noop`), or make the state terminal if the
game should end there. The error points at the role's `legal` rules (at its `role` fact when
it has none).",
};

pub fn report(observed: &Observed, anchors: &Anchors<'_>, out: &mut Vec<Diagnostic>) {
    for (&role, found) in &observed.no_legal_move {
        let name = &observed.roles[role];
        let message = format!(
            "`{name}` has no legal move in a state that is not terminal: {} ({} of {} \
             playouts). Add a `legal` rule for this situation (a `noop` when it is not \
             `{name}`'s turn), or make the state terminal",
            found.first.describe(),
            found.count,
            observed.playouts
        );
        out.push(
            anchors
                .for_role(LEGAL, name)
                .diagnostic(&NO_LEGAL_MOVE, message),
        );
    }
}
