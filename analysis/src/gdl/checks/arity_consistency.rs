//! `gdl/inconsistent-arity`: a relation, or a function, written with several numbers of
//! arguments.
//!
//! Also home to the walkers over a rule's sentences and terms that the checks of names share.

use rustc_hash::FxHashMap as HashMap;

use crate::gdl::keywords::{keyword_relation_ignoring_case, reserved_word_ignoring_case};
use crate::gdl::model::{Compound, Name};
use crate::rules::Rule;
use crate::{Diagnostic, Severity, TextRange};

use super::Context;

pub const INCONSISTENT_ARITY: Rule = Rule {
    code: "gdl/inconsistent-arity",
    severity: Severity::Warning,
    summary: "a relation or a function used with different numbers of arguments",
    explanation: "\
In GDL each relation and each function has one arity. `(cell 1 1 b)` and `(cell 1 b)` are two
different relations to a GDL player, so a rule that produces one never feeds a rule that reads
the other, and the game quietly does something else than intended. Many players and tools also
assume fixed arities and reject such games.

    (<= (next (cell ?x ?y x)) (does xplayer (mark ?x ?y)))
    (<= (open) (true (cell ?x b)))          ; `cell` with 2 arguments: never true

Fix: write every use with the same arguments, or, if these really are different things, give
them different names (`cell` and `column-cell`). The keyword relations have their own check,
`gdl/keyword-arity`.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut relations = Uses::default();
    let mut functions = Uses::default();
    for rule in context.rules {
        rule.for_each_sentence(&mut |sentence| relations.add(sentence));
        rule.for_each_function(&mut |function| functions.add(function));
    }
    let mut found = Vec::new();
    relations.report("relation", &mut found);
    functions.report("function", &mut found);
    found.sort_by_key(|diagnostic| diagnostic.range);
    out.extend(found);
}

/// The uses of each name, in the order they are written.
#[derive(Default)]
struct Uses<'a> {
    order: Vec<&'a Name>,
    uses: HashMap<&'a Name, Vec<&'a Compound>>,
}

impl<'a> Uses<'a> {
    fn add(&mut self, compound: &'a Compound) {
        // The keyword relations have one right arity, checked by `gdl/keyword-arity`; the
        // connectives are no names at all (`gdl/reserved-word`).
        let name = &compound.name.name;
        if keyword_relation_ignoring_case(name).is_some()
            || reserved_word_ignoring_case(name).is_some()
        {
            return;
        }
        let uses = self.uses.entry(&compound.name.name).or_default();
        if uses.is_empty() {
            self.order.push(&compound.name.name);
        }
        uses.push(compound);
    }

    fn report(&self, kind: &str, found: &mut Vec<Diagnostic>) {
        for name in &self.order {
            let uses = &self.uses[name];
            // The usual arity: the most frequent, the first written among equals.
            let mut counts: Vec<(usize, usize)> = Vec::new();
            for compound in uses {
                match counts
                    .iter_mut()
                    .find(|(arity, _)| *arity == compound.arity())
                {
                    Some((_, count)) => *count += 1,
                    None => counts.push((compound.arity(), 1)),
                }
            }
            if counts.len() < 2 {
                continue;
            }
            let (usual, usual_count) = counts.iter().copied().fold((0, 0), |best, candidate| {
                if candidate.1 > best.1 {
                    candidate
                } else {
                    best
                }
            });
            let first_usual = uses
                .iter()
                .find(|compound| compound.arity() == usual)
                .map_or(TextRange::empty(0), |compound| compound.range);
            for compound in uses.iter().filter(|compound| compound.arity() != usual) {
                let message = format!(
                    "the {kind} `{name}` has {} here but {} in {}: give every use the same arguments, \
                     or rename one of them if they are different {kind}s",
                    arguments(compound.arity()),
                    arguments(usual),
                    places(usual_count),
                );
                found.push(
                    Diagnostic::new(&INCONSISTENT_ARITY, compound.range, message)
                        .with_label(first_usual, format!("`{name}` with {}", arguments(usual))),
                );
            }
        }
    }
}

fn arguments(count: usize) -> String {
    match count {
        0 => "no arguments".to_owned(),
        1 => "1 argument".to_owned(),
        _ => format!("{count} arguments"),
    }
}

fn places(count: usize) -> String {
    if count == 1 {
        "1 other place".to_owned()
    } else {
        format!("{count} other places")
    }
}
