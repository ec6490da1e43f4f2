//! A trained model on disk: the classifier's counts with what it models (which game, which
//! role, which player, trained on what), as JSON, so that `model train` and `model eval` (and
//! the editor) can share it.
//!
//! The game is identified by what it does, not by its text: its roles and the atoms of its
//! initial state. A game reformatted or commented keeps its models; another game (or the same
//! file changed so that it starts elsewhere) refuses them with the difference named.

use serde::{Deserialize, Serialize};

use super::guided::PlayerModel;
use super::{
    Decision, FeatureSet, MoveModel, Observe, RecordedMatch, SimulationSettings, TopNCurve,
    recorded_decisions, simulate, top_n_curve,
};
use crate::RoleIndex;
use crate::players::MoveBudget;

/// The `format` field of every model file.
pub const MODEL_FORMAT: &str = "ludeme-opponent-model";
/// The version of the file's layout this build writes and reads.
pub const MODEL_VERSION: u32 = 1;

/// A model of one player in one role of one game, as saved.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedModel {
    /// Always [`MODEL_FORMAT`].
    pub format: String,
    /// Always [`MODEL_VERSION`].
    pub version: u32,
    pub game: GameIdentity,
    /// The modelled role, by name.
    pub role: String,
    pub source: TrainingSource,
    pub features: FeatureSet,
    /// Features kept by chi-square selection (`None`: all that training saw).
    pub select: Option<usize>,
    /// The decisions (states with a choice) the model was trained on.
    pub training_decisions: usize,
    pub model: MoveModel,
}

/// What identifies the game a model was trained on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameIdentity {
    /// The game's name as the trainer gave it (its file's name); not compared, only shown.
    pub name: String,
    pub roles: Vec<String>,
    /// The atoms of the initial state ([`Observe::atoms`]).
    pub initial_state: Vec<String>,
}

impl GameIdentity {
    pub fn of<G: Observe>(game: &G, name: &str) -> GameIdentity {
        GameIdentity {
            name: name.to_owned(),
            roles: game.roles().to_vec(),
            initial_state: game.atoms(&game.initial_state()),
        }
    }
}

/// Where the training decisions came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TrainingSource {
    /// Matches `0..matches` simulated with one of Ludeme's players in the role and random
    /// players elsewhere ([`super::simulate()`]); test matches go on from match `matches`.
    Simulated {
        player: String,
        matches: u64,
        seed: u64,
        /// The player's budget per move in units of work (`None`: unlimited).
        move_nodes: Option<u64>,
        max_plies: usize,
    },
    /// Matches read from a file of match records (`ludeme match --record`).
    Recorded { file: String, matches: usize },
}

impl SavedModel {
    /// Trains a model of `role` on `decisions` and labels it with the game and the source.
    pub fn train(
        game: GameIdentity,
        role: &str,
        source: TrainingSource,
        features: FeatureSet,
        select: Option<usize>,
        decisions: &[Decision],
    ) -> SavedModel {
        let rows: Vec<(Vec<String>, String)> = decisions
            .iter()
            .map(|d| (features.features(&d.atoms, &d.legal), d.chosen.clone()))
            .collect();
        SavedModel {
            format: MODEL_FORMAT.to_owned(),
            version: MODEL_VERSION,
            game,
            role: role.to_owned(),
            source,
            features,
            select,
            training_decisions: decisions.len(),
            model: MoveModel::train(&rows, select),
        }
    }

    /// The model as the file holds it.
    pub fn to_json(&self) -> String {
        // Nothing in the model is refused by JSON: string keys only, and every number is a
        // count or a finite chi-square statistic.
        serde_json::to_string_pretty(self)
            .unwrap_or_else(|error| format!("{{\"error\": \"{error}\"}}"))
    }

    /// Reads a model file's text; the error says what is wrong and where (line and column).
    pub fn from_json(text: &str) -> Result<SavedModel, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|error| format!("not JSON: {error}"))?;
        // What the file is, read before the rest, so that another kind of JSON file is named
        // as such rather than as a model with fields missing.
        let field = |name: &str| value.as_object().and_then(|object| object.get(name));
        if field("format").and_then(serde_json::Value::as_str) != Some(MODEL_FORMAT) {
            return Err(format!(
                "not a model file: it has no `\"format\": \"{MODEL_FORMAT}\"`"
            ));
        }
        let version = field("version").and_then(serde_json::Value::as_u64);
        if version != Some(u64::from(MODEL_VERSION)) {
            return Err(format!(
                "the model file's version is {}; this build reads version {MODEL_VERSION}",
                version.map_or_else(|| "missing".to_owned(), |v| v.to_string())
            ));
        }
        serde_json::from_str(text).map_err(|error| format!("a corrupt model file: {error}"))
    }

    /// The modelled role in `game`, or why the model is not one of `game`: other roles, or
    /// another initial state (the first atom that differs is named).
    pub fn role_in<G: Observe>(&self, game: &G) -> Result<RoleIndex, String> {
        let theirs = &self.game;
        if game.roles() != theirs.roles.as_slice() {
            return Err(format!(
                "the model is of another game ({}): its roles are {}, this game's are {}",
                theirs.name,
                theirs.roles.join(", "),
                game.roles().join(", ")
            ));
        }
        let ours = game.atoms(&game.initial_state());
        if ours != theirs.initial_state {
            let only_ours = ours
                .iter()
                .find(|atom| !theirs.initial_state.contains(atom));
            let only_theirs = theirs
                .initial_state
                .iter()
                .find(|atom| !ours.contains(atom));
            let difference = match (only_ours, only_theirs) {
                (Some(atom), _) => format!("`{atom}` holds in this game's and not in the model's"),
                (None, Some(atom)) => {
                    format!("`{atom}` holds in the model's and not in this game's")
                }
                (None, None) => "their atoms are listed differently".to_owned(),
            };
            return Err(format!(
                "the model is of another game ({}): the initial states differ; {difference}",
                theirs.name
            ));
        }
        game.roles()
            .iter()
            .position(|role| role == &self.role)
            .ok_or_else(|| format!("the game has no role `{}`", self.role))
    }

    /// The model with the features it reads, for a search ([`super::ModelGuidance`]).
    pub fn player_model(&self) -> PlayerModel {
        PlayerModel {
            features: self.features,
            model: self.model.clone(),
        }
    }

    /// The legal moves (by name) of a state whose atoms are `atoms`, as indices into `legal`
    /// with their probabilities, most probable first ([`MoveModel::rank_with_probabilities`]).
    pub fn rank(&self, atoms: &[String], legal: &[String]) -> Vec<(usize, f64)> {
        let row = self.features.features(atoms, legal);
        self.model.rank_with_probabilities(&row, legal)
    }

    /// The settings that simulate more matches as training did (the first test match is the
    /// one after the training matches, so that no seed repeats); `None` when the model was
    /// trained on recorded matches, which no simulation repeats.
    pub fn test_simulation(&self, role: RoleIndex) -> Option<(SimulationSettings, u64)> {
        match &self.source {
            TrainingSource::Simulated {
                player,
                matches,
                seed,
                move_nodes,
                max_plies,
            } => Some((
                SimulationSettings {
                    move_budget: move_nodes.map_or_else(MoveBudget::unlimited, MoveBudget::nodes),
                    max_plies: *max_plies,
                    seed: *seed,
                    ..SimulationSettings::new(player, role)
                },
                *matches,
            )),
            TrainingSource::Recorded { .. } => None,
        }
    }
}

/// The decisions a model is trained or tested on.
#[derive(Clone, Debug)]
pub enum DecisionSource<'a> {
    /// Matches `matches` simulated with `settings` ([`super::simulate()`]).
    Simulated {
        settings: SimulationSettings,
        matches: std::ops::Range<u64>,
    },
    /// Recorded matches ([`RecordedMatch`]), replayed for `role`.
    Recorded {
        role: RoleIndex,
        matches: &'a [RecordedMatch],
    },
}

impl DecisionSource<'_> {
    /// The decisions, or why they could not be had.
    pub fn decisions<G: Observe>(&self, game: &G) -> Result<Vec<Decision>, String> {
        match self {
            DecisionSource::Simulated { settings, matches } => {
                simulate(game, settings, matches.clone())
            }
            DecisionSource::Recorded { role, matches } => recorded_decisions(game, *role, matches),
        }
    }
}

/// The top-N curve of `saved` on the decisions of `tests`, after checking that the model is one
/// of `game`.
pub fn evaluate_saved<G: Observe>(
    game: &G,
    saved: &SavedModel,
    tests: &DecisionSource,
) -> Result<TopNCurve, String> {
    saved.role_in(game)?;
    let decisions = tests.decisions(game)?;
    Ok(top_n_curve(&saved.model, &decisions, saved.features))
}

/// The modelled role's legal moves in `game`'s initial state, most probable first, with their
/// probabilities; empty when the role has no choice there.
pub fn initial_ranking<G: Observe>(
    game: &G,
    saved: &SavedModel,
) -> Result<Vec<(String, f64)>, String> {
    let role = saved.role_in(game)?;
    let state = game.initial_state();
    let legal: Vec<String> = game
        .legal_moves(&state, role)
        .iter()
        .map(|action| game.move_text(&state, role, action))
        .collect();
    if let Some(why) = game.failure() {
        return Err(format!("the engine gave up: {why}"));
    }
    if legal.len() < 2 {
        return Ok(Vec::new());
    }
    Ok(saved
        .rank(&game.atoms(&state), &legal)
        .into_iter()
        .map(|(index, probability)| (legal[index].clone(), probability))
        .collect())
}
