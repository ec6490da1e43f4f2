//! `ludeme player` answers every play message within the play clock on the largest games of
//! the shared corpus: `ludeme match` runs MCTS players on each game with a 1 s play clock for a
//! few steps and records how long every answer took, from the manager's side of the socket.
//!
//! A sample of two large games runs in every build; the 30 largest games the player can run
//! (the corpus walked by file size, duplicates left out) run in release builds, and print the
//! table that BENCHMARKS.md quotes (`cargo test --release -p ludeme --test ggp_clocks --
//! --nocapture`).

#[path = "ggp_support.rs"]
mod ggp_support;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use ggp_support::{PlayerProcess, shared_game};
use serde_json::Value;

const PLAY_CLOCK_SECONDS: u64 = 1;

/// One game's timing run.
struct ClockRun {
    game: String,
    roles: usize,
    steps: usize,
    /// The slowest answer to a play message, in milliseconds.
    slowest_millis: u64,
    /// Every error the manager recorded after the start, as `step role: error`.
    errors: Vec<String>,
}

/// The roles of a KIF game: its `(role R)` facts, read with the project's KIF reader.
fn roles_of(path: &Path) -> Option<usize> {
    let text = std::fs::read_to_string(path).ok()?;
    let terms = ludeme_ggp::messages::read_terms(&text).ok()?;
    let roles = terms
        .iter()
        .filter(|term| {
            matches!(term, ludeme_ggp::messages::Term::List(elements)
            if elements.first().is_some_and(|head| head.to_string() == "role"))
        })
        .count();
    (roles > 0).then_some(roles)
}

/// Runs `ludeme match` on `path` between MCTS players (one process per role) for at most
/// `steps` steps with the 1 s play clock; `Err` says why the game cannot be run (the manager
/// could not load it, a player refused to start it, or the match stopped before its first
/// step).
fn clock_run(path: &Path, start_clock: u64, steps: usize) -> Result<ClockRun, String> {
    let roles = roles_of(path).ok_or("no (role R) facts the KIF reader accepts")?;
    let players: Vec<PlayerProcess> = (0..roles).map(|_| PlayerProcess::start("mcts")).collect();
    let record_file = tempfile_path(path);
    let mut command = Command::new(env!("CARGO_BIN_EXE_ludeme"));
    command.arg("match").arg(path);
    for player in &players {
        command.args(["--player", &player.url]);
    }
    let output = command
        .args(["--startclock", &start_clock.to_string()])
        .args(["--playclock", &PLAY_CLOCK_SECONDS.to_string()])
        .args(["--max-steps", &steps.to_string()])
        .arg("--record")
        .arg(&record_file)
        .output()
        .expect("ludeme match runs");
    let records = std::fs::read_to_string(&record_file).map_err(|_| {
        String::from_utf8_lossy(&output.stderr)
            .trim()
            .lines()
            .last()
            .unwrap_or("no record")
            .to_owned()
    })?;
    let _ = std::fs::remove_file(&record_file);
    let records: Vec<Value> = serde_json::from_str(&records).expect("JSON records");
    let record = &records[0];
    let errors = |round: &Value| -> Vec<String> {
        round
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|error| !error.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let rounds = record["errors"].as_array().expect("errors per round");
    let refused = errors(&rounds[0]);
    if !refused.is_empty() {
        return Err(refused.join("; "));
    }
    let step_errors = rounds[1..]
        .iter()
        .enumerate()
        .flat_map(|(step, round)| {
            errors(round)
                .into_iter()
                .map(move |error| format!("step {}: {error}", step + 1))
        })
        .collect();
    let replies = record["replyMillis"].as_array().expect("reply times");
    if replies.is_empty() {
        let why = record["abortReason"]
            .as_str()
            .unwrap_or("no step was played");
        return Err(format!("aborted before the first step: {why}"));
    }
    let slowest_millis = replies
        .iter()
        .flat_map(|step| step.as_array().into_iter().flatten())
        .filter_map(Value::as_u64)
        .max()
        .unwrap_or(0);
    Ok(ClockRun {
        game: path.display().to_string(),
        roles,
        steps: replies.len(),
        slowest_millis,
        errors: step_errors,
    })
}

fn tempfile_path(game: &Path) -> PathBuf {
    let stem = game.file_stem().and_then(|s| s.to_str()).unwrap_or("game");
    std::env::temp_dir().join(format!("ludeme-clocks-{}-{stem}.json", std::process::id()))
}

/// Whether a run kept the clock: every answer inside the play clock.
fn assert_in_time(run: &ClockRun) {
    assert!(run.steps > 0, "{}: no step was played", run.game);
    assert!(
        run.slowest_millis < PLAY_CLOCK_SECONDS * 1000,
        "{}: an answer took {} ms",
        run.game,
        run.slowest_millis
    );
}

/// Whether every answer of a run was a legal move (no error at any step).
fn assert_legal_answers(run: &ClockRun) {
    assert!(run.errors.is_empty(), "{}: {:?}", run.game, run.errors);
}

/// Two of the 30 largest games of the corpus that ground in well under a second even in a debug
/// build (checkers on a small board, 18 kB of rules; pawn to queen, 14 kB), three steps each
/// with the 1 s play clock.
#[test]
fn large_games_are_answered_within_a_one_second_play_clock() {
    let games = [
        "ggp-repository/checkersTiny.kif",
        "ggp-repository/pawnToQueen.kif",
    ];
    let paths: Vec<PathBuf> = games.iter().filter_map(|game| shared_game(game)).collect();
    std::thread::scope(|scope| {
        for path in &paths {
            scope.spawn(move || {
                let run = clock_run(path, 10, 3)
                    .unwrap_or_else(|why| panic!("{} should run: {why}", path.display()));
                assert_in_time(&run);
                assert_legal_answers(&run);
            });
        }
    });
}

/// The corpus's KIF games, largest first, each content once.
fn largest_games() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/gdl");
    let mut games: Vec<(u64, PathBuf)> = Vec::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "kif") {
                let size = entry.metadata().map_or(0, |m| m.len());
                games.push((size, path));
            }
        }
    }
    games.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut seen = HashSet::new();
    games
        .into_iter()
        .filter(|(_, path)| std::fs::read(path).is_ok_and(|text| seen.insert(text)))
        .map(|(_, path)| path)
        .collect()
}

/// The 30 largest games the player can run, five steps each with a 10 s start clock and the
/// 1 s play clock; the games it cannot run (the manager cannot load them, or a player does
/// not get ready within the start clock) are listed with the reason and skipped. Every answer
/// must come inside the clock; the answers that are no move (on the interpreter, three of the
/// thirty games, the player finds no legal move within the clock and says so) are printed and
/// counted, not failed on, until the interpreter is fast enough (BENCHMARKS.md).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "the 30 largest games run in release builds"
)]
fn the_thirty_largest_games_are_answered_within_the_play_clock() {
    let games = largest_games();
    if games.is_empty() {
        eprintln!("*** SKIPPED: the shared corpus is absent ***");
        return;
    }
    let mut runs = Vec::new();
    println!("| # | game | roles | steps | slowest answer (ms) | errors |");
    println!("|---|---|---|---|---|---|");
    for path in games {
        if runs.len() == 30 {
            break;
        }
        match clock_run(&path, 10, 5) {
            Ok(run) => {
                println!(
                    "| {} | {} | {} | {} | {} | {} |",
                    runs.len() + 1,
                    run.game.rsplit("corpus/gdl/").next().unwrap_or(&run.game),
                    run.roles,
                    run.steps,
                    run.slowest_millis,
                    run.errors.len()
                );
                runs.push(run);
            }
            Err(why) => println!("| - | {} | cannot run: {why} | | |", path.display()),
        }
    }
    // Thirty ran (the corpus has more than thirty the player can run): a run that reached
    // none of them has measured nothing.
    assert_eq!(runs.len(), 30, "thirty of the largest games ran");
    for run in &runs {
        assert_in_time(run);
    }
}
