//! Searching with a model of the opponent: alpha-beta that, at the modelled player's nodes,
//! tries its moves in the model's order and looks only at the smallest set of its most probable
//! moves whose posterior probabilities add up to a confidence `p` (the seed's confidence idea:
//! keep the opponent's real move with probability `p`, and spend the nodes saved on depth).
//!
//! The guidance is a [`Heuristic`] whose [`Heuristic::select`] does the ordering and pruning,
//! so the search itself is the players' one ([`SearchPlayer`]).

use std::cell::Cell;
use std::rc::Rc;

use super::evaluate::moves_reaching;
use super::{FeatureSet, MoveModel, Observe};
use crate::players::{Clock, Heuristic, Mcts, MovePrior, NEUTRAL, Player, SearchPlayer};
use crate::{Reward, RoleIndex};

/// A trained model of one player and the features it was trained on.
#[derive(Clone, Debug)]
pub struct PlayerModel {
    pub features: FeatureSet,
    pub model: MoveModel,
}

/// How much the guidance pruned: over the modelled players' nodes with a choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PruningCounts {
    /// Nodes of a modelled player with two or more legal moves.
    pub nodes: u64,
    /// Their legal moves, all together.
    pub legal: u64,
    /// The moves kept for the search, all together.
    pub kept: u64,
}

/// The [`Heuristic`] of a search that knows how some roles play: per role, a model or none.
#[derive(Debug)]
pub struct ModelGuidance {
    /// Indexed by role; a role without a model is searched over all its moves, in the engine's
    /// order.
    models: Vec<Option<PlayerModel>>,
    confidence: f64,
    counts: Cell<PruningCounts>,
}

impl ModelGuidance {
    /// Guidance by `models` (indexed by role) keeping, at a modelled role's node, the fewest
    /// most probable moves whose probabilities reach `confidence` (clamped to 0..=1: 0 keeps
    /// only the most probable; 1 keeps every legal move, so that the model only orders them —
    /// naive Bayes posteriors of 1e-12 would otherwise be dropped as "reaching" 1).
    pub fn new(models: Vec<Option<PlayerModel>>, confidence: f64) -> Self {
        ModelGuidance {
            models,
            confidence: confidence.clamp(0.0, 1.0),
            counts: Cell::new(PruningCounts::default()),
        }
    }

    /// What the guidance pruned since it was made.
    pub fn counts(&self) -> PruningCounts {
        self.counts.get()
    }

    /// The moves to search, as indices into `legal` (the legal moves' names) in the order to
    /// try them, for a state whose atoms are `atoms`; `None` when `role` has no model.
    pub fn kept_moves(
        &self,
        role: RoleIndex,
        atoms: &[String],
        legal: &[String],
    ) -> Option<Vec<usize>> {
        let player = self.models.get(role)?.as_ref()?;
        let row = player.features.features(atoms, legal);
        let ranked = player.model.rank_with_probabilities(&row, legal);
        let cumulative: Vec<f64> = ranked
            .iter()
            .scan(0.0, |sum, &(_, probability)| {
                *sum += probability;
                Some(*sum)
            })
            .collect();
        let keep = if self.confidence >= 1.0 {
            legal.len()
        } else {
            moves_reaching(&cumulative, self.confidence).max(1)
        };
        Some(ranked.into_iter().take(keep).map(|(i, _)| i).collect())
    }
}

impl<G: Observe> Heuristic<G> for ModelGuidance {
    /// The model says nothing about who is winning: cut-off states are even, as without it.
    fn value(&self, _game: &G, _state: &G::State, _role: RoleIndex) -> Reward {
        NEUTRAL
    }

    fn select(&self, game: &G, state: &G::State, role: RoleIndex, moves: &mut Vec<G::Move>) {
        if moves.len() < 2 || self.models.get(role).is_none_or(Option::is_none) {
            return;
        }
        let atoms = game.atoms(state);
        let names: Vec<String> = moves
            .iter()
            .map(|action| game.move_text(state, role, action))
            .collect();
        let Some(kept) = self.kept_moves(role, &atoms, &names) else {
            return;
        };
        let mut counts = self.counts.get();
        counts.nodes += 1;
        counts.legal += moves.len() as u64;
        counts.kept += kept.len() as u64;
        self.counts.set(counts);
        let mut slots: Vec<Option<G::Move>> = moves.drain(..).map(Some).collect();
        moves.extend(kept.into_iter().filter_map(|index| slots[index].take()));
    }
}

impl<G: Observe> MovePrior<G> for ModelGuidance {
    /// The model's probability of each legal move of a modelled role (MCTS's progressive bias;
    /// the confidence, which prunes alpha-beta's tree, plays no part).
    fn prior(
        &self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        moves: &[G::Move],
    ) -> Option<Vec<f64>> {
        let player = self.models.get(role)?.as_ref()?;
        let names: Vec<String> = moves
            .iter()
            .map(|action| game.move_text(state, role, action))
            .collect();
        let row = player.features.features(&game.atoms(state), &names);
        let mut probabilities = vec![0.0; moves.len()];
        for (index, probability) in player.model.rank_with_probabilities(&row, &names) {
            probabilities[index] = probability;
        }
        Some(probabilities)
    }
}

/// MCTS whose tree takes the modelled roles' moves most probable first, with the model's
/// probabilities as a fading bias (the players' MCTS, with a [`MovePrior`]).
#[derive(Clone, Debug)]
pub struct ModelledMctsPlayer {
    search: Mcts,
    guidance: Rc<ModelGuidance>,
}

impl ModelledMctsPlayer {
    pub const NAME: &'static str = "mcts+model";

    /// With `seed`, the same as [`Mcts::new`]'s.
    pub fn new(guidance: Rc<ModelGuidance>, seed: u64) -> Self {
        ModelledMctsPlayer {
            search: Mcts::new(seed),
            guidance,
        }
    }
}

impl<G: Observe> Player<G> for ModelledMctsPlayer {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn choose_move(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
    ) -> Option<G::Move> {
        self.search
            .choose_move_with(game, state, role, clock, &*self.guidance)
    }
}

/// Iterative-deepening alpha-beta guided by a [`ModelGuidance`]: the players' search, with the
/// modelled roles' moves ordered and pruned by the models.
#[derive(Clone, Debug)]
pub struct ModelledSearchPlayer {
    search: SearchPlayer,
    guidance: Rc<ModelGuidance>,
}

impl ModelledSearchPlayer {
    /// The player's name, as reports spell it.
    pub const NAME: &'static str = "iterative+model";

    /// Shares `guidance` (and its counts) with whoever else holds it.
    pub fn new(guidance: Rc<ModelGuidance>) -> Self {
        ModelledSearchPlayer {
            search: SearchPlayer::iterative_deepening(),
            guidance,
        }
    }
}

impl<G: Observe> Player<G> for ModelledSearchPlayer {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn choose_move(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
    ) -> Option<G::Move> {
        self.search
            .choose_move_with(game, state, role, clock, &*self.guidance)
    }
}
