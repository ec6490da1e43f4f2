//! `egg/inheritance-cycle`: `X is like Y` leading back to `X`.

use crate::egg::inherit::LineageProblem;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const INHERITANCE_CYCLE: Rule = Rule {
    code: "egg/inheritance-cycle",
    severity: Severity::Error,
    summary: "`is like` statements that lead back to the game they start from",
    explanation: "\
A variation starts from its base's statements, so bases must end somewhere: a game that is
like itself, directly (`Tetris is like Tetris`) or through others (`A is like B` in one file,
`B is like A` in another), has no statements to start from. Each file in the loop is reported
at its own `is like` statement, the one that closes the loop as seen from that file; the
message lists the loop.

Fix: make one of the games in the loop a game of its own (remove its `is like`), or point it
at a different base.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(LineageProblem::Cycle {
        file,
        closing,
        back_to,
    }) = &context.lineage.problem
    else {
        return;
    };
    // Only the files of the loop are wrong; a file whose base leads into a loop is not.
    if *back_to != 0 {
        return;
    }
    let links = &context.lineage.links;
    let mut names: Vec<String> = links.iter().map(|link| link.name.clone()).collect();
    names.push(links[0].name.clone());
    let loop_text = names.join(" → ");
    let (range, message) = if *file == context.file {
        (
            *closing,
            format!(
                "this `is like` leads back to this game: {loop_text}; remove it or choose another base"
            ),
        )
    } else {
        let Some((_, _, own)) = context.own.likes().next() else {
            return;
        };
        (
            own,
            format!(
                "this `is like` starts a loop that {} closes: {loop_text}; a game cannot be based on itself",
                context.file_name(*file)
            ),
        )
    };
    out.push(Diagnostic::new(&INHERITANCE_CYCLE, range, message));
}
