//! The seed's random player: a legal move drawn uniformly.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::{Choice, Clock, Player, choice};
use crate::{Game, RoleIndex};

#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: SmallRng,
}

impl RandomPlayer {
    /// The same seed gives the same moves in the same states.
    pub fn new(seed: u64) -> Self {
        RandomPlayer {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Player<G> for RandomPlayer {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose_move(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        _clock: &mut Clock,
    ) -> Option<G::Move> {
        match choice(game, state, role) {
            Choice::Decided(only) => only,
            Choice::Open(mut moves) => {
                let pick = self.rng.random_range(0..moves.len());
                Some(moves.swap_remove(pick))
            }
        }
    }
}
