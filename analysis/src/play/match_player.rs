//! Playing one match move after move: a player kept for the whole match, so that what it
//! learnt about one position serves the next (MCTS keeps its search tree), and the atoms of a
//! position for match records.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ludeme_engine::notation::{Notation, named_moves};
use ludeme_engine::opponent_model::{Observe, model_guides};
use ludeme_engine::players::{Clock, KeptTreeMcts, Player, player_by_name};

use super::{EngineState, OTHER_GAME, PLAYER_NAMES, PlayableGame, Position, unknown_player};
use crate::opponent_model::OpponentModels;
use crate::play::MoveBudget;
use ludeme_engine::RoleIndex;

/// A player for one role in one match of one [`PlayableGame`] (see
/// [`PlayableGame::match_player`]). MCTS keeps its search tree from move to move: each decision
/// starts from the subtree of the position the match reached, with its visits. The other
/// players remember nothing and are made afresh for each move, as [`PlayableGame::choose_move`]
/// makes them. With [`OpponentModels`], the searching players order and prune the modelled
/// roles' moves as in [`PlayableGame::play_match_with_models`].
pub struct MatchPlayer {
    name: String,
    seed: u64,
    /// Decisions taken so far: the players made afresh for each move draw from `seed` mixed
    /// with it, or a random player would make the same draw at every move.
    decisions: u64,
    kept: Option<KeptTree>,
    /// The models the searches are guided by: the same for every decision of the match, as the
    /// kept tree's nodes were pruned by them.
    models: Option<OpponentModels>,
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
        self.match_player_guided(player, seed, None)
    }

    /// [`PlayableGame::match_player`] whose searches are guided by `models` (made for this
    /// game by [`PlayableGame::opponent_models`]); the legal and random players play as without
    /// them.
    pub fn match_player_with_models(
        &self,
        player: &str,
        seed: u64,
        models: &OpponentModels,
    ) -> Result<MatchPlayer, String> {
        self.match_player_guided(player, seed, Some(models.clone()))
    }

    fn match_player_guided(
        &self,
        player: &str,
        seed: u64,
        models: Option<OpponentModels>,
    ) -> Result<MatchPlayer, String> {
        if !PLAYER_NAMES.contains(&player) {
            return Err(unknown_player(player));
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
            // A player that does not search plays as without them.
            models: models.filter(|_| model_guides(player)),
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
            // The stop flag matters to these players too: the start clock's search, or one that
            // outlived its answer, holds the match's seat until it ends, and the next message
            // waits for the seat before it can even find a legal move.
            let models = self.models.as_ref();
            return game.choose_move_guided(position, role, &self.name, budget, seed, models, stop);
        };
        game.check_role(role)?;
        let models = self.models.as_ref();
        match (game, &position.0, kept) {
            (PlayableGame::Gdl(game), EngineState::Gdl(state), KeptTree::Gdl(player)) => {
                choose_kept(game, state, role, player, models, budget, stop)
            }
            (PlayableGame::Ludi(game), EngineState::Ludi(state), KeptTree::Ludi(player)) => {
                choose_kept(&**game, state, role, player, models, budget, stop)
            }
            (PlayableGame::Egg(game), EngineState::Egg(state), KeptTree::Egg(player)) => {
                choose_kept(&**game, state, role, player, models, budget, stop)
            }
            _ => Err(OTHER_GAME.to_owned()),
        }
    }

    /// Whether opponent models guide this player's searches (they were given, and it is a
    /// player that searches).
    pub fn is_guided(&self) -> bool {
        self.models.is_some()
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

impl PlayableGame {
    /// [`PlayableGame::choose_move`] with the searching players guided by `models` (made for
    /// this game by [`PlayableGame::opponent_models`]) when there are some, stopped early
    /// when `stop` is set.
    #[allow(clippy::too_many_arguments)] // each is one of the move's conditions
    pub(crate) fn choose_move_guided(
        &self,
        position: &Position,
        role: RoleIndex,
        player: &str,
        budget: &MoveBudget,
        seed: u64,
        models: Option<&OpponentModels>,
        stop: Option<Arc<AtomicBool>>,
    ) -> Result<String, String> {
        self.check_role(role)?;
        let unknown = || unknown_player(player);
        match (self, &position.0) {
            (PlayableGame::Gdl(game), EngineState::Gdl(state)) => {
                let mut chosen = fresh_player(models, player, seed).ok_or_else(unknown)?;
                choose_named(game, state, role, &mut *chosen, budget, stop)
            }
            (PlayableGame::Ludi(game), EngineState::Ludi(state)) => {
                let mut chosen = fresh_player(models, player, seed).ok_or_else(unknown)?;
                choose_named(&**game, state, role, &mut *chosen, budget, stop)
            }
            (PlayableGame::Egg(game), EngineState::Egg(state)) => {
                let mut chosen = match models {
                    Some(models) => models.egg_player(player, seed, game),
                    None => player_by_name(player, seed),
                }
                .ok_or_else(unknown)?;
                choose_named(&**game, state, role, &mut *chosen, budget, stop)
            }
            _ => Err(OTHER_GAME.to_owned()),
        }
    }
}

/// The player `name` names, made for one move, guided by `models` when there are some.
fn fresh_player<G: Observe>(
    models: Option<&OpponentModels>,
    name: &str,
    seed: u64,
) -> Option<Box<dyn Player<G>>> {
    match models {
        Some(models) => models.player(name, seed),
        None => player_by_name(name, seed),
    }
}

/// The kept-tree MCTS's move for `role` in `state`, guided by `models` when there are some.
fn choose_kept<G: Notation + Observe>(
    game: &G,
    state: &G::State,
    role: RoleIndex,
    player: &mut KeptTreeMcts<G>,
    models: Option<&OpponentModels>,
    budget: &MoveBudget,
    stop: Option<Arc<AtomicBool>>,
) -> Result<String, String> {
    let Some(models) = models else {
        return choose_named(game, state, role, player, budget, stop);
    };
    choose_named_by(game, state, role, budget, stop, |clock| {
        player.choose_move_with_model(game, state, role, clock, models.guidance())
    })
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
    choose_named_by(game, state, role, budget, stop, |clock| {
        player.choose_move(game, state, role, clock)
    })
}

/// The move `choose` makes for `role` in `state` on a clock of `budget` (stopped early when
/// `stop` is set), by the name the engines give it.
fn choose_named_by<G: Notation>(
    game: &G,
    state: &G::State,
    role: RoleIndex,
    budget: &MoveBudget,
    stop: Option<Arc<AtomicBool>>,
    choose: impl FnOnce(&mut Clock) -> Option<G::Move>,
) -> Result<String, String> {
    if game.is_terminal(state) {
        return Err("the game is over".to_owned());
    }
    let mut clock = Clock::start(budget);
    if let Some(stop) = stop {
        clock = clock.with_cancel(stop);
    }
    let chosen = choose(&mut clock);
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
