//! `gdl/variable-outside-rule`: a fact (a sentence written without `<=`/`:-`) with variables.

use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const VARIABLE_OUTSIDE_RULE: Rule = Rule {
    code: "gdl/variable-outside-rule",
    severity: Severity::Error,
    summary: "a variable in a fact",
    explanation: "\
Facts are ground: every argument is a constant or a function of constants. A variable in a fact
has nothing to take its values from, so the fact would hold for every possible term, an
infinite set that no GDL player can ground. The reference validator rejects such games.

    (succ 1 2)                             ; right
    (adjacent ?x ?y)                       ; wrong
    (<= (adjacent ?x ?y) (succ ?x ?y))     ; right: a rule gives ?x and ?y their values

Fix: replace the variable by constants (one fact per value), or write a rule whose body binds
the variable.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for rule in context.rules.iter().filter(|rule| !rule.written_as_rule) {
        rule.head.for_each_variable(&mut |variable| {
            let message = format!(
                "the fact `{}` has the variable `{}`: facts must be ground; use constants, \
                 or make it a rule whose body gives `{}` its values",
                rule.head.name.name, variable.name, variable.name
            );
            out.push(Diagnostic::new(
                &VARIABLE_OUTSIDE_RULE,
                variable.range,
                message,
            ));
        });
    }
}
