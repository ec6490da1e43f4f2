//! Helpers shared by the analysis crate's integration tests: the engine-free ones of the root
//! `tests/support/games.rs` (where the games are, the exact odds of random tic-tac-toe), and
//! their bridge to the engine's playout statistics.
#![allow(dead_code)] // each test binary uses a different part

#[path = "../../../tests/support/games.rs"]
mod games;

pub use games::*;

use ludeme_engine::playout::PlayoutStats;

/// The figures of random tic-tac-toe playouts (the first role moves first; 100 is a win, 50 a
/// draw), for [`random_tic_tac_toe::assert_exact_odds`].
pub fn tic_tac_toe_odds(stats: &PlayoutStats) -> random_tic_tac_toe::Observed {
    random_tic_tac_toe::Observed {
        games: stats.completed,
        x_wins: stats.frequency(0, 100),
        o_wins: stats.frequency(1, 100),
        draws: stats.frequency(0, 50),
        plies: stats.average_plies(),
    }
}
