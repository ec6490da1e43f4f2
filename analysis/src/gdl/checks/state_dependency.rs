//! gdl/state-dependency: what a game manager reads before play (`init`, `base`, `input`) must
//! not depend on the state or on moves, and what it reads in a state (`legal`, `goal`,
//! `terminal`) must not depend on the moves being made.

use super::Context;
use crate::gdl::model::Sentence;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

pub const STATE_DEPENDENCY: Rule = Rule {
    code: "gdl/state-dependency",
    severity: Severity::Error,
    summary: "`init`, `base` or `input` depending on `true`/`does`, or `legal`, `goal` or `terminal` depending on `does`",
    explanation: "\
The game manager computes `init`, `base` and `input` once, before any state exists, so they may
not depend on `true` or `does`. It computes `legal`, `goal` and `terminal` in a state before the
roles choose their moves, so they may not depend on `does`. The dependency may be indirect, through
relations defined with `true` or `does`.

    (<= (init (score 0)) (true (started)))          ; init cannot read the state
    (<= (legal ?p noop) (does ?q (mark 1 1)))      ; legal cannot read the moves being made

Fix: compute the relation from static facts (for init/base/input) or from the state (for
legal/goal/terminal).",
};

/// (keyword relation, the relations it may not depend on, why).
const FORBIDDEN: &[(&str, &[&str], &str)] = &[
    (
        "init",
        &["true", "does"],
        "the initial state is computed before any state exists",
    ),
    (
        "base",
        &["true", "does"],
        "`base` describes every state and is computed before play",
    ),
    (
        "input",
        &["true", "does"],
        "`input` lists every possible action and is computed before play",
    ),
    (
        "legal",
        &["does"],
        "legal moves are computed before the roles choose their moves",
    ),
    ("goal", &["does"], "goals are computed from the state alone"),
    (
        "terminal",
        &["does"],
        "whether the game is over is computed from the state alone",
    ),
];

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for &(keyword, forbidden, why) in FORBIDDEN {
        let Some(info) = context.relation(keyword) else {
            continue;
        };
        let targets: Vec<usize> = forbidden
            .iter()
            .filter_map(|name| context.id_of(name))
            .collect();
        for &rule_index in &info.definitions {
            for literal in &context.rules[rule_index].body {
                literal.for_each_sentence(false, &mut |sentence: &Sentence, _| {
                    let id = context.id(&sentence.name.name);
                    for &target in &targets {
                        let path = if id == target {
                            Some(vec![id])
                        } else {
                            context.dependency_path(id, target)
                        };
                        if let Some(path) = path {
                            let via = if path.len() > 1 {
                                format!(" (through {})", context.describe_path(&path))
                            } else {
                                String::new()
                            };
                            out.push(Diagnostic::new(
                                &STATE_DEPENDENCY,
                                sentence.range,
                                format!(
                                    "`{keyword}` may not depend on `{}`{via}: {why}",
                                    context.names[target]
                                ),
                            ));
                            break;
                        }
                    }
                });
            }
        }
    }
}
