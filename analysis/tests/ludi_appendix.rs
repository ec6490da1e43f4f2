//! The constructs of Appendix I that the first Ludi engine left out, each played in its corpus
//! game (`corpus/ludi/`, written for the project): a scripted move sequence, read through the
//! same move names `ludeme play` takes, and its effect on the board or the seats checked.

mod support;

use std::sync::Arc;

use ludeme_analysis::ludi::engine::ludi_engine_for;
use ludeme_analysis::{RootDatabase, SourceFile, Syntax};
use ludeme_engine::Game;
use ludeme_engine::ludi::{LudiGame, LudiMove, LudiState, MoveKind};
use ludeme_engine::notation::replay;

fn load(name: &str) -> LudiGame {
    let path = support::project_root().join("corpus/ludi").join(name);
    let text = std::fs::read_to_string(&path).expect("readable");
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, path.clone(), Syntax::Ludi, Arc::from(text), None);
    ludi_engine_for(&db, file).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The state after the plies, each a move name as `ludeme play` reads it.
fn play(game: &LudiGame, plies: &[&str]) -> LudiState {
    let plies: Vec<String> = plies.iter().map(|p| (*p).to_owned()).collect();
    replay(game, &plies).unwrap_or_else(|e| panic!("{plies:?}: {e:?}"))
}

/// The owner (colour index) of the top piece on the named cell.
fn owner(game: &LudiGame, state: &LudiState, cell: &str) -> Option<usize> {
    state.owner(game.cell(cell).expect("a cell of the board"))
}

fn real_moves(game: &LudiGame, state: &LudiState, role: usize) -> Vec<LudiMove> {
    game.legal_moves(state, role)
        .into_iter()
        .filter(|m| m.kind != MoveKind::Noop)
        .collect()
}

#[test]
fn a_pie_rule_swap_changes_the_seats() {
    let game = load("hex-swap.ludi");
    let opening = play(&game, &["A1"]);
    assert!(
        real_moves(&game, &opening, 1)
            .iter()
            .any(|m| m.kind == MoveKind::Swap),
        "the second player is offered the swap after the first move"
    );
    let swapped = play(&game, &["A1", "swap"]);
    assert!(swapped.seats_swapped());
    // The board is as it was: the stone is White's (colour 0), now played by the second role.
    assert_eq!(owner(&game, &swapped, "A1"), Some(0));
    assert_eq!(swapped.colour_of(1), 0);
    // Black's colour moves next, played by the first role; the second role waits.
    assert_eq!(swapped.mover(), 1);
    assert!(!real_moves(&game, &swapped, 0).is_empty());
    assert!(real_moves(&game, &swapped, 1).is_empty());
    let after = play(&game, &["A1", "swap", "B1"]);
    assert_eq!(
        owner(&game, &after, "B1"),
        Some(1),
        "the first role places black"
    );
    assert!(
        !real_moves(&game, &after, 1)
            .iter()
            .any(|m| m.kind == MoveKind::Swap),
        "the swap is offered only once"
    );
    // White's column A joins north and south: the second role, who took White's seat, wins.
    let won = play(
        &game,
        &["A1", "swap", "B1", "A2", "B2", "A3", "B3", "A4", "B4", "A5"],
    );
    assert!(game.is_terminal(&won));
    assert_eq!(game.goals(&won), [0, 100]);
}

#[test]
fn without_the_swap_the_seats_stay() {
    let game = load("hex-swap.ludi");
    let won = play(
        &game,
        &["A1", "B1", "A2", "B2", "A3", "B3", "A4", "B4", "A5"],
    );
    assert!(!won.seats_swapped());
    assert_eq!(game.goals(&won), [100, 0]);
}

/// Whether the plies can be played in order.
fn playable(game: &LudiGame, plies: &[&str]) -> bool {
    let plies: Vec<String> = plies.iter().map(|p| (*p).to_owned()).collect();
    replay(game, &plies).is_ok()
}

#[test]
fn a_flag_set_by_one_move_enables_another() {
    let game = load("sentries.ludi");
    let armed = |state: &LudiState, cell: &str| state.piece(game.cell(cell).unwrap()).flags != 0;
    let stepped = play(&game, &["B1-B2"]);
    assert!(armed(&stepped, "B2"), "stepping forward sets the flag");
    assert!(
        !armed(&stepped, "A1"),
        "a soldier that has not moved is unarmed"
    );
    // Black's soldier steps forward (armed) and takes the white soldier beside it.
    let taken = play(&game, &["B1-B2", "C5-C4", "B2-B3", "C4-B3"]);
    assert_eq!(owner(&game, &taken, "B3"), Some(1));
    assert!(!armed(&taken, "B3"), "the capture clears the flag");
    // White's C2 is beside the disarmed black soldier, which may not take it ...
    assert!(!playable(
        &game,
        &["B1-B2", "C5-C4", "B2-B3", "C4-B3", "C1-C2", "B3-C2"]
    ));
    // ... until a step forward arms it again.
    let again = play(
        &game,
        &[
            "B1-B2", "C5-C4", "B2-B3", "C4-B3", "C1-C2", "B3-B2", "E1-E2", "B2-C2",
        ],
    );
    assert_eq!(owner(&game, &again, "C2"), Some(1));
}

#[test]
fn a_move_changes_a_cells_state() {
    let game = load("scorched-earth.ludi");
    let cell = |name: &str| game.cell(name).unwrap();
    let start = play(&game, &[]);
    assert_eq!(start.cell_state(cell("C1")), 0);
    let moved = play(&game, &["C1-C2"]);
    assert_eq!(moved.cell_state(cell("C1")), 1, "the cell left is scorched");
    assert_eq!(moved.cell_state(cell("C2")), 0);
    // Nobody may enter a scorched cell again; an unscorched one is open.
    assert!(!playable(&game, &["C1-C2", "C5-C4", "C2-C1"]));
    assert!(playable(&game, &["C1-C2", "C5-C4", "C2-B1"]));
}

#[test]
fn a_placement_displaces_its_neighbours() {
    let game = load("shove.ludi");
    let pushed = play(&game, &["C3", "C4"]);
    assert_eq!(owner(&game, &pushed, "C4"), Some(1));
    assert_eq!(
        owner(&game, &pushed, "C3"),
        None,
        "the white stone was pushed away"
    );
    assert_eq!(owner(&game, &pushed, "C2"), Some(0));
    let again = play(&game, &["C3", "C4", "C5"]);
    assert_eq!(owner(&game, &again, "C3"), Some(1), "pushed south by C5");
    assert_eq!(owner(&game, &again, "C4"), None);
    // A stone with no empty cell beyond stays where it is.
    let blocked = play(&game, &["C3", "C4", "C5", "C1"]);
    assert_eq!(owner(&game, &blocked, "C2"), Some(0));
    assert_eq!(owner(&game, &blocked, "C3"), Some(1));
    assert_eq!(owner(&game, &blocked, "C1"), Some(1));
}
