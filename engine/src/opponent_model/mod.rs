//! Opponent move modelling (seed 002): learn from simulated matches how a player plays a game,
//! then rank the legal moves of a new state by the probability that the player makes each.
//!
//! The method is the seed's: matches are simulated from the initial state with the studied
//! player in its seat and random players elsewhere ([`simulate()`]); each state in which the
//! player had a choice becomes a row of 0/1 features — which atoms of the state hold (GDL
//! fluents, or a board's cell contents for Ludi and EGGG: [`Observe`]), optionally which moves
//! are legal — labelled with the move it made; a multivariate (Bernoulli) naive Bayes classifier
//! with Laplace smoothing, over the `k` features that the chi-square statistic finds most tied
//! to the move ([`chi_square`]), ranks a state's legal moves by posterior ([`MoveModel`]); and
//! held-out test matches give the top-N curve: the share of the player's moves ranked within
//! the first `N` ([`evaluate`]).
//!
//! States where the player had a single legal move (the idle role's no-op in a turn-taking
//! game) are not recorded: the seed's error analysis names them as what biased its Mummy Maze
//! classifier, and a forced move needs no prediction.

mod chi_square;
mod duel;
mod evaluate;
mod guided;
#[cfg(test)]
mod guided_tests;
mod model_file;
mod naive_bayes;
mod observe;
mod records;
mod simulate;
#[cfg(test)]
mod tests;

pub use chi_square::{chi_square_scores, select_features};
pub use duel::{DuelReport, DuelSettings, Searcher, Tally, compare_search_with_model};
pub use evaluate::{
    Experiment, ExperimentSettings, TopNCurve, Variant, experiment, nodes_to_depth, top_n_curve,
};
pub use guided::{
    GuidanceFor, ModelGuidance, ModelledMctsPlayer, ModelledSearchPlayer, PlayerModel,
    PruningCounts, model_guides, moves_to_keep, player_with_model, player_with_model_and_evaluator,
};
pub use model_file::{
    DecisionSource, GameIdentity, MODEL_FORMAT, MODEL_VERSION, SavedModel, TrainingSource,
    evaluate_saved, initial_ranking,
};
pub use naive_bayes::{MoveModel, StoredFeature, StoredMove, StoredMoveModel};
pub use observe::{FeatureSet, Observe};
pub use records::{RecordedMatch, recorded_decisions};
pub use simulate::{Decision, SimulationSettings, simulate};
