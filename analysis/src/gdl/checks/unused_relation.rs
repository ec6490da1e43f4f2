//! `gdl/unused-relation`: a relation defined by facts or rules but used in no rule body.

use rustc_hash::FxHashSet as HashSet;

use crate::gdl::keywords::{READ_BY_MANAGER, SUPPLIED_BY_MANAGER, reserved_word_ignoring_case};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const UNUSED_RELATION: Rule = Rule {
    code: "gdl/unused-relation",
    severity: Severity::Warning,
    summary: "a relation that is defined but never used in a rule body",
    explanation: "\
The game manager reads the keyword relations (`role`, `init`, `next`, `legal`, `goal`,
`terminal`, `base`, `input`, GDL-II's `sees`); every other relation matters only through the
rule bodies that use it. A relation no body uses has no effect on the game: it is dead code,
or the trace of a renaming that missed the place where it should be used.

    (succ 1 2) (succ 2 3)
    (<= (next (step ?n)) (true (step ?m)) (successor ?m ?n))   ; uses `successor`, not `succ`

Fix: use the relation where it was meant to be used, or delete its facts and rules.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut used: HashSet<&str> = HashSet::default();
    for (_, literal) in context.body_literals() {
        literal.for_each_sentence(false, &mut |sentence, _| {
            used.insert(&sentence.name.name);
        });
    }
    for rule in context.rules {
        let name = &*rule.head.name.name;
        // The game manager reads (or supplies) the keyword relations; a connective as a head is
        // `gdl/reserved-word`.
        if used.contains(name)
            || used.contains(name.to_lowercase().as_str())
            || READ_BY_MANAGER
                .iter()
                .chain(SUPPLIED_BY_MANAGER)
                .any(|keyword| keyword.eq_ignore_ascii_case(name))
            || reserved_word_ignoring_case(name).is_some()
        {
            continue;
        }
        let what = if rule.written_as_rule {
            "this rule defines"
        } else {
            "this fact defines"
        };
        let message = format!(
            "{what} `{name}`, but no rule body uses `{name}`, so it has no effect on the game: \
             use it where it was meant to be used, or delete it"
        );
        out.push(Diagnostic::new(
            &UNUSED_RELATION,
            rule.head.name.range,
            message,
        ));
    }
}
