//! `gdl/keyword-as-function`: a keyword relation's name used as the name of a function term.

use crate::gdl::keywords::{SUPPLIED_BY_MANAGER, keyword_relation_ignoring_case};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const KEYWORD_AS_FUNCTION: Rule = Rule {
    code: "gdl/keyword-as-function",
    severity: Severity::Error,
    summary: "a keyword (`true`, `does`, `legal`, ...) used as the name of a function term",
    explanation: "\
The keyword relations (`role`, `init`, `true`, `next`, `legal`, `does`, `goal`, `terminal`,
`base`, `input`, and GDL-II's `sees`) name sentences only. Inside a term they are just
function names, so `(legal ?p (true (control ?p)))` does not test the state: it makes the
action `(true (control ?p))` legal. Players disagree on such games, and the reference
validator rejects them.

    (<= (next (true (cell ?x))) (true (cell ?x)))    ; wrong: the fluent is `(cell ?x)`
    (<= (next (cell ?x)) (true (cell ?x)))           ; right

Fix: if a condition was meant, make it a literal of the rule body; if a fluent, an action or a
percept was meant, write it without the keyword or give it another name.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for rule in context.rules {
        rule.for_each_function(&mut |function| {
            let Some(keyword) = keyword_relation_ignoring_case(&function.name.name) else {
                return;
            };
            let name = &function.name.name;
            let hint = if SUPPLIED_BY_MANAGER.contains(&keyword.name) {
                format!(
                    "to test it, make it a literal of the rule body; otherwise drop the `{name}` and keep what it wraps"
                )
            } else {
                format!(
                    "give the function another name, or drop the `{name}` and keep what it wraps"
                )
            };
            let message = format!(
                "the keyword `{name}` names a relation and cannot name a function term: {hint}"
            );
            out.push(Diagnostic::new(
                &KEYWORD_AS_FUNCTION,
                function.name.range,
                message,
            ));
        });
    }
}
