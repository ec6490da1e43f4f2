//! `egg/unknown-statement`: a statement the model does not understand.

use crate::rules::Rule;
use crate::{Applicability, Diagnostic, Severity};

use super::Context;

pub const UNKNOWN_STATEMENT: Rule = Rule {
    code: "egg/unknown-statement",
    severity: Severity::Warning,
    summary: "a statement that fits none of the forms the EGGG model understands",
    explanation: "\
EGGG reads statements close to English, but each must fit a form the model knows: `2..6
players`, `turns alternate clockwise`, `3 × 3 grid`, `move is place`, `goal is Beat`,
`X means ...`, or a free rule whose subject is a game word or a defined name (`pieces fall
from top to bottom`, `Line removes row`). A statement that fits none is left out of the game,
its English and its classification; the diagnostic names the closest form when one is close.

    turns alternat          # did you mean `turns alternate`?
    3 x 3 grd               # did you mean `3 × 3 grid`?

Fix: rewrite the statement in one of the forms listed in docs/egg.md, or define the name it is
about so that it reads as a rule.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for unknown in &context.own.unknown {
        let written = context
            .text(unknown.range)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let mut message = format!("the EGGG model does not understand `{written}`");
        if let Some(reason) = &unknown.reason {
            message.push_str(&format!(": {reason}"));
        }
        match unknown.suggestion {
            Some(form) => message.push_str(&format!("; did you mean `{form}`?")),
            None => message.push_str("; docs/egg.md lists the statement forms"),
        }
        let diagnostic = Diagnostic::new(&UNKNOWN_STATEMENT, unknown.range, message);
        out.push(match unknown.suggestion {
            Some(form) if replaces_as_written(&written, form) => {
                // The form is literal and as long as the statement: nothing written is lost.
                diagnostic.with_replacement(unknown.range, form, Applicability::Safe)
            }
            _ => diagnostic,
        });
    }
}

/// Whether `form` can replace the statement `written` as it stands: a form with no placeholder
/// (`NAME`, `PHRASE`) or example number, of as many words as the statement, so that nothing the
/// designer wrote is lost or replaced by the form's example values.
fn replaces_as_written(written: &str, form: &str) -> bool {
    let literal = form.split(' ').all(|word| {
        word.chars()
            .all(|c| c.is_lowercase() || !c.is_alphanumeric())
    });
    literal && written.split(' ').count() == form.split(' ').count()
}
