//! `gdl/empty-body`: a rule written with `<=` / `:-` but no body literal.

use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const EMPTY_BODY: Rule = Rule {
    code: "gdl/empty-body",
    severity: Severity::Warning,
    summary: "a rule with no condition, which is a fact written as a rule",
    explanation: "\
A rule without body literals holds unconditionally, so it is a fact: `(<= (goal you 100))`
means `(goal you 100)`. Some players mishandle the empty rule, and it is often the trace of a
misplaced parenthesis that moved the body out of the rule.

    (<= (goal you 100))             ; write (goal you 100)
    (<= (goal you 100)) (win you)   ; a `)` too early: the condition is now a fact of its own

Fix: write the head alone as a fact, or move the condition back into the rule.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for rule in context
        .rules
        .iter()
        .filter(|rule| rule.written_as_rule && rule.complete && rule.body.is_empty())
    {
        let message = format!(
            "this rule for `{}` has no condition, so it always holds: write its head alone as a fact, \
             or move the missing condition into it",
            rule.head.name.name
        );
        out.push(Diagnostic::new(&EMPTY_BODY, rule.range, message));
    }
}
