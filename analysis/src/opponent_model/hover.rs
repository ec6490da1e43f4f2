//! The editor's view of a trained model: hovering a `(role NAME)` fact of a GDL game that has a
//! model beside it (`GAME.model.json`, as `ludeme model train -o` writes it) shows the moves
//! the model predicts for that role in the initial state, most probable first.
//!
//! The model file is not one of the files the front end hands to the analysis (it is not a
//! game), so the hover reads it from disk itself: at most [`MAX_MODEL_FILE_BYTES`], and
//! through a cache keyed by the file's size and modification time and by the game's text, so
//! that hovering again costs a `stat`, not a parse and an interpreter built for the initial
//! state (up to [`HOVER_CPU`]).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use ludeme_engine::cpu_time::CpuDeadline;

use super::{MAX_MODEL_FILE_BYTES, SavedModel, read_limited};
use crate::db::Db;
use crate::gdl::keywords::ROLE;
use crate::gdl::model::Term;
use crate::play::{EngineOptions, PlayableGame};
use crate::source::SourceFile;
use crate::{Syntax, TextRange};

/// The moves shown.
const SHOWN_MOVES: usize = 5;

/// The CPU time the hover may spend on the game's initial state (the interpreter, which needs
/// no grounding, answers a small game's first question in milliseconds).
const HOVER_CPU: Duration = Duration::from_secs(2);

/// Model files remembered; past it the cache starts afresh (an editor has a few games open).
const CACHED_MODELS: usize = 32;

/// What a model file beside a game gave the hover, and what it was computed from.
struct CachedModel {
    /// The model file's size and modification time when it was read.
    stamp: (u64, Option<SystemTime>),
    /// A hash of the game's text the predictions were computed for.
    game: u64,
    /// The modelled role, and the hover's Markdown below its heading; or, for a file that is
    /// not a usable model, the reason (shown on every role).
    shown: Result<(String, String), String>,
}

/// The hovers computed so far, by model file.
static CACHE: Mutex<Option<HashMap<PathBuf, Arc<CachedModel>>>> = Mutex::new(None);

/// The cache, even if a thread panicked while holding it (it holds only finished entries).
fn locked_cache() -> MutexGuard<'static, Option<HashMap<PathBuf, Arc<CachedModel>>>> {
    CACHE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Where the model of the game at `path` is looked for: `GAME.model.json` beside it, `GAME`
/// being the file's name without its extension.
pub fn model_path_for(path: &Path) -> Option<PathBuf> {
    let stem = path.file_stem()?.to_str()?;
    Some(path.with_file_name(format!("{stem}.model.json")))
}

/// On a `(role NAME)` fact, when a model of that role is beside the game: the fact's range and
/// the model's predictions for the initial state (or why the model cannot be used), as
/// Markdown. `None` elsewhere, and when there is no model of the role.
pub fn role_hover(db: &dyn Db, file: SourceFile, offset: usize) -> Option<(TextRange, String)> {
    if !matches!(file.syntax(db), Syntax::GdlKif | Syntax::GdlInfix) {
        return None;
    }
    let rules = &crate::gdl::gdl_rules(db, file).rules;
    let (range, role) = rules.rules.iter().find_map(|rule| {
        let is_role = rule.is_fact() && rule.head.name.name.eq_ignore_ascii_case(ROLE);
        match rule.head.args.as_slice() {
            [Term::Constant(name)] if is_role && rule.range.contains(offset) => {
                Some((rule.range, name.name.to_string()))
            }
            _ => None,
        }
    })?;
    let model_path = model_path_for(file.path(db))?;
    let cached = cached_model(db, file, &model_path)?;
    let file_name = model_path
        .file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
    let heading = format!("**Opponent model** (`{file_name}`)");
    match &cached.shown {
        Err(message) => Some((range, format!("{heading}: {message}"))),
        Ok((modelled, markdown)) if *modelled == role => {
            Some((range, format!("{heading}{markdown}")))
        }
        Ok(_) => None,
    }
}

/// What the model at `model_path` shows for the game `file`, from the cache when neither has
/// changed; `None` when there is no model file.
fn cached_model(db: &dyn Db, file: SourceFile, model_path: &Path) -> Option<Arc<CachedModel>> {
    let metadata = std::fs::metadata(model_path).ok()?;
    let stamp = (metadata.len(), metadata.modified().ok());
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    file.text(db).hash(&mut hasher);
    let game = hasher.finish();
    if let Some(cached) = locked_cache()
        .get_or_insert_with(HashMap::new)
        .get(model_path)
        .filter(|cached| cached.stamp == stamp && cached.game == game)
    {
        return Some(cached.clone());
    }
    let shown = read_limited(model_path, MAX_MODEL_FILE_BYTES)
        .and_then(|text| SavedModel::from_json(&text))
        .map(|saved| {
            let markdown = match predictions(db, file, &saved) {
                Ok(markdown) => format!("\n\n{markdown}"),
                Err(message) => format!(": {message}"),
            };
            (saved.role, markdown)
        });
    let cached = Arc::new(CachedModel { stamp, game, shown });
    let mut cache = locked_cache();
    let cache = cache.get_or_insert_with(HashMap::new);
    if cache.len() >= CACHED_MODELS {
        cache.clear();
    }
    cache.insert(model_path.to_path_buf(), cached.clone());
    Some(cached)
}

/// The model's top moves in the initial state, as a Markdown table under a line saying what
/// the model was trained on.
fn predictions(db: &dyn Db, file: SourceFile, saved: &SavedModel) -> Result<String, String> {
    let program = crate::gdl::engine::program_for(db, file).map_err(|error| error.to_string())?;
    let options = EngineOptions {
        deadline: Some(CpuDeadline::after(HOVER_CPU)),
        interpreter: true,
    };
    let game = PlayableGame::gdl(program, &options)?;
    let ranking = game.model_initial_ranking(saved)?;
    let source = match &saved.source {
        super::TrainingSource::Simulated {
            player, matches, ..
        } => format!("the {player} player in {matches} simulated matches"),
        super::TrainingSource::Recorded { file, matches } => {
            format!("{matches} recorded matches of `{file}`")
        }
    };
    let mut markdown = format!(
        "How {} plays, learnt from {source} ({} decisions, features {}).\n\n",
        saved.role,
        saved.training_decisions,
        saved.features.name()
    );
    if ranking.is_empty() {
        markdown.push_str("In the initial state it has no choice to predict.");
        return Ok(markdown);
    }
    markdown.push_str(
        "Its most probable moves in the initial state:\n\n| move | probability |\n|---|---|\n",
    );
    for (name, probability) in ranking.iter().take(SHOWN_MOVES) {
        markdown.push_str(&format!(
            "| `{}` | {:.1} % |\n",
            name.replace('`', "'"),
            probability * 100.0
        ));
    }
    if ranking.len() > SHOWN_MOVES {
        markdown.push_str(&format!(
            "\nand {} more legal moves.",
            ranking.len() - SHOWN_MOVES
        ));
    }
    Ok(markdown)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::opponent_model::{DecisionSource, FeatureSet, SimulationSettings, TrainingSource};
    use crate::play::MoveBudget;
    use crate::{AnalysisHost, Change};

    const GAME: &str = include_str!("../../../corpus/gdl/ticTacToe.kif");

    /// The game at `path` (with the corpus's tic-tac-toe as its text), in a fresh host.
    fn host_with_game(path: &Path) -> (AnalysisHost, SourceFile) {
        let mut host = AnalysisHost::new();
        let mut change = Change::new();
        change.set_file(
            path.to_str().unwrap(),
            Syntax::GdlKif,
            Arc::from(GAME),
            None,
        );
        let file = host.apply_change(change).files[0];
        (host, file)
    }

    /// The hover's Markdown at the `(role NAME)` fact of `role`, for the game at `path`.
    fn hover_on_role(path: &Path, role: &str) -> Option<String> {
        let (host, file) = host_with_game(path);
        let offset = GAME.find(&format!("(role {role})")).unwrap() + 2;
        host.snapshot()
            .with_db(|db| crate::ide::hover(db, file, offset).map(|hover| hover.markdown))
            .unwrap()
    }

    #[test]
    fn a_role_with_a_model_beside_the_game_shows_its_predicted_moves() {
        let dir = std::env::temp_dir().join(format!("ludeme-model-hover-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ticTacToe.kif");
        std::fs::write(&path, GAME).unwrap();
        let (host, file) = host_with_game(&path);
        let game = host
            .snapshot()
            .playable(file, &EngineOptions::default())
            .unwrap()
            .unwrap();
        // The legal player always makes its first legal move: the model learns it.
        let settings = SimulationSettings {
            move_budget: MoveBudget::nodes(1_000),
            ..SimulationSettings::new("legal", 0)
        };
        let source = TrainingSource::Simulated {
            player: "legal".to_owned(),
            matches: 30,
            seed: 0,
            move_nodes: Some(1_000),
            max_plies: 1_000,
        };
        let training = DecisionSource::Simulated {
            settings,
            matches: 0..30,
        };
        let saved = game
            .model_train(
                "ticTacToe.kif",
                0,
                &training,
                source,
                FeatureSet::StateAndLegal,
                None,
            )
            .unwrap();
        let model_path = model_path_for(&path).unwrap();
        assert_eq!(model_path, dir.join("ticTacToe.model.json"));
        std::fs::write(&model_path, saved.to_json()).unwrap();
        let initial = game.position_after(&[]).unwrap();
        let legal_move = game
            .choose_move(&initial, 0, "legal", &MoveBudget::nodes(10), 0)
            .unwrap();

        let markdown = hover_on_role(&path, "xplayer").expect("a hover");
        assert!(
            markdown.contains("**Opponent model** (`ticTacToe.model.json`)"),
            "{markdown}"
        );
        let first_row = markdown
            .lines()
            .find(|line| line.starts_with("| `"))
            .expect("a table of moves");
        assert!(
            first_row.starts_with(&format!("| `{legal_move}` |")),
            "{markdown}"
        );
        // The model is of xplayer: oplayer's hover says nothing of it.
        let other = hover_on_role(&path, "oplayer").unwrap_or_default();
        assert!(!other.contains("Opponent model"), "{other}");

        std::fs::write(
            &model_path,
            "{\"format\": \"ludeme-opponent-model\", \"version\": 9}",
        )
        .unwrap();
        let markdown = hover_on_role(&path, "xplayer").expect("a hover");
        assert!(markdown.contains("version is 9"), "{markdown}");

        // A file over the limit is refused by its size, before it is opened (a sparse file:
        // nothing is written).
        std::fs::File::create(&model_path)
            .and_then(|file| file.set_len(MAX_MODEL_FILE_BYTES + 1))
            .unwrap();
        let markdown = hover_on_role(&path, "xplayer").expect("a hover");
        assert!(markdown.contains("larger than 64 MB"), "{markdown}");

        // A named pipe is refused without being opened: opening it would wait for a writer
        // forever. The hover runs on a thread so that a regression fails instead of hanging.
        #[cfg(unix)]
        {
            std::fs::remove_file(&model_path).unwrap();
            let made = std::process::Command::new("mkfifo")
                .arg(&model_path)
                .status()
                .unwrap();
            assert!(made.success());
            let (sender, receiver) = std::sync::mpsc::channel();
            let game_path = path.clone();
            std::thread::spawn(move || {
                let _ = sender.send(hover_on_role(&game_path, "xplayer"));
            });
            let markdown = receiver
                .recv_timeout(std::time::Duration::from_secs(30))
                .expect("the hover returns without opening the pipe")
                .expect("a hover");
            assert!(markdown.contains("a named pipe (FIFO)"), "{markdown}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
