//! Human output: codespan-reporting snippets, then a one-line summary.

use std::io::{IsTerminal, Write};

use codespan_reporting::diagnostic::{Diagnostic as Snippet, Label, Severity as SnippetSeverity};
use codespan_reporting::term::termcolor::{self, StandardStream};
use codespan_reporting::term::{self, Config};
use ludeme_analysis::{Diagnostic, Severity};

use super::ColorChoice;
use super::FileReport;

pub fn write(reports: &[FileReport], color: ColorChoice) -> std::io::Result<()> {
    let choice = match color {
        ColorChoice::Always => termcolor::ColorChoice::Always,
        ColorChoice::Never => termcolor::ColorChoice::Never,
        ColorChoice::Auto if std::io::stdout().is_terminal() => termcolor::ColorChoice::Auto,
        ColorChoice::Auto => termcolor::ColorChoice::Never,
    };
    let stream = StandardStream::stdout(choice);
    let mut out = stream.lock();
    let config = Config::default();
    let mut counts = [0usize; 3];
    for report in reports {
        for diagnostic in &report.diagnostics {
            counts[diagnostic.severity as usize] += 1;
            term::emit_to_write_style(&mut out, &config, &report.file, &snippet(diagnostic))
                .map_err(std::io::Error::other)?;
        }
    }
    for report in reports {
        if let Some(simulation) = &report.simulation {
            writeln!(out, "{}: {simulation}", report.display_path())?;
        }
    }
    let [infos, warnings, errors] = counts;
    let files = reports.len();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut summary = format!(
        "checked {}: {}, {}",
        plural(files, "file"),
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    if infos > 0 {
        summary.push_str(&format!(", {infos} info"));
    }
    writeln!(out, "{summary}")
}

fn snippet(diagnostic: &Diagnostic) -> Snippet<()> {
    let severity = match diagnostic.severity {
        Severity::Error => SnippetSeverity::Error,
        Severity::Warning => SnippetSeverity::Warning,
        Severity::Info => SnippetSeverity::Note,
    };
    let mut labels = vec![Label::primary((), diagnostic.range)];
    labels.extend(
        diagnostic
            .labels
            .iter()
            .map(|label| Label::secondary((), label.range).with_message(&label.message)),
    );
    Snippet::new(severity)
        .with_code(diagnostic.code)
        .with_message(&diagnostic.message)
        .with_labels(labels)
}
