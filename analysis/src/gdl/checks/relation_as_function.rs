//! `gdl/relation-as-function`: one name used both as a relation and as a function.

use rustc_hash::FxHashMap as HashMap;

use crate::gdl::keywords::{keyword_relation_ignoring_case, reserved_word_ignoring_case};
use crate::gdl::model::Name;
use crate::rules::Rule;
use crate::{Diagnostic, Severity, TextRange};

use super::Context;

pub const RELATION_AS_FUNCTION: Rule = Rule {
    code: "gdl/relation-as-function",
    // Information, not a warning: a forgotten `true` is also `gdl/unproduced-relation`, a
    // warning; what is left is the deliberate style of published games (docs/rules-defaults.md).
    severity: Severity::Info,
    summary: "a name used both as a relation and as a function term",
    explanation: "\
A fluent under `init`, `true` and `next`, and an action under `legal`, `does` and `input`, are
function terms: in `(init (cell 1 1 b))`, `cell` is a function. A relation of the same name
elsewhere is a different thing, and the usual cause is a missing `true`: the rule tests a
relation `cell` that nothing defines instead of the state.

    (init (cell 1 1 b))
    (<= (open) (cell ?x ?y b))           ; tests the relation `cell`, never the state
    (<= (open) (true (cell ?x ?y b)))    ; right

Fix: wrap the sentence in `true` (or `does`) if it is about the state (or the moves); if the
relation and the function really are different things, give them different names.

It is information rather than a warning: when `true` is forgotten, the relation is defined
nowhere, which `gdl/unproduced-relation` reports as a warning. Where the relation is defined,
the shared name is a deliberate style: breakthroughSmall and a dozen other published games
define a relation `(cell ?x ?y)` for the squares beside the fluent `(cell ?x ?y white)`.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // The first use of each function name.
    let mut functions: HashMap<&Name, TextRange> = HashMap::default();
    for rule in context.rules {
        rule.for_each_function(&mut |function| {
            functions
                .entry(&function.name.name)
                .or_insert(function.name.range);
        });
    }
    for rule in context.rules {
        rule.for_each_sentence(&mut |sentence| {
            let name = &sentence.name.name;
            // A keyword used as a function, and a connective used as a name, are errors of their own
            // (`gdl/keyword-as-function`, `gdl/reserved-word`).
            if keyword_relation_ignoring_case(name).is_some()
                || reserved_word_ignoring_case(name).is_some()
            {
                return;
            }
            let Some(&function) = functions.get(name) else {
                return;
            };
            let message = format!(
                "`{name}` is used as a relation here and as a function term elsewhere: to test the state \
                 or the moves, wrap it in `true` or `does`; otherwise give the relation and the function different names"
            );
            out.push(
                Diagnostic::new(&RELATION_AS_FUNCTION, sentence.name.range, message)
                    .with_label(function, format!("`{name}` used as a function here")),
            );
        });
    }
}
