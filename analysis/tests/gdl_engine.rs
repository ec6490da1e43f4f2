//! The plain GDL interpreter end to end: games are read, lowered and checked by the analysis
//! layer, converted into engine programs and played through the `Game` interface.
//!
//! Expectations come from the rules of the games (tic-tac-toe's moves, wins and draws, and the
//! exact odds of uniformly random tic-tac-toe), never from the interpreter's own output.

mod support;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ludeme_analysis::gdl::engine::interpreter_for;
use ludeme_analysis::{RootDatabase, SourceFile, Syntax, decode_source};
use ludeme_engine::Game;
use ludeme_engine::gdl::{Budget, GdlError, GdlState, Ground, Interpreter};
use ludeme_engine::playout::{PlayoutEnd, random_playout, random_playouts};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn load(path: &Path, budget: Budget) -> Result<Interpreter, GdlError> {
    let bytes = std::fs::read(path).expect("readable game");
    let text = decode_source(&bytes).map_err(|e| GdlError::Build(format!("{e:?}")))?;
    let syntax = Syntax::detect(path, text).expect("a GDL file");
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, path.to_path_buf(), syntax, Arc::from(text), None);
    interpreter_for(&db, file, budget)
}

fn rendered(game: &Interpreter, terms: &[Ground]) -> Vec<String> {
    let mut shown: Vec<String> = terms.iter().map(|t| game.render(t)).collect();
    shown.sort();
    shown
}

/// The legal move of `role` written `text` (KIF form), which must exist.
fn find_move(game: &Interpreter, state: &GdlState, role: usize, text: &str) -> Ground {
    game.legal_moves(state, role)
        .into_iter()
        .find(|m| game.render(m) == text)
        .unwrap_or_else(|| panic!("`{text}` is legal for role {role}"))
}

/// The tic-tac-toe games: the GGP repository's and the project's in both syntaxes, with their
/// role names (the infix one calls them x and o).
fn tic_tac_toe_games() -> Vec<(std::path::PathBuf, [&'static str; 2])> {
    let root = support::project_root();
    let mut games = vec![
        (
            root.join("corpus/gdl/ticTacToe.kif"),
            ["xplayer", "oplayer"],
        ),
        (root.join("corpus/gdl/ticTacToe.hrf"), ["x", "o"]),
    ];
    if let Some(corpus) = support::shared_corpus() {
        games.push((
            corpus.join("gdl/ggp-repository/ticTacToe.kif"),
            ["xplayer", "oplayer"],
        ));
    }
    games
}

/// Plays `marks` (row, column), alternating from the first role, checking that the game goes
/// on until the last one; returns the final state.
fn play(game: &Interpreter, marks: &[(u8, u8)]) -> GdlState {
    let mut state = game.initial_state();
    for (ply, &(m, n)) in marks.iter().enumerate() {
        assert!(!game.is_terminal(&state), "terminal before ply {ply}");
        let mover = ply % 2;
        let mark = find_move(game, &state, mover, &format!("(mark {m} {n})"));
        let noop = find_move(game, &state, 1 - mover, "noop");
        let joint = if mover == 0 {
            [mark, noop]
        } else {
            [noop, mark]
        };
        state = game.next_state(&state, &joint);
    }
    state
}

#[test]
fn tic_tac_toe_starts_empty_with_nine_moves_for_the_first_player() {
    for (path, roles) in tic_tac_toe_games() {
        let game = load(&path, Budget::default()).unwrap();
        assert_eq!(game.roles(), roles, "{}", path.display());
        let state = game.initial_state();
        let mut expected: Vec<String> = (1..=3)
            .flat_map(|m| (1..=3).map(move |n| format!("(cell {m} {n} b)")))
            .collect();
        expected.push(format!("(control {})", roles[0]));
        expected.sort();
        assert_eq!(rendered(&game, &state), expected, "{}", path.display());
        assert!(!game.is_terminal(&state));
        let mut marks: Vec<String> = (1..=3)
            .flat_map(|m| (1..=3).map(move |n| format!("(mark {m} {n})")))
            .collect();
        marks.sort();
        assert_eq!(rendered(&game, &game.legal_moves(&state, 0)), marks);
        assert_eq!(rendered(&game, &game.legal_moves(&state, 1)), ["noop"]);
    }
}

#[test]
fn tic_tac_toe_row_wins_and_full_board_draws() {
    for (path, _) in tic_tac_toe_games() {
        let game = load(&path, Budget::default()).unwrap();
        // X takes the top row while O plays the middle row.
        let won = play(&game, &[(1, 1), (2, 1), (1, 2), (2, 2), (1, 3)]);
        assert!(game.is_terminal(&won), "{}", path.display());
        assert_eq!(game.goals(&won), [100, 0], "{}", path.display());
        // O takes the middle column.
        let lost = play(&game, &[(1, 1), (1, 2), (3, 3), (2, 2), (1, 3), (3, 2)]);
        assert!(game.is_terminal(&lost));
        assert_eq!(game.goals(&lost), [0, 100]);
        // X O X / X O O / O X X: nine marks, no line.
        let drawn = play(
            &game,
            &[
                (1, 1),
                (1, 2),
                (1, 3),
                (2, 2),
                (2, 1),
                (2, 3),
                (3, 2),
                (3, 1),
                (3, 3),
            ],
        );
        assert!(game.is_terminal(&drawn));
        assert_eq!(game.goals(&drawn), [50, 50], "{}", path.display());
        // O is in control of a full board: no cell to mark.
        assert!(game.legal_moves(&drawn, 1).is_empty());
    }
}

use support::random_tic_tac_toe::assert_exact_odds;

#[test]
fn random_tic_tac_toe_has_the_known_odds() {
    let Some(corpus) = support::shared_corpus() else {
        return;
    };
    let game = load(
        &corpus.join("gdl/ggp-repository/ticTacToe.kif"),
        Budget::default(),
    )
    .unwrap();
    // Enough playouts for a tolerance of a few points in a debug build (see the bound below).
    let n: u64 = if cfg!(debug_assertions) {
        1_500
    } else {
        20_000
    };
    let mut rng = SmallRng::seed_from_u64(2024);
    let stats = random_playouts(&game, &mut rng, n, 20);
    assert_eq!(stats.completed, n);
    // Four standard errors of a proportion p over n samples: a false alarm once in ~16,000 runs.
    // Game lengths run from 5 to 9 plies, so their standard deviation is at most 2.
    assert_exact_odds(
        &support::tic_tac_toe_odds(&stats),
        |p| 4.0 * (p * (1.0 - p) / n as f64).sqrt(),
        4.0 * 2.0 / (n as f64).sqrt(),
    );
}

/// Every game of the shared corpus without static errors loads and completes random playouts or
/// stops at a budget with a clear message; none panics.
///
/// In a debug build each game gets a short time budget so that the walk stays near a minute;
/// `cargo test --release` (or `LUDEME_CORPUS_BUDGET_MS`) gives every game more time.
#[test]
fn every_corpus_game_plays_or_stops_at_a_budget() {
    let Some(corpus) = support::shared_corpus() else {
        return;
    };
    let per_game = std::env::var("LUDEME_CORPUS_BUDGET_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map(Duration::from_millis)
        .unwrap_or(if cfg!(debug_assertions) {
            Duration::from_millis(120)
        } else {
            Duration::from_secs(2)
        });
    eprintln!(
        "\n*** corpus walk: {} per game ({}); set LUDEME_CORPUS_BUDGET_MS to change it ***",
        humanize(per_game),
        if cfg!(debug_assertions) {
            "debug build: short budgets, many games stop at the time limit; run with --release for the full walk"
        } else {
            "release build"
        }
    );
    let files = support::files_with_extensions(&corpus.join("gdl"), &["kif", "gdl", "hrf"]);
    assert!(!files.is_empty());
    let (mut completed, mut refused, mut budget, mut faulty) = (0, 0, 0, 0);
    let mut panics = Vec::new();
    let mut timings = Vec::new();
    let mut messages: std::collections::BTreeMap<String, usize> = Default::default();
    for file in &files {
        let started = Instant::now();
        let budget_of_game = Budget {
            max_steps: 20_000_000,
            max_facts: 500_000,
            deadline: Some(ludeme_engine::cpu_time::CpuDeadline::after(per_game)),
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let game = match load(file, budget_of_game) {
                Ok(game) => game,
                Err(error) => return Err(error.to_string()),
            };
            let mut rng = SmallRng::seed_from_u64(1);
            let start = game.initial_state();
            for _ in 0..3 {
                let playout = random_playout(&game, &start, &mut rng, 300);
                match playout.end {
                    PlayoutEnd::Terminal => {}
                    PlayoutEnd::PlyLimit => return Err("no terminal state in 300 plies".into()),
                    PlayoutEnd::NoLegalMove(role) => {
                        return Err(format!("role {} has no legal move", game.roles()[role]));
                    }
                    PlayoutEnd::Failure(message) => return Err(message),
                }
            }
            Ok(())
        }));
        timings.push((started.elapsed(), file.clone()));
        match outcome {
            Ok(Ok(())) => completed += 1,
            Ok(Err(message)) => {
                if message.starts_with("budget exhausted") {
                    budget += 1;
                } else if message.starts_with("the game cannot run") {
                    refused += 1;
                } else {
                    faulty += 1;
                }
                assert!(!message.is_empty());
                let summary = if message.contains("`ludeme check` lists them") {
                    "static errors".to_owned()
                } else {
                    message
                };
                *messages.entry(summary).or_default() += 1;
            }
            Err(_) => panics.push(file.clone()),
        }
    }
    timings.sort_by_key(|t| std::cmp::Reverse(t.0));
    eprintln!(
        "corpus walk over {} games: {completed} completed 3 random playouts, {budget} stopped at a budget, {refused} refused (static errors or cannot run), {faulty} faulty in play, {} panicked",
        files.len(),
        panics.len()
    );
    for (message, count) in &messages {
        eprintln!("  {count:4} × {message}");
    }
    eprintln!("slowest:");
    for (time, file) in timings.iter().take(8) {
        eprintln!(
            "  {:>8.2?} {}",
            time,
            file.strip_prefix(&corpus).unwrap_or(file).display()
        );
    }
    assert!(panics.is_empty(), "panicked on {panics:?}");
    assert!(completed > 0);
}

fn humanize(duration: Duration) -> String {
    format!("{} ms", duration.as_millis())
}

/// The checks and both engines of a GDL text (in a database of its own).
fn checked_and_played(
    name: &str,
    text: &str,
) -> (Vec<String>, Result<ludeme_engine::gdl::Reasoner, GdlError>) {
    let db = RootDatabase::default();
    let path = std::path::PathBuf::from(name);
    let syntax = Syntax::detect(&path, text).expect("a GDL file");
    let file = SourceFile::new(&db, path, syntax, Arc::from(text), None);
    let codes = ludeme_analysis::file_diagnostics(&db, file)
        .iter()
        .map(|diagnostic| diagnostic.code.to_owned())
        .collect();
    let reasoner = ludeme_analysis::gdl::engine::reasoner_for(&db, file, Budget::default());
    (codes, reasoner)
}

/// The Dresden server's 2006 games write GDL in upper case; the reference validator reads their
/// keywords in any case, and so do the checks: the engine plays the game they describe. An
/// upper-case tic-tac-toe checks clean and plays exactly as its lower-case twin, playout for
/// playout, on the grounded reasoner.
#[test]
fn an_upper_case_game_checks_and_plays_exactly_like_its_lower_case_twin() {
    let lower =
        std::fs::read_to_string(support::project_root().join("corpus/gdl/ticTacToe.kif")).unwrap();
    let upper = lower.to_uppercase();
    let (lower_codes, lower_game) = checked_and_played("lower.kif", &lower);
    let (upper_codes, upper_game) = checked_and_played("upper.kif", &upper);
    assert_eq!(upper_codes, lower_codes, "the same diagnostics");
    let (lower_game, upper_game) = (lower_game.unwrap(), upper_game.unwrap());
    assert_eq!(upper_game.engine_name(), lower_game.engine_name());
    assert_eq!(upper_game.roles(), ["XPLAYER", "OPLAYER"]);
    let playouts = |game: &ludeme_engine::gdl::Reasoner| {
        random_playouts(game, &mut SmallRng::seed_from_u64(7), 3_000, 100)
    };
    let (lower_stats, upper_stats) = (playouts(&lower_game), playouts(&upper_game));
    assert_eq!(upper_stats, lower_stats);
    assert_eq!(lower_stats.completed, 3_000);
}

/// A keyword written in two cases is one relation to every part of the tool: `(ROLE a)` and
/// `(role b)` declare two roles (the English and the checks count two; so does play), and `TRUE`
/// in a body reads the state. Keywords are read in any case by every player, so this is no
/// finding; any other name in two cases is an error (`gdl/inconsistent-case`), and the game is
/// not played at all rather than played as a different game.
#[test]
fn a_keyword_in_two_cases_is_one_relation_and_other_names_are_an_error() {
    let text = "(ROLE a) (role b)\n\
                (init (s 0))\n\
                (<= (legal ?r go) (role ?r))\n\
                (<= (next (s 1)) (TRUE (s 0)))\n\
                (<= terminal (true (s 1)))\n\
                (<= (goal ?r 100) (ROLE ?r))\n";
    let (codes, game) = checked_and_played("mixed.kif", text);
    assert!(codes.is_empty(), "{codes:?}");
    let game = game.unwrap();
    assert_eq!(game.roles(), ["a", "b"]);
    let stats = random_playouts(&game, &mut SmallRng::seed_from_u64(1), 10, 50);
    assert_eq!(stats.completed, 10, "play ends: `TRUE` reads the state");
    assert_eq!(stats.completed_plies, 10, "after one ply");

    let renamed = text.replace("(TRUE (s 0))", "(TRUE (S 0))");
    let (codes, game) = checked_and_played("renamed.kif", &renamed);
    assert!(
        codes.iter().any(|code| code == "gdl/inconsistent-case"),
        "{codes:?}"
    );
    assert!(
        game.is_err(),
        "a game whose names differ in case is not played"
    );
}

/// Infix text in a `.kif` file gets one finding that says so, not hundreds about the KIF
/// reading of it, and is not played as KIF; every KIF game of the corpus gets no such finding.
#[test]
fn infix_text_in_a_kif_file_gets_one_finding_that_says_so() {
    let root = support::project_root();
    let infix = std::fs::read_to_string(root.join("corpus/gdl/ticTacToe.hrf")).unwrap();
    let (codes, game) = checked_and_played("ticTacToe.kif", &infix);
    assert_eq!(codes, ["gdl/infix-in-kif"]);
    assert!(game.is_err());
    let (codes, game) = checked_and_played("ticTacToe.hrf", &infix);
    assert!(codes.is_empty(), "{codes:?}");
    assert!(game.is_ok());
    for path in support::files_with_extensions(&root.join("corpus/gdl"), &["kif"]) {
        let text = std::fs::read_to_string(&path).unwrap();
        let (codes, _) = checked_and_played("game.kif", &text);
        assert!(
            !codes.iter().any(|code| code == "gdl/infix-in-kif"),
            "{}",
            path.display()
        );
    }
}

/// A terminal state that gives a role two goal values is counted as such by both reasoners
/// (the playout keeps the highest, as players resolve it).
#[test]
fn both_reasoners_count_terminal_states_with_several_goal_values() {
    let text = "(role a)\n\
                (init (step 0))\n\
                (<= (legal a go) (true (step 0)))\n\
                (<= (next (step 1)) (true (step 0)))\n\
                (<= terminal (true (step 1)))\n\
                (<= (goal a 50) (true (step 1)))\n\
                (<= (goal a 0) (true (step 1)))\n";
    let (_, grounded) = checked_and_played("two-goals.kif", text);
    let grounded = grounded.unwrap();
    assert_eq!(grounded.engine_name(), "grounded");
    let db = RootDatabase::default();
    let file = SourceFile::new(
        &db,
        std::path::PathBuf::from("two-goals.kif"),
        Syntax::GdlKif,
        Arc::from(text),
        None,
    );
    let program = ludeme_analysis::gdl::engine::program_for(&db, file).unwrap();
    let interpreted =
        ludeme_engine::gdl::Reasoner::interpreted(program, Budget::default()).unwrap();
    for game in [&grounded, &interpreted] {
        let stats = random_playouts(game, &mut SmallRng::seed_from_u64(3), 5, 10);
        assert_eq!(stats.completed, 5, "{}", game.engine_name());
        assert_eq!(stats.ambiguous_goals, 5, "{}", game.engine_name());
        assert_eq!(
            stats.outcomes[0].get(&50),
            Some(&5),
            "the highest value counts"
        );
    }
}
