//! The formats people read: `full` (codespan-reporting snippets), `concise` (one line per
//! diagnostic), each followed by the random-play summaries of `--simulate`, the table of
//! `--statistics` and a one-line tally; and the screenful view of a terminal, which shows every
//! error and summarises the rest by code when the whole report would not fit.

use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};

use codespan_reporting::diagnostic::{Diagnostic as Snippet, Label, Severity as SnippetSeverity};
use codespan_reporting::term::termcolor::{
    self, Buffer, BufferWriter, BufferedStandardStream, WriteColor,
};
use codespan_reporting::term::{self, Config};
use ludeme_analysis::{Diagnostic, Severity};

use super::screen::{self, Fit, TerminalSize};
use super::statistics::{self, CodeCounts, severity_color};
use super::{ColorChoice, FileReport, keep_from};

/// How the human output lays the diagnostics out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HumanLayout {
    /// Each diagnostic with its source lines.
    Full,
    /// One line per diagnostic.
    Concise,
    /// For a terminal of this size: the full layout if it fits; otherwise every error (with
    /// its source if that fits, else one line per message) and the warnings and information
    /// counted by code, with the flags that show them.
    Screenful(TerminalSize),
}

/// What the human output adds around the diagnostics.
#[derive(Clone, Copy, Debug)]
pub struct HumanOptions {
    pub color: ColorChoice,
    /// The table of counts per code (`--statistics`).
    pub statistics: bool,
    /// The diagnostics alone, without summaries, tally or hints (`--quiet`).
    pub quiet: bool,
    /// The line about fixes after the tally.
    pub fixes: FixNote,
}

/// The line about fixes after the tally, as ruff prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixNote {
    /// Nothing was fixed: how many diagnostics `--fix` would fix (counting the unsafe fixes
    /// when `--unsafe-fixes` was given), and how many more `--unsafe-fixes` would.
    Fixable { unsafe_fixes: bool },
    /// `--fix` applied this many fixes.
    Fixed(usize),
}

/// `fixed N diagnostics (M remaining)`: what `--fix` did.
pub fn fixed_summary(fixed: usize, remaining: usize) -> String {
    format!(
        "fixed {} ({remaining} remaining)",
        plural(fixed, "diagnostic")
    )
}

/// `would fix N diagnostics`: what `--diff` shows.
pub fn would_fix_summary(fixes: usize) -> String {
    format!("would fix {}", plural(fixes, "diagnostic"))
}

/// After the tally: what `--fix` did, or what it would do.
fn write_fix_note(
    out: &mut dyn WriteColor,
    note: FixNote,
    reports: &[FileReport],
    found: &CodeCounts,
) -> io::Result<()> {
    match note {
        FixNote::Fixed(fixed) => writeln!(out, "{}", fixed_summary(fixed, found.total_all())),
        FixNote::Fixable { unsafe_fixes } => {
            let diagnostics = reports.iter().flat_map(|report| &report.diagnostics);
            let (mut safe, mut unsafe_only) = (0, 0);
            for diagnostic in diagnostics {
                if diagnostic.fix_to_apply(false).is_some() {
                    safe += 1;
                } else if !diagnostic.fixes.is_empty() {
                    unsafe_only += 1;
                }
            }
            match (safe, unsafe_only, unsafe_fixes) {
                (0, 0, _) => Ok(()),
                (_, _, true) => writeln!(
                    out,
                    "[*] {} fixable with `--fix --unsafe-fixes`",
                    safe + unsafe_only
                ),
                (_, 0, false) => writeln!(out, "[*] {safe} fixable with `--fix`"),
                (0, _, false) => writeln!(
                    out,
                    "[*] {unsafe_only} fixable with `--fix --unsafe-fixes` (none with `--fix` alone)"
                ),
                (_, _, false) => writeln!(
                    out,
                    "[*] {safe} fixable with `--fix` ({unsafe_only} more with `--fix --unsafe-fixes`)"
                ),
            }
        }
    }
}

pub fn write(
    layout: HumanLayout,
    options: &HumanOptions,
    reports: &[FileReport],
    not_shown: &CodeCounts,
) -> io::Result<()> {
    let choice = match options.color {
        ColorChoice::Always => termcolor::ColorChoice::Always,
        ColorChoice::Never => termcolor::ColorChoice::Never,
        ColorChoice::Auto if io::stdout().is_terminal() => termcolor::ColorChoice::Auto,
        ColorChoice::Auto => termcolor::ColorChoice::Never,
    };
    match layout {
        // Streamed: a report can be long, and nothing in it needs measuring.
        HumanLayout::Full | HumanLayout::Concise => {
            // Buffered: standard output flushes at every line otherwise, and a file with
            // 100,000 diagnostics took seconds of system calls to print.
            let mut out = BufferedStandardStream::stdout(choice);
            let detail = if layout == HumanLayout::Full {
                Detail::Full
            } else {
                Detail::OneLine
            };
            write_page(&mut out, detail, options, reports, not_shown)?;
            out.flush()
        }
        // Composed whole before it is printed: the view measures it first.
        HumanLayout::Screenful(size) => {
            let writer = BufferWriter::stdout(choice);
            let page = screenful(&writer, size, options, reports, not_shown)?;
            writer.print(&page)
        }
    }
}

/// How much of each diagnostic is printed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// With its source lines.
    Full,
    /// On one line.
    OneLine,
    /// On one line with the other diagnostics of its file that have its code and message
    /// (alexChess spells `nextrank` so in twelve places), their places listed.
    ByMessage,
    /// As `ByMessage`, each line cut to this many characters (a terminal's width) with `…`:
    /// its place, code and the start of its message.
    ByMessageClipped(usize),
}

/// The whole report if it fits on the screen, else every error and the rest by code.
fn screenful(
    writer: &BufferWriter,
    size: TerminalSize,
    options: &HumanOptions,
    reports: &[FileReport],
    not_shown: &CodeCounts,
) -> io::Result<Buffer> {
    let mut everything = writer.buffer();
    write_page(&mut everything, Detail::Full, options, reports, not_shown)?;
    let mut errors = reports.to_vec();
    let summarised = keep_from(&mut errors, Severity::Error);
    if summarised.is_empty() {
        // Errors alone: nothing to summarise, and every error is shown in full.
        return Ok(everything);
    }
    let mut errors_in_full = writer.buffer();
    write_errors_page(
        &mut errors_in_full,
        Detail::Full,
        options,
        &errors,
        &summarised,
        not_shown,
    )?;
    let rows = |buffer: &Buffer| screen::rows_taken(buffer.as_slice(), size.columns);
    Ok(
        match screen::fit(size.rows, rows(&everything), rows(&errors_in_full)) {
            Fit::Everything => everything,
            Fit::ErrorsInFull => errors_in_full,
            Fit::ErrorsByMessage => {
                let mut by_message = writer.buffer();
                write_errors_page(
                    &mut by_message,
                    Detail::ByMessage,
                    options,
                    &errors,
                    &summarised,
                    not_shown,
                )?;
                if rows(&by_message) < size.rows {
                    return Ok(by_message);
                }
                // Lines that wrap take two or three rows each: one row per message instead.
                let mut clipped = writer.buffer();
                write_errors_page(
                    &mut clipped,
                    Detail::ByMessageClipped(size.columns),
                    options,
                    &errors,
                    &summarised,
                    not_shown,
                )?;
                // Cut only when cutting saves rows: a line that does not wrap stays whole.
                if rows(&clipped) < rows(&by_message) {
                    clipped
                } else {
                    by_message
                }
            }
        },
    )
}

/// The report with every diagnostic of `reports` at `detail`.
fn write_page(
    out: &mut dyn WriteColor,
    detail: Detail,
    options: &HumanOptions,
    reports: &[FileReport],
    not_shown: &CodeCounts,
) -> io::Result<()> {
    write_diagnostics(out, detail, reports)?;
    let shown = CodeCounts::of(reports);
    if !options.quiet {
        write_simulations(out, reports)?;
    }
    if options.statistics && !shown.is_empty() {
        statistics::write_table(out, &shown)?;
    }
    if options.quiet {
        return Ok(());
    }
    let mut found = shown;
    found.merge(not_shown);
    write_tally(out, reports.len(), &found)?;
    if !not_shown.is_empty() {
        writeln!(
            out,
            "not shown, being less severe than asked for: {}",
            below_error_counts(not_shown)
        )?;
    }
    write_fix_note(out, options.fixes, reports, &found)
}

/// The screenful view once it leaves out warnings and information: `errors` (the reports with
/// their errors alone) at `detail`, then what they leave out by code, the tally and the flags
/// that show the rest. (What `--fix` would fix is left to the table's `[*]`: every row counts
/// on a screen.)
fn write_errors_page(
    out: &mut dyn WriteColor,
    detail: Detail,
    options: &HumanOptions,
    errors: &[FileReport],
    summarised: &CodeCounts,
    not_shown: &CodeCounts,
) -> io::Result<()> {
    write_diagnostics(out, detail, errors)?;
    let mut found = CodeCounts::of(errors);
    found.merge(summarised);
    found.merge(not_shown);
    // Snippets end with a blank line; one-line errors get one before the table.
    if detail != Detail::Full && errors.iter().any(|report| !report.diagnostics.is_empty()) {
        writeln!(out)?;
    }
    // With --statistics the table counts every code, the errors' included.
    if options.statistics {
        writeln!(out, "by code:")?;
        statistics::write_table(out, &found)?;
    } else {
        writeln!(out, "not listed, by code:")?;
        statistics::write_table(out, summarised)?;
    }
    write_tally(out, errors.len(), &found)?;
    let listed = match detail {
        Detail::Full => "only the errors are listed",
        Detail::OneLine | Detail::ByMessage => "only the errors are listed, one line per message,",
        Detail::ByMessageClipped(_) => {
            "only the errors are listed, one line per message cut to the width \
             (`--severity error --output-format concise` prints them whole),"
        }
    };
    writeln!(
        out,
        "{listed} to fit the terminal; `--severity warning` adds the warnings, \
         `--output-format full` shows everything"
    )
}

fn write_diagnostics(
    out: &mut dyn WriteColor,
    detail: Detail,
    reports: &[FileReport],
) -> io::Result<()> {
    let config = Config::default();
    for report in reports {
        for diagnostic in &report.diagnostics {
            match detail {
                Detail::Full => {
                    term::emit_to_write_style(out, &config, &report.file, &snippet(diagnostic))
                        .map_err(io::Error::other)?;
                }
                Detail::OneLine => write_line(out, report, diagnostic, &[], None)?,
                Detail::ByMessage | Detail::ByMessageClipped(_) => {}
            }
        }
        let clip = match detail {
            Detail::ByMessage => None,
            Detail::ByMessageClipped(columns) => Some(columns),
            Detail::Full | Detail::OneLine => continue,
        };
        for (first, others) in by_message(&report.diagnostics) {
            write_line(out, report, first, &others, clip)?;
        }
    }
    Ok(())
}

/// `diagnostics` grouped by code and message, in the order of their first diagnostic.
fn by_message(diagnostics: &[Diagnostic]) -> Vec<(&Diagnostic, Vec<&Diagnostic>)> {
    let mut groups: Vec<(&Diagnostic, Vec<&Diagnostic>)> = Vec::new();
    let mut index: HashMap<(&str, &str), usize> = HashMap::new();
    for diagnostic in diagnostics {
        let key = (diagnostic.code, diagnostic.message.as_str());
        match index.get(&key) {
            Some(&group) => groups[group].1.push(diagnostic),
            None => {
                index.insert(key, groups.len());
                groups.push((diagnostic, Vec::new()));
            }
        }
    }
    groups
}

/// The characters of a message a line cut to the terminal's width keeps at least.
const MESSAGE_START: usize = 16;

/// `path:line:column: severity[code]: message`, the heading of the full format behind the
/// place it points at (so that both read alike, and editors' problem matchers find the place);
/// then `(also at line:column, ...)` for the places of `same`, diagnostics with the same code
/// and message. With `clip`, the line is cut to that many characters, the last one `…`.
fn write_line(
    out: &mut dyn WriteColor,
    report: &FileReport,
    diagnostic: &Diagnostic,
    same: &[&Diagnostic],
    clip: Option<usize>,
) -> io::Result<()> {
    let start = report.span(diagnostic.range).start;
    let place = format!(
        "{}:{}:{}: ",
        report.display_path(),
        start.line,
        start.column
    );
    let heading = format!("{}[{}]", heading_word(diagnostic.severity), diagnostic.code);
    // A message is one line; should one ever hold a line break, the line stays one line.
    let mut message = format!(": {}", diagnostic.message.replace(['\r', '\n'], " "));
    let also = if same.is_empty() {
        String::new()
    } else {
        let places: Vec<String> = same
            .iter()
            .map(|other| {
                let start = report.span(other.range).start;
                format!("{}:{}", start.line, start.column)
            })
            .collect();
        format!(" (also at {})", places.join(", "))
    };
    if let Some(columns) = clip {
        // Only the message is cut: the places and the code are what the line is for. Its
        // start stays even when the places fill the width (the line then wraps).
        let kept = [&place, &heading, &also].map(|part| part.chars().count());
        let room = columns.saturating_sub(kept.iter().sum()).max(MESSAGE_START);
        if message.chars().count() > room {
            message = message.chars().take(room.saturating_sub(1)).collect();
            message.push('…');
        }
    }
    write!(out, "{place}")?;
    out.set_color(&severity_color(diagnostic.severity))?;
    write!(out, "{heading}")?;
    out.reset()?;
    writeln!(out, "{message}{also}")
}

/// The word the full format's heading gives a severity (codespan-reporting's).
fn heading_word(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn write_simulations(out: &mut dyn WriteColor, reports: &[FileReport]) -> io::Result<()> {
    for report in reports {
        if let Some(simulation) = &report.simulation {
            writeln!(out, "{}: {simulation}", report.display_path())?;
        }
    }
    Ok(())
}

/// `checked N files: E errors, W warnings, I info`: everything found, whether shown or not.
fn write_tally(out: &mut dyn WriteColor, files: usize, found: &CodeCounts) -> io::Result<()> {
    writeln!(
        out,
        "checked {}: {}",
        plural(files, "file"),
        severity_counts(found)
    )
}

/// `E errors, W warnings`, and `, I info` when there is information.
fn severity_counts(counts: &CodeCounts) -> String {
    let mut text = format!(
        "{}, {}",
        plural(counts.total(Severity::Error), "error"),
        plural(counts.total(Severity::Warning), "warning")
    );
    let infos = counts.total(Severity::Info);
    if infos > 0 {
        text.push_str(&format!(", {infos} info"));
    }
    text
}

/// `W warnings, I info`, leaving out a severity none of `counts` has (it holds no errors).
fn below_error_counts(counts: &CodeCounts) -> String {
    let parts: Vec<String> = [
        (
            counts.total(Severity::Warning),
            plural(counts.total(Severity::Warning), "warning"),
        ),
        (
            counts.total(Severity::Info),
            format!("{} info", counts.total(Severity::Info)),
        ),
    ]
    .into_iter()
    .filter(|(count, _)| *count > 0)
    .map(|(_, text)| text)
    .collect();
    parts.join(", ")
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
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
