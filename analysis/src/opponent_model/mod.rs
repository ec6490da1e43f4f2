//! Opponent move modelling (seed 002) on a [`PlayableGame`], whatever its language: the
//! front ends' door to [`ludeme_engine::opponent_model`].

mod hover;
mod plot;

use ludeme_engine::opponent_model::{
    GameIdentity, compare_search_with_model, evaluate_saved, experiment, initial_ranking,
};

use crate::play::PlayableGame;

pub use hover::{model_path_for, role_hover};
pub use ludeme_engine::opponent_model::{
    DecisionSource, DuelReport, DuelSettings, Experiment, ExperimentSettings, FeatureSet,
    PruningCounts, RecordedMatch, SavedModel, Searcher, SimulationSettings, Tally, TopNCurve,
    TrainingSource, Variant, nodes_to_depth,
};
pub use plot::top_n_svg;

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

    /// Trains a model of `role` on the decisions of `training`, saved with the game's
    /// identity (`name`: how the game is called in messages).
    pub fn model_train(
        &self,
        name: &str,
        role: usize,
        training: &DecisionSource,
        source: TrainingSource,
        features: FeatureSet,
        select: Option<usize>,
    ) -> Result<SavedModel, String> {
        let role_name = self.roles().get(role).cloned().unwrap_or_default();
        let train = |identity: GameIdentity, decisions: Result<Vec<_>, String>| {
            let decisions = decisions?;
            Ok(SavedModel::train(
                identity, &role_name, source, features, select, &decisions,
            ))
        };
        match self {
            PlayableGame::Gdl(game) => {
                train(GameIdentity::of(game, name), training.decisions(game))
            }
            PlayableGame::Ludi(game) => {
                train(GameIdentity::of(&**game, name), training.decisions(&**game))
            }
            PlayableGame::Egg(game) => {
                train(GameIdentity::of(&**game, name), training.decisions(&**game))
            }
        }
    }

    /// The top-N curve of a saved model on the decisions of `tests`, or why the model is not
    /// one of this game.
    pub fn model_evaluate(
        &self,
        saved: &SavedModel,
        tests: &DecisionSource,
    ) -> Result<TopNCurve, String> {
        match self {
            PlayableGame::Gdl(game) => evaluate_saved(game, saved, tests),
            PlayableGame::Ludi(game) => evaluate_saved(&**game, saved, tests),
            PlayableGame::Egg(game) => evaluate_saved(&**game, saved, tests),
        }
    }

    /// The modelled role's legal moves in the initial state, most probable first, with their
    /// probabilities.
    pub fn model_initial_ranking(&self, saved: &SavedModel) -> Result<Vec<(String, f64)>, String> {
        match self {
            PlayableGame::Gdl(game) => initial_ranking(game, saved),
            PlayableGame::Ludi(game) => initial_ranking(&**game, saved),
            PlayableGame::Egg(game) => initial_ranking(&**game, saved),
        }
    }

    /// The modelled role's index in this game, or why the model is not one of it.
    pub fn model_role(&self, saved: &SavedModel) -> Result<usize, String> {
        match self {
            PlayableGame::Gdl(game) => saved.role_in(game),
            PlayableGame::Ludi(game) => saved.role_in(&**game),
            PlayableGame::Egg(game) => saved.role_in(&**game),
        }
    }
}
