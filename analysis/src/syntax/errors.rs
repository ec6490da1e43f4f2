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

fn collect(node: Node<'_>, text: &str, out: &mut Vec<Diagnostic>) {
    if node.is_missing() {
        out.push(missing_token(node, text));
    } else if node.is_error() {
        out.push(unexpected_input(node, text));
        // Missing tokens inside the skipped text are part of the same mistake.
    } else if node.has_error() {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            collect(child, text, out);
        }
    }
}

fn missing_token(node: Node<'_>, text: &str) -> Diagnostic {
    let token = node.kind();
    let at = insertion_point(node, text);
    let mut diagnostic = Diagnostic::new(
        &rules::MISSING_TOKEN,
        TextRange::empty(at),
        format!("missing `{token}`: insert it here"),
    );
    if let Some(opener) = node.parent().and_then(|parent| parent.child(0))
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
/// designer reads `(size 3 3 ; board size` as missing its `)` before the comment.
fn insertion_point(missing: Node<'_>, text: &str) -> usize {
    let mut gap_end = missing.start_byte();
    let mut previous = missing.prev_sibling();
    while let Some(node) = previous {
        let between = text.get(node.end_byte()..gap_end).unwrap_or("x");
        if !between.trim().is_empty() {
            break;
        }
        if !node.is_extra() {
            return node.end_byte();
        }
        gap_end = node.start_byte();
        previous = node.prev_sibling();
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
