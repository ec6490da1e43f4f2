//! The rule-safety checks of Ludi, one small module per rule, all reading one [`Context`]: the
//! bound tree with the binder's findings, and the typed model.

mod context;

mod argument_type;
mod board_size;
mod cell_off_board;
mod duplicate;
mod impossible_condition;
mod inapplicable;
mod inert_flag;
mod misplaced;
mod missing_part;
mod tiling_shape;
mod undefined_name;
mod unknown_ludeme;
mod wrong_arity;

pub use context::Context;

use crate::ludi::{ludi_game, ludi_tree};
use crate::rules::Rule;
use crate::{Db, Diagnostic, SourceFile};

/// A check: reads the context, reports into the list.
type Check = fn(&Context<'_>, &mut Vec<Diagnostic>);

const CHECKS: &[Check] = &[
    unknown_ludeme::check,
    misplaced::check,
    wrong_arity::check,
    argument_type::check,
    duplicate::check,
    missing_part::check,
    undefined_name::check,
    board_size::check,
    tiling_shape::check,
    cell_off_board::check,
    impossible_condition::check,
    inert_flag::check,
    inapplicable::check,
    too_deep,
];

/// `syntax/too-deep` (a rule common to every language, see [`crate::rules::TOO_DEEP`]): the
/// lists the reader left out for their depth.
fn too_deep(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    out.extend(context.findings().filter_map(|finding| match finding {
        crate::ludi::bind::Finding::TooDeep { range } => Some(crate::rules::too_deep(*range)),
        _ => None,
    }));
}

/// The rules the checks report.
pub const RULES: &[&Rule] = &[
    &unknown_ludeme::UNKNOWN_LUDEME,
    &misplaced::MISPLACED_LUDEME,
    &wrong_arity::WRONG_ARITY,
    &argument_type::WRONG_ARGUMENT,
    &duplicate::DUPLICATE,
    &missing_part::MISSING_PART,
    &undefined_name::UNDEFINED_NAME,
    &board_size::SIZE_MISMATCH,
    &tiling_shape::UNSUPPORTED_SHAPE,
    &cell_off_board::CELL_OFF_BOARD,
    &impossible_condition::IMPOSSIBLE_CONDITION,
    &inert_flag::INERT_FLAG,
    &inapplicable::INAPPLICABLE,
];

/// Every Ludi diagnostic of `file` (none for other languages).
#[salsa::tracked(returns(ref))]
pub fn ludi_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    let context = Context::new(
        ludi_tree(db, file),
        ludi_game(db, file).as_ref(),
        file.text(db),
    );
    let mut diagnostics = Vec::new();
    for check in CHECKS {
        check(&context, &mut diagnostics);
    }
    diagnostics
}
