//! JSON output: an array of `{"file","code","severity","message","range"}` with 1-based positions.

use std::io::Write;

use serde::Serialize;

use super::{FileReport, Span};

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: String,
    code: &'a str,
    severity: &'a str,
    message: &'a str,
    range: Span,
}

pub fn write(reports: &[FileReport]) -> std::io::Result<()> {
    let diagnostics: Vec<JsonDiagnostic<'_>> = reports
        .iter()
        .flat_map(|report| {
            report.diagnostics.iter().map(|diagnostic| JsonDiagnostic {
                file: report.display_path().to_owned(),
                code: diagnostic.code,
                severity: diagnostic.severity.as_str(),
                message: &diagnostic.message,
                range: report.span(diagnostic.range),
            })
        })
        .collect();
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &diagnostics)?;
    writeln!(out)
}
