//! `egg/unresolved-base`: `X is like Y` where no game named `Y` is known.

use crate::egg::inherit::LineageProblem;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const UNRESOLVED_BASE: Rule = Rule {
    code: "egg/unresolved-base",
    severity: Severity::Error,
    summary: "`X is like Y` names a game no file of the workspace describes",
    explanation: "\
`SideTetris is like Tetris` starts SideTetris from Tetris's statements. Tetris is found by
name among the EGGG files the tool knows: the files checked, the `.egg` files in their folders
and the project's `corpus/egg`. A file's name is its `game is NAME`, its `NAME is like ...`,
or its file stem; case and punctuation are ignored (`two-player-tetris.egg` is
`TwoPlayerTetris`). Without the base, the game has only its own statements.

Fix: check the spelling of the base, or put the base's file beside this one.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(LineageProblem::Unresolved { file, base }) = &context.lineage.problem else {
        return;
    };
    if *file != context.file {
        return;
    }
    out.push(Diagnostic::new(
        &UNRESOLVED_BASE,
        base.range,
        format!(
            "no game named `{}` is known (none of the `.egg` files beside this one or in the project's corpus/egg has that name); check the spelling or add the file",
            base.text
        ),
    ));
}
