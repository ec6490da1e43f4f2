//! `ludi/size-mismatch`: a board's size that does not fit its shape.

use crate::ludi::schema;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;
use super::context::see;

pub const SIZE_MISMATCH: Rule = Rule {
    code: "ludi/size-mismatch",
    severity: Severity::Error,
    summary: "a board's size has more or fewer dimensions than its shape takes",
    explanation: "\
How many numbers `size` takes depends on the board's shape (the tiling's own shape when
`shape` is absent): a hexagon, a triangle or a boardless surface one (the side, or the
largest extent); a square board one (N×N), two (W×H) or three (W×H×D, layers); a rhombus one
or two; a trapezium two (the first row's length and the number of rows).

    (board (tiling hex) (shape hex) (size 5 5))   ; a hexagon has one side: (size 5)
    (board (tiling hex) (shape trapezium) (size 7)) ; a trapezium needs (size W H)

Fix: give the shape the number of sizes it takes.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(board) = context.game.and_then(|game| game.board.as_ref()) else {
        return;
    };
    let Some(range) = board.size_range else {
        return;
    };
    let (min, max) = board.shape.dimensions();
    let given = board.size.len();
    if given == 0 || (min..=max).contains(&given) {
        return;
    }
    let takes = if min == max {
        format!("{min}")
    } else {
        format!("{min} to {max}")
    };
    let shape_name = board.shape.name();
    let implicit = if board.shape_written {
        ""
    } else {
        " (the tiling's own shape, as `shape` is absent)"
    };
    let shape_entry = schema::named(shape_name).find(|l| l.kind == schema::Kind::Shape);
    let message = format!(
        "a {shape_name} board{implicit} takes {takes} size{}, but {given} {} given: {}",
        if max == 1 { "" } else { "s" },
        if given == 1 { "is" } else { "are" },
        shape_entry.map_or_else(|| "see docs/ludi.md".to_owned(), see),
    );
    out.push(Diagnostic::new(&SIZE_MISMATCH, range, message));
}
