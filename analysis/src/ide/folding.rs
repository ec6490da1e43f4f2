//! Folding ranges, for every language: each form, rule or statement that spans several lines
//! folds, and so does each run of consecutive comment lines. A clean KIF file's come off the
//! fast reader's forms and a scan of its comments (a file of megabytes keeps no syntax tree);
//! every other file's off the syntax tree.

use crate::syntax::kif_forms::{FormKind, Forms, clean_kif_comment_ranges};
use crate::{Db, SourceFile, TextRange, kif_forms_read, parse};

/// The foldable ranges of `file`, outermost first.
pub fn folding_ranges(db: &dyn Db, file: SourceFile) -> Vec<TextRange> {
    let text = file.text(db);
    match kif_forms_read(db, file) {
        Some(forms) => clean_kif_folding_ranges(forms, text),
        None => tree_folding_ranges(parse(db, file).root(), text),
    }
}

/// What folds, read off the tree: its named nodes (the root aside) and its comments.
fn tree_folding_ranges(root: tree_sitter::Node<'_>, text: &str) -> Vec<TextRange> {
    let mut spans = Vec::new();
    let mut comments = Vec::new();
    let mut cursor = root.walk();
    // Depth-first over named nodes; the root itself never folds.
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        let children: Vec<_> = node.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
        if node.id() == root.id() || node.is_error() {
            continue;
        }
        let range = TextRange::new(node.start_byte(), node.end_byte());
        if node.is_extra() {
            comments.push(range);
        } else {
            spans.push(range);
        }
    }
    folds(spans, comments, text)
}

/// What folds, read off the forms of a clean KIF text: its lists and rules, and its comments.
fn clean_kif_folding_ranges(forms: &Forms, text: &str) -> Vec<TextRange> {
    let spans = forms
        .all()
        .iter()
        .filter(|form| matches!(form.kind, FormKind::List | FormKind::Rule))
        .map(|form| form.range)
        .collect();
    folds(spans, clean_kif_comment_ranges(text).collect(), text)
}

/// The folding ranges among `spans` (the file's items, any order) and `comments` (in source
/// order): every item on more than one line, and every run of comments on consecutive lines
/// that spans more than one line; sorted outermost first.
fn folds(spans: Vec<TextRange>, comments: Vec<TextRange>, text: &str) -> Vec<TextRange> {
    // Rows count `\n` only, as tree-sitter's do.
    let newlines: Vec<usize> = text
        .bytes()
        .enumerate()
        .filter(|&(_, byte)| byte == b'\n')
        .map(|(at, _)| at)
        .collect();
    let row = |offset: usize| newlines.partition_point(|&newline| newline < offset);
    let mut ranges: Vec<TextRange> = spans
        .into_iter()
        .filter(|span| row(span.end) > row(span.start))
        .collect();
    // (start byte, end byte, last row) of the run of comment lines being gathered.
    let mut run: Option<(usize, usize, usize)> = None;
    let close = |run: Option<(usize, usize, usize)>, ranges: &mut Vec<TextRange>| {
        if let Some((start, end, _)) = run
            && text.get(start..end).is_some_and(|run| run.contains('\n'))
        {
            ranges.push(TextRange::new(start, end));
        }
    };
    for comment in comments {
        let (start_row, end_row) = (row(comment.start), row(comment.end));
        run = match run {
            Some((start, _, last_row)) if start_row == last_row + 1 => {
                Some((start, comment.end, end_row))
            }
            previous => {
                close(previous, &mut ranges);
                Some((comment.start, comment.end, end_row))
            }
        };
    }
    close(run, &mut ranges);
    ranges.sort_by_key(|range| (range.start, std::cmp::Reverse(range.end)));
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every clean KIF game of the project's corpus (and of the shared corpus beside the clone,
    /// when there is one) folds the same from the fast reader's forms as from the tree.
    #[test]
    fn clean_kif_folds_the_same_from_forms_and_from_the_tree() {
        crate::test_files::compare_on_clean_kif_games(|path, text, forms, root| {
            assert_eq!(
                clean_kif_folding_ranges(forms, text),
                tree_folding_ranges(root, text),
                "{}",
                path.display()
            );
        });
    }
}
