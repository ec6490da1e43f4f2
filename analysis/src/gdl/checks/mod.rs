//! The static checks of GDL, one small module per rule, all reading one [`Context`] built once
//! per file (the relation table and the dependency graph).

mod context;

// Checks of the rules' logic: required relations, safety, stratification, recursion, and how
// the keyword relations may depend on each other.
// (lead's section)
mod missing_relation;
mod recursion;
mod safety;
mod state_dependency;
mod stratification;

// Checks of names, arities and forms.
// (helper's section)

pub use context::{Context, Dependency, RelationInfo};

use crate::gdl::lower::gdl_rules;
use crate::rules::Rule;
use crate::{Db, Diagnostic, SourceFile};

/// A check: reads the context, reports into the list.
type Check = fn(&Context<'_>, &mut Vec<Diagnostic>);

/// The checks, in the order their findings are listed for one position.
const CHECKS: &[Check] = &[
    // (lead's checks)
    missing_relation::check,
    safety::check,
    stratification::check,
    recursion::check,
    state_dependency::check,
    // (helper's checks)
];

/// The rules the checks report.
pub const RULES: &[&Rule] = &[
    // (lead's rules)
    &missing_relation::MISSING_ROLE,
    &missing_relation::MISSING_LEGAL,
    &missing_relation::MISSING_GOAL,
    &missing_relation::MISSING_TERMINAL,
    &safety::UNSAFE_VARIABLE,
    &stratification::UNSTRATIFIED_NEGATION,
    &recursion::RECURSION_RESTRICTION,
    &state_dependency::STATE_DEPENDENCY,
    // (helper's rules)
];

/// Every GDL diagnostic of `file`: lowering problems, then every check's findings.
#[salsa::tracked(returns(ref))]
pub fn gdl_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    let lowered = gdl_rules(db, file);
    let mut diagnostics = lowered.diagnostics.clone();
    let context = Context::new(&lowered.rules);
    for check in CHECKS {
        check(&context, &mut diagnostics);
    }
    diagnostics
}
