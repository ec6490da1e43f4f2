//! Opponent move modelling (seed 002) on a [`PlayableGame`], whatever its language: the
//! front ends' door to [`ludeme_engine::opponent_model`].

use ludeme_engine::opponent_model::{compare_search_with_model, experiment};

use crate::play::PlayableGame;

pub use ludeme_engine::opponent_model::{
    DuelReport, DuelSettings, Experiment, ExperimentSettings, FeatureSet, PruningCounts,
    SimulationSettings, Tally, TopNCurve, Variant, nodes_to_depth,
};

impl PlayableGame {
    /// Simulates training and test matches of the studied player, trains a model per feature
    /// variant and measures its top-N curve on the test matches.
    pub fn model_experiment(&self, settings: &ExperimentSettings) -> Result<Experiment, String> {
        match self {
            PlayableGame::Gdl(game) => experiment(game, settings),
            PlayableGame::Ludi(game) => experiment(&**game, settings),
            PlayableGame::Egg(game) => experiment(&**game, settings),
        }
    }

    /// Trains a model of the studied player in each seat, then plays alpha-beta guided by it
    /// and plain alpha-beta against that player, on the same openings and budgets.
    pub fn model_search_comparison(&self, settings: &DuelSettings) -> Result<DuelReport, String> {
        match self {
            PlayableGame::Gdl(game) => compare_search_with_model(game, settings),
            PlayableGame::Ludi(game) => compare_search_with_model(&**game, settings),
            PlayableGame::Egg(game) => compare_search_with_model(&**game, settings),
        }
    }
}
