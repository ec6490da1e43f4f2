//! Syntax diagnostics: each ERROR node and each MISSING token of the tree becomes one diagnostic
//! with a precise range and a message that says what to do.

use tree_sitter::Node;

use super::Parse;
use crate::{Diagnostic, TextRange, rules};

/// How much of the offending text a message quotes.
const QUOTE_LIMIT: usize = 32;

pub fn syntax_diagnostics_of(parse: &Parse, text: &str) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let root = parse.root();
    if root.has_error() {
        collect(root, text, &mut diagnostics);
    }
    diagnostics
}

/// The children of one node met so far by [`collect`]'s walk.
struct Siblings<'t> {
    /// The node's first child: the `(` a missing `)` among them closes.
    first: Node<'t>,
    /// The children visited so far, from the last one that is not an extra (a comment).
    since_last_token: Vec<Node<'t>>,
}

/// Walks the tree with one cursor, without recursion (a file may nest as deep as its author
/// likes) and without asking nodes for their parent or siblings (which tree-sitter finds by
/// descending from the root, in time, and for missing nodes in C stack, proportional to the
/// depth): what a missing token's message needs of its neighbours is kept on the way down.
fn collect(root: Node<'_>, text: &str, out: &mut Vec<Diagnostic>) {
    let mut cursor = root.walk();
    let mut levels: Vec<Siblings<'_>> = Vec::new();
    loop {
        let node = cursor.node();
        let mut descend = false;
        if node.is_missing() {
            let (opener, previous) = match levels.last() {
                Some(level) => (Some(level.first), level.since_last_token.as_slice()),
                None => (None, &[][..]),
            };
            out.push(missing_token(node, opener, previous, text));
        } else if node.is_error() {
            out.push(unexpected_input(node, text));
            // Missing tokens inside the skipped text are part of the same mistake.
        } else {
            descend = node.has_error();
        }
        if let Some(level) = levels.last_mut() {
            if !node.is_extra() {
                level.since_last_token.clear();
            }
            level.since_last_token.push(node);
        }
        if descend && cursor.goto_first_child() {
            levels.push(Siblings {
                first: cursor.node(),
                since_last_token: Vec::new(),
            });
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
            levels.pop();
        }
    }
}

/// The diagnostic of the missing token `node`, the first child of its parent being `opener`
/// and its previous siblings back to the last one that is not an extra being `previous`.
fn missing_token(
    node: Node<'_>,
    opener: Option<Node<'_>>,
    previous: &[Node<'_>],
    text: &str,
) -> Diagnostic {
    let token = node.kind();
    let at = insertion_point(node, previous, text);
    let mut diagnostic = Diagnostic::new(
        &rules::MISSING_TOKEN,
        TextRange::empty(at),
        format!("missing `{token}`: insert it here"),
    );
    if let Some(opener) = opener
        && let Some(open) = matching_opener(token)
        && opener.kind() == open
    {
        let line = opener.start_position().row + 1;
        diagnostic.message = format!("missing `{token}` to close the `{open}` on line {line}");
        diagnostic = diagnostic.with_label(
            TextRange::new(opener.start_byte(), opener.end_byte()),
            format!("this `{open}` is never closed"),
        );
    }
    diagnostic
}

/// Where a missing token belongs: right after the last real token before it when only blank
/// space and comments lie in between. Tree-sitter puts the missing node after them, but a
/// designer reads `(size 3 3 ; board size` as missing its `)` before the comment. `previous`
/// are the siblings before it, from the last real token on.
fn insertion_point(missing: Node<'_>, previous: &[Node<'_>], text: &str) -> usize {
    let mut gap_end = missing.start_byte();
    for node in previous.iter().rev() {
        let between = text.get(node.end_byte()..gap_end).unwrap_or("x");
        if !between.trim().is_empty() {
            break;
        }
        if !node.is_extra() {
            return node.end_byte();
        }
        gap_end = node.start_byte();
    }
    missing.start_byte()
}

fn matching_opener(closer: &str) -> Option<&'static str> {
    match closer {
        ")" => Some("("),
        "]" => Some("["),
        "}" => Some("{"),
        "\"" => Some("\""),
        _ => None,
    }
}

fn unexpected_input(node: Node<'_>, text: &str) -> Diagnostic {
    let range = TextRange::new(node.start_byte(), node.end_byte());
    let skipped = text.get(range.start..range.end).unwrap_or_default().trim();
    let message = match skipped {
        "" => "syntax error: the text here does not fit the grammar".to_owned(),
        ")" => "unexpected `)`: it closes no open `(`; delete it or add the missing `(`".to_owned(),
        "]" => "unexpected `]`: it closes no open `[`; delete it or add the missing `[`".to_owned(),
        _ => format!(
            "syntax error: unexpected `{}`; correct or delete it",
            quote(skipped)
        ),
    };
    Diagnostic::new(&rules::SYNTAX_ERROR, range, message)
}

/// The first line of `text`, shortened to [`QUOTE_LIMIT`] characters.
fn quote(text: &str) -> String {
    let first_line = text.lines().next().unwrap_or_default().trim_end();
    let mut quoted: String = first_line.chars().take(QUOTE_LIMIT).collect();
    if quoted.len() < text.trim_end().len() {
        quoted.push('…');
    }
    quoted
}
