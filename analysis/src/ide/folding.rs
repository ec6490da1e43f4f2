//! Folding ranges from the syntax tree, for every language: each form, rule or statement that
//! spans several lines folds, and so does each run of consecutive comment lines.

use crate::{Db, SourceFile, TextRange, parse};

/// The foldable ranges of `file`, outermost first.
pub fn folding_ranges(db: &dyn Db, file: SourceFile) -> Vec<TextRange> {
    let parse = parse(db, file);
    let mut ranges = Vec::new();
    let mut cursor = parse.root().walk();
    let mut comment_run: Option<(usize, usize, usize)> = None; // (start byte, end byte, last row)
    // Depth-first over named nodes; the root itself never folds.
    let mut stack = vec![parse.root()];
    while let Some(node) = stack.pop() {
        let children: Vec<_> = node.named_children(&mut cursor).collect();
        for child in children.iter().rev() {
            stack.push(*child);
        }
        if node.id() == parse.root().id() || node.is_error() {
            continue;
        }
        let (start_row, end_row) = (node.start_position().row, node.end_position().row);
        if node.is_extra() {
            // Consecutive comment lines fold together.
            comment_run = match comment_run {
                Some((start, _, last_row)) if start_row == last_row + 1 => {
                    Some((start, node.end_byte(), end_row))
                }
                previous => {
                    push_run(previous, &mut ranges, db, file);
                    Some((node.start_byte(), node.end_byte(), end_row))
                }
            };
        } else if end_row > start_row {
            ranges.push(TextRange::new(node.start_byte(), node.end_byte()));
        }
    }
    push_run(comment_run, &mut ranges, db, file);
    ranges.sort_by_key(|range| (range.start, std::cmp::Reverse(range.end)));
    ranges
}

fn push_run(
    run: Option<(usize, usize, usize)>,
    ranges: &mut Vec<TextRange>,
    db: &dyn Db,
    file: SourceFile,
) {
    if let Some((start, end, _)) = run {
        let text = file.text(db);
        if text.get(start..end).is_some_and(|run| run.contains('\n')) {
            ranges.push(TextRange::new(start, end));
        }
    }
}
