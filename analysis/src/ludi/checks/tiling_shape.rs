//! `ludi/unsupported-shape`: a board shape the tiling cannot be cut to.

use crate::ludi::model::Shape;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;
use super::context::alternatives;

pub const UNSUPPORTED_SHAPE: Rule = Rule {
    code: "ludi/unsupported-shape",
    severity: Severity::Error,
    summary: "a board shape that the tiling cannot be cut to",
    explanation: "\
Square and 4.8.8 (trunc-square) tilings make square (rectangular) boards or boardless
surfaces; hex and tri tilings make hexagons, triangles, rhombi, trapezia and boardless
surfaces, but not squares.

    (board (tiling square) (shape hex) (size 5))   ; squares do not make a hexagon

Fix: choose a shape the tiling makes, or change the tiling (a hexagonal board of hexagons is
`(tiling hex) (shape hex)`).",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(board) = context.game.and_then(|game| game.board.as_ref()) else {
        return;
    };
    if board.shape.fits(board.tiling) {
        return;
    }
    let shapes: Vec<&str> = Shape::fitting(board.tiling).map(Shape::name).collect();
    let message = format!(
        "a {} tiling cannot make a {} board: choose a shape it makes ({}) (see docs/ludi.md#part-shape, e.g. `(shape hex)`)",
        board.tiling.name(),
        board.shape.name(),
        alternatives(&shapes)
    );
    out.push(Diagnostic::new(
        &UNSUPPORTED_SHAPE,
        board.shape_range,
        message,
    ));
}
