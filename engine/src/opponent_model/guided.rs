//! Searching with a model of the opponent: alpha-beta that, at the modelled player's nodes,
//! tries its moves in the model's order and looks only at the smallest set of its most probable
//! moves whose posterior probabilities add up to a confidence `p` (the seed's confidence idea:
//! keep the opponent's real move with probability `p`, and spend the nodes saved on depth).
//!
//! The guidance is a [`Heuristic`] whose [`Heuristic::select`] does the ordering and pruning,
//! so the search itself is the players' one ([`SearchPlayer`]); for MCTS it is a [`MovePrior`]
//! that prunes the same way and biases the moves it keeps. A player searching with it sees
//! it through [`GuidanceFor`], which never prunes the searching role's own moves.
//!
//! The guidance is shared with [`Arc`] and counts with atomics, so that it is `Send` and
//! `Sync`: a GGP player keeps the player of a match (and, for MCTS, its tree, whose nodes
//! were pruned by this very guidance) behind a mutex across the threads that answer the
//! match's messages, and reports the counts from another thread. Building the guidance
//! afresh in each message's thread would convert the model at every move and lose the
//! counts; the atomic adds cost nothing beside ranking a state's moves by the model.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::evaluate::moves_reaching;
use super::{FeatureSet, MoveModel, Observe};
use crate::players::{
    Clock, Heuristic, KeptTreeMcts, Mcts, MovePrior, NEUTRAL, Player, SearchPlayer,
};
use crate::probe::NoAdvice;
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

impl std::ops::AddAssign for PruningCounts {
    /// Counts of more searches (another match's, another player's).
    fn add_assign(&mut self, more: PruningCounts) {
        self.nodes += more.nodes;
        self.legal += more.legal;
        self.kept += more.kept;
    }
}

/// The [`Heuristic`] of a search that knows how some roles play: per role, a model or none.
#[derive(Debug)]
pub struct ModelGuidance {
    /// Indexed by role; a role without a model is searched over all its moves, in the engine's
    /// order.
    models: Vec<Option<PlayerModel>>,
    confidence: f64,
    counts: PruningTally,
}

/// [`PruningCounts`] kept by atomic adds, from whichever thread searches.
#[derive(Debug, Default)]
struct PruningTally {
    nodes: AtomicU64,
    legal: AtomicU64,
    kept: AtomicU64,
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
            counts: PruningTally::default(),
        }
    }

    /// What the guidance pruned since it was made.
    pub fn counts(&self) -> PruningCounts {
        PruningCounts {
            nodes: self.counts.nodes.load(Ordering::Relaxed),
            legal: self.counts.legal.load(Ordering::Relaxed),
            kept: self.counts.kept.load(Ordering::Relaxed),
        }
    }

    /// The guidance as the player of `searcher` sees it: the searcher's own moves never
    /// pruned, cut-off states even (see [`GuidanceFor`]).
    pub fn for_searcher(&self, searcher: RoleIndex) -> GuidanceFor<'_> {
        GuidanceFor {
            guidance: self,
            searcher,
            evaluator: &NoAdvice,
        }
    }

    /// Whether `role`'s moves are modelled.
    pub fn models_role(&self, role: RoleIndex) -> bool {
        self.models.get(role).is_some_and(Option::is_some)
    }

    /// The moves to search, as indices into `legal` (the legal moves' names) in the order to
    /// try them, for a state whose atoms are `atoms`; `None` when `role` has no model.
    pub fn kept_moves(
        &self,
        role: RoleIndex,
        atoms: &[String],
        legal: &[String],
    ) -> Option<Vec<usize>> {
        let kept = self.kept_with_probabilities(role, atoms, legal)?;
        Some(kept.into_iter().map(|(index, _)| index).collect())
    }

    /// [`ModelGuidance::kept_moves`] with each kept move's probability.
    fn kept_with_probabilities(
        &self,
        role: RoleIndex,
        atoms: &[String],
        legal: &[String],
    ) -> Option<Vec<(usize, f64)>> {
        let player = self.models.get(role)?.as_ref()?;
        let row = player.features.features(atoms, legal);
        let mut ranked = player.model.rank_with_probabilities(&row, legal);
        let probabilities: Vec<f64> = ranked.iter().map(|&(_, p)| p).collect();
        ranked.truncate(moves_to_keep(&probabilities, self.confidence));
        Some(ranked)
    }

    /// The kept moves of `role` in `state` with their probabilities, counted in
    /// [`ModelGuidance::counts`]; `None` when `role` has no model or no choice.
    fn keep<G: Observe>(
        &self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        moves: &[G::Move],
    ) -> Option<Vec<(usize, f64)>> {
        if moves.len() < 2 || !self.models_role(role) {
            return None;
        }
        let names: Vec<String> = moves
            .iter()
            .map(|action| game.move_text(state, role, action))
            .collect();
        let kept = self.kept_with_probabilities(role, &game.atoms(state), &names)?;
        // Each count is exact; a reader on another thread may see one node's three adds
        // half done, which a report of totals can bear.
        self.counts.nodes.fetch_add(1, Ordering::Relaxed);
        self.counts
            .legal
            .fetch_add(moves.len() as u64, Ordering::Relaxed);
        self.counts
            .kept
            .fetch_add(kept.len() as u64, Ordering::Relaxed);
        Some(kept)
    }
}

/// How many of a role's moves, ranked most probable first with `probabilities` (falling), a
/// search keeps at `confidence`: the fewest whose probabilities add up to it, and at least one
/// of a non-empty list; at confidence 1 (or more), all of them, so that the model only orders
/// them (naive Bayes posteriors of 1e-12 would otherwise be dropped as "reaching" 1).
pub fn moves_to_keep(probabilities: &[f64], confidence: f64) -> usize {
    if confidence >= 1.0 {
        return probabilities.len();
    }
    let cumulative: Vec<f64> = probabilities
        .iter()
        .scan(0.0, |sum, &probability| {
            *sum += probability;
            Some(*sum)
        })
        .collect();
    moves_reaching(&cumulative, confidence)
        .max(1)
        .min(probabilities.len())
}

impl<G: Observe> Heuristic<G> for ModelGuidance {
    /// The model says nothing about who is winning: cut-off states are even, as without it.
    fn value(&self, _game: &G, _state: &G::State, _role: RoleIndex) -> Reward {
        NEUTRAL
    }

    fn select(&self, game: &G, state: &G::State, role: RoleIndex, moves: &mut Vec<G::Move>) {
        let Some(kept) = self.keep(game, state, role, moves) else {
            return;
        };
        let mut slots: Vec<Option<G::Move>> = moves.drain(..).map(Some).collect();
        moves.extend(
            kept.into_iter()
                .filter_map(|(index, _)| slots[index].take()),
        );
    }
}

impl<G: Observe> MovePrior<G> for ModelGuidance {
    /// A modelled role's kept moves, most probable first, with the model's probabilities (MCTS
    /// never tries the others, and biases these by their probability).
    fn prior(
        &self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        moves: &[G::Move],
    ) -> Option<Vec<(usize, f64)>> {
        self.keep(game, state, role, moves)
    }
}

/// A [`ModelGuidance`] as the player of `searcher` uses it: the other roles' moves ordered and
/// pruned by their models, the searcher's own moves all searched (a model of the role the
/// searcher plays describes another player, not the move it should make). Cut-off states are
/// valued, and the moves of the roles without a model ordered, by `evaluator` (the game's own
/// evaluator, such as EGGG's, or [`NoAdvice`]): the model says how a role plays, not who is
/// ahead.
#[derive(Clone, Copy, Debug)]
pub struct GuidanceFor<'a, V = NoAdvice> {
    pub guidance: &'a ModelGuidance,
    pub searcher: RoleIndex,
    pub evaluator: &'a V,
}

impl<G: Observe, V: Heuristic<G>> Heuristic<G> for GuidanceFor<'_, V> {
    fn value(&self, game: &G, state: &G::State, role: RoleIndex) -> Reward {
        self.evaluator.value(game, state, role)
    }

    fn select(&self, game: &G, state: &G::State, role: RoleIndex, moves: &mut Vec<G::Move>) {
        if role != self.searcher && self.guidance.models_role(role) {
            self.guidance.select(game, state, role, moves);
        } else {
            self.evaluator.select(game, state, role, moves);
        }
    }
}

impl<G: Observe, V> MovePrior<G> for GuidanceFor<'_, V> {
    fn prior(
        &self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        moves: &[G::Move],
    ) -> Option<Vec<(usize, f64)>> {
        (role != self.searcher)
            .then(|| self.guidance.prior(game, state, role, moves))
            .flatten()
    }
}

/// Whether the player `name` names searches, so that a model can guide it (MCTS and the
/// alpha-beta family); the legal and random players do not.
pub fn model_guides(name: &str) -> bool {
    name == "mcts" || SearchPlayer::named(name).is_some()
}

/// The player `name` names (see [`crate::players::PLAYER_NAMES`]) searching with `guidance`
/// when it is a searching one (MCTS or one of the alpha-beta family); `None` for the players
/// that do not search (legal, random), which a model cannot change. Cut-off states are even, as
/// without a model; [`player_with_model_and_evaluator`] gives the search an evaluator.
pub fn player_with_model<G: Observe>(
    name: &str,
    seed: u64,
    guidance: &Arc<ModelGuidance>,
) -> Option<Box<dyn Player<G>>> {
    player_with_model_and_evaluator(name, seed, guidance, || NoAdvice)
}

/// [`player_with_model`] whose alpha-beta family values cut-off states with the evaluator
/// `evaluator` makes (made only for those players), as the game's own search players do; MCTS
/// plays out to the end and needs none.
pub fn player_with_model_and_evaluator<G: Observe, V: Heuristic<G> + 'static>(
    name: &str,
    seed: u64,
    guidance: &Arc<ModelGuidance>,
    evaluator: impl FnOnce() -> V,
) -> Option<Box<dyn Player<G>>> {
    if name == "mcts" {
        return Some(Box::new(ModelledMctsPlayer::new(guidance.clone(), seed)));
    }
    let search = SearchPlayer::named(name)?;
    Some(Box::new(ModelledSearchPlayer::with_evaluator(
        search,
        guidance.clone(),
        evaluator(),
    )))
}

/// MCTS whose tree takes the modelled roles' moves most probable first, with the model's
/// probabilities as a fading bias (the players' MCTS, with a [`MovePrior`]).
#[derive(Clone, Debug)]
pub struct ModelledMctsPlayer {
    search: Mcts,
    guidance: Arc<ModelGuidance>,
}

impl ModelledMctsPlayer {
    pub const NAME: &'static str = "mcts+model";

    /// With `seed`, the same as [`Mcts::new`]'s.
    pub fn new(guidance: Arc<ModelGuidance>, seed: u64) -> Self {
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
            .choose_move_with(game, state, role, clock, &self.guidance.for_searcher(role))
    }
}

impl<G: Observe> KeptTreeMcts<G> {
    /// [`Player::choose_move`] of the MCTS that keeps its tree through a match, with the
    /// roles other than `role` guided by `guidance` as [`ModelledMctsPlayer`] guides them.
    /// The kept tree's nodes were pruned by the guidance they were built with: give every
    /// decision of one match the same guidance.
    pub fn choose_move_with_model(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
        guidance: &ModelGuidance,
    ) -> Option<G::Move> {
        self.choose_move_with(game, state, role, clock, &guidance.for_searcher(role))
    }
}

/// Iterative-deepening alpha-beta guided by a [`ModelGuidance`]: the players' search, with the
/// modelled roles' moves ordered and pruned by the models, cut-off states valued by `evaluator`.
#[derive(Clone, Debug)]
pub struct ModelledSearchPlayer<V = NoAdvice> {
    search: SearchPlayer,
    guidance: Arc<ModelGuidance>,
    evaluator: V,
}

impl ModelledSearchPlayer {
    /// Iterative deepening; shares `guidance` (and its counts) with whoever else holds it.
    pub fn new(guidance: Arc<ModelGuidance>) -> Self {
        Self::with_search(SearchPlayer::iterative_deepening(), guidance)
    }

    /// `search` (any of the alpha-beta family) guided by `guidance`, cut-off states even.
    pub fn with_search(search: SearchPlayer, guidance: Arc<ModelGuidance>) -> Self {
        Self::with_evaluator(search, guidance, NoAdvice)
    }
}

impl<V> ModelledSearchPlayer<V> {
    /// `search` guided by `guidance`, valuing cut-off states with `evaluator`.
    pub fn with_evaluator(
        search: SearchPlayer,
        guidance: Arc<ModelGuidance>,
        evaluator: V,
    ) -> Self {
        ModelledSearchPlayer {
            search,
            guidance,
            evaluator,
        }
    }
}

impl<G: Observe, V: Heuristic<G>> Player<G> for ModelledSearchPlayer<V> {
    /// The search's name with `+model`, as reports spell it.
    fn name(&self) -> &'static str {
        match self.search.name() {
            "maximizer" => "maximizer+model",
            "minimax" => "minimax+model",
            "bounded" => "bounded+model",
            "alphabeta" => "alphabeta+model",
            _ => "iterative+model",
        }
    }

    fn choose_move(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
    ) -> Option<G::Move> {
        let guidance = GuidanceFor {
            guidance: &self.guidance,
            searcher: role,
            evaluator: &self.evaluator,
        };
        self.search
            .choose_move_with(game, state, role, clock, &guidance)
    }
}
