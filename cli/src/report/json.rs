//! JSON output: an array of `{"file","code","severity","message","range","fix"}` with 1-based
//! positions; JSON lines: the same objects, one per line, for tools that read a stream.
//!
//! `fix` is the diagnostic's best fix, as ruff's JSON gives it, or `null`: its applicability
//! (`safe`: `--fix` applies it; `unsafe`: only with `--unsafe-fixes`), what it does, and its
//! edits, each the range it replaces and the new text.

use std::io::Write;

use serde::Serialize;

use super::{FileReport, Span};

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    code: &'a str,
    severity: &'a str,
    message: &'a str,
    range: Span,
    fix: Option<JsonFix<'a>>,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    applicability: &'static str,
    message: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    content: &'a str,
    range: Span,
}

fn diagnostics(reports: &[FileReport]) -> impl Iterator<Item = JsonDiagnostic<'_>> {
    reports.iter().flat_map(|report| {
        report.diagnostics.iter().map(|diagnostic| JsonDiagnostic {
            file: report.display_path(),
            code: diagnostic.code,
            severity: diagnostic.severity.as_str(),
            message: &diagnostic.message,
            range: report.span(diagnostic.range),
            fix: diagnostic.fixes.first().map(|fix| JsonFix {
                applicability: fix.applicability.as_str(),
                message: &fix.title,
                edits: fix
                    .edits
                    .iter()
                    .map(|(range, content)| JsonEdit {
                        content,
                        range: report.span(*range),
                    })
                    .collect(),
            }),
        })
    })
}

pub fn write(reports: &[FileReport]) -> std::io::Result<()> {
    let diagnostics: Vec<JsonDiagnostic<'_>> = diagnostics(reports).collect();
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &diagnostics)?;
    writeln!(out)
}

pub fn write_lines(reports: &[FileReport]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for diagnostic in diagnostics(reports) {
        serde_json::to_writer(&mut out, &diagnostic)?;
        writeln!(out)?;
    }
    out.flush()
}
