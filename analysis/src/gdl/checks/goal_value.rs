//! `gdl/goal-value`: a goal value that is not an integer from 0 to 100.

use crate::gdl::keywords::{GOAL, MAX_GOAL_VALUE};
use crate::gdl::model::Term;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const GOAL_VALUE: Rule = Rule {
    code: "gdl/goal-value",
    severity: Severity::Error,
    summary: "a goal value that is not an integer from 0 to 100",
    explanation: "\
The second argument of `goal` is the role's reward: an integer from 0 to 100, written as a
number (`0`, `50`, `100`). Game managers and players compute with it; anything else (`win`,
`-1`, `150`, `(score 3)`) is a value they cannot read. A variable is fine when the rule body
gives it such a value.

    (<= (goal white 100) (line x))                     ; right
    (<= (goal white ?v) (true (score white ?v)))       ; right, if the scores are 0 to 100
    (<= (goal white win) (line x))                     ; wrong

Fix: write the reward as an integer from 0 to 100.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for rule in context.rules {
        if !rule.head.name.name.eq_ignore_ascii_case(GOAL) {
            continue;
        }
        let [_, value] = rule.head.args.as_slice() else {
            // Another arity is `gdl/keyword-arity`.
            continue;
        };
        let what = match value {
            Term::Variable(_) => continue,
            Term::Constant(symbol) if is_goal_value(&symbol.name) => continue,
            Term::Constant(symbol) => format!("`{}`", symbol.name),
            Term::Function(function) => format!("the function term `{}`", function.name.name),
        };
        let message = format!(
            "{what} is not a goal value: write the reward as an integer from 0 to {MAX_GOAL_VALUE}, \
             or as a variable bound to one"
        );
        out.push(Diagnostic::new(&GOAL_VALUE, value.range(), message));
    }
}

fn is_goal_value(text: &str) -> bool {
    !text.is_empty()
        && text.bytes().all(|byte| byte.is_ascii_digit())
        && text
            .parse::<u64>()
            .is_ok_and(|value| value <= u64::from(MAX_GOAL_VALUE))
}
