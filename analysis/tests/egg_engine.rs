//! The EGGG engine on the project's games: random rock-paper-scissors splits evenly three ways,
//! tic-tac-toe written in EGGG has the odds an independent enumeration of its game tree gives
//! (the same figures as in GDL and Ludi), and games outside the core are refused with an info
//! diagnostic on the statement concerned. That `ludeme bench` and `ludeme probe` run `.egg` files
//! is the root `tests/egg_engine.rs`.

mod support;

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use ludeme_analysis::egg::engine::{EngineRefusal, egg_engine_for, engine_of};
use ludeme_analysis::egg::{egg_diagnostics, egg_game, load_egg_workspace, set_egg_workspace};
use ludeme_analysis::engine_gate::GateRefusal;
use ludeme_analysis::{RootDatabase, Severity, SourceFile, Syntax, TextRange};
use ludeme_engine::Game;
use ludeme_engine::egg::EggEngine;
use ludeme_engine::playout::{PlayoutEnd, random_playout, random_playouts};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use support::random_tic_tac_toe::{ISSUE_BOUND, PLIES, assert_exact_odds};

const NOT_EXECUTABLE: &str = "egg/not-executable";

fn corpus(name: &str) -> std::path::PathBuf {
    support::project_root().join("corpus/egg").join(name)
}

/// A corpus game with its workspace (the `is like` bases beside it), as `ludeme` loads it.
fn load(path: &Path) -> Result<EggEngine, EngineRefusal> {
    let mut db = RootDatabase::default();
    let file = load_egg_workspace(&mut db, &[path.to_path_buf()])
        .remove(path)
        .expect("a readable game");
    egg_engine_for(&db, file)
}

/// One in-memory file as its own workspace.
fn single(db: &mut RootDatabase, name: &str, text: &str) -> SourceFile {
    let file = SourceFile::new(db, name.into(), Syntax::Egg, Arc::from(text), None);
    set_egg_workspace(db, vec![file]);
    file
}

/// The acceptance figure of issue 6: a million random games, each player winning a third and a
/// third drawn, within ±0.5 % (points).
#[test]
fn a_million_random_rock_paper_scissors_games_split_evenly() {
    let game = load(&corpus("rock-paper-scissors.egg")).expect("rock-paper-scissors plays");
    assert_eq!(game.roles(), ["player", "opponent"]);
    let n = 1_000_000;
    let mut rng = SmallRng::seed_from_u64(6);
    let started = Instant::now();
    let stats = random_playouts(&game, &mut rng, n, 10);
    eprintln!(
        "{n} random rock-paper-scissors games in {:.2?}",
        started.elapsed()
    );
    assert_eq!(stats.completed, n);
    assert_eq!(stats.average_plies(), 1.0, "one synchronised round");
    let third = 1.0 / 3.0;
    for (observed, what) in [
        (stats.frequency(0, 100), "player wins"),
        (stats.frequency(1, 100), "opponent wins"),
        (stats.frequency(0, 50), "draws"),
    ] {
        assert!((observed - third).abs() < 0.005, "{what}: {observed}");
    }
    // Every game has exactly one of the three results.
    assert_eq!(stats.frequency(0, 0), stats.frequency(1, 100));
}

/// The acceptance figure of issue 6: tic-tac-toe in EGGG has the exact random-play odds
/// (X 58.49 %, O 28.81 %, draws 12.70 %, 7.626 plies) within ±0.5 % (points; relative for the
/// length), as the GDL reasoner and the Ludi engine do.
#[test]
fn a_million_random_tic_tac_toe_playouts_have_the_exact_odds() {
    let game = load(&corpus("tic-tac-toe.egg")).expect("tic-tac-toe plays");
    assert_eq!(game.roles(), ["x", "o"]);
    let n = 1_000_000;
    let mut rng = SmallRng::seed_from_u64(4);
    let stats = random_playouts(&game, &mut rng, n, 20);
    assert_eq!(stats.completed, n);
    assert_exact_odds(
        &support::tic_tac_toe_odds(&stats),
        |_| ISSUE_BOUND,
        ISSUE_BOUND * PLIES,
    );
}

/// Which corpus games the core plays, and that every other one is refused with the statement
/// named — never played as some other game.
#[test]
fn the_corpus_games_play_or_are_refused_by_name() {
    let games =
        support::files_with_extensions(&support::project_root().join("corpus/egg"), &["egg"]);
    let mut playable = Vec::new();
    for path in &games {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match load(path) {
            Ok(game) => {
                let mut rng = SmallRng::seed_from_u64(1);
                let playout = random_playout(&game, &game.initial_state(), &mut rng, 1_000);
                assert_eq!(playout.end, PlayoutEnd::Terminal, "{name}");
                playable.push(name);
            }
            Err(EngineRefusal::NotExecutable(message)) => {
                assert!(
                    message.contains('`'),
                    "{name}: names the statement: {message}"
                );
            }
            // The transcribed fragments (no goal, no players) are refused for their warnings.
            Err(EngineRefusal::Diagnostics(refusal)) => {
                assert!(
                    matches!(refusal, GateRefusal::Problems { count, .. } if count > 0),
                    "{name}: {refusal}"
                );
                assert!(
                    ["hexagon-board.egg", "mammon.egg"].contains(&name.as_str()),
                    "{name}"
                );
            }
        }
    }
    assert_eq!(playable, ["rock-paper-scissors.egg", "tic-tac-toe.egg"]);
}

/// The byte range of `statement`, written at the start of a line of `text` (not in a comment).
fn range_of(text: &str, statement: &str) -> TextRange {
    let start = text
        .find(&format!("\n{statement}"))
        .expect("the statement is in the text")
        + 1;
    TextRange::new(start, start + statement.len())
}

/// A board of hexagons has no columns: the definition that asks for one is named, at its range,
/// in an info diagnostic; the same game with rows only plays.
#[test]
fn a_statement_outside_the_core_gets_an_info_diagnostic_at_its_range() {
    let statement = "FourInALine means four pieces in a row or four pieces in a column";
    let text = format!(
        "game is hex-lines\nplayers are x and o\nturns alternate\n5 × 5 grid\nboard is hexagon\nsquares are hexagons\nmove is place\npieces are X and O\ngoal is FourInALine\n{statement}\n"
    );
    let mut db = RootDatabase::default();
    let file = single(&mut db, "hex-lines.egg", &text);
    let diagnostics = egg_diagnostics(&db, file);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let diagnostic = &diagnostics[0];
    assert_eq!(diagnostic.code, NOT_EXECUTABLE);
    assert_eq!(diagnostic.severity, Severity::Info);
    assert_eq!(diagnostic.range, range_of(&text, statement));
    assert!(
        diagnostic.message.contains("no columns"),
        "{}",
        diagnostic.message
    );
    assert!(matches!(
        egg_engine_for(&db, file),
        Err(EngineRefusal::NotExecutable(_))
    ));

    let rows_only = text.replace(" or four pieces in a column", "");
    let file = single(&mut db, "hex-lines.egg", &rows_only);
    assert_eq!(egg_diagnostics(&db, file), &[]);
    let game = egg_engine_for(&db, file).expect("rows on hexagons play");
    // The hexagon cut from a 5 × 5 rhombus has 19 cells.
    assert_eq!(game.legal_moves(&game.initial_state(), 0).len(), 19);
}

/// A statement inherited through `is like` is reported at the `is like` statement, naming the
/// base's file and statement (Pong → ... → Tetris's `move is rotate or shift`).
#[test]
fn an_inherited_statement_is_reported_at_the_is_like() {
    let path = corpus("pong.egg");
    let mut db = RootDatabase::default();
    let file = load_egg_workspace(&mut db, std::slice::from_ref(&path))
        .remove(&path)
        .unwrap();
    let text = file.text(&db).to_string();
    let diagnostics = egg_diagnostics(&db, file);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0].code, NOT_EXECUTABLE);
    assert_eq!(
        diagnostics[0].range,
        range_of(&text, "Pong is like SquareBounce")
    );
    let message = &diagnostics[0].message;
    assert!(
        message.contains("`move is rotate or shift` (in tetris.egg"),
        "{message}"
    );
}

/// Code escapes are kept as text and refused, never run.
#[test]
fn a_code_escape_is_never_executed() {
    let statement = "Winner is Tot++ if grid[x][y]; return Tot > 2";
    let text = format!(
        "game is escape\nplayers are x and o\nturns alternate\n3 × 3 grid\nmove is place\npieces are X and O\ngoal is three pieces in a row\n{statement}\n"
    );
    let mut db = RootDatabase::default();
    let file = single(&mut db, "escape.egg", &text);
    let model = egg_game(&db, file);
    let refusal = engine_of(model).expect_err("a code escape is refused");
    let origin = refusal.origin.expect("the statement");
    assert_eq!(origin.range, range_of(&text, statement));
    assert!(
        refusal.reason.contains("never executed"),
        "{}",
        refusal.reason
    );
}

/// Games with warnings are not played: an unknown statement could change the rules.
#[test]
fn games_with_warnings_are_refused_for_them() {
    let text = "game is typo\nplayers are x and o\nturns alternat\n3 × 3 grid\nmove is place\npieces are X and O\ngoal is three pieces in a row\n";
    let mut db = RootDatabase::default();
    let file = single(&mut db, "typo.egg", text);
    assert!(matches!(
        egg_engine_for(&db, file),
        Err(EngineRefusal::Diagnostics(GateRefusal::Problems {
            count: 1,
            ..
        }))
    ));
    assert!(
        egg_diagnostics(&db, file)
            .iter()
            .all(|d| d.code != NOT_EXECUTABLE),
        "the warning, not the info"
    );
}

/// `score increments` keeps play going after a line: every line a move makes scores, the full
/// board ends the game. On a 4 × 1 board with pairs scoring, x always scores first (its second
/// stone can always join its first unless o blocks), and no game ends before the board is full.
#[test]
fn counted_goals_play_to_a_full_board() {
    let text = "game is pairs\nplayers are x and o\nturns alternate\n4 × 1 grid\nmove is place\npieces are X and O\ngoal is two pieces in a row\nscore increments\n";
    let mut db = RootDatabase::default();
    let file = single(&mut db, "pairs.egg", text);
    let game = egg_engine_for(&db, file).expect("plays");
    let mut rng = SmallRng::seed_from_u64(3);
    let stats = random_playouts(&game, &mut rng, 1_000, 10);
    assert_eq!(stats.completed, 1_000);
    assert_eq!(stats.average_plies(), 4.0, "the board fills up");
}

/// EGGG-like text in the shapes the core reads; the point is that whatever the lowering
/// accepts, the engine plays to an end without panicking.
fn game_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let statements = prop::sample::subsequence(
        vec![
            "players are x and o",
            "2 players",
            "1 player",
            "3 players",
            "turns alternate",
            "turns alternate counterclockwise",
            "turns synchronize",
            "3 × 3 grid",
            "5 × 5 grid",
            "4 × 1 grid",
            "board is hexagon",
            "squares are hexagons",
            "move is place",
            "move is choose",
            "pieces are X and O",
            "pieces are Rock and Paper and Scissors",
            "board starts [[Rock, Paper, Scissors]]",
            "goal is Line",
            "goal is Beat",
            "Line means three pieces in a row or two pieces in a diagonal",
            "Beat means player(Rock) and opponent(Scissors) or player(Paper) and opponent(Rock)",
            "score increments",
        ],
        0..14,
    );
    statements.prop_map(|lines| format!("game is generated\n{}\n", lines.join("\n")))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

    #[test]
    fn whatever_the_lowering_accepts_plays_to_an_end(text in game_text()) {
        let mut db = RootDatabase::default();
        let file = single(&mut db, "generated.egg", &text);
        if let Ok(game) = engine_of(egg_game(&db, file)) {
            let mut rng = SmallRng::seed_from_u64(0);
            for _ in 0..20 {
                let playout = random_playout(&game, &game.initial_state(), &mut rng, 1_000);
                proptest::prop_assert_eq!(playout.end, PlayoutEnd::Terminal);
                let goals = playout.goals.unwrap();
                proptest::prop_assert_eq!(goals.len(), game.roles().len());
            }
        }
    }
}
