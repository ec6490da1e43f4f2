//! Random playouts. Games of the seed's default kind (see `Traits::plain_placement`: place a
//! piece on an empty cell, end by lines) run in a loop that never allocates: owners in a fixed
//! array, an incremental list of the empty cells (a random pick is swapped out of it), and line
//! lengths measured only through the cell just filled, since lines only grow. Other games step
//! through the `Game` methods.

use rand::{Rng, RngExt};

use super::board::{CellIndex, NO_CELL};
use super::state::LudiState;
use super::{EndCondition, LudiGame, MAX_LENGTH};
use crate::playout::{Playout, PlayoutEnd, step_by_step_playout};

/// The largest board the allocation-free loop handles (its arrays live on the stack).
const FAST_CELLS: usize = 512;
const FAST_PLAYERS: usize = 8;
const EMPTY: u8 = u8::MAX;

impl LudiGame {
    pub(crate) fn fast_playout<R: Rng + ?Sized>(
        &self,
        state: &LudiState,
        rng: &mut R,
        max_plies: usize,
    ) -> Playout {
        let players = self.description.players.len();
        let cells = self.board.cell_count();
        if !self.traits.plain_placement
            || cells > FAST_CELLS
            || players > FAST_PLAYERS
            || !state.buried.is_empty()
        {
            return step_by_step_playout(self, state, rng, max_plies);
        }
        let mut owners = [EMPTY; FAST_CELLS];
        let mut empties = [0 as CellIndex; FAST_CELLS];
        let mut empty_count = 0;
        for (cell, piece) in state.top.iter().enumerate() {
            if piece.is_empty() {
                empties[empty_count] = cell as CellIndex;
                empty_count += 1;
            } else {
                owners[cell] = piece.owner;
            }
        }
        let mut longest = [0u8; FAST_PLAYERS];
        longest[..players].copy_from_slice(&state.longest_run[..players]);
        let mut mover = state.mover();
        let mut plies_made = state.plies();
        let mut plies = 0;
        let mut goals = state.result.as_ref().map(|g| g.to_vec());
        while goals.is_none() {
            if plies >= max_plies {
                return Playout {
                    plies,
                    end: PlayoutEnd::PlyLimit,
                    goals: None,
                    ambiguous_goals: false,
                };
            }
            if empty_count == 0 {
                // Only reachable from a state handed in as it was: the mover passes (every
                // other player is as stuck, so `settle` would have ended the game already).
                goals = Some(vec![50; players]);
                break;
            }
            let pick = rng.random_range(0..empty_count);
            let cell = empties[pick];
            empty_count -= 1;
            empties[pick] = empties[empty_count];
            owners[usize::from(cell)] = mover as u8;
            let run = self.fast_run(&owners, cell, mover as u8);
            longest[mover] = longest[mover].max(run);
            plies += 1;
            plies_made += 1;
            let next_has_move = empty_count > 0;
            let next = (mover + 1) % players;
            let mut decided = [None; FAST_PLAYERS];
            for (player, slot) in decided.iter_mut().enumerate().take(players) {
                *slot = self
                    .description
                    .end
                    .iter()
                    .filter(|clause| clause.player.is_none_or(|p| p == player))
                    .find(|clause| {
                        lines_hold(
                            &clause.condition,
                            longest[player],
                            player == next && !next_has_move,
                        )
                    })
                    .map(|clause| clause.result);
            }
            goals = super::end::combine(&decided[..players], mover, self.description.tie);
            if goals.is_none() && (!next_has_move || plies_made >= usize::from(MAX_LENGTH)) {
                goals = Some(vec![50; players]);
            }
            mover = next;
        }
        Playout {
            plies,
            end: PlayoutEnd::Terminal,
            goals,
            ambiguous_goals: false,
        }
    }

    /// The longest line of `owner` through `cell`, on the owners array.
    #[inline]
    fn fast_run(&self, owners: &[u8; FAST_CELLS], cell: CellIndex, owner: u8) -> u8 {
        let mut best = 1;
        for &(forward, backward) in self.board.axes() {
            let mut run = 1;
            for d in [forward, backward] {
                let mut at = self.board.neighbour(cell, d);
                while at != NO_CELL && owners[usize::from(at)] == owner {
                    run += 1;
                    at = self.board.neighbour(at, d);
                }
            }
            best = best.max(run);
        }
        best.min(usize::from(u8::MAX)) as u8
    }
}

/// An end condition of lines and `no-move` only, for one player.
fn lines_hold(condition: &EndCondition, longest: u8, stuck: bool) -> bool {
    match condition {
        EndCondition::And(parts) => parts.iter().all(|c| lines_hold(c, longest, stuck)),
        EndCondition::Or(parts) => parts.iter().any(|c| lines_hold(c, longest, stuck)),
        EndCondition::Not(inner) => !lines_hold(inner, longest, stuck),
        EndCondition::InARow { length, .. } => i64::from(longest) >= *length,
        EndCondition::NoMove => stuck,
        _ => false,
    }
}
