//! Engine unit tests on hand-built descriptions: positions worked out by hand, and the fast
//! playout against the step-by-step one.

use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::*;
use crate::Game;
use crate::playout::{PlayoutEnd, step_by_step_playout};

const SQUARE_AXES: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

fn placing(width: usize, height: usize, length: usize, scoring: Scoring) -> Description {
    Description {
        roles: vec!["x".into(), "o".into()],
        pieces: vec!["X".into(), "O".into()],
        board: Board::rectangle(width, height),
        turns: Turns::Alternate { order: vec![0, 1] },
        moves: Moves::Place {
            piece_of_role: vec![0, 1],
        },
        goal: Goal::Lines(vec![LineGoal {
            length,
            axes: SQUARE_AXES.to_vec(),
        }]),
        scoring,
    }
}

fn tic_tac_toe() -> EggEngine {
    EggEngine::new(placing(3, 3, 3, Scoring::FirstGoalWins)).expect("playable")
}

fn rock_paper_scissors() -> EggEngine {
    use ChoiceTest::{Opponent, Own};
    let (rock, paper, scissors) = (0, 1, 2);
    EggEngine::new(Description {
        roles: vec!["player".into(), "opponent".into()],
        pieces: vec!["Rock".into(), "Paper".into(), "Scissors".into()],
        board: Board::rectangle(3, 1),
        turns: Turns::Simultaneous,
        moves: Moves::Choose {
            options: vec![rock, paper, scissors],
        },
        goal: Goal::Outcome(vec![
            vec![Own(rock), Opponent(scissors)],
            vec![Own(scissors), Opponent(paper)],
            vec![Own(paper), Opponent(rock)],
        ]),
        scoring: Scoring::CountGoals,
    })
    .expect("playable")
}

/// Plays the cells in order, x first, and returns the final state.
fn play_cells(game: &EggEngine, cells: &[u16]) -> EggState {
    let mut state = game.initial_state();
    for (ply, &cell) in cells.iter().enumerate() {
        let joint = if ply % 2 == 0 {
            [EggMove::Place(cell), EggMove::Pass]
        } else {
            [EggMove::Pass, EggMove::Place(cell)]
        };
        assert!(!game.is_terminal(&state), "ply {ply} is played");
        let mover = ply % 2;
        assert!(
            game.legal_moves(&state, mover).contains(&joint[mover]),
            "cell {cell} is free at ply {ply}"
        );
        state = game.next_state(&state, &joint);
    }
    state
}

#[test]
fn the_mover_places_on_empty_cells_and_the_other_passes() {
    let game = tic_tac_toe();
    let start = game.initial_state();
    assert_eq!(game.legal_moves(&start, 0).len(), 9);
    assert_eq!(game.legal_moves(&start, 1), vec![EggMove::Pass]);
    let after = game.next_state(&start, &[EggMove::Place(4), EggMove::Pass]);
    assert_eq!(after.piece_at(4), Some(0));
    assert_eq!(game.legal_moves(&after, 0), vec![EggMove::Pass]);
    assert!(!game.legal_moves(&after, 1).contains(&EggMove::Place(4)));
}

#[test]
fn three_in_a_diagonal_wins_and_ends_the_game() {
    let game = tic_tac_toe();
    // x: 0, 4, 8 (the main diagonal); o: 1, 2.
    let state = play_cells(&game, &[0, 1, 4, 2, 8]);
    assert!(game.is_terminal(&state));
    assert_eq!(game.goals(&state), vec![100, 0]);
    assert!(game.legal_moves(&state, 0).is_empty());
}

#[test]
fn the_anti_diagonal_and_columns_count_too() {
    let game = tic_tac_toe();
    // x: 2, 4, 6 (the other diagonal).
    let state = play_cells(&game, &[2, 0, 4, 1, 6]);
    assert_eq!(game.goals(&state), vec![100, 0]);
    // o: 1, 4, 7 (the middle column).
    let state = play_cells(&game, &[0, 1, 2, 4, 8, 7]);
    assert_eq!(game.goals(&state), vec![0, 100]);
}

#[test]
fn a_full_board_without_a_line_is_a_draw() {
    let game = tic_tac_toe();
    // x o x / x o o / o x x
    let state = play_cells(&game, &[0, 1, 2, 4, 3, 5, 7, 6, 8]);
    assert!(game.is_terminal(&state));
    assert_eq!(game.goals(&state), vec![50, 50]);
}

/// Lines do not wrap around the board's edge: cells 2, 3, 4 of a 3-wide board are not a row.
#[test]
fn lines_stop_at_the_edge() {
    let game = tic_tac_toe();
    let state = play_cells(&game, &[2, 0, 3, 8, 5]);
    // x holds 2, 3, 5: 2 and 3 are on different rows; 2 and 5 are a column of two.
    assert!(!game.is_terminal(&state));
}

#[test]
fn counted_goals_play_on_and_the_higher_score_wins() {
    let game = EggEngine::new(placing(4, 1, 2, Scoring::CountGoals)).expect("playable");
    // A row of four, pairs score: x 0, o 3, x 1 (x's pair), o 2 (o's pair): a tie.
    let state = play_cells(&game, &[0, 3, 1]);
    assert_eq!(state.scores(), &[1, 0]);
    assert!(
        !game.is_terminal(&state),
        "a counted goal does not end the game"
    );
    let state = play_cells(&game, &[0, 3, 1, 2]);
    assert!(game.is_terminal(&state), "the board is full");
    assert_eq!(state.scores(), &[1, 1]);
    assert_eq!(game.goals(&state), vec![50, 50]);
    // A row of five: x 0, o 4, x 1 (x's pair), o 2 and x 3 make no pair.
    let game = EggEngine::new(placing(5, 1, 2, Scoring::CountGoals)).expect("playable");
    let state = play_cells(&game, &[0, 4, 1, 2, 3]);
    assert_eq!(state.scores(), &[1, 0]);
    assert_eq!(game.goals(&state), vec![100, 0]);
}

#[test]
fn rock_breaks_scissors_and_equal_choices_draw() {
    let game = rock_paper_scissors();
    let start = game.initial_state();
    assert_eq!(game.legal_moves(&start, 0).len(), 3);
    assert_eq!(game.legal_moves(&start, 1).len(), 3);
    let (rock, paper, scissors) = (EggMove::Choose(0), EggMove::Choose(1), EggMove::Choose(2));
    let outcome = |a, b| {
        let state = game.next_state(&start, &[a, b]);
        assert!(game.is_terminal(&state));
        game.goals(&state)
    };
    assert_eq!(outcome(rock, scissors), vec![100, 0]);
    assert_eq!(outcome(rock, paper), vec![0, 100]);
    assert_eq!(outcome(scissors, paper), vec![100, 0]);
    assert_eq!(outcome(paper, paper), vec![50, 50]);
}

#[test]
fn alternating_choices_end_when_everyone_has_chosen() {
    let mut description = rock_paper_scissors().description().clone();
    description.turns = Turns::Alternate { order: vec![0, 1] };
    let game = EggEngine::new(description).expect("playable");
    let start = game.initial_state();
    assert_eq!(game.legal_moves(&start, 1), vec![EggMove::Pass]);
    let half = game.next_state(&start, &[EggMove::Choose(1), EggMove::Pass]);
    assert!(!game.is_terminal(&half));
    let end = game.next_state(&half, &[EggMove::Pass, EggMove::Choose(0)]);
    assert_eq!(game.goals(&end), vec![100, 0], "paper covers rock");
}

#[test]
fn illegal_moves_leave_the_position_alone() {
    let game = tic_tac_toe();
    let start = game.initial_state();
    let after = game.next_state(&start, &[EggMove::Place(40), EggMove::Place(1)]);
    assert_eq!(after.piece_at(1), None, "not o's turn");
    assert!((0..9).all(|cell| after.piece_at(cell).is_none()));
}

/// A hexagon cut out of a 5 × 5 rhombus of hexagons (axial coordinates, axes (1,0), (0,1) and
/// (1,-1)): 19 cells, and three in a row along the third axis wins.
#[test]
fn hexagonal_boards_use_their_own_axes() {
    let mut description = placing(5, 5, 3, Scoring::FirstGoalWins);
    let centre = 2i32;
    description.board.present = (0..25)
        .map(|cell| {
            let (q, r) = (cell % 5 - centre, cell / 5 - centre);
            (q.abs() + r.abs() + (q + r).abs()) / 2 <= 2
        })
        .collect();
    description.goal = Goal::Lines(vec![LineGoal {
        length: 3,
        axes: vec![(1, 0), (0, 1), (1, -1)],
    }]);
    let game = EggEngine::new(description).expect("playable");
    let start = game.initial_state();
    assert_eq!(game.legal_moves(&start, 0).len(), 19);
    // (q, r) = (2, 2), (3, 1), (4, 0) lie on the (1, -1) axis: cells 12, 8, 4; o takes 2 and 3.
    let state = play_cells(&game, &[12, 2, 8, 3, 4]);
    assert!(game.is_terminal(&state));
    assert_eq!(game.goals(&state), vec![100, 0]);
    // (1, 1) is a square diagonal, not a hexagon axis: cells 6, 12, 18 are no line.
    let state = play_cells(&game, &[6, 2, 12, 3, 18]);
    assert_eq!(game.legal_moves(&state, 1).len(), 14);
    assert!(!game.is_terminal(&state));
}

#[test]
fn the_fast_playout_draws_exactly_as_the_step_by_step_one() {
    for game in [tic_tac_toe(), rock_paper_scissors()] {
        let start = game.initial_state();
        for seed in 0..200 {
            let fast = game.random_playout(&start, &mut SmallRng::seed_from_u64(seed), 100);
            let slow = step_by_step_playout(&game, &start, &mut SmallRng::seed_from_u64(seed), 100);
            assert_eq!(fast, slow, "seed {seed}");
            assert_eq!(fast.end, PlayoutEnd::Terminal);
        }
    }
}

#[test]
fn descriptions_that_do_not_fit_together_are_refused() {
    let mut simultaneous = placing(3, 3, 3, Scoring::FirstGoalWins);
    simultaneous.turns = Turns::Simultaneous;
    assert!(EggEngine::new(simultaneous).is_err());
    let mut no_cells = placing(3, 3, 3, Scoring::FirstGoalWins);
    no_cells.board = Board::rectangle(0, 3);
    assert!(EggEngine::new(no_cells).is_err());
    let mut unknown_piece = placing(3, 3, 3, Scoring::FirstGoalWins);
    unknown_piece.moves = Moves::Place {
        piece_of_role: vec![0, 7],
    };
    assert!(EggEngine::new(unknown_piece).is_err());
    let mut three_players = rock_paper_scissors().description().clone();
    three_players.roles.push("third".into());
    let error = EggEngine::new(three_players).expect_err("an opponent of whom?");
    assert!(error.to_string().contains("3 players"), "{error}");
}
