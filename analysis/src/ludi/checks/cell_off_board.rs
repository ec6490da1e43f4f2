//! `ludi/cell-off-board`: a cell name that is not on the board.

use crate::ludi::bind::Value;
use crate::ludi::model::CellName;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const CELL_OFF_BOARD: Rule = Rule {
    code: "ludi/cell-off-board",
    severity: Severity::Error,
    summary: "a cell name that is not on the board",
    explanation: "\
Cells are named by column letters and row number, `A1` being the first column of the first
row. On a square board of W×H cells the columns run A.. and the rows 1..H. Hex boards use
axial coordinates over their bounding parallelogram: on a hexagon of side n the columns and
rows run 1..2n−1 and a cell is on the board when its column and row differ by less than n
(A1 is a corner, E5 the centre of a side-5 hexagon). See docs/ludi.md, \"Cell names\".

    (board (tiling square) (size 4 4))
    (start (place (Stone Black) E5))     ; a 4×4 board ends at D4

Fix: name a cell of the board, or enlarge the board.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(tree), Some(board)) = (
        &context.bound.game,
        context.game.and_then(|g| g.board.as_ref()),
    ) else {
        return;
    };
    tree.walk_args(&mut |_, arg| {
        let Value::Cell { text, range } = &arg.value else { return };
        let on_board = CellName::parse(text).map(|cell| board.contains(cell));
        if matches!(on_board, Some(Some(false)) | None) {
            let size: Vec<String> = board.size.iter().map(u32::to_string).collect();
            let message = format!(
                "`{text}` is not a cell of this board (size {}): name a cell of the board (see docs/ludi.md#cell-names)",
                size.join("×")
            );
            out.push(Diagnostic::new(&CELL_OFF_BOARD, *range, message));
        }
    });
}
