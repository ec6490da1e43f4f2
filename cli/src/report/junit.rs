//! JUnit XML, which CI services (GitLab, Jenkins, Azure Pipelines, ...) show as test results: a
//! test suite per checked file, a failed test case per diagnostic, and one passing test case
//! for a file without diagnostics, so that the files checked clean are counted too.

use std::io::Write;

use super::FileReport;

pub fn write(reports: &[FileReport]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let failures: usize = reports.iter().map(|report| report.diagnostics.len()).sum();
    let clean = reports
        .iter()
        .filter(|report| report.diagnostics.is_empty())
        .count();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="ludeme check" tests="{}" failures="{failures}" errors="0">"#,
        failures + clean
    )?;
    for report in reports {
        let path = escape(report.display_path());
        let failed = report.diagnostics.len();
        writeln!(
            out,
            r#"  <testsuite name="{path}" tests="{}" failures="{failed}" errors="0">"#,
            failed.max(1)
        )?;
        if report.diagnostics.is_empty() {
            writeln!(
                out,
                r#"    <testcase name="no diagnostics" classname="{path}" file="{path}"/>"#
            )?;
        }
        for diagnostic in &report.diagnostics {
            let start = report.span(diagnostic.range).start;
            let (line, column) = (start.line, start.column);
            let code = escape(diagnostic.code);
            let message = escape(&diagnostic.message);
            let severity = diagnostic.severity.as_str();
            writeln!(
                out,
                r#"    <testcase name="{code} at {line}:{column}" classname="{path}" file="{path}" line="{line}">"#
            )?;
            writeln!(
                out,
                r#"      <failure type="{severity}" message="{message}">{path}:{line}:{column}: {severity}[{code}]: {message}</failure>"#
            )?;
            writeln!(out, "    </testcase>")?;
        }
        writeln!(out, "  </testsuite>")?;
    }
    writeln!(out, "</testsuites>")?;
    out.flush()
}

/// `text` as XML character data or an attribute value: markup characters escaped, and the
/// characters XML 1.0 does not allow at all (most control characters, which a game file may
/// hold and a message may quote) replaced by U+FFFD.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            // Attribute values normalise raw line breaks and tabs to spaces: keep them as
            // character references.
            '\n' => escaped.push_str("&#10;"),
            '\r' => escaped.push_str("&#13;"),
            '\t' => escaped.push_str("&#9;"),
            c if is_xml_char(c) => escaped.push(c),
            _ => escaped.push('\u{FFFD}'),
        }
    }
    escaped
}

/// XML 1.0's `Char` production (tab, line feed and carriage return are handled before).
fn is_xml_char(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_characters_xml_forbids_are_escaped() {
        assert_eq!(
            escape("`<=` & \"or\" 'not'"),
            "`&lt;=` &amp; &quot;or&quot; &apos;not&apos;"
        );
        assert_eq!(escape("a\u{0}b\u{1b}c\nd"), "a\u{FFFD}b\u{FFFD}c&#10;d");
        assert_eq!(escape("étoile ♟"), "étoile ♟");
    }
}
