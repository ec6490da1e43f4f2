//! The Ludi board engine on the project's games: every game of the seed (Appendix II and the
//! Tic-Tac-Toe family, in `corpus/ludi/`) loads, and random Tic-Tac-Toe has the odds an
//! independent enumeration of its game tree gives. That every corpus game plays to an end is
//! `ludi_corpus.rs`.

mod support;

use std::sync::Arc;

use ludeme_analysis::ludi::engine::ludi_engine_for;
use ludeme_analysis::{RootDatabase, SourceFile, Syntax};
use ludeme_engine::Game;
use ludeme_engine::ludi::LudiGame;
use ludeme_engine::playout::random_playouts;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use support::random_tic_tac_toe::{ISSUE_BOUND, PLIES, assert_exact_odds};

/// The engine of a game written in the test.
fn game_from_text(text: &str) -> LudiGame {
    let db = RootDatabase::default();
    let path = std::path::PathBuf::from("test.ludi");
    let file = SourceFile::new(&db, path, Syntax::Ludi, Arc::from(text), None);
    ludi_engine_for(&db, file).unwrap_or_else(|e| panic!("{e}"))
}

fn load(path: &std::path::Path) -> LudiGame {
    let text = std::fs::read_to_string(path).expect("readable");
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, path.to_path_buf(), Syntax::Ludi, Arc::from(text), None);
    ludi_engine_for(&db, file).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn corpus(name: &str) -> std::path::PathBuf {
    support::project_root().join("corpus/ludi").join(name)
}

#[test]
fn the_seeds_evolved_games_are_all_there() {
    for name in [
        "yavalath",
        "ndengrod",
        "teiglith",
        "elrostir",
        "gorodruir",
        "valion",
    ] {
        let game = load(&corpus(&format!("{name}.ludi")));
        assert_eq!(game.roles().len(), 2, "{name}");
    }
}

/// Random Tic-Tac-Toe has the exact odds of uniformly random play (`support::random_tic_tac_toe`)
/// within the issue's bound over 1 M playouts.
#[test]
fn random_tic_tac_toe_has_the_known_odds() {
    let game = load(&corpus("tic-tac-toe.ludi"));
    let mut rng = SmallRng::seed_from_u64(2026);
    let stats = random_playouts(&game, &mut rng, 1_000_000, 100);
    assert_eq!(stats.completed, 1_000_000);
    assert_exact_odds(
        &support::tic_tac_toe_odds(&stats),
        |_| ISSUE_BOUND,
        ISSUE_BOUND * PLIES,
    );
}

#[test]
fn a_two_by_two_board_never_produces_a_winner() {
    let game = load(&corpus("tic-tac-toe-2x2.ludi"));
    let mut rng = SmallRng::seed_from_u64(1);
    let stats = random_playouts(&game, &mut rng, 1_000, 100);
    assert_eq!(stats.frequency(0, 50), 1.0);
}

#[test]
fn files_with_errors_are_refused() {
    let db = RootDatabase::default();
    let text = "(game Broken (players White Black) (board (tiling square) (size 3 3)))";
    let file = SourceFile::new(
        &db,
        "broken.ludi".into(),
        Syntax::Ludi,
        Arc::from(text),
        None,
    );
    assert!(
        ludi_engine_for(&db, file).is_err(),
        "no end: an error, not a game"
    );
}

/// A boardless game is valid Ludi but has no finite board to play on: the engine says so in an
/// info diagnostic instead of playing some other game.
#[test]
fn what_the_engine_cannot_play_is_named_in_an_info_diagnostic() {
    use ludeme_analysis::Severity;
    use ludeme_analysis::ludi::engine::{EngineRefusal, NOT_EXECUTABLE};
    let db = RootDatabase::default();
    let text = "(game Infinite (players White Black) (board (tiling square) (shape boardless) (size 19)) (end (All win (in-a-row 5))))";
    let file = SourceFile::new(
        &db,
        "infinite.ludi".into(),
        Syntax::Ludi,
        Arc::from(text),
        None,
    );
    match ludi_engine_for(&db, file) {
        Err(EngineRefusal::NotExecutable(diagnostic)) => {
            assert_eq!(diagnostic.code, NOT_EXECUTABLE);
            assert_eq!(diagnostic.severity, Severity::Info);
            assert!(
                diagnostic.message.contains("boardless"),
                "{}",
                diagnostic.message
            );
        }
        Err(other) => panic!("refused for another reason: {other}"),
        Ok(_) => panic!("a boardless game was played"),
    }
}

/// Conditions nested deeper than the engine evaluates (64 levels) are refused with an info
/// diagnostic, whether they are a move's precondition, a number inside one or an end condition.
#[test]
fn conditions_nested_too_deep_are_refused() {
    use ludeme_analysis::ludi::engine::EngineRefusal;
    // 70 negations: an even number, so the condition means what the innermost one does.
    let nested = |inner: &str| format!("{}{inner}{}", "(not ".repeat(70), ")".repeat(70));
    let sum = format!("{}1{}", "(+ 1 ".repeat(70), ")".repeat(70));
    let place_with = |pre: &str| {
        format!(
            "(game Deep (players White Black) (board (tiling square i-nbors) (size 3 3)) \
             (pieces (Stone All (moves (move (pre {pre}) (action (push)))))) \
             (end (All win (in-a-row 3))))"
        )
    };
    let games = [
        place_with(&nested("(empty to)")),
        place_with(&format!("(and (empty to) (> {sum} 0))")),
        format!(
            "(game Deep (players White Black) (board (tiling square i-nbors) (size 3 3)) \
             (end (All win {})))",
            nested("(in-a-row 3)")
        ),
    ];
    for text in games {
        let db = RootDatabase::default();
        let file = SourceFile::new(&db, "deep.ludi".into(), Syntax::Ludi, Arc::from(text), None);
        match ludi_engine_for(&db, file) {
            Err(EngineRefusal::NotExecutable(diagnostic)) => assert!(
                diagnostic
                    .message
                    .starts_with("the Ludi engine cannot play conditions nested more than 64 deep"),
                "{}",
                diagnostic.message
            ),
            Err(other) => panic!("refused for another reason: {other}"),
            Ok(_) => panic!("a condition nested 70 deep was played"),
        }
    }
}

/// `(eliminate)` as its manual entry says: no piece on the board or in hand. A player who
/// passed while holding pieces it may place is not eliminated; once it has placed them all and
/// lost them, it is.
#[test]
fn a_player_with_pieces_in_hand_is_not_eliminated() {
    let text = "(game Holding
  (players White Black)
  (board (tiling square i-nbors) (size 3 3))
  (play can-pass)
  (pieces (Piece All (moves (move (pre (empty to)) (action (push))))))
  (start (in-hand (Piece All) 2))
  (end (All win (eliminate))))";
    let game = game_from_text(text);
    let plies: Vec<String> = ["pass", "A1"].iter().map(|p| (*p).to_owned()).collect();
    let state = ludeme_engine::notation::replay(&game, &plies).expect("legal moves");
    assert!(
        !game.is_terminal(&state),
        "White passed holding two pieces: it is not eliminated"
    );
}
