//! Opponent move modelling (seed 002) on a [`PlayableGame`], whatever its language: the
//! front ends' door to [`ludeme_engine::opponent_model`].

use ludeme_engine::opponent_model::experiment;

use crate::play::PlayableGame;

pub use ludeme_engine::opponent_model::{
    Experiment, ExperimentSettings, FeatureSet, SimulationSettings, TopNCurve, Variant,
    nodes_to_depth,
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
}
