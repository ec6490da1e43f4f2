//! GitHub Actions workflow commands: one `::error file=...::message` line per diagnostic, which
//! GitHub shows as annotations on the lines of a pull request.

use std::io::Write;

use ludeme_analysis::Severity;

use super::FileReport;

pub fn write(reports: &[FileReport]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    for report in reports {
        let file = escape_property(report.display_path());
        for diagnostic in &report.diagnostics {
            let command = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let span = report.span(diagnostic.range);
            writeln!(
                out,
                "::{command} file={file},line={},col={},endLine={},endColumn={},title={}::{}",
                span.start.line,
                span.start.column,
                span.end.line,
                span.end.column,
                escape_property(diagnostic.code),
                escape_data(&diagnostic.message),
            )?;
        }
    }
    Ok(())
}

/// Escapes a command's message as the Actions runner expects.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command property value (which also may not contain `:` or `,`).
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_follow_the_runner_rules() {
        assert_eq!(escape_data("50% done\nnext"), "50%25 done%0Anext");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    }
}
