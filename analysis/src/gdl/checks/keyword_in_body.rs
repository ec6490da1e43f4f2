//! `gdl/keyword-in-body`: `init`, `next`, `base` or `input` used in a rule body.

use crate::gdl::keywords::NEVER_IN_BODY;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const KEYWORD_IN_BODY: Rule = Rule {
    code: "gdl/keyword-in-body",
    severity: Severity::Error,
    summary: "`init`, `next`, `base` or `input` used as a condition in a rule body",
    explanation: "\
`init` describes the initial state, `next` the state after the current step, `base` and
`input` the game's possible fluents and actions. The game manager reads them; they are never
conditions of a rule, since nothing in the current step can depend on them. The condition
meant is almost always `true` (the current state) or `does` (the moves).

    (<= (legal white (move ?x)) (next (free ?x)))     ; wrong
    (<= (legal white (move ?x)) (true (free ?x)))     ; right

Fix: test the current state with `true` and the moves with `does`; to reuse a condition in
several rules, give it a relation of its own.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, literal) in context.body_literals() {
        literal.for_each_sentence(false, &mut |sentence, _| {
            let name = &sentence.name.name;
            if !NEVER_IN_BODY
                .iter()
                .any(|keyword| keyword.eq_ignore_ascii_case(name))
            {
                return;
            }
            let message = format!(
                "`{name}` is read by the game manager and cannot be a condition of a rule: \
                 test the current state with `true` and the moves with `does`"
            );
            out.push(Diagnostic::new(
                &KEYWORD_IN_BODY,
                sentence.name.range,
                message,
            ));
        });
    }
}
