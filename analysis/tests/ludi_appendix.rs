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

#[test]
fn a_rotation_turns_the_piece_and_its_forward_moves() {
    let game = load("turnstiles.ludi");
    let cell = |name: &str| game.cell(name).unwrap();
    let north = game.board().direction_of([0, 1, 0]);
    let east = game.board().direction_of([1, 0, 0]);
    let start = play(&game, &[]);
    assert_eq!(start.piece(cell("B1")).turn, 0);
    assert_eq!(
        game.facing(&start, cell("B1")),
        north,
        "facing its owner's way"
    );
    // The third rule of the step turns the walker right as it arrives on B2.
    let turned = play(&game, &["B1-B2 #3"]);
    assert_eq!(game.facing(&turned, cell("B2")), east);
    assert_eq!(
        game.facing(&turned, cell("C1")),
        north,
        "the others do not turn"
    );
    // Its next step forwards goes east, not north.
    assert!(playable(&game, &["B1-B2 #3", "A6-A5", "B2-C2"]));
    assert!(!playable(&game, &["B1-B2 #3", "A6-A5", "B2-B3"]));
    // Turning left again faces it north; a plain step keeps its heading.
    let back = play(&game, &["B1-B2 #3", "A6-A5", "B2-C2 #2", "A5-A4", "C2-C3"]);
    assert_eq!(owner(&game, &back, "C3"), Some(0));
    assert_eq!(game.facing(&back, cell("C3")), north);
}

#[test]
fn a_placement_keeps_its_cell_phase_and_its_symmetric_image() {
    let game = load("phalanx.ludi");
    let start = play(&game, &[]);
    let owners = |player: usize| -> Vec<String> {
        let mut cells: Vec<String> = ["A", "B", "C", "D", "E", "F"]
            .iter()
            .flat_map(|column| (1..=6).map(move |row| format!("{column}{row}")))
            .filter(|name| owner(&game, &start, name) == Some(player))
            .collect();
        cells.sort();
        cells
    };
    // The dark cells (phase 1) of the first two rows, and their images under a half turn.
    assert_eq!(owners(0), ["A2", "B1", "C2", "D1", "E2", "F1"]);
    assert_eq!(owners(1), ["A6", "B5", "C6", "D5", "E6", "F5"]);
}

#[test]
fn adjacency_constraints_count_corner_neighbours_in_chains_and_lines() {
    let game = load("diagonals.ludi");
    // White's zigzag joins west and east only corner to corner; it has no line of four.
    let zigzag = [
        "A1", "A4", "B2", "C4", "C1", "E4", "D2", "B6", "E1", "D6", "F2",
    ];
    let before = play(&game, &zigzag[..zigzag.len() - 1]);
    assert!(!game.is_terminal(&before));
    let joined = play(&game, &zigzag);
    assert!(game.is_terminal(&joined));
    assert_eq!(game.goals(&joined), [100, 0], "the diagonal chain connects");
    // Four along a diagonal is a line under i-nbors, though the board's lines run orthogonally.
    let line = play(&game, &["A1", "A6", "B2", "C6", "C3", "E6", "D4"]);
    assert!(game.is_terminal(&line));
    assert_eq!(game.goals(&line), [0, 100], "White's diagonal four loses");
}

#[test]
fn stacking_constraints_need_pure_stacks_and_high_groups_across_edges() {
    let game = load("towers.ludi");
    // Three discs on A1, the middle one Black's: not a pure stack.
    let mixed = play(&game, &["A1", "A1", "A1"]);
    assert!(!game.is_terminal(&mixed));
    let pure = play(
        &game,
        &["A1", "A1", "A1", "D4", "B2", "C4", "B2", "D3", "B2"],
    );
    assert!(game.is_terminal(&pure));
    assert_eq!(game.goals(&pure), [100, 0], "three white discs on B2");
    // Three white stacks two high in a column make a group across edges ...
    let column = [
        "A1", "D4", "A1", "C4", "A2", "D3", "A2", "B4", "A3", "D1", "A3",
    ];
    assert!(!game.is_terminal(&play(&game, &column[..column.len() - 1])));
    let grouped = play(&game, &column);
    assert!(game.is_terminal(&grouped));
    assert_eq!(game.goals(&grouped), [100, 0]);
    // ... but not along a diagonal (d-nbors), nor with stacks one high.
    let diagonal = [
        "A1", "D4", "A1", "C4", "B2", "D3", "B2", "B4", "C3", "D1", "C3",
    ];
    assert!(!game.is_terminal(&play(&game, &diagonal)));
    let low = play(&game, &["A1", "D4", "A2", "C4", "A3"]);
    assert!(!game.is_terminal(&low));
}

#[test]
fn game_parameters_and_a_piece_set_name_leave_the_rules_as_they_are() {
    let game = load("four-in-a-row-params.ludi");
    assert_eq!(game.description().name, "Four-in-a-Row");
    let won = play(&game, &["A1", "A2", "B1", "B2", "C1", "C2", "D1"]);
    assert!(game.is_terminal(&won));
    assert_eq!(game.goals(&won), [100, 0]);
}

/// A game using the ludemes of Appendix I added last (orientation, place specifiers, end
/// condition constraints), for the editor's completion and hover.
const EDITED: &str = "(game T
  (players (White N) (Black S))
  (board (tiling square) (size 6 6) (regions (West White W) (East White E)))
  (pieces
    (Walker All (moves (move (dirn f) (pre (empty to)) (action (pop) (push)) (post (rotate r)))))
    Walkers)
  (start (place (Walker White) West (cell-phase 1) (symmetric half-turn Black)))
  (end
    (All win (connect own-regions i-nbors (min-height 2)))
    (All win (in-a-row 4 d-nbors))
    (All win (stack 3 pure))))";

/// The new ludemes, each with its kind as the manual names it and its manual anchor.
const NEW_LUDEMES: &[(&str, &str, &str)] = &[
    ("rotate", "a post-condition", "effect-rotate"),
    ("cell-phase", "a part of a ludeme", "part-cell-phase"),
    ("symmetric", "a part of a ludeme", "part-symmetric"),
    ("half-turn", "a board symmetry", "symmetry-half-turn"),
    ("min-height", "a part of a ludeme", "part-min-height"),
    ("d-nbors", "a part of a ludeme", "part-d-nbors"),
    ("pure", "a part of a ludeme", "part-pure"),
];

fn ludi_file(db: &RootDatabase, text: &str) -> SourceFile {
    SourceFile::new(
        db,
        "edited.ludi".into(),
        Syntax::Ludi,
        Arc::from(text),
        None,
    )
}

#[test]
fn completion_offers_the_new_ludemes_where_they_fit() {
    for &(name, _, _) in NEW_LUDEMES {
        // The ludeme's name cut to its first three letters, the cursor after them.
        let at = EDITED.find(name).expect("the game uses it");
        let text = format!("{}{}", &EDITED[..at + 3], &EDITED[at + name.len()..]);
        let db = RootDatabase::default();
        let file = ludi_file(&db, &text);
        let offered = ludeme_analysis::ide::completions(&db, file, at + 3);
        let labels: Vec<&str> = offered.items.iter().map(|c| c.label.as_str()).collect();
        assert!(labels.contains(&name), "{name}: offered {labels:?}");
    }
    // Both symmetries where one is expected.
    let at = EDITED.find("half-turn").unwrap();
    let text = format!("{}{}", &EDITED[..at], &EDITED[at + "half-turn".len()..]);
    let db = RootDatabase::default();
    let file = ludi_file(&db, &text);
    let offered = ludeme_analysis::ide::completions(&db, file, at);
    for symmetry in ["half-turn", "reflect"] {
        assert!(
            offered.items.iter().any(|c| c.label == symmetry),
            "{symmetry}"
        );
    }
}

#[test]
fn hover_describes_the_new_ludemes() {
    let db = RootDatabase::default();
    let file = ludi_file(&db, EDITED);
    for &(name, kind, anchor) in NEW_LUDEMES {
        let at = EDITED.find(name).unwrap();
        let hover = ludeme_analysis::ide::hover(&db, file, at + 1)
            .unwrap_or_else(|| panic!("{name}: no hover"));
        assert!(
            hover.markdown.contains(&format!("**{name}** ({kind})")),
            "{name}: {}",
            hover.markdown
        );
        assert!(
            hover.markdown.contains(&format!("docs/ludi.md#{anchor}")),
            "{name}: {}",
            hover.markdown
        );
    }
}
