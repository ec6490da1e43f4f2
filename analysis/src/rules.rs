//! The registry of diagnostic rules: every code a check can report, with its default severity and
//! the long explanation `ludeme explain CODE` prints. Each check module declares its rules here so
//! that front ends (SARIF rule tables, `explain`, editor links) have one source of truth.
//! docs/rules-defaults.md says why each default severity is what it is, with the counts on the
//! corpora; a test keeps it in step with the rules.

use crate::Severity;

mod examples;

pub use examples::{Example, example_of};

/// A diagnostic rule: the stable code, its default severity and its documentation.
#[derive(Debug)]
pub struct Rule {
    /// Stable kebab-case code, `area/name`.
    pub code: &'static str,
    pub severity: Severity,
    /// One line: what the rule reports.
    pub summary: &'static str,
    /// The long form: why it matters, an example, how to fix it.
    pub explanation: &'static str,
}

pub const SYNTAX_ERROR: Rule = Rule {
    code: "syntax/unexpected-input",
    severity: Severity::Error,
    summary: "text that the language's grammar does not allow at this place",
    explanation: "\
The parser met text it cannot fit into the grammar of the file's language and skipped it.
The rest of the file is still parsed and checked, so one mistake does not hide the others.

Typical causes: an unbalanced `)` in Ludi or KIF, a stray character such as `{` in an EGGG
statement, a rule in infix GDL that is missing its `:-` or an `&` between two literals.

Fix: correct or delete the highlighted text. If the text is right and the grammar is wrong,
please report it with the file attached.",
};

pub const MISSING_TOKEN: Rule = Rule {
    code: "syntax/missing-token",
    severity: Severity::Error,
    summary: "a token the grammar requires here is absent (most often a closing parenthesis)",
    explanation: "\
The parser could only make sense of the text by assuming a token that is not there, such as
the `)` that closes a form opened earlier. The diagnostic points where the token is expected,
and, for brackets, also at the opening bracket that is left unclosed.

Fix: insert the missing token at the right place. In Lisp-like files, the editor's bracket
matching helps find which form the `(` belongs to.",
};

pub const INVALID_UTF8: Rule = Rule {
    code: "file/invalid-utf8",
    severity: Severity::Error,
    summary: "the file is not valid UTF-8 text",
    explanation: "\
Game descriptions are read as UTF-8. The diagnostic points at the first byte that is not part
of a valid UTF-8 sequence; the file is not analysed further.

Fix: re-save the file as UTF-8 (most editors offer 'Save with encoding'), or convert it with
`iconv -f LATIN1 -t UTF-8 old > new`.",
};

pub const BINARY_FILE: Rule = Rule {
    code: "file/binary",
    severity: Severity::Error,
    summary: "the file holds binary data (NUL bytes), not a game description",
    explanation: "\
The file has a game description's extension but contains NUL bytes, so it is not text. It is
not analysed.

Fix: check that the file is the one you meant; rename or remove binary files that carry a
game extension.",
};

/// How deeply forms may nest: a form (a KIF list, an infix term, negation or group, a Ludi
/// ludeme) standing more levels deep than this is refused with [`TOO_DEEP`] instead of being
/// read. The deepest game of the corpora nests 27 levels (a list of 24 elements written as
/// nested pairs), hand-written games a dozen; the limit bounds the recursion of every pass that
/// walks what a file says (lowerings, checks, English, formatters, engines), so that none of them
/// can run out of stack, even on the 2 MiB stack of a worker thread in a debug build.
pub const MAX_NESTING_DEPTH: usize = 256;

pub const TOO_DEEP: Rule = Rule {
    code: "syntax/too-deep",
    severity: Severity::Error,
    summary: "a form nested more deeply than ludeme reads (256 levels)",
    explanation: "\
Forms may nest up to 256 levels: `(f (f (f ...)))`, `f(f(f(...)))`, `~~~~p`, Ludi ludemes
inside ludemes. No written game comes near this (the deepest known game nests 27 levels), so
such text is almost always generated, or a long run of opening brackets never closed. The
first form past the limit is reported and left out, with everything inside it; the rest of the
file is still read and checked. (EGGG values stop being read at 32 levels without a report.)

Fix: flatten the structure, for instance write a long list as facts
`(item 1 a) (item 2 b) ...` instead of nested pairs, or close the brackets that were left open.",
};

/// The diagnostic for the form at `range`, the first one nested deeper than
/// [`MAX_NESTING_DEPTH`].
pub fn too_deep(range: crate::TextRange) -> crate::Diagnostic {
    crate::Diagnostic::new(
        &TOO_DEEP,
        range,
        format!(
            "this form is nested more than {MAX_NESTING_DEPTH} levels deep, deeper than ludeme reads: it is left out; flatten it or close the brackets left open"
        ),
    )
}

/// The rules of this module: syntax and file problems, common to every language.
const COMMON: &[&Rule] = &[
    &SYNTAX_ERROR,
    &MISSING_TOKEN,
    &TOO_DEEP,
    &INVALID_UTF8,
    &BINARY_FILE,
];

/// Every rule, in the order `ludeme explain` lists them.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    COMMON
        .iter()
        .copied()
        .chain(crate::gdl::rules())
        .chain(crate::gdl::simulate::RULES.iter().copied())
        .chain(crate::ludi::rules())
        .chain(crate::egg::rules())
        .chain(crate::distance::RULES.iter().copied())
        .chain(crate::config::RULES.iter().copied())
}

/// The rules whose diagnostics may carry a fix (a quick fix in the editor, `check --fix` when
/// it is safe). A test over the broken games of every language keeps it true both ways.
pub const FIXABLE: &[&str] = &[
    "gdl/zero-arity-parentheses",
    "ludi/unknown-ludeme",
    "ludi/undefined-name",
    "ludi/missing-part",
    "egg/unknown-statement",
    "egg/undefined-name",
    "egg/inexact-name",
];

/// Whether diagnostics of `rule` may carry a fix.
pub fn is_fixable(rule: &Rule) -> bool {
    FIXABLE.contains(&rule.code)
}

/// The rule with this code, if any.
pub fn find(code: &str) -> Option<&'static Rule> {
    all().find(|rule| rule.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for rule in all() {
            assert!(seen.insert(rule.code), "duplicate code {}", rule.code);
            let (area, name) = rule.code.split_once('/').expect("code is area/name");
            for part in [area, name] {
                assert!(
                    !part.is_empty()
                        && part
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                    "{} is not kebab-case",
                    rule.code
                );
            }
        }
    }

    /// docs/rules-defaults.md says why each rule has its default severity: it names every rule,
    /// with the severity the rule has.
    #[test]
    fn the_defaults_page_gives_every_rule_its_severity() {
        let page = include_str!("../../docs/rules-defaults.md");
        let documented: std::collections::HashMap<&str, &str> = page
            .lines()
            .filter_map(|line| {
                let mut cells = line.strip_prefix("| `")?.split(" | ");
                let code = cells.next()?.strip_suffix('`')?;
                let severity = cells.next()?.split_whitespace().next()?.trim_matches('*');
                Some((code, severity))
            })
            .collect();
        for rule in all() {
            assert_eq!(
                documented.get(rule.code).copied(),
                Some(rule.severity.as_str()),
                "docs/rules-defaults.md: the row of {}",
                rule.code
            );
        }
        assert_eq!(
            documented.len(),
            all().count(),
            "a row for a rule that is gone"
        );
    }

    #[test]
    fn the_long_form_of_too_deep_gives_the_limit() {
        let limit = MAX_NESTING_DEPTH.to_string();
        assert!(TOO_DEEP.summary.contains(&limit));
        assert!(TOO_DEEP.explanation.contains(&format!("{limit} levels")));
        assert!(
            too_deep(crate::TextRange::empty(0))
                .message
                .contains(&limit)
        );
    }
}
