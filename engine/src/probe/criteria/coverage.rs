//! Criteria of the board's cells, from `board_cells` and `cells_used`: the cells of the board
//! as the engine draws it, and how many of them held a piece at some point of a game.

use super::{Trials, mean};

/// Board coverage (Ludii `boardCoverage/BoardCoverageDefault`): `mean_g (cells used / cells)`
/// over the games played on a board, where a cell is used when a piece stood on it in some
/// position of the game, the initial one included. A game whose pieces stay on a corner of a
/// large board scores low; one that fills its board scores 1. `None` for games without a board
/// (a GDL game whose fluents hold none the engine recognises).
pub fn board_coverage(trials: &Trials) -> Option<f64> {
    mean(
        trials
            .histories
            .iter()
            .filter(|h| h.board_cells > 0)
            .map(|h| h.cells_used as f64 / h.board_cells as f64),
    )
}
