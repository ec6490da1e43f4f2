//! `ludi/inapplicable`: a construct the game's board gives no meaning to: a rotation on
//! triangular cells (they have no headings to turn between) or a rotation forwards (no turn at
//! all), a cell phase no cell of the tiling has, a start symmetry the board does not have, the
//! diagonal adjacency `i-nbors` in an end condition on hexagonal cells (which have no diagonal
//! neighbours).

use crate::ludi::bind::{Node, Value};
use crate::ludi::model::{Board, Shape, Symmetry, Tiling};
use crate::ludi::schema::Kind;
use crate::rules::Rule;
use crate::{Diagnostic, Severity, TextRange};

use super::Context;

pub const INAPPLICABLE: Rule = Rule {
    code: "ludi/inapplicable",
    severity: Severity::Error,
    summary: "a construct this board gives no meaning to",
    explanation: "\
Some constructs only mean something on some boards. Pieces turn between the headings of their
tiling, and triangular cells have none; `(rotate f)` turns a piece forwards, which is no turn.
`(cell-phase N)` keeps the cells of phase N, and square and triangular cells have phases 0 and 1
only, hex and 4.8.8 cells 0 to 2. A start placement's `symmetric` needs a symmetry the board
has: `half-turn` fits square boards, hexagons and rhombuses, `reflect` square boards only (a
hex board mirrored across its middle row is not a hex board). Hexagonal cells have no diagonal
neighbours, so `i-nbors` in `connect`, `group` or `in-a-row` on them changes nothing.

    (board (tiling hex) (shape hex) (size 4))
    (start (place (Stone White) A1 (symmetric reflect Black)))   ; no mirror image on a hexagon

Fix: use the construct a board of this tiling and shape has (`half-turn` instead of
`reflect` on a hexagon, `(rotate l)` or `(rotate r)`, a phase the tiling has), or change the
board.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(tree), Some(game)) = (&context.bound.game, context.game) else {
        return;
    };
    let Some(board) = &game.board else { return };
    let mut report = |range: TextRange, message: String| {
        out.push(Diagnostic::new(&INAPPLICABLE, range, message));
    };
    tree.walk_args(&mut |parent, arg| {
        let Value::Node(node) = &arg.value else {
            return;
        };
        match node.name() {
            "rotate" => rotation(node, board, &mut report),
            "cell-phase" => phase(node, board, &mut report),
            "symmetric" => symmetry(node, board, &mut report),
            "i-nbors"
                if parent.ludeme().kind == Kind::EndCondition && board.tiling == Tiling::Hex =>
            {
                report(
                    node.range,
                    format!(
                        "hexagonal cells have no diagonal neighbours, so `i-nbors` changes nothing \
                         in `{}`: remove it (see docs/ludi.md#part-i-nbors)",
                        parent.name()
                    ),
                );
            }
            _ => {}
        }
    });
}

fn rotation(node: &Node, board: &Board, report: &mut impl FnMut(TextRange, String)) {
    if board.tiling == Tiling::Tri {
        report(
            node.range,
            "triangular cells have no headings for a piece to turn between: a rotation needs \
             square, hex or 4.8.8 cells (see docs/ludi.md#effect-rotate)"
                .to_owned(),
        );
    } else if let Some(turn) = node.child("turn")
        && turn.name() == "f"
    {
        report(
            turn.range,
            "a rotation forwards does not turn the piece: write `l`, `r` or `b` \
             (see docs/ludi.md#effect-rotate)"
                .to_owned(),
        );
    }
}

/// How many phases (colour classes) the cells of a tiling have, as the engine colours them.
fn phase_count(tiling: Tiling) -> i64 {
    match tiling {
        Tiling::Square | Tiling::Tri => 2,
        Tiling::Hex | Tiling::TruncSquare => 3,
    }
}

fn phase(node: &Node, board: &Board, report: &mut impl FnMut(TextRange, String)) {
    let Some(value) = node.value("phase") else {
        return;
    };
    let count = phase_count(board.tiling);
    if value.integer().is_some_and(|phase| phase >= count) {
        report(
            value.range(),
            format!(
                "no cell has this phase: {} cells have phases 0 to {} \
                 (see docs/ludi.md#part-cell-phase)",
                board.tiling.name(),
                count - 1
            ),
        );
    }
}

/// Whether a board has the symmetry: a half-turn maps square, hexagonal and rhombus boards onto
/// themselves (their lattices too); a reflection across the middle row only square cells'.
pub fn board_has(board: &Board, symmetry: Symmetry) -> bool {
    match symmetry {
        Symmetry::HalfTurn => {
            board.tiling != Tiling::Tri && !matches!(board.shape, Shape::Tri | Shape::Trapezium)
        }
        Symmetry::Reflect => matches!(board.tiling, Tiling::Square | Tiling::TruncSquare),
    }
}

fn symmetry(node: &Node, board: &Board, report: &mut impl FnMut(TextRange, String)) {
    let Some(written) = node.child("symmetry") else {
        return;
    };
    let Some(symmetry) = Symmetry::from_name(written.name()) else {
        return;
    };
    if !board_has(board, symmetry) {
        let shape = board.shape.name();
        let tiling = board.tiling.name();
        report(
            written.range,
            format!(
                "a {shape} board of {tiling} cells has no `{}` symmetry: its images of cells are \
                 not cells of the board (`half-turn` fits square boards, hexagons and rhombuses, \
                 `reflect` square boards) (see docs/ludi.md#part-symmetric)",
                symmetry.name()
            ),
        );
    }
}
