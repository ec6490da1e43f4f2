//! Playing one match move after move: a player kept for the whole match, so that what it
//! learnt about one position serves the next (MCTS keeps its search tree), and the atoms of a
//! position for match records.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ludeme_engine::notation::{Notation, named_moves};
use ludeme_engine::opponent_model::Observe;
use ludeme_engine::players::{Clock, KeptTreeMcts, Player};

use super::{EngineState, OTHER_GAME, PLAYER_NAMES, PlayableGame, Position};
use crate::play::MoveBudget;
use ludeme_engine::RoleIndex;

/// A player for one role in one match of one [`PlayableGame`] (see
/// [`PlayableGame::match_player`]). MCTS keeps its search tree from move to move: each decision
/// starts from the subtree of the position the match reached, with its visits. The other
/// players remember nothing and are made afresh for each move, as [`PlayableGame::choose_move`]
/// makes them.
pub struct MatchPlayer {
    name: String,
    seed: u64,
    /// Decisions taken so far: the players made afresh for each move draw from `seed` mixed
    /// with it, or a random player would make the same draw at every move.
    decisions: u64,
    kept: Option<KeptTree>,
}

/// An MCTS player with its tree, on the engine of the match's game.
enum KeptTree {
    Gdl(KeptTreeMcts<ludeme_engine::gdl::Reasoner>),
    Ludi(KeptTreeMcts<ludeme_engine::ludi::LudiGame>),
    Egg(KeptTreeMcts<ludeme_engine::egg::EggEngine>),
}

impl PlayableGame {
    /// A player (one of [`PLAYER_NAMES`]) for one role through one match of this game; `seed`
    /// makes the random players repeatable.
    pub fn match_player(&self, player: &str, seed: u64) -> Result<MatchPlayer, String> {
        if !PLAYER_NAMES.contains(&player) {
            return Err(format!(
                "no player is called `{player}`; the players are {}",
                PLAYER_NAMES.join(", ")
            ));
        }
        let kept = (player == "mcts").then(|| match self {
            PlayableGame::Gdl(_) => KeptTree::Gdl(KeptTreeMcts::new(seed)),
            PlayableGame::Ludi(_) => KeptTree::Ludi(KeptTreeMcts::new(seed)),
            PlayableGame::Egg(_) => KeptTree::Egg(KeptTreeMcts::new(seed)),
        });
        Ok(MatchPlayer {
            name: player.to_owned(),
            seed,
            decisions: 0,
            kept,
        })
    }

    /// What holds in `position`, as text, sorted: a GDL game's fluents in KIF (`(cell 1 1 x)`),
    /// a Ludi or EGGG game's cell contents and notes (what the opponent model observes).
    pub fn atoms(&self, position: &Position) -> Vec<String> {
        match (self, &position.0) {
            (PlayableGame::Gdl(game), EngineState::Gdl(state)) => game.atoms(state),
            (PlayableGame::Ludi(game), EngineState::Ludi(state)) => game.atoms(state),
            (PlayableGame::Egg(game), EngineState::Egg(state)) => game.atoms(state),
            _ => vec![OTHER_GAME.to_owned()],
        }
    }
}

impl MatchPlayer {
    /// The move this player chooses for `role` in `position` of `game` (the game it was made
    /// for) within `budget`, by name; an error says why there is none. MCTS also stops when
    /// `stop` is set (by another thread: a new message of the match has come).
    pub fn choose_move(
        &mut self,
        game: &PlayableGame,
        position: &Position,
        role: RoleIndex,
        budget: &MoveBudget,
        stop: Option<Arc<AtomicBool>>,
    ) -> Result<String, String> {
        let Some(kept) = &mut self.kept else {
            let seed = self.seed ^ self.decisions;
            self.decisions += 1;
            return game.choose_move(position, role, &self.name, budget, seed);
        };
        if role >= game.roles().len() {
            return Err(format!(
                "the game has {} role(s); there is no role {role}",
                game.roles().len()
            ));
        }
        match (game, &position.0, kept) {
            (PlayableGame::Gdl(game), EngineState::Gdl(state), KeptTree::Gdl(player)) => {
                choose_named(game, state, role, player, budget, stop)
            }
            (PlayableGame::Ludi(game), EngineState::Ludi(state), KeptTree::Ludi(player)) => {
                choose_named(&**game, state, role, player, budget, stop)
            }
            (PlayableGame::Egg(game), EngineState::Egg(state), KeptTree::Egg(player)) => {
                choose_named(&**game, state, role, player, budget, stop)
            }
            _ => Err(OTHER_GAME.to_owned()),
        }
    }

    /// The visits the root of the last decision already had when the search began: those of
    /// the subtree kept from the decision before (0 for a fresh tree, and for players that keep
    /// none).
    pub fn reused_visits(&self) -> u32 {
        match &self.kept {
            Some(KeptTree::Gdl(player)) => player.reused_visits(),
            Some(KeptTree::Ludi(player)) => player.reused_visits(),
            Some(KeptTree::Egg(player)) => player.reused_visits(),
            None => 0,
        }
    }

    /// The visits of the last decision's root once its search ended (0 for players that keep
    /// no tree).
    pub fn root_visits(&self) -> u32 {
        match &self.kept {
            Some(KeptTree::Gdl(player)) => player.root_visits(0).0,
            Some(KeptTree::Ludi(player)) => player.root_visits(0).0,
            Some(KeptTree::Egg(player)) => player.root_visits(0).0,
            None => 0,
        }
    }
}

/// `player`'s move for `role` in `state`, by the name the engines give it.
pub(super) fn choose_named<G: Notation>(
    game: &G,
    state: &G::State,
    role: RoleIndex,
    player: &mut dyn Player<G>,
    budget: &MoveBudget,
    stop: Option<Arc<AtomicBool>>,
) -> Result<String, String> {
    if game.is_terminal(state) {
        return Err("the game is over".to_owned());
    }
    let mut clock = Clock::start(budget);
    if let Some(stop) = stop {
        clock = clock.with_cancel(stop);
    }
    let chosen = player.choose_move(game, state, role, &mut clock);
    if let Some(failure) = game.failure() {
        return Err(failure);
    }
    let Some(chosen) = chosen else {
        return Err(format!("{} has no legal move", game.roles()[role]));
    };
    named_moves(game, state, role)
        .into_iter()
        .find(|(_, action)| action == &chosen)
        .map(|(name, _)| name)
        .ok_or_else(|| format!("the player of {} chose no legal move", game.roles()[role]))
}
