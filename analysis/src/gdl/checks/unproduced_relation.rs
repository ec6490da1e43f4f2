//! `gdl/unproduced-relation`: a relation used in a rule body but defined by no fact or rule.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::gdl::keywords::{SUPPLIED_BY_MANAGER, reserved_word_ignoring_case};
use crate::rules::Rule;
use crate::{Diagnostic, Severity, TextRange};

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

It is reported once, at its first use, with the number of rule bodies that use it.

Fix: define the relation, correct its spelling, or wrap a fluent in `true`.",
};

/// What is known of a relation nothing defines.
struct Unproduced<'a> {
    name: &'a str,
    /// The name of its first use.
    first: TextRange,
    /// How many rule bodies use it, and the last of them.
    bodies: usize,
    last_rule: usize,
}

/// One finding per relation, at its first use: the uses after it are the same problem, and the
/// message counts the rule bodies that have one.
pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let produced: HashSet<&str> = context
        .rules
        .iter()
        .map(|rule| &*rule.head.name.name)
        .chain(SUPPLIED_BY_MANAGER.iter().copied())
        .collect();
    let mut unproduced: Vec<Unproduced<'_>> = Vec::new();
    let mut index_of: HashMap<&str, usize> = HashMap::default();
    for (rule_index, rule) in context.rules.iter().enumerate() {
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
                match index_of.get(name) {
                    Some(&at) => {
                        let relation = &mut unproduced[at];
                        if relation.last_rule != rule_index {
                            relation.last_rule = rule_index;
                            relation.bodies += 1;
                        }
                    }
                    None => {
                        index_of.insert(name, unproduced.len());
                        unproduced.push(Unproduced {
                            name,
                            first: sentence.name.range,
                            bodies: 1,
                            last_rule: rule_index,
                        });
                    }
                }
            });
        }
    }
    for Unproduced {
        name,
        first,
        bodies,
        ..
    } in unproduced
    {
        let also = if bodies > 1 {
            format!(" ({bodies} rule bodies use it)")
        } else {
            String::new()
        };
        let message = format!(
            "no fact or rule defines `{name}`, so it never holds{also}: define `{name}`, \
             correct the name, or wrap a fluent in `true`"
        );
        out.push(Diagnostic::new(&UNPRODUCED_RELATION, first, message));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::{Diagnostic, RootDatabase, SourceFile, Syntax};

    /// The `gdl/unproduced-relation` findings of `text`.
    fn unproduced(text: &str) -> Vec<Diagnostic> {
        let db = RootDatabase::default();
        let file = SourceFile::new(&db, "t.kif".into(), Syntax::GdlKif, Arc::from(text), None);
        crate::gdl::gdl_diagnostics(&db, file)
            .iter()
            .filter(|diagnostic| diagnostic.code == "gdl/unproduced-relation")
            .cloned()
            .collect()
    }

    #[test]
    fn a_relation_used_in_several_bodies_is_reported_once_at_its_first_use() {
        let text = "\
(role robot)
(init (cell 1))
(<= (legal robot noop) (true (cell 1)) (not (blocked robot)))
(<= (next (cell 1)) (true (cell 1)) (blocked robot))
(<= (goal robot 100) (blocked robot))
(<= terminal (true (cell 1)) (timeout))
";
        let found = unproduced(text);
        let at: Vec<(&str, usize)> = found
            .iter()
            .map(|d| (&text[std::ops::Range::from(d.range)], d.range.start))
            .collect();
        assert_eq!(
            at,
            [
                ("blocked", text.find("blocked").unwrap()),
                ("timeout", text.find("timeout").unwrap())
            ],
            "{found:#?}"
        );
        assert!(
            found[0].message.contains("3 rule bodies use it"),
            "{}",
            found[0].message
        );
        assert!(
            !found[1].message.contains("rule bodies use it"),
            "{}",
            found[1].message
        );
    }
}
