//! Counts per diagnostic code: the table `--statistics` prints at the end of the human formats
//! (as ruff's: count, code, whether a fix is offered, what the rule reports), also the summary
//! of what the screenful view of a terminal leaves out.

use std::collections::BTreeMap;
use std::io;

use codespan_reporting::term::termcolor::{Color, ColorSpec, WriteColor};
use ludeme_analysis::{Diagnostic, Severity, rules};

use super::FileReport;

/// How many diagnostics one code has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeCount {
    pub code: &'static str,
    /// The most severe of them (a code has one severity unless `ludeme.toml` changes it).
    pub severity: Severity,
    pub count: usize,
    /// How many of them carry a fix (the quick fix the editor offers).
    pub fixable: usize,
}

/// Diagnostics counted by code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodeCounts {
    by_code: BTreeMap<&'static str, CodeCount>,
}

impl CodeCounts {
    /// The counts of every diagnostic of `reports`.
    pub fn of(reports: &[FileReport]) -> Self {
        let mut counts = Self::default();
        for diagnostic in reports.iter().flat_map(|report| &report.diagnostics) {
            counts.add(diagnostic);
        }
        counts
    }

    pub fn add(&mut self, diagnostic: &Diagnostic) {
        let entry = self
            .by_code
            .entry(diagnostic.code)
            .or_insert_with(|| CodeCount {
                code: diagnostic.code,
                severity: diagnostic.severity,
                count: 0,
                fixable: 0,
            });
        entry.severity = entry.severity.max(diagnostic.severity);
        entry.count += 1;
        entry.fixable += usize::from(!diagnostic.fixes.is_empty());
    }

    /// Adds the counts of `other` to these.
    pub fn merge(&mut self, other: &CodeCounts) {
        for (code, theirs) in &other.by_code {
            let ours = self.by_code.entry(code).or_insert_with(|| CodeCount {
                count: 0,
                fixable: 0,
                ..theirs.clone()
            });
            ours.severity = ours.severity.max(theirs.severity);
            ours.count += theirs.count;
            ours.fixable += theirs.fixable;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.by_code.is_empty()
    }

    /// How many diagnostics were counted.
    pub fn total_all(&self) -> usize {
        self.by_code.values().map(|count| count.count).sum()
    }

    /// How many diagnostics of `severity` were counted.
    pub fn total(&self, severity: Severity) -> usize {
        self.by_code
            .values()
            .filter(|count| count.severity == severity)
            .map(|count| count.count)
            .sum()
    }

    /// The codes in the order a reader wants them: the most severe first, then the most
    /// frequent, then by code.
    pub fn rows(&self) -> Vec<&CodeCount> {
        let mut rows: Vec<&CodeCount> = self.by_code.values().collect();
        rows.sort_by(|a, b| {
            (b.severity, b.count)
                .cmp(&(a.severity, a.count))
                .then(a.code.cmp(b.code))
        });
        rows
    }
}

/// The colour of a severity's word, as the snippets of the full format colour their headings.
pub fn severity_color(severity: Severity) -> ColorSpec {
    let color = match severity {
        Severity::Error => Color::Red,
        Severity::Warning => Color::Yellow,
        Severity::Info => Color::Green,
    };
    let mut spec = ColorSpec::new();
    spec.set_fg(Some(color)).set_bold(true);
    spec
}

/// One line per code: count, code, severity, `[*]` when the editor offers a fix for them, and
/// what the rule reports; then what `[*]` means, when it appears.
pub fn write_table(out: &mut dyn WriteColor, counts: &CodeCounts) -> io::Result<()> {
    let rows = counts.rows();
    let count_width = rows
        .iter()
        .map(|row| row.count.to_string().len())
        .max()
        .unwrap_or(1);
    let code_width = rows.iter().map(|row| row.code.len()).max().unwrap_or(0);
    let severity_width = "warning".len();
    for row in &rows {
        let marker = if row.fixable > 0 { "[*]" } else { "[ ]" };
        let summary = rules::find(row.code).map_or("", |rule| rule.summary);
        write!(
            out,
            "{:>count_width$}  {:<code_width$}  ",
            row.count, row.code
        )?;
        out.set_color(&severity_color(row.severity))?;
        write!(out, "{:<severity_width$}", row.severity.as_str())?;
        out.reset()?;
        writeln!(out, "  {marker} {summary}")?;
    }
    let fixable: usize = rows.iter().map(|row| row.fixable).sum();
    if fixable > 0 {
        writeln!(
            out,
            "[*] the editor offers a quick fix for {fixable} of these diagnostics"
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use codespan_reporting::term::termcolor::NoColor;
    use ludeme_analysis::{Applicability, TextRange};

    fn diagnostic(rule: &rules::Rule, fixed: bool) -> Diagnostic {
        let diagnostic = Diagnostic::new(rule, TextRange::empty(0), "m");
        if fixed {
            diagnostic.with_replacement(TextRange::empty(0), "x", Applicability::Safe)
        } else {
            diagnostic
        }
    }

    #[test]
    fn rows_lead_with_errors_then_the_most_frequent() {
        let mut counts = CodeCounts::default();
        counts.add(&diagnostic(&ludeme_analysis::config::UNKNOWN_RULE, false));
        counts.add(&diagnostic(&ludeme_analysis::config::UNKNOWN_RULE, false));
        counts.add(&diagnostic(
            &ludeme_analysis::config::CONFLICTING_RULE,
            true,
        ));
        counts.add(&diagnostic(&rules::SYNTAX_ERROR, false));
        let codes: Vec<&str> = counts.rows().iter().map(|row| row.code).collect();
        assert_eq!(
            codes,
            [
                "syntax/unexpected-input",
                "config/unknown-rule",
                "config/conflicting-rule"
            ]
        );
        assert_eq!(counts.total(Severity::Warning), 3);

        let mut twice = counts.clone();
        twice.merge(&counts);
        assert_eq!(twice.total(Severity::Warning), 6);
        assert_eq!(twice.rows()[2].fixable, 2);
    }

    #[test]
    fn the_table_marks_codes_with_fixes_and_says_what_the_mark_means() {
        let mut counts = CodeCounts::default();
        for _ in 0..12 {
            counts.add(&diagnostic(&rules::SYNTAX_ERROR, false));
        }
        counts.add(&diagnostic(
            &ludeme_analysis::config::CONFLICTING_RULE,
            true,
        ));
        let mut out = NoColor::new(Vec::new());
        write_table(&mut out, &counts).unwrap();
        let text = String::from_utf8(out.into_inner()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("12  syntax/unexpected-input  error    [ ] text that"),
            "{text}"
        );
        assert!(
            lines[1].starts_with(" 1  config/conflicting-rule  warning  [*] the same selector"),
            "{text}"
        );
        assert_eq!(
            lines[2],
            "[*] the editor offers a quick fix for 1 of these diagnostics"
        );
    }
}
