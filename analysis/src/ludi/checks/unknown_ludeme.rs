//! `ludi/unknown-ludeme`: a name that is no ludeme of the schema, where a ludeme must stand.

use crate::ludi::bind::Finding;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;
use super::context::{alternatives, parent_name};

pub const UNKNOWN_LUDEME: Rule = Rule {
    code: "ludi/unknown-ludeme",
    severity: Severity::Error,
    summary: "a name that is no Ludi ludeme, where a ludeme must stand",
    explanation: "\
Every list starts with a ludeme's name (`board`, `in-a-row`, `capture`, ...) or, in a few
places, with a name the game declares (a piece in `pieces`, a player in an end clause). The
name here is neither, so the game cannot be read: most often it is a misspelling.

    (end (All win (in-a-rwo 3)))     ; unknown: did you mean `in-a-row`?
    (tiling sqaure)                  ; unknown: did you mean `square`?

Fix: correct the spelling (the message suggests the closest ludemes that fit the place), or
look the ludeme up in docs/ludi.md, the manual of every ludeme with an example.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for finding in context.findings() {
        let Finding::Unknown {
            range,
            name,
            parent,
            suggestions,
        } = finding
        else {
            continue;
        };
        let hint = if suggestions.is_empty() {
            "see docs/ludi.md for the ludemes".to_owned()
        } else {
            format!(
                "did you mean {}? (docs/ludi.md lists every ludeme)",
                alternatives(suggestions)
            )
        };
        let message = format!(
            "`{name}` is not a Ludi ludeme allowed in {}: {hint}",
            parent_name(*parent)
        );
        let diagnostic =
            Diagnostic::new(&UNKNOWN_LUDEME, *range, message).with_suggestions(*range, suggestions);
        out.push(diagnostic);
    }
}
