//! `gdl/inconsistent-case`: one name written in two capitalisations (`Cell` and `cell`), or one
//! variable written two ways in a rule (`?X` and `?x`).

use rustc_hash::FxHashMap as HashMap;

use crate::gdl::keywords::{
    RANDOM_ROLE, keyword_relation_ignoring_case, reserved_word_ignoring_case,
};
use crate::gdl::model::{Symbol, Term};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const INCONSISTENT_CASE: Rule = Rule {
    code: "gdl/inconsistent-case",
    severity: Severity::Error,
    summary: "a name written in two capitalisations, such as `Cell` and `cell`",
    explanation: "\
The GDL standard says symbols are case-insensitive, but many players compare them exactly. A
game that writes `Cell` in one place and `cell` in another is one game to the first kind of
player and another game to the second: a relation may never be produced, a fluent never match.
Variables have the same problem inside a rule: `?X` and `?x` are one variable or two depending
on the player. The reference validator rejects such games.

    (init (cell 1 1 b))
    (<= (occupied ?x ?y) (true (Cell ?x ?y ?m)) (distinct ?M b))   ; `Cell`, and `?M` for `?m`

Keywords (`role`, `true`, ...) and `random` are exempt: every player reads them in any case.

Fix: write each name with one capitalisation everywhere (the message names the usual one).",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    // Relation, function and constant names share one namespace across the file.
    let mut names: Vec<&Symbol> = Vec::new();
    for rule in context.rules {
        rule.for_each_sentence(&mut |sentence| names.push(&sentence.name));
        rule.for_each_term(&mut |term| match term {
            Term::Constant(symbol) => names.push(symbol),
            Term::Function(function) => names.push(&function.name),
            Term::Variable(_) => {}
        });
    }
    let exempt = |name: &str| {
        keyword_relation_ignoring_case(name).is_some()
            || reserved_word_ignoring_case(name).is_some()
            || name.eq_ignore_ascii_case(RANDOM_ROLE)
    };
    report(names, exempt, &mut found, |symbol, usual, count| {
        let usual = &usual.name;
        format!(
            "`{}` differs only in case from `{usual}`, written so in {}: players that ignore case read one name, \
             players that respect it two; write `{usual}` everywhere",
            symbol.name,
            times(count)
        )
    });
    // Variables: within each rule.
    for rule in context.rules {
        let mut variables: Vec<&Symbol> = Vec::new();
        rule.for_each_term(&mut |term| {
            if let Term::Variable(symbol) = term {
                variables.push(symbol);
            }
        });
        // A rule has few variables and almost never two spellings of one: look for a clash
        // before grouping (which allocates).
        let clash = variables.iter().enumerate().any(|(index, a)| {
            variables[index + 1..]
                .iter()
                .any(|b| a.name != b.name && a.name.eq_ignore_ascii_case(&b.name))
        });
        if !clash {
            continue;
        }
        report(
            variables,
            |_| false,
            &mut found,
            |symbol, usual, _| {
                let usual = &usual.name;
                format!(
                    "`{}` and `{usual}` differ only in case in this rule: players read them as one variable or as two; \
                 write `{usual}` everywhere in the rule",
                    symbol.name
                )
            },
        );
    }
    found.sort_by_key(|diagnostic| diagnostic.range);
    out.extend(found);
}

/// Groups `symbols` by their lower-case spelling; in every group with several spellings, reports
/// each occurrence of a spelling other than the usual one (the most frequent, the first written
/// among equals), with a label on the first occurrence of the usual one.
fn report(
    symbols: Vec<&Symbol>,
    exempt: impl Fn(&str) -> bool,
    found: &mut Vec<Diagnostic>,
    message: impl Fn(&Symbol, &Symbol, usize) -> String,
) {
    // Distinct spellings first (a file has few), with their count and first occurrence: only
    // they are lower-cased, not every occurrence.
    let mut spellings: HashMap<&str, (usize, &Symbol)> = HashMap::default();
    for &symbol in &symbols {
        let entry = spellings.entry(&symbol.name).or_insert((0, symbol));
        entry.0 += 1;
        if symbol.range < entry.1.range {
            entry.1 = symbol;
        }
    }
    let mut groups: HashMap<String, Vec<(&str, usize, &Symbol)>> = HashMap::default();
    for (&spelling, &(count, first)) in spellings.iter().filter(|(spelling, _)| !exempt(spelling)) {
        groups
            .entry(spelling.to_lowercase())
            .or_default()
            .push((spelling, count, first));
    }
    for group in groups.values_mut().filter(|group| group.len() > 1) {
        group.sort_by_key(|(_, _, first)| first.range);
        let (usual, count, first) = group
            .iter()
            .copied()
            .reduce(|best, candidate| {
                if candidate.1 > best.1 {
                    candidate
                } else {
                    best
                }
            })
            .expect("at least two spellings");
        for symbol in symbols.iter().filter(|symbol| {
            &*symbol.name != usual
                && group
                    .iter()
                    .any(|(spelling, _, _)| *spelling == &*symbol.name)
        }) {
            found.push(
                Diagnostic::new(
                    &INCONSISTENT_CASE,
                    symbol.range,
                    message(symbol, first, count),
                )
                .with_label(first.range, format!("written `{}` here", first.name)),
            );
        }
    }
}

fn times(count: usize) -> String {
    if count == 1 {
        "1 place".to_owned()
    } else {
        format!("{count} places")
    }
}
