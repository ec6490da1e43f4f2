//! SARIF 2.1.0 output, for code-scanning services.

use std::collections::BTreeSet;
use std::io::Write;

use ludeme_analysis::{Severity, rules};
use serde_json::{Value, json};

use super::FileReport;

pub fn write(reports: &[FileReport]) -> std::io::Result<()> {
    let used: BTreeSet<&str> = reports
        .iter()
        .flat_map(|report| report.diagnostics.iter().map(|diagnostic| diagnostic.code))
        .collect();
    let rule_table: Vec<Value> = rules::all()
        .filter(|rule| used.contains(rule.code))
        .map(|rule| {
            json!({
                "id": rule.code,
                "shortDescription": { "text": rule.summary },
                "fullDescription": { "text": rule.explanation },
                "defaultConfiguration": { "level": level(rule.severity) },
            })
        })
        .collect();
    let results: Vec<Value> = reports
        .iter()
        .flat_map(|report| {
            report.diagnostics.iter().map(move |diagnostic| {
                let span = report.span(diagnostic.range);
                json!({
                    "ruleId": diagnostic.code,
                    "level": level(diagnostic.severity),
                    "message": { "text": diagnostic.message },
                    "locations": [{
                        "physicalLocation": {
                            "artifactLocation": { "uri": uri(report) },
                            "region": {
                                "startLine": span.start.line,
                                "startColumn": span.start.column,
                                "endLine": span.end.line,
                                "endColumn": span.end.column,
                            }
                        }
                    }]
                })
            })
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "ludeme",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rule_table,
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    });
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &log)?;
    writeln!(out)
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A relative URI for the file, with `/` separators as SARIF wants.
fn uri(report: &FileReport) -> String {
    report
        .path
        .components()
        .map(|component| component.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
