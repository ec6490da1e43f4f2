//! `egg/empty-range`: a range whose end is below its start (`6..2 players`).

use crate::egg::inherit::walk_terms;
use crate::egg::model::{DefinitionBody, StatementKind, Term, Value};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const EMPTY_RANGE: Rule = Rule {
    code: "egg/empty-range",
    severity: Severity::Error,
    summary: "a range such as `6..2` that holds no number because it runs backwards",
    explanation: "\
A range `A..B` holds the numbers from A up to B: `2..6 players` allows two to six players,
`player removes 0..3 cards` zero to three cards. When B is smaller than A the range holds
nothing, so `6..2 players` lets no one play. Ranges whose ends are not plain numbers
(`1..N-1`) are not checked.

Fix: write the smaller number first (`2..6`).",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for statement in &context.own.statements {
        let values: Vec<&Value> = match &statement.kind {
            StatementKind::Players(crate::egg::model::Players::Count { min, max, range })
                if min > max =>
            {
                report(out, *range, *min, *max);
                continue;
            }
            StatementKind::Definition(definition) => match &definition.body {
                DefinitionBody::Phrase(value) => vec![value],
                DefinitionBody::Pattern(tuples) => tuples.iter().flatten().collect(),
                _ => Vec::new(),
            },
            StatementKind::Goal(value)
            | StatementKind::Ending(value)
            | StatementKind::Assert {
                condition: value, ..
            } => vec![value],
            StatementKind::Rule(rule) => vec![&rule.value],
            StatementKind::Steps(steps) => steps.iter().collect(),
            _ => Vec::new(),
        };
        for value in values {
            walk_terms(value, &mut |term| {
                if let Term::Range(range) = term
                    && let (Some(start), Some(end)) =
                        (range.start.whole_number(), range.end.whole_number())
                    && start > end
                {
                    report(out, range.range, start, end);
                }
            });
        }
    }
}

fn report(out: &mut Vec<Diagnostic>, range: crate::TextRange, start: u64, end: u64) {
    out.push(Diagnostic::new(
        &EMPTY_RANGE,
        range,
        format!(
            "the range {start}..{end} runs backwards and holds no number; write it {end}..{start}"
        ),
    ));
}
