//! `gdl/keyword-defined`: `role` defined by a rule, or `true` / `does` defined at all.

use crate::gdl::keywords::{ONLY_FACTS, SUPPLIED_BY_MANAGER};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const KEYWORD_DEFINED: Rule = Rule {
    code: "gdl/keyword-defined",
    severity: Severity::Error,
    summary: "`role` defined by a rule, or `true` or `does` defined by the game",
    explanation: "\
The roles are fixed before the game starts, so `role` is given by facts only: `(role white)`.
`true` and `does` are supplied by the game manager at every step (the current state and the
moves played); a game that defines them contradicts the manager, and the reference validator
rejects it.

    (role white)                                   ; right
    (<= (role ?p) (player ?p))                     ; wrong: list the roles as facts
    (true (control white))                         ; wrong: write (init (control white))
    (<= (true (step 2)) (true (step 1)))           ; wrong: write a `next` rule

Fix: write the roles as facts; state the initial state with `init` and its changes with
`next`; never define `true` or `does`.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for rule in context.rules {
        let head = &rule.head.name;
        let is = |names: &[&str]| {
            names
                .iter()
                .any(|keyword| keyword.eq_ignore_ascii_case(&head.name))
        };
        let message = if rule.written_as_rule && is(ONLY_FACTS) {
            format!(
                "`{}` is defined by a rule, but the roles are fixed before the game starts: \
                 write one fact per role instead",
                head.name
            )
        } else if is(SUPPLIED_BY_MANAGER) {
            let (what, instead) = if head.name.eq_ignore_ascii_case("true") {
                (
                    "the current state",
                    "state the initial state with `init` and its changes with `next`",
                )
            } else {
                (
                    "the moves being played",
                    "state which moves are allowed with `legal`",
                )
            };
            format!(
                "the game manager supplies `{}` ({what}); a game cannot define it: {instead}",
                head.name
            )
        } else {
            continue;
        };
        out.push(Diagnostic::new(&KEYWORD_DEFINED, head.range, message));
    }
}
