//! Opponent move modelling (seed 002) on a [`PlayableGame`], whatever its language: the
//! front ends' door to [`ludeme_engine::opponent_model`].

mod hover;
mod plot;

use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use ludeme_engine::egg::EggEngine;
use ludeme_engine::egg::heuristics::{EggEvaluator, egg_player_by_name};
use ludeme_engine::opponent_model::Observe;
use ludeme_engine::opponent_model::{
    GameIdentity, ModelGuidance, compare_search_with_model, evaluate_saved, experiment,
    initial_ranking, player_with_model, player_with_model_and_evaluator,
};
use ludeme_engine::players::{Player, player_by_name};

use crate::files::{FileKind, FileSystem, OsFileSystem};
use crate::play::{MatchResult, MatchSettings, PlayableGame, run_match};

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

/// The largest model file read: a model holds a count per move and kept feature, a few
/// megabytes for the largest games trained so far; a file far beyond that is not a model, and
/// reading it whole would only cost memory.
pub const MAX_MODEL_FILE_BYTES: u64 = 64 << 20;

/// The confidence a search keeps of a modelled player's moves when none is given.
pub const DEFAULT_MODEL_CONFIDENCE: f64 = 0.95;

/// Reads a model file (`ludeme model train -o`), refusing one larger than
/// [`MAX_MODEL_FILE_BYTES`]; the error says why it cannot be used (without the path).
pub fn read_model_file(path: &Path) -> Result<SavedModel, String> {
    let text = read_limited(path, MAX_MODEL_FILE_BYTES)?;
    SavedModel::from_json(&text)
}

/// A file's text, or why not: unreadable, not a regular file, not UTF-8, or over `limit`
/// bytes. The kind and size are checked before the file is opened, so a named pipe (which
/// would block the open forever) or a device is refused unread; the read is still limited, so
/// that a file growing meanwhile is refused too.
pub(crate) fn read_limited(path: &Path, limit: u64) -> Result<String, String> {
    let too_large = || {
        format!(
            "it is larger than {} MB, the most a model file may hold",
            limit >> 20
        )
    };
    match OsFileSystem.kind(path) {
        Err(error) => return Err(format!("cannot read it: {error}")),
        Ok(FileKind::Folder) => return Err("it is a folder, not a model file".to_owned()),
        Ok(FileKind::Special(kind)) => return Err(format!("it is {kind}, not a model file")),
        Ok(FileKind::File { len }) if len > limit => return Err(too_large()),
        Ok(FileKind::File { .. }) => {}
    }
    let file = std::fs::File::open(path).map_err(|error| format!("cannot read it: {error}"))?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| format!("cannot read it: {error}"))?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| "not JSON: it is not UTF-8 text".to_owned())
}

/// Whether `confidence` is one a search can keep of a modelled role's moves: above 0 and at
/// most 1 (1 only orders the moves); why not, if not.
pub fn check_model_confidence(confidence: f64) -> Result<(), String> {
    if confidence > 0.0 && confidence <= 1.0 {
        Ok(())
    } else {
        Err(format!(
            "the model confidence must be above 0 and at most 1, not {confidence}"
        ))
    }
}

/// Models of some roles of one game, checked against it, for the players of a match: a
/// searching player (MCTS, alpha-beta and its family) orders the modelled roles' moves by the
/// model and searches only the fewest most probable whose probabilities reach the confidence.
/// A player in a modelled role searches its own moves all the same. Cloning shares the models
/// and the pruning counts; the models may be used from any thread (a GGP player's match).
#[derive(Clone, Debug)]
pub struct OpponentModels {
    guidance: Arc<ModelGuidance>,
    /// The modelled roles, by index.
    roles: Vec<usize>,
}

impl OpponentModels {
    /// The modelled roles' indices, in the game's order.
    pub fn roles(&self) -> &[usize] {
        &self.roles
    }

    /// How often the searches pruned, over the modelled roles' nodes with a choice.
    pub fn pruning(&self) -> PruningCounts {
        self.guidance.counts()
    }

    /// The guidance the players search with.
    pub(crate) fn guidance(&self) -> &Arc<ModelGuidance> {
        &self.guidance
    }

    /// The player `name` names, guided by the models when it searches (its name then ends in
    /// `+model`); the players that do not search play as without them.
    pub(crate) fn player<G: Observe>(&self, name: &str, seed: u64) -> Option<Box<dyn Player<G>>> {
        player_with_model(name, seed, &self.guidance).or_else(|| player_by_name(name, seed))
    }

    /// [`OpponentModels::player`] on an EGGG game: the searches with a model value cut-off
    /// states with the game's evaluator, as without one (the model says how a role plays, not
    /// who is ahead).
    pub(crate) fn egg_player(
        &self,
        name: &str,
        seed: u64,
        game: &EggEngine,
    ) -> Option<Box<dyn Player<EggEngine>>> {
        player_with_model_and_evaluator(name, seed, &self.guidance, || EggEvaluator::new(game))
            .or_else(|| egg_player_by_name(name, seed, game))
    }
}

impl PlayableGame {
    /// `models` ready for this game's searches at `confidence` (0 < p ≤ 1; 1 only orders the
    /// moves), or why not: a model of another game, of a role the game lacks, two models of one
    /// role, a confidence out of range.
    pub fn opponent_models(
        &self,
        models: &[SavedModel],
        confidence: f64,
    ) -> Result<OpponentModels, String> {
        check_model_confidence(confidence)?;
        let mut by_role = vec![None; self.roles().len()];
        let mut roles = Vec::new();
        for saved in models {
            let role = self.model_role(saved)?;
            if by_role[role].is_some() {
                return Err(format!("two models of the role `{}`", saved.role));
            }
            by_role[role] = Some(saved.player_model());
            roles.push(role);
        }
        roles.sort_unstable();
        Ok(OpponentModels {
            guidance: Arc::new(ModelGuidance::new(by_role, confidence)),
            roles,
        })
    }

    /// [`PlayableGame::play_match`] with the searching players guided by `models`; the players
    /// that do not search (legal, random) play as without them. The names returned mark a
    /// guided player with `+model`.
    pub fn play_match_with_models(
        &self,
        players: &[Option<String>],
        seed: u64,
        settings: &MatchSettings,
        models: &OpponentModels,
    ) -> (MatchResult, Vec<&'static str>) {
        match self {
            PlayableGame::Egg(game) => run_match(&**game, players, seed, settings, |name, seed| {
                models.egg_player(name, seed, game)
            }),
            PlayableGame::Gdl(game) => run_match(game, players, seed, settings, |name, seed| {
                models.player(name, seed)
            }),
            PlayableGame::Ludi(game) => {
                run_match(&**game, players, seed, settings, |name, seed| {
                    models.player(name, seed)
                })
            }
        }
    }
}
