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

It is reported once, at its first fact or rule, with the number of facts and rules that define it.

Fix: use the relation where it was meant to be used, or delete its facts and rules.",
};

/// One finding per relation, at its first definition: the facts and rules after it are the same
/// problem, and the message counts them.
pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut used: HashSet<&str> = HashSet::default();
    for (_, literal) in context.body_literals() {
        literal.for_each_sentence(false, &mut |sentence, _| {
            used.insert(&sentence.name.name);
        });
    }
    for (name, relation) in context.names.iter().zip(&context.relations) {
        let Some(&first) = relation.definitions.first() else {
            continue;
        };
        let name = &**name;
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
        let rules = relation
            .definitions
            .iter()
            .filter(|&&index| context.rules[index].written_as_rule)
            .count();
        let facts = relation.definitions.len() - rules;
        let what = match (facts, rules) {
            (1, 0) => "this fact defines".to_owned(),
            (0, 1) => "this rule defines".to_owned(),
            _ => {
                let count = |n: usize, what: &str| match n {
                    0 => None,
                    1 => Some(format!("1 {what}")),
                    _ => Some(format!("{n} {what}s")),
                };
                let counts: Vec<String> = [count(facts, "fact"), count(rules, "rule")]
                    .into_iter()
                    .flatten()
                    .collect();
                format!("{} define", counts.join(" and "))
            }
        };
        let message = format!(
            "{what} `{name}`, but no rule body uses `{name}`, so it has no effect on the game: \
             use it where it was meant to be used, or delete it"
        );
        out.push(Diagnostic::new(
            &UNUSED_RELATION,
            context.rules[first].head.name.range,
            message,
        ));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::{RootDatabase, SourceFile, Syntax};

    /// The `gdl/unused-relation` findings of `text`: the text each points at, where it starts,
    /// and its message.
    fn unused(text: &str) -> Vec<(String, usize, String)> {
        let db = RootDatabase::default();
        let file = SourceFile::new(&db, "t.kif".into(), Syntax::GdlKif, Arc::from(text), None);
        crate::gdl::gdl_diagnostics(&db, file)
            .iter()
            .filter(|diagnostic| diagnostic.code == "gdl/unused-relation")
            .map(|diagnostic| {
                (
                    text[std::ops::Range::from(diagnostic.range)].to_owned(),
                    diagnostic.range.start,
                    diagnostic.message.clone(),
                )
            })
            .collect()
    }

    const GAME: &str = "\
(role robot)
(init (cell 1))
(<= (legal robot noop) (true (cell 1)))
(<= (next (cell 1)) (true (cell 1)))
(<= (goal robot 100) (true (cell 1)))
(<= terminal (true (cell 1)))
";

    #[test]
    fn a_relation_defined_by_several_facts_is_reported_once_at_its_first_fact() {
        let text = format!("{GAME}(index 1) (index 2) (index 3)\n");
        let found = unused(&text);
        assert_eq!(found.len(), 1, "{found:#?}");
        let (at, start, message) = &found[0];
        assert_eq!(at, "index");
        assert_eq!(*start, text.find("(index 1)").unwrap() + 1);
        assert!(message.contains("3 facts define `index`"), "{message}");
    }

    #[test]
    fn facts_and_rules_of_one_relation_are_counted_together() {
        let text = format!("{GAME}(step 1)\n(<= (step ?x) (true (cell ?x)))\n(other 1)\n");
        let found = unused(&text);
        let names: Vec<&str> = found.iter().map(|(at, _, _)| at.as_str()).collect();
        assert_eq!(names, ["step", "other"], "{found:#?}");
        assert_eq!(found[0].1, text.find("(step 1)").unwrap() + 1);
        assert!(
            found[0].2.contains("1 fact and 1 rule define `step`"),
            "{}",
            found[0].2
        );
        assert!(
            found[1].2.starts_with("this fact defines `other`"),
            "{}",
            found[1].2
        );
    }

    #[test]
    fn a_used_relation_is_not_reported() {
        let text = format!(
            "{GAME}(index 1) (index 2)\n(<= (ok ?x) (index ?x))\n(<= (legal robot (go ?x)) (ok ?x))\n"
        );
        assert_eq!(unused(&text), []);
    }
}
