//! `gdl/unproduced-relation`: a relation used in a rule body but defined by no fact or rule.

use rustc_hash::FxHashSet as HashSet;

use crate::gdl::keywords::{SUPPLIED_BY_MANAGER, reserved_word_ignoring_case};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const UNPRODUCED_RELATION: Rule = Rule {
    code: "gdl/unproduced-relation",
    severity: Severity::Warning,
    summary: "a relation used in a rule body that no fact or rule defines",
    explanation: "\
A relation holds only where a fact or a rule head says so (`true` and `does` come from the game
manager). A body literal on a relation that nothing defines is never true, so the rule never
fires (or, under `not`, always holds): usually a misspelling, a forgotten rule, or a fluent
written without `true`.

    (<= (legal ?p noop) (role ?p) (not (hasmoves ?p)))    ; `hasmoves` is defined nowhere
    (<= (line ?p) (true (cell 1 1 ?p)) (cel 1 2 ?p))      ; `cel`: a misspelling, and no `true`

Fix: define the relation, correct its spelling, or wrap a fluent in `true`.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let produced: HashSet<&str> = context
        .rules
        .iter()
        .map(|rule| &*rule.head.name.name)
        .chain(SUPPLIED_BY_MANAGER.iter().copied())
        .collect();
    for rule in context.rules {
        for literal in &rule.body {
            literal.for_each_sentence(false, &mut |sentence, _| {
                let name = &*sentence.name.name;
                // Keywords are read in any case; misused connectives are `gdl/reserved-word`.
                if produced.contains(name)
                    || produced.contains(name.to_lowercase().as_str())
                    || reserved_word_ignoring_case(name).is_some()
                {
                    return;
                }
                let message = format!(
                    "no fact or rule defines `{name}`, so it never holds: define `{name}`, \
                     correct the name, or wrap a fluent in `true`"
                );
                out.push(Diagnostic::new(
                    &UNPRODUCED_RELATION,
                    sentence.name.range,
                    message,
                ));
            });
        }
    }
}
