//! Output formats of `ludeme check`: every format renders the same [`FileReport`]s.

mod github;
mod human;
mod json;
mod sarif;

use std::path::PathBuf;

use clap::ValueEnum;
use codespan_reporting::files::{Files, SimpleFile};
use ludeme_analysis::{Diagnostic, TextRange};

/// Output formats of `ludeme check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Source snippets with the problem underlined.
    Human,
    /// A JSON array of diagnostics with 1-based lines and columns.
    Json,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
    /// GitHub Actions workflow commands (annotations on pull requests).
    Github,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// The diagnostics of one file, with the text they point into.
pub struct FileReport {
    pub path: PathBuf,
    /// The file's name and text, with its line index built once.
    pub file: SimpleFile<String, String>,
    pub diagnostics: Vec<Diagnostic>,
    /// With `check --simulate`: the one-line summary of random play (or why there was none).
    pub simulation: Option<String>,
}

impl FileReport {
    pub fn new(path: PathBuf, source: String, diagnostics: Vec<Diagnostic>) -> Self {
        let file = SimpleFile::new(path.display().to_string(), source);
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

pub fn write(format: Format, color: ColorChoice, reports: &[FileReport]) -> std::io::Result<()> {
    match format {
        Format::Human => human::write(reports, color),
        Format::Json => json::write(reports),
        Format::Sarif => sarif::write(reports),
        Format::Github => github::write(reports),
    }
}
