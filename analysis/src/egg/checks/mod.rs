//! The EGGG checks, one small module per rule, all reading one [`Context`]: the file's own
//! statements, the game with its bases applied, and the lineage of `is like`.

mod context;

mod conflicting_statements;
mod empty_range;
mod inexact_name;
mod inheritance_cycle;
mod missing_part;
mod not_executable;
mod undefined_name;
mod unknown_statement;
mod unresolved_base;

pub use context::Context;

use crate::egg::{egg_file, egg_game, egg_lineage};
use crate::rules::Rule;
use crate::{Db, Diagnostic, SourceFile, Syntax};

/// A check: reads the context, reports into the list.
type Check = fn(&Context<'_>, &mut Vec<Diagnostic>);

const CHECKS: &[Check] = &[
    unknown_statement::check,
    conflicting_statements::check,
    empty_range::check,
    undefined_name::check,
    inexact_name::check,
    missing_part::check,
    unresolved_base::check,
    inheritance_cycle::check,
    // Last: it stays silent when the checks above found a problem.
    not_executable::check,
];

/// The rules the checks report.
pub const RULES: &[&Rule] = &[
    &unknown_statement::UNKNOWN_STATEMENT,
    &conflicting_statements::CONFLICTING_STATEMENTS,
    &empty_range::EMPTY_RANGE,
    &undefined_name::UNDEFINED_NAME,
    &inexact_name::INEXACT_NAME,
    &missing_part::MISSING_PLAYERS,
    &missing_part::MISSING_GOAL,
    &unresolved_base::UNRESOLVED_BASE,
    &inheritance_cycle::INHERITANCE_CYCLE,
    &not_executable::NOT_EXECUTABLE,
];

/// Every EGGG diagnostic of `file` (none for other languages).
#[salsa::tracked(returns(ref))]
pub fn egg_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    if file.syntax(db) != Syntax::Egg {
        return Vec::new();
    }
    let context = Context {
        db,
        file,
        own: egg_file(db, file),
        game: egg_game(db, file),
        lineage: egg_lineage(db, file),
    };
    let mut diagnostics = Vec::new();
    for check in CHECKS {
        check(&context, &mut diagnostics);
    }
    diagnostics
}
