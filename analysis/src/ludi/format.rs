//! The Ludi formatter: re-indents ludeme trees. A ludeme that fits in [`LINE_WIDTH`] stays on
//! one line; a longer one keeps its head and leading atoms on its first line and puts each of
//! its other items on a line of its own, two spaces deeper. Comments stay where they were (a
//! comment that ended a line after some item still follows that item); strings are copied as
//! written; one blank line between top-level forms is kept.
//!
//! A file with syntax errors is not formatted, and neither is one whose formatted text does not
//! read back as the same tree with the same comments: formatting never loses text.

use crate::syntax::{MAX_FORMATTED_TREE_DEPTH, nests_deeper_than, parse_text, reads_the_same};
use crate::{Syntax, TextRange};

/// The width a ludeme must fit in (indentation included) to stay on one line.
pub const LINE_WIDTH: usize = 100;

/// The formatted text of a whole `.ludi` file, or `None` when it has syntax errors.
pub fn format_ludi(text: &str) -> Option<String> {
    let parse = parse_text(Syntax::Ludi, text, None);
    let root = parse.root();
    // The reading and printing below recurse along the nesting; a file too deep to read
    // (`syntax/too-deep`) is not formatted either.
    if root.has_error() || nests_deeper_than(root, MAX_FORMATTED_TREE_DEPTH) {
        return None;
    }
    let forms = read_children(root, text);
    let mut output = render_top_level(&forms);
    if !output.is_empty() {
        output.push('\n');
    }
    reads_the_same(Syntax::Ludi, text, &output).then_some(output)
}

/// The formatted text of the top-level forms `range` touches (the form at the cursor when the
/// range is empty), with the span it replaces; `None` when the file has syntax errors or
/// nothing changes.
pub fn format_ludi_range(text: &str, range: TextRange) -> Option<(TextRange, String)> {
    let parse = parse_text(Syntax::Ludi, text, None);
    let root = parse.root();
    if root.has_error() || nests_deeper_than(root, MAX_FORMATTED_TREE_DEPTH) {
        return None;
    }
    let forms = read_children(root, text);
    let touched: Vec<&Node> = forms
        .iter()
        .filter(|form| form.range.is_touched_by(range))
        .collect();
    let (first, last) = (touched.first()?, touched.last()?);
    let span = TextRange::new(first.range.start, last.range.end);
    // Formatting the forms on their own keeps the blank lines between them and the comments
    // after them on their lines; the text around the span is left as it was.
    let original = &text[span.start..span.end];
    let formatted = format_ludi(original)?;
    let formatted = formatted.trim_end_matches('\n');
    (formatted != original).then(|| (span, formatted.to_owned()))
}

/// One item as the formatter sees it: a list, an atom or a comment, and where it was.
struct Node {
    kind: NodeKind,
    range: TextRange,
    /// A comment written on the same line as the item before it (or the list's `(`).
    ends_previous_line: bool,
    /// A blank line precedes this item in the source.
    after_blank_line: bool,
}

enum NodeKind {
    List(Vec<Node>),
    /// An atom or a comment, with its text as written.
    Atom(String),
    Comment(String),
}

fn read_children(parent: tree_sitter::Node<'_>, text: &str) -> Vec<Node> {
    let mut cursor = parent.walk();
    // The end of the previous token: the list's `(` for its first item, nothing at top level.
    let mut previous_end = (parent.kind() == "list").then(|| parent.start_byte() + 1);
    let mut nodes = Vec::new();
    for child in parent.named_children(&mut cursor) {
        let range = TextRange::new(child.start_byte(), child.end_byte());
        let gap = previous_end.map_or("", |end| &text[end..range.start]);
        let kind = match child.kind() {
            "list" => NodeKind::List(read_children(child, text)),
            "comment" => NodeKind::Comment(text[range.start..range.end].trim_end().to_owned()),
            _ => NodeKind::Atom(text[range.start..range.end].to_owned()),
        };
        let breaks = line_breaks(gap);
        nodes.push(Node {
            ends_previous_line: previous_end.is_some() && breaks == 0,
            after_blank_line: breaks >= 2,
            kind,
            range,
        });
        previous_end = Some(range.end);
    }
    nodes
}

/// The line breaks in `gap` as the grammar reads them: a comment ends at `\r` as well as at
/// `\n`, so a bare carriage return is a line break (and `\r\n` one, not two). Without this, a
/// comment after a bare `\r` was joined to the comment before it.
fn line_breaks(gap: &str) -> usize {
    let bytes = gap.as_bytes();
    (0..bytes.len())
        .filter(|&at| {
            bytes[at] == b'\n' || (bytes[at] == b'\r' && bytes.get(at + 1) != Some(&b'\n'))
        })
        .count()
}

fn render_top_level(forms: &[Node]) -> String {
    let mut output = String::new();
    for (index, form) in forms.iter().enumerate() {
        if index > 0 {
            if matches!(form.kind, NodeKind::Comment(_)) && form.ends_previous_line {
                output.push(' ');
            } else {
                output.push('\n');
                if form.after_blank_line {
                    output.push('\n');
                }
            }
        }
        render(form, 0, &mut output);
    }
    output
}

/// Appends `node`, whose first line starts at column `indent`, to `output`.
fn render(node: &Node, indent: usize, output: &mut String) {
    let items = match &node.kind {
        NodeKind::Atom(text) | NodeKind::Comment(text) => {
            output.push_str(text);
            return;
        }
        NodeKind::List(items) => items,
    };
    if let Some(flat) = flat(node)
        && indent + flat.chars().count() <= LINE_WIDTH
    {
        output.push_str(&flat);
        return;
    }
    let child_indent = indent + 2;
    output.push('(');
    // The head and the atoms right after it share the `(` line until a list or a comment.
    let mut on_first_line = true;
    let mut first_on_line = true;
    for item in items {
        match &item.kind {
            NodeKind::Comment(text) if item.ends_previous_line => {
                output.push(' ');
                output.push_str(text);
                on_first_line = false;
            }
            NodeKind::Atom(text) if on_first_line => {
                if !first_on_line {
                    output.push(' ');
                }
                output.push_str(text);
                first_on_line = false;
            }
            _ => {
                on_first_line = false;
                output.push('\n');
                output.push_str(&" ".repeat(child_indent));
                render(item, child_indent, output);
            }
        }
    }
    if items
        .last()
        .is_some_and(|item| matches!(item.kind, NodeKind::Comment(_)))
    {
        // A comment runs to the end of its line: the `)` goes on the next one.
        output.push('\n');
        output.push_str(&" ".repeat(indent));
    }
    output.push(')');
}

/// `node` on one line, or `None` when it holds a comment (which must end its line).
fn flat(node: &Node) -> Option<String> {
    match &node.kind {
        NodeKind::Atom(text) => Some(text.clone()),
        NodeKind::Comment(_) => None,
        NodeKind::List(items) => {
            // A loop, not an iterator chain: this recursion follows the nesting.
            let mut parts = Vec::with_capacity(items.len());
            for item in items {
                parts.push(flat(item)?);
            }
            Some(format!("({})", parts.join(" ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludi::tree::{self, Item};

    fn corpus() -> Vec<(String, String)> {
        let files = crate::test_files::project_files("corpus/ludi", "ludi");
        assert!(!files.is_empty(), "the Ludi corpus");
        files
    }

    /// The ludeme tree of `text` without positions.
    fn shape(text: &str) -> Vec<String> {
        fn describe(item: &Item) -> String {
            match item {
                Item::Atom(atom) => format!("{:?}:{}", atom.kind, atom.text),
                Item::List(list) => {
                    let head = list.head.as_ref().map_or(String::new(), |h| h.text.clone());
                    let items: Vec<String> = list.items.iter().map(describe).collect();
                    format!("({head} {})", items.join(" "))
                }
            }
        }
        let parse = parse_text(Syntax::Ludi, text, None);
        tree::read(parse.root(), text)
            .0
            .iter()
            .map(describe)
            .collect()
    }

    fn comments(text: &str) -> Vec<String> {
        text.lines()
            .filter_map(|line| line.find(';').map(|at| line[at..].trim_end().to_owned()))
            .collect()
    }

    #[test]
    fn format_corpus_is_idempotent_and_keeps_the_tree_and_comments() {
        for (path, text) in corpus() {
            let once = format_ludi(&text).unwrap_or_else(|| panic!("{path} formats"));
            let twice = format_ludi(&once).expect("formatted text formats");
            assert_eq!(once, twice, "{path}: formatting twice changes the text");
            assert_eq!(
                shape(&text),
                shape(&once),
                "{path}: the ludeme tree changed"
            );
            if !text.contains('"') {
                assert_eq!(comments(&text), comments(&once), "{path}: comments changed");
            }
        }
    }

    #[test]
    fn format_breaks_long_ludemes_and_joins_short_ones() {
        let long_rule = format!("(rules (play (add (to (empty)))) (end (line {} win)))", 5);
        let text = format!(
            "(game   Demo\n  (players White   Black)\n  {long_rule} (board (square 3)) \
             (equipment (piece Disc Each) (piece Cross Each) (piece Ring Each) (piece Dot Each)))\n"
        );
        let formatted = format_ludi(&text).expect("formats");
        assert_eq!(
            formatted,
            "(game Demo\n  (players White Black)\n  \
             (rules (play (add (to (empty)))) (end (line 5 win)))\n  (board (square 3))\n  \
             (equipment (piece Disc Each) (piece Cross Each) (piece Ring Each) (piece Dot Each)))\n"
        );
    }

    #[test]
    fn format_keeps_comments_on_their_lines() {
        let text = "; header\n\n\n(game Demo ; the name\n  ; before players\n  (players White Black) ; two\n)\n(x)";
        let formatted = format_ludi(text).expect("formats");
        assert_eq!(
            formatted,
            "; header\n\n(game Demo ; the name\n  ; before players\n  (players White Black) ; two\n)\n(x)\n"
        );
        assert_eq!(format_ludi(&formatted).as_deref(), Some(formatted.as_str()));
    }

    #[test]
    fn format_ends_a_comment_at_a_bare_carriage_return() {
        // The grammar ends a comment at `\r`: the second comment is on a line of its own, and
        // `\r\n` is one line break, not a blank line (a fuzz find of the `format` target).
        assert_eq!(
            format_ludi("; one\r; two\n(x)").as_deref(),
            Some("; one\n; two\n(x)\n")
        );
        assert_eq!(
            format_ludi("; one\r\n; two\r\n\r\n(x)").as_deref(),
            Some("; one\n; two\n\n(x)\n")
        );
    }

    #[test]
    fn format_leaves_strings_as_written() {
        let text = "(game \"Two  Spaces\" (players   White Black))";
        assert_eq!(
            format_ludi(text).as_deref(),
            Some("(game \"Two  Spaces\" (players White Black))\n")
        );
    }

    #[test]
    fn format_gives_nothing_for_a_broken_file() {
        assert_eq!(format_ludi("(game Demo (players White Black)"), None);
        assert_eq!(format_ludi("(game Demo))"), None);
        assert_eq!(
            format_ludi_range("(game Demo))", TextRange::new(0, 3)),
            None
        );
    }

    #[test]
    fn format_range_formats_only_the_forms_it_touches() {
        let text = "(a   b)\n\n(c   d)\n(e   f)\n";
        let (span, formatted) = format_ludi_range(text, TextRange::new(10, 11)).expect("an edit");
        assert_eq!(span, TextRange::new(9, 16));
        assert_eq!(formatted, "(c d)");
        assert_eq!(format_ludi_range("(a b)\n", TextRange::new(1, 1)), None);
    }
}
