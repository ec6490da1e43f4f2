//! Output formats of `ludeme check`. Every format renders the same [`FileReport`]s, after
//! [`keep_from`] — the one place that applies `--severity` — has left out what is not shown.
//!
//! The parts: `human` (the full snippets, the concise lines and the tally, and the screenful
//! view of a terminal), `statistics` (the counts per code behind `--statistics` and the
//! screenful view's summary), `screen` (whether standard output is a terminal, and how tall),
//! and one module per machine format: `json` (and JSON lines), `junit`, `sarif`, `github`.

mod github;
mod human;
mod json;
mod junit;
mod sarif;
pub mod screen;
mod statistics;

use std::path::PathBuf;
use std::sync::Arc;

use clap::ValueEnum;
use codespan_reporting::files::{Files, SimpleFile};
use ludeme_analysis::{Diagnostic, Severity, TextRange};

pub use human::{FixNote, HumanLayout, HumanOptions, fixed_summary, would_fix_summary};
pub use statistics::CodeCounts;

/// Output formats of `ludeme check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Each diagnostic with its source lines and the problem underlined, then a tally.
    #[value(alias = "human")]
    Full,
    /// One line per diagnostic, `path:line:column: severity[code]: message`, then a tally.
    Concise,
    /// A JSON array of diagnostics with 1-based lines and columns.
    Json,
    /// One JSON object per line, each a diagnostic as in `json`.
    JsonLines,
    /// JUnit XML: a test suite per file, a failed test case per diagnostic.
    Junit,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
    /// GitHub Actions workflow commands (annotations on pull requests).
    Github,
}

impl OutputFormat {
    /// Whether the format is read by people (full and concise), which alone have a tally and
    /// `--statistics`.
    pub fn is_human(self) -> bool {
        matches!(self, Self::Full | Self::Concise)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// The diagnostics of one file, with the text they point into.
#[derive(Clone)]
pub struct FileReport {
    pub path: PathBuf,
    /// The file's name and text, with its line index built once; shared, so that a report is
    /// cheap to copy for a second view of the same diagnostics.
    pub file: SimpleFile<String, Arc<str>>,
    pub diagnostics: Vec<Diagnostic>,
    /// With `check --simulate`: the one-line summary of random play (or why there was none).
    pub simulation: Option<String>,
}

impl FileReport {
    pub fn new(path: PathBuf, source: String, diagnostics: Vec<Diagnostic>) -> Self {
        let file = SimpleFile::new(path.display().to_string(), Arc::from(source));
        Self {
            path,
            file,
            diagnostics,
            simulation: None,
        }
    }

    pub fn display_path(&self) -> &str {
        self.file.name()
    }

    /// The 1-based (line, column) span of `range`; columns count characters.
    pub fn span(&self, range: TextRange) -> Span {
        let position = |byte: usize| {
            let byte = byte.min(self.file.source().len());
            let line = self.file.line_index((), byte).unwrap_or(0);
            let column = self.file.column_number((), line, byte).unwrap_or(1);
            Position {
                line: line + 1,
                column,
            }
        };
        Span {
            start: position(range.start),
            end: position(range.end),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Span {
    pub start: Position,
    pub end: Position,
}

/// Leaves out of `reports` every diagnostic less severe than `least`, and returns what it left
/// out, by code. Errors are always kept: `least` can raise the floor to errors at most. This is
/// the one place where `--severity` (and the screenful view, which shows errors only in full)
/// decide what is shown; every format renders what it leaves.
pub fn keep_from(reports: &mut [FileReport], least: Severity) -> CodeCounts {
    let mut left_out = CodeCounts::default();
    for report in reports {
        report.diagnostics.retain(|diagnostic| {
            // Errors are the most severe: no floor leaves them out.
            let shown = diagnostic.severity >= least;
            if !shown {
                left_out.add(diagnostic);
            }
            shown
        });
    }
    left_out
}

/// Writes `reports` in `format`; `not_shown` is what `--severity` left out, which the human
/// formats' tally still counts.
pub fn write(
    format: OutputFormat,
    human: &HumanOptions,
    reports: &[FileReport],
    not_shown: &CodeCounts,
) -> std::io::Result<()> {
    match format {
        OutputFormat::Full => human::write(HumanLayout::Full, human, reports, not_shown),
        OutputFormat::Concise => human::write(HumanLayout::Concise, human, reports, not_shown),
        OutputFormat::Json => json::write(reports),
        OutputFormat::JsonLines => json::write_lines(reports),
        OutputFormat::Junit => junit::write(reports),
        OutputFormat::Sarif => sarif::write(reports),
        OutputFormat::Github => github::write(reports),
    }
}

/// Writes `reports` for a person at a terminal of `size`: everything if it fits, otherwise
/// every error and a summary of the rest (see [`HumanLayout::Screenful`]).
pub fn write_screenful(
    size: screen::TerminalSize,
    human: &HumanOptions,
    reports: &[FileReport],
    not_shown: &CodeCounts,
) -> std::io::Result<()> {
    human::write(HumanLayout::Screenful(size), human, reports, not_shown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludeme_analysis::rules;

    /// A report with one diagnostic of each severity, each of its own code (a code has one
    /// severity).
    fn report(severities: &[Severity]) -> FileReport {
        let codes = [
            &rules::SYNTAX_ERROR,
            &rules::MISSING_TOKEN,
            &rules::TOO_DEEP,
        ];
        let diagnostics = severities
            .iter()
            .zip(codes)
            .map(|(&severity, rule)| {
                let mut diagnostic = Diagnostic::new(rule, TextRange::empty(0), "a problem");
                diagnostic.severity = severity;
                diagnostic
            })
            .collect();
        FileReport::new(PathBuf::from("a.kif"), "(role x)\n".to_owned(), diagnostics)
    }

    #[test]
    fn keep_from_leaves_out_what_is_less_severe_and_counts_it() {
        let all = [Severity::Info, Severity::Warning, Severity::Error];
        let mut reports = vec![report(&all)];
        let left_out = keep_from(&mut reports, Severity::Warning);
        let kept: Vec<Severity> = reports[0].diagnostics.iter().map(|d| d.severity).collect();
        assert_eq!(kept, [Severity::Warning, Severity::Error]);
        assert_eq!(left_out.total(Severity::Info), 1);
        assert_eq!(left_out.total(Severity::Warning), 0);

        let mut reports = vec![report(&all)];
        let left_out = keep_from(&mut reports, Severity::Error);
        assert_eq!(reports[0].diagnostics.len(), 1, "errors are always shown");
        assert_eq!(left_out.total(Severity::Warning), 1);

        let mut reports = vec![report(&all)];
        assert!(keep_from(&mut reports, Severity::Info).is_empty());
        assert_eq!(reports[0].diagnostics.len(), 3);
    }
}
