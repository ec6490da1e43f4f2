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
mod arity_consistency;
mod empty_body;
mod goal_value;
mod inconsistent_case;
mod keyword_arity;
mod keyword_as_function;
mod keyword_definition;
mod keyword_in_body;
mod relation_as_function;
mod reserved_word;
mod role_argument;
mod unproduced_relation;
mod unused_relation;
mod unusual_character;
mod variable_outside_rule;
mod zero_arity_parentheses;

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
    keyword_arity::check,
    keyword_as_function::check,
    reserved_word::check,
    keyword_definition::check,
    keyword_in_body::check,
    variable_outside_rule::check,
    inconsistent_case::check,
    role_argument::check,
    goal_value::check,
    zero_arity_parentheses::check,
    empty_body::check,
    arity_consistency::check,
    relation_as_function::check,
    unproduced_relation::check,
    unused_relation::check,
    unusual_character::check,
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
    &keyword_arity::KEYWORD_ARITY,
    &keyword_as_function::KEYWORD_AS_FUNCTION,
    &reserved_word::RESERVED_WORD,
    &keyword_definition::KEYWORD_DEFINED,
    &keyword_in_body::KEYWORD_IN_BODY,
    &variable_outside_rule::VARIABLE_OUTSIDE_RULE,
    &inconsistent_case::INCONSISTENT_CASE,
    &role_argument::ROLE_ARGUMENT,
    &goal_value::GOAL_VALUE,
    &zero_arity_parentheses::ZERO_ARITY_PARENTHESES,
    &empty_body::EMPTY_BODY,
    &arity_consistency::INCONSISTENT_ARITY,
    &relation_as_function::RELATION_AS_FUNCTION,
    &unproduced_relation::UNPRODUCED_RELATION,
    &unused_relation::UNUSED_RELATION,
    &unusual_character::UNUSUAL_CHARACTER,
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
