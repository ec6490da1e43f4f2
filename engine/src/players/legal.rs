//! The seed's legal player: the first legal move, without thought.

use super::{Choice, Clock, Player, choice};
use crate::{Game, RoleIndex};

#[derive(Clone, Copy, Debug, Default)]
pub struct LegalPlayer;

impl<G: Game> Player<G> for LegalPlayer {
    fn name(&self) -> &'static str {
        "legal"
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
            Choice::Open(mut moves) => Some(moves.swap_remove(0)),
        }
    }
}
