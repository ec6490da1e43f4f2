//! The terminal `ludeme check` prints to, when it prints to one: whether standard output is a
//! terminal, its size, how many of its rows a text takes, and how much of a long report fits.

use std::io::IsTerminal;

/// Set to `ROWSxCOLUMNS` (`50x120`), this makes `ludeme check` treat its standard output as a
/// terminal of that size: for the tests of the screenful view, whose output is a pipe. Not for
/// users, hence not in the help.
pub const TERMINAL_SIZE_FOR_TESTS: &str = "LUDEME_TERMINAL_SIZE_FOR_TESTS";

/// The size of a terminal, in character cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TerminalSize {
    pub rows: usize,
    pub columns: usize,
}

/// The size of the terminal standard output is, or `None` when it is no terminal (a pipe, a
/// file, CI's log).
pub fn terminal_size() -> Option<TerminalSize> {
    if let Ok(forced) = std::env::var(TERMINAL_SIZE_FOR_TESTS) {
        let (rows, columns) = forced.trim().split_once('x')?;
        return Some(TerminalSize {
            rows: rows.parse().ok()?,
            columns: columns.parse().ok()?,
        });
    }
    if !std::io::stdout().is_terminal() {
        return None;
    }
    let from_environment = |name: &str| std::env::var(name).ok()?.trim().parse().ok();
    let window = window_size();
    Some(TerminalSize {
        rows: window
            .map(|size| size.rows)
            .or_else(|| from_environment("LINES"))
            .unwrap_or(24),
        columns: window
            .map(|size| size.columns)
            .or_else(|| from_environment("COLUMNS"))
            .unwrap_or(80),
    })
}

/// The size of the terminal window standard output is shown in, as the kernel knows it.
#[cfg(unix)]
fn window_size() -> Option<TerminalSize> {
    // SAFETY: TIOCGWINSZ writes one `winsize` into the struct it is given, which lives on this
    // stack frame for the call; on failure it writes nothing and returns -1.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let status = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) };
    (status == 0 && size.ws_row > 0 && size.ws_col > 0).then_some(TerminalSize {
        rows: usize::from(size.ws_row),
        columns: usize::from(size.ws_col),
    })
}

#[cfg(not(unix))]
fn window_size() -> Option<TerminalSize> {
    None
}

/// The rows `text` takes on a terminal `columns` wide: each line at least one, a long line as
/// many as it wraps to. Colour escapes take no room.
pub fn rows_taken(text: &[u8], columns: usize) -> usize {
    let columns = columns.max(1);
    let text = String::from_utf8_lossy(text);
    text.lines()
        .map(|line| visible_width(line).div_ceil(columns).max(1))
        .sum()
}

/// The characters of `line` a terminal shows: all but its ANSI escape sequences
/// (`ESC [ ... letter`), which set colours.
fn visible_width(line: &str) -> usize {
    let mut width = 0;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            width += 1;
        }
    }
    width
}

/// How much of a report the screenful view shows: the most detail that fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// The whole report, as the full format prints it.
    Everything,
    /// The errors with their source, the rest counted by code.
    ErrorsInFull,
    /// The errors one line per message (its places listed), the rest counted by code; when
    /// those lines wrap past the screen, each is cut to the width (its places and code whole,
    /// its message shortened with `…`). Used even when these lines alone take more than a
    /// screen: every error is always shown.
    ErrorsByMessage,
}

/// What fits on a terminal of `rows` rows, given the rows the whole report takes and those the
/// view with the errors in full takes. One row is kept for the shell's prompt after the report.
pub fn fit(rows: usize, everything_rows: usize, errors_in_full_rows: usize) -> Fit {
    let room = rows.saturating_sub(1);
    if everything_rows <= room {
        Fit::Everything
    } else if errors_in_full_rows <= room {
        Fit::ErrorsInFull
    } else {
        Fit::ErrorsByMessage
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_detail_that_fits_is_chosen() {
        assert_eq!(fit(40, 39, 10), Fit::Everything);
        assert_eq!(fit(40, 40, 10), Fit::ErrorsInFull, "a row for the prompt");
        assert_eq!(fit(40, 12_000, 39), Fit::ErrorsInFull);
        assert_eq!(fit(40, 12_000, 300), Fit::ErrorsByMessage);
        assert_eq!(fit(0, 1, 1), Fit::ErrorsByMessage);
    }

    #[test]
    fn long_lines_take_the_rows_they_wrap_to_and_colours_none() {
        assert_eq!(rows_taken(b"", 80), 0);
        assert_eq!(rows_taken(b"short\n\nline\n", 80), 3);
        assert_eq!(rows_taken("é".repeat(80).as_bytes(), 80), 1);
        assert_eq!(rows_taken("x".repeat(81).as_bytes(), 80), 2);
        let coloured = format!("\u{1b}[1;31merror\u{1b}[0m{}", "x".repeat(75));
        assert_eq!(rows_taken(coloured.as_bytes(), 80), 1);
    }
}
