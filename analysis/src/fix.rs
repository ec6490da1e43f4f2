//! Applying the fixes diagnostics carry to a file's text: what `ludeme check --fix` does in
//! each round. The fixes themselves are the checks' (each [`Diagnostic`] carries its own, the
//! same the editor offers as quick fixes); this module chooses which of them go together.
//!
//! In one round each diagnostic contributes at most one fix — its first safe one, or with
//! `unsafe_fixes` its first — and fixes are taken in the order of the text, leaving out any
//! whose edits overlap or touch those of a fix already taken: two edits at one place would
//! depend on their order. What is left out waits for the next round, when the checks have
//! looked at the text again.

use crate::{Diagnostic, TextRange};

/// The text after one round of fixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedText {
    pub text: String,
    /// The code of each diagnostic a fix was applied for, in the order of the text.
    pub fixed: Vec<&'static str>,
}

/// One round of the fixes of `diagnostics` applied to `text`; `None` when no fix applies.
/// An edit outside the text or not on character boundaries is never applied (its fix is left
/// out), so that no diagnostic can make this panic.
pub fn apply_fixes(
    text: &str,
    diagnostics: &[Diagnostic],
    unsafe_fixes: bool,
) -> Option<FixedText> {
    let mut candidates: Vec<(&Diagnostic, Vec<(TextRange, &str)>)> = diagnostics
        .iter()
        .filter_map(|diagnostic| {
            let fix = diagnostic.fix_to_apply(unsafe_fixes)?;
            let mut edits: Vec<(TextRange, &str)> = fix
                .edits
                .iter()
                .map(|(range, new)| (*range, new.as_str()))
                .collect();
            edits.sort_by_key(|(range, _)| (range.start, range.end));
            let well_formed = !edits.is_empty()
                && edits.iter().all(|(range, _)| {
                    range.start <= range.end
                        && text.is_char_boundary(range.start)
                        && text.is_char_boundary(range.end)
                })
                && edits
                    .windows(2)
                    .all(|pair| pair[0].0.end <= pair[1].0.start);
            well_formed.then_some((diagnostic, edits))
        })
        .collect();
    candidates.sort_by_key(|(_, edits)| (edits[0].0.start, edits[0].0.end));

    let mut taken: Vec<(TextRange, &str)> = Vec::new();
    let mut taken_fixes: Vec<&[(TextRange, &str)]> = Vec::new();
    let mut fixed = Vec::new();
    for (diagnostic, edits) in &candidates {
        // Two diagnostics with the very same fix (one misspelling reported twice) are both
        // resolved by it.
        if taken_fixes.contains(&edits.as_slice()) {
            fixed.push(diagnostic.code);
            continue;
        }
        let clashes = edits.iter().any(|(range, _)| {
            taken
                .iter()
                .any(|(other, _)| range.start <= other.end && other.start <= range.end)
        });
        if clashes {
            continue;
        }
        taken.extend(edits.iter().copied());
        taken_fixes.push(edits);
        fixed.push(diagnostic.code);
    }
    if fixed.is_empty() {
        return None;
    }
    taken.sort_by_key(|(range, _)| range.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, new) in taken {
        out.push_str(&text[at..range.start]);
        out.push_str(new);
        at = range.end;
    }
    out.push_str(&text[at..]);
    Some(FixedText { text: out, fixed })
}

/// Whether `after` is worse than `before`, the diagnostics of one file before and after fixes:
/// more diagnostics, or more errors of some code. A fix that does this is rolled back.
pub fn is_worse(before: &[Diagnostic], after: &[Diagnostic]) -> bool {
    if after.len() > before.len() {
        return true;
    }
    let errors_of = |diagnostics: &[Diagnostic]| {
        let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
        for diagnostic in diagnostics {
            if diagnostic.severity == crate::Severity::Error {
                *counts.entry(diagnostic.code).or_default() += 1;
            }
        }
        counts
    };
    let before = errors_of(before);
    errors_of(after)
        .into_iter()
        .any(|(code, count)| count > before.get(code).copied().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::SYNTAX_ERROR;
    use crate::{Applicability, Fix};

    fn replacing(
        range: std::ops::Range<usize>,
        new: &str,
        applicability: Applicability,
    ) -> Diagnostic {
        Diagnostic::new(&SYNTAX_ERROR, range.clone().into(), "a problem").with_replacement(
            range.into(),
            new,
            applicability,
        )
    }

    #[test]
    fn safe_fixes_apply_and_unsafe_ones_wait_to_be_asked() {
        let text = "(in-a-rwo 3) (Whte)";
        let diagnostics = [
            replacing(1..9, "in-a-row", Applicability::Safe),
            replacing(14..18, "White", Applicability::Unsafe),
        ];
        let safe = apply_fixes(text, &diagnostics, false).unwrap();
        assert_eq!(safe.text, "(in-a-row 3) (Whte)");
        assert_eq!(safe.fixed.len(), 1);
        let all = apply_fixes(text, &diagnostics, true).unwrap();
        assert_eq!(all.text, "(in-a-row 3) (White)");
        assert_eq!(all.fixed.len(), 2);
        assert_eq!(apply_fixes(text, &diagnostics[1..], false), None);
    }

    #[test]
    fn overlapping_fixes_wait_for_the_next_round() {
        let text = "abcdef";
        let diagnostics = [
            replacing(0..3, "X", Applicability::Safe),
            replacing(2..5, "Y", Applicability::Safe),
            replacing(3..3, "Z", Applicability::Safe),
            replacing(5..6, "W", Applicability::Safe),
        ];
        let round = apply_fixes(text, &diagnostics, false).unwrap();
        // 2..5 overlaps 0..3; the insertion at 3 touches its end; 5..6 is free.
        assert_eq!(round.text, "XdeW");
        assert_eq!(round.fixed.len(), 2);
    }

    #[test]
    fn the_same_fix_twice_resolves_both() {
        let text = "Whte";
        let diagnostics = [
            replacing(0..4, "White", Applicability::Safe),
            replacing(0..4, "White", Applicability::Safe),
        ];
        let round = apply_fixes(text, &diagnostics, false).unwrap();
        assert_eq!(round.text, "White");
        assert_eq!(round.fixed.len(), 2);
    }

    #[test]
    fn edits_off_the_text_or_inside_a_character_are_left_out() {
        let text = "é";
        let mut inside = Diagnostic::new(&SYNTAX_ERROR, TextRange::empty(0), "a problem");
        inside.fixes.push(Fix {
            title: "split".to_owned(),
            edits: vec![(TextRange::new(1, 1), "x".to_owned())],
            applicability: Applicability::Safe,
        });
        let beyond = replacing(5..9, "y", Applicability::Safe);
        assert_eq!(apply_fixes(text, &[inside, beyond], true), None);
    }

    #[test]
    fn more_diagnostics_or_a_new_error_is_worse() {
        let one = replacing(0..1, "x", Applicability::Safe);
        let mut warning = one.clone();
        warning.severity = crate::Severity::Warning;
        assert!(!is_worse(std::slice::from_ref(&one), &[]));
        assert!(is_worse(&[], std::slice::from_ref(&one)));
        assert!(is_worse(
            std::slice::from_ref(&warning),
            std::slice::from_ref(&one)
        ));
        assert!(!is_worse(
            std::slice::from_ref(&one),
            std::slice::from_ref(&warning)
        ));
    }
}
