//! The EGGG formatter. A statement is a line and its indented continuation lines, so lines and
//! indentation carry meaning and are kept; what is normalised is what the grammar treats as
//! plain separation: runs of spaces and tabs between terms become one space, white space at the
//! end of a line goes, blank lines (which end statements) are kept one at a time, and the file
//! ends with one newline. Strings, comments and code escapes (`Tester(1) is Tot++ if ...`,
//! Perl text that is never interpreted here) are copied as written, spaces included.
//!
//! A file with syntax errors is not formatted, and neither is one whose formatted text does not
//! read back as the same tree with the same tokens: formatting never loses text.

use crate::syntax::{MAX_FORMATTED_TREE_DEPTH, nests_deeper_than, parse_text, reads_the_same};
use crate::{Syntax, TextRange};

/// The formatted text of a whole `.egg` file, or `None` when it has syntax errors.
pub fn format_egg(text: &str) -> Option<String> {
    let parse = parse_text(Syntax::Egg, text, None);
    let root = parse.root();
    // A tree too deep to compare with the formatted text's (see [`reads_the_same`]) is not
    // formatted: no need to build the text first.
    if root.has_error() || nests_deeper_than(root, MAX_FORMATTED_TREE_DEPTH) {
        return None;
    }
    // Disjoint and sorted, so the one range that may hold an offset is found by bisection.
    let mut verbatim = verbatim_ranges(root);
    verbatim.sort_by_key(|range| range.start);
    let inside_verbatim = |offset: usize| {
        let after = verbatim.partition_point(|range| range.start <= offset);
        after > 0 && offset < verbatim[after - 1].end
    };
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut output = String::with_capacity(text.len());
    let mut blank_pending = false;
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let ending = &line[content.len()..];
        let offset = line_start;
        line_start += line.len();
        if content.trim().is_empty() && !inside_verbatim(offset) {
            blank_pending = true;
            continue;
        }
        if blank_pending && !output.is_empty() {
            output.push_str(newline);
        }
        blank_pending = false;
        normalise_line(content, offset, &inside_verbatim, &mut output);
        output.push_str(if ending.is_empty() { newline } else { ending });
    }
    reads_the_same(Syntax::Egg, text, &output).then_some(output)
}

/// The formatted text of the statements `range` touches, with the span of whole lines it
/// replaces; `None` when the file has syntax errors or nothing changes.
pub fn format_egg_range(text: &str, range: TextRange) -> Option<(TextRange, String)> {
    if parse_text(Syntax::Egg, text, None).root().has_error() {
        return None;
    }
    // A range from outside (an editor, a fuzzer) may end inside a character or past the text:
    // each end moves back to the character it falls in.
    let floor = |offset: usize| {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    };
    let range = TextRange::new(floor(range.start), floor(range.end.max(range.start)));
    // Of the line holding `offset` (which may fall inside a character: `end - 1` below).
    let line_start = |offset: usize| text[..floor(offset)].rfind('\n').map_or(0, |at| at + 1);
    let line_end = |offset: usize| {
        text[offset..]
            .find('\n')
            .map_or(text.len(), |at| offset + at + 1)
    };
    let line_at = |start: usize| text[start..line_end(start)].trim_end_matches(['\n', '\r']);
    let is_blank = |start: usize| line_at(start).trim().is_empty();
    // An indented line continues the statement above it: take whole statements.
    let is_continuation =
        |start: usize| line_at(start).starts_with([' ', '\t']) && !is_blank(start);
    let mut start = line_start(range.start.min(text.len()));
    while start > 0 && is_continuation(start) {
        start = line_start(start - 1);
    }
    let mut end = line_end(range.end.min(text.len()).max(start));
    while end < text.len() && is_continuation(end) {
        end = line_end(end);
    }
    // Blank lines at the edges belong to the text around the statements.
    while start < end && is_blank(start) {
        start = line_end(start);
    }
    while start < end && is_blank(line_start(end - 1)) {
        end = line_start(end - 1);
    }
    if start == end {
        return None;
    }
    let lines = &text[start..end];
    let formatted = format_egg(lines)?;
    (formatted != lines).then(|| (TextRange::new(start, end), formatted))
}

/// Strings, comments and code escapes: text copied as written.
fn verbatim_ranges(root: tree_sitter::Node<'_>) -> Vec<TextRange> {
    let mut ranges = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if matches!(node.kind(), "string" | "comment" | "code") {
            ranges.push(TextRange::new(node.start_byte(), node.end_byte()));
            continue;
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
    ranges
}

/// Appends `content` (one line, starting at byte `offset` of the file) with its indentation
/// kept, its runs of blank space outside verbatim text made one space, and its trailing blank
/// space removed.
fn normalise_line(
    content: &str,
    offset: usize,
    inside_verbatim: &impl Fn(usize) -> bool,
    output: &mut String,
) {
    // Carriage returns at the start of a line are blank space that does not indent it (the
    // grammar's scanner skips them when it decides whether a line continues a statement), so
    // they go, and the spaces and tabs among them are the indentation; inside verbatim text (a
    // code escape continued on this line) they are part of the text and stay.
    let indent = content.len() - content.trim_start_matches([' ', '\t', '\r']).len();
    output.extend(
        content[..indent]
            .char_indices()
            .filter(|&(at, c)| c != '\r' || inside_verbatim(offset + at))
            .map(|(_, c)| c),
    );
    let mut chars = content[indent..].char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let position = offset + indent + at;
        // A carriage return not before a newline is blank space to the grammar, as a tab.
        if !matches!(c, ' ' | '\t' | '\r') || inside_verbatim(position) {
            output.push(c);
            continue;
        }
        // But it also ends a comment, which a space does not: the blank space right after a
        // comment (it can only start with that carriage return) is copied as written, or the
        // text after it would join the comment.
        if c == '\r' && position > 0 && inside_verbatim(position - 1) {
            output.push(c);
            while let Some((_, next)) =
                chars.next_if(|&(_, next)| matches!(next, ' ' | '\t' | '\r'))
            {
                output.push(next);
            }
            continue;
        }
        while chars
            .next_if(|&(_, next)| matches!(next, ' ' | '\t' | '\r'))
            .is_some()
        {}
        if chars.peek().is_some() {
            output.push(' ');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egg::lower;

    fn corpus() -> Vec<(String, String)> {
        let files = crate::test_files::project_files("corpus/egg", "egg");
        assert!(!files.is_empty(), "the EGGG corpus");
        files
    }

    /// The lowered statements of `text`, each as its kind and its words (positions aside).
    fn statements(text: &str) -> Vec<String> {
        let parse = parse_text(Syntax::Egg, text, None);
        let file = lower(parse.root(), text);
        file.statements
            .iter()
            .map(|statement| {
                let written = &text[statement.range.start..statement.range.end];
                let kind = format!("{:?}", statement.kind);
                let kind = kind
                    .split(['(', '{', ' '])
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                format!(
                    "{kind}: {}",
                    written.split_whitespace().collect::<Vec<_>>().join(" ")
                )
            })
            .collect()
    }

    #[test]
    fn format_corpus_is_idempotent_and_keeps_the_statements() {
        for (path, text) in corpus() {
            let once = format_egg(&text).unwrap_or_else(|| panic!("{path} formats"));
            let twice = format_egg(&once).expect("formatted text formats");
            assert_eq!(once, twice, "{path}: formatting twice changes the text");
            assert_eq!(
                statements(&text),
                statements(&once),
                "{path}: statements changed"
            );
            let comments = |text: &str| -> Vec<String> {
                text.lines()
                    .filter(|line| line.trim_start().starts_with('#'))
                    .map(str::to_owned)
                    .collect()
            };
            assert_eq!(comments(&text), comments(&once), "{path}: comments changed");
        }
    }

    #[test]
    fn format_collapses_spaces_but_not_in_strings_comments_or_code() {
        let text = "\n\n2  players   \nturns\talternate\n\n\n\nBoard is  \"a  b\"   # two  spaces\n\
                    Tester(1) is Tot++ if  grid[x][y];  return Tot > 12\n\
                    pieces move\n    up  or   down";
        assert_eq!(
            format_egg(text).as_deref(),
            Some(
                "2 players\nturns alternate\n\nBoard is \"a  b\" # two  spaces\n\
                 Tester(1) is Tot++ if  grid[x][y];  return Tot > 12\n\
                 pieces move\n    up or down\n"
            )
        );
    }

    #[test]
    fn format_gives_nothing_for_a_broken_file() {
        assert_eq!(format_egg("board is [a,  b\n"), None);
        assert_eq!(format_egg("name is \"open  \n"), None);
    }

    #[test]
    fn format_range_formats_the_touched_statements() {
        let text = "2  players\nturns   alternate\n";
        let (span, piece) = format_egg_range(text, TextRange::new(12, 12)).expect("an edit");
        assert_eq!(span, TextRange::new(11, text.len()));
        assert_eq!(piece, "turns alternate\n");
        assert_eq!(format_egg_range("2 players\n", TextRange::new(0, 0)), None);
    }

    #[test]
    fn format_drops_carriage_returns_that_start_a_line_without_indenting_it() {
        // `\rturns` starts a statement (a carriage return does not indent); `\r  up` continues
        // one (the spaces do). Found by the `format` fuzz target.
        assert_eq!(
            format_egg("2 players\r\n\rturns alternate\n\r  up\n").as_deref(),
            Some("2 players\r\nturns alternate\n  up\n")
        );
    }

    #[test]
    fn format_keeps_carriage_returns_inside_code_continued_on_the_next_line() {
        // `s is x` is a code escape, Perl text copied as written: its continuation line's
        // leading `\r` is part of the code, not blank space (a `format` fuzz find).
        let text = "s is x\n\r <\n";
        assert_eq!(format_egg(text).as_deref(), Some(text));
    }
}
