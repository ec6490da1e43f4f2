//! Issue 21's corpus measure, in CI: every game of the shared corpus that passes the checks runs
//! on the grounded reasoner (not the interpreter) and completes random playouts there, with the
//! engines' own limits (sizes, and grounding's count of work rather than a clock, so the verdict
//! is the same on every machine, loaded or idle: no game is accepted either way).
//!
//! The games that do not ground yet are listed, each with the limit it stops at, in
//! `tests/data/gdl-not-yet-grounded.txt`; the test fails when an unlisted game does not ground
//! and also when a listed one now does, so the list only shrinks as the grounder learns (it is
//! empty when the measure holds). Grounding the whole corpus takes minutes unoptimised,
//! so it is a full suite (`LUDEME_FULL_SUITES=1`, in an optimised build, as `.ci/run` runs it).
//!
//! A game that does not ground still plays, on the interpreter the reasoner falls back to, or
//! stops with a message; none panics. With the full suites on, this test stands in for
//! `gdl_reasoner.rs`'s corpus walk, which asks the same of every game within a shorter budget:
//! the corpus is walked once, not twice, in CI's 45 minutes.

mod support;

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use ludeme_analysis::engine_gate::engine_gate;
use ludeme_analysis::gdl::engine::reasoner_for;
use ludeme_analysis::{RootDatabase, Severity, SourceFile, Syntax, decode_source};
use ludeme_engine::Game;
use ludeme_engine::gdl::{Budget, Engine, Reasoner};
use ludeme_engine::playout::{PlayoutEnd, random_playout};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// Random playouts per game, and the plies after which one counts as not finishing.
const PLAYOUTS: usize = 10;
const MAX_PLIES: usize = 2_000;
/// The plies of the one playout a game that falls back to the interpreter plays there (chess
/// takes the interpreter about 2.5 CPU s for 200).
const FALLBACK_MAX_PLIES: usize = 300;

/// Playouts 64 at a time replayed step by step, and their ply limit.
const LANE_PLAYOUTS: u64 = 96;
const LANE_MAX_PLIES: usize = 300;

const NOT_YET_GROUNDED: &str = "tests/data/gdl-not-yet-grounded.txt";

/// What happened to one game.
enum Outcome {
    /// Static errors: `check` refuses the game, so no engine runs it.
    Refused,
    /// Grounded, and this many of the playouts reached a terminal state.
    Grounded { terminal: usize },
    /// Not grounded: the reason the reasoner gives (its fallback reason or its error), and,
    /// when it fell back to the interpreter, how a random playout there ended.
    NotGrounded {
        reason: String,
        on_the_fallback: Option<PlayoutEnd>,
    },
    /// Grounded, but a playout failed (a budget or an error of the circuit).
    PlayoutFailed(String),
    /// An engine panicked on the game.
    Panicked,
}

fn run_game(path: &Path) -> Outcome {
    let Ok(bytes) = std::fs::read(path) else {
        return Outcome::PlayoutFailed("unreadable".to_owned());
    };
    let Ok(text) = decode_source(&bytes) else {
        return Outcome::Refused;
    };
    let Some(syntax) = Syntax::detect(path, text) else {
        return Outcome::Refused;
    };
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, path.to_path_buf(), syntax, Arc::from(text), None);
    // A game `ludeme check` finds errors in is refused by every engine (the gate they share).
    if engine_gate(&db, file, Severity::Error).is_err() {
        return Outcome::Refused;
    }
    let game: Reasoner = match reasoner_for(&db, file, Budget::default()) {
        Ok(game) => game,
        Err(error) => {
            return Outcome::NotGrounded {
                reason: error.to_string(),
                on_the_fallback: None,
            };
        }
    };
    let start = game.initial_state();
    let mut rng = SmallRng::seed_from_u64(21);
    if game.engine_name() != "grounded" {
        return Outcome::NotGrounded {
            reason: game.fallback_reason().unwrap_or("no reason").to_owned(),
            on_the_fallback: Some(random_playout(&game, &start, &mut rng, FALLBACK_MAX_PLIES).end),
        };
    }
    let mut terminal = 0;
    for _ in 0..PLAYOUTS {
        match random_playout(&game, &start, &mut rng, MAX_PLIES).end {
            PlayoutEnd::Terminal => terminal += 1,
            // A game may leave a role without moves or run long; bench reports both.
            PlayoutEnd::PlyLimit | PlayoutEnd::NoLegalMove(_) => {}
            PlayoutEnd::Failure(message) => return Outcome::PlayoutFailed(message),
        }
    }
    // Bench plays 64 playouts at a time in the bits of a word: a sample of them (a lane
    // generation and a half) replayed on the circuit step by step must be the same playouts.
    if let Engine::Grounded(grounded) = game.engine()
        && let Err(error) = grounded.replay_lane_playouts(LANE_PLAYOUTS, 21, LANE_MAX_PLIES)
    {
        return Outcome::PlayoutFailed(format!("playouts 64 at a time: {error}"));
    }
    Outcome::Grounded { terminal }
}

/// The games a list names: path under the shared corpus's `gdl/` → the note after `#`.
fn listed(root: &Path, list: &str) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(root.join(list)).expect("the list is readable");
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (game, note) = line.split_once('#').unwrap_or((line, ""));
            (game.trim().to_owned(), note.trim().to_owned())
        })
        .collect()
}

#[test]
fn every_checked_corpus_game_plays_on_the_grounded_reasoner() {
    if !support::full_suites("the shared GDL corpus on the grounded reasoner") {
        return;
    }
    let Some(corpus) = support::shared_corpus() else {
        return;
    };
    let gdl = corpus.join("gdl");
    let mut games: Vec<PathBuf> = support::files_with_extensions(&gdl, &["kif", "gdl", "hrf"]);
    assert!(games.len() > 300, "the shared corpus has its GDL games");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let expected = listed(&root, NOT_YET_GROUNDED);
    // The games that do not ground take the longest (each spends grounding's whole allowance
    // or reaches a size limit), so they go first; two threads then take the next game as
    // each finishes one. Split in two halves in advance, the games left one thread working
    // alone for the last two minutes of the suite's four.
    let name_of = |path: &Path| {
        path.strip_prefix(&gdl)
            .unwrap_or(path)
            .display()
            .to_string()
    };
    games.sort_by_key(|path| !expected.contains_key(&name_of(path)));
    let next_game = AtomicUsize::new(0);
    let mut outcomes: Vec<(String, Outcome)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                let (games, next_game, name_of) = (&games, &next_game, &name_of);
                scope.spawn(move || {
                    let mut outcomes = Vec::new();
                    while let Some(path) = games.get(next_game.fetch_add(1, Ordering::Relaxed)) {
                        let outcome = catch_unwind(AssertUnwindSafe(|| run_game(path)))
                            .unwrap_or(Outcome::Panicked);
                        outcomes.push((name_of(path), outcome));
                    }
                    outcomes
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().expect("a worker finished"))
            .collect()
    });
    // In name order, whichever thread played a game.
    outcomes.sort_by(|(a, _), (b, _)| a.cmp(b));

    let mut problems: Vec<String> = Vec::new();
    let (mut refused, mut grounded, mut not_grounded) = (0, 0, BTreeMap::new());
    for (name, outcome) in &outcomes {
        match outcome {
            Outcome::Refused => refused += 1,
            Outcome::Grounded { terminal } => {
                grounded += 1;
                if expected.contains_key(name) {
                    problems.push(format!(
                        "{name} now grounds: take it off {NOT_YET_GROUNDED}"
                    ));
                }
                if *terminal == 0 {
                    problems.push(format!(
                        "{name}: none of {PLAYOUTS} random playouts ended within {MAX_PLIES} plies"
                    ));
                }
            }
            Outcome::NotGrounded {
                reason,
                on_the_fallback,
            } => {
                let played = match on_the_fallback {
                    None => String::new(),
                    Some(PlayoutEnd::Failure(message)) if message.is_empty() => {
                        problems.push(format!(
                            "{name}: a playout on the interpreter failed without a message"
                        ));
                        String::new()
                    }
                    Some(end) => format!(" (on the interpreter, a playout: {end:?})"),
                };
                not_grounded.insert(name.clone(), format!("{reason}{played}"));
                if !expected.contains_key(name) {
                    problems.push(format!("{name} does not ground: {reason}"));
                }
            }
            Outcome::PlayoutFailed(message) => problems.push(format!(
                "{name}: a playout on the circuit failed: {message}"
            )),
            Outcome::Panicked => problems.push(format!("{name}: an engine panicked")),
        }
    }
    for name in expected.keys() {
        if !outcomes.iter().any(|(game, _)| game == name) {
            problems.push(format!("{name} is listed but not in the corpus"));
        }
    }
    eprintln!(
        "{} games: {refused} refused by the checks, {grounded} grounded and played, {} not yet grounded",
        outcomes.len(),
        not_grounded.len()
    );
    for (name, reason) in &not_grounded {
        eprintln!("{name}  # {reason}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
