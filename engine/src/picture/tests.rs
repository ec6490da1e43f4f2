//! The pictures against the engines' own geometry: cells that the board graph calls edge
//! neighbours share a side in the picture, and no two cells overlap.

use super::*;
use crate::egg::{self, EggEngine, Goal, LineGoal, Moves, Scoring, Turns};
use crate::ludi::{CellIndex, Shape, Tiling};

const EPSILON: f64 = 1e-9;

/// How many corners two cells have in common.
fn shared_corners(a: &Cell, b: &Cell) -> usize {
    a.outline
        .iter()
        .filter(|p| {
            b.outline
                .iter()
                .any(|q| (p.x - q.x).abs() < EPSILON && (p.y - q.y).abs() < EPSILON)
        })
        .count()
}

/// Edge neighbours share a side; all other cells of a layer share at most a corner and have
/// centres apart.
fn assert_drawn_as_the_graph_says(picture: &Picture, neighbours: impl Fn(usize) -> Vec<usize>) {
    for (a, cell) in picture.cells.iter().enumerate() {
        let near = neighbours(a);
        for (b, other) in picture.cells.iter().enumerate().skip(a + 1) {
            let shared = shared_corners(cell, other);
            if near.contains(&b) {
                assert_eq!(shared, 2, "cells {a} and {b} are neighbours");
            } else {
                assert!(shared < 2, "cells {a} and {b} share a side");
                let (p, q) = (cell.centre(), other.centre());
                assert!(
                    (p.x - q.x).hypot(p.y - q.y) > 0.5,
                    "cells {a} and {b} overlap"
                );
            }
        }
    }
}

#[test]
fn ludi_boards_are_drawn_as_their_graphs() {
    let boards = [
        (Tiling::Square, Shape::Square, vec![4, 3]),
        (Tiling::Hex, Shape::Hex, vec![4]),
        (Tiling::Hex, Shape::Rhombus, vec![5, 4]),
        (Tiling::Hex, Shape::Tri, vec![5]),
        (Tiling::Hex, Shape::Trapezium, vec![4, 3]),
        (Tiling::Tri, Shape::Tri, vec![5]),
        (Tiling::TruncSquare, Shape::Square, vec![4]),
    ];
    for (tiling, shape, size) in boards {
        let game = crate::ludi::placement_test_game(tiling, shape, &size);
        let picture = game.picture(&game.initial_state());
        assert_eq!(picture.cells.len(), game.board().cell_count());
        let board = game.board();
        assert_drawn_as_the_graph_says(&picture, |cell| {
            board
                .direct_neighbours(cell as CellIndex)
                .iter()
                .map(|&n| usize::from(n))
                .collect()
        });
    }
}

#[test]
fn the_layers_of_a_3d_board_stand_side_by_side() {
    let game = crate::ludi::placement_test_game(Tiling::Square, Shape::Square, &[3, 3, 3]);
    let picture = game.picture(&game.initial_state());
    assert_eq!(picture.cells.len(), 27);
    let captions: Vec<&str> = picture.captions.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(captions, ["layer 1", "layer 2", "layer 3"]);
    // Within a layer, neighbours share a side; across layers, cells are apart.
    let board = game.board();
    let layer = |cell: usize| board.coordinates(cell as CellIndex).expect("on the board")[2];
    assert_drawn_as_the_graph_says(&picture, |cell| {
        board
            .direct_neighbours(cell as CellIndex)
            .iter()
            .map(|&n| usize::from(n))
            .filter(|&n| layer(n) == layer(cell))
            .collect()
    });
}

#[test]
fn ludi_pieces_stand_on_their_cells_with_their_owners() {
    let game = crate::ludi::placement_test_game(Tiling::Hex, Shape::Hex, &[3]);
    let a1 = game.cell("A1").expect("a corner");
    let c3 = game.cell("C3").expect("the centre");
    let state = [a1, c3].iter().fold(game.initial_state(), |state, &cell| {
        let moves = game.legal_moves(&state, state.mover());
        let place = moves.into_iter().find(|m| m.to == cell).expect("free");
        let mut joint = vec![crate::ludi::LudiMove::NOOP; 2];
        joint[state.mover()] = place;
        game.next_state(&state, &joint)
    });
    let picture = game.picture(&state);
    let placed: Vec<(Option<&str>, Option<usize>)> = picture
        .pieces
        .iter()
        .map(|p| (picture.cells[p.cell].label.as_deref(), p.owner))
        .collect();
    assert_eq!(placed, [(Some("A1"), Some(0)), (Some("C3"), Some(1))]);
    assert_eq!(picture.notes, ["to move: White"]);
}

fn egg_game(width: usize, height: usize, hexagons: bool, outline: Option<Vec<bool>>) -> EggEngine {
    let mut board = egg::Board::rectangle(width, height);
    board.hexagon_cells = hexagons;
    if let Some(present) = outline {
        board.present = present;
    }
    let axes = if hexagons {
        vec![(1, 0), (0, 1), (1, -1)]
    } else {
        vec![(1, 0), (0, 1), (1, 1), (1, -1)]
    };
    EggEngine::new(egg::Description {
        roles: vec!["x".into(), "o".into()],
        pieces: vec!["X".into(), "O".into()],
        board,
        turns: Turns::Alternate { order: vec![0, 1] },
        moves: Moves::Place {
            piece_of_role: vec![0, 1],
        },
        goal: Goal::Lines(vec![LineGoal { length: 3, axes }]),
        scoring: Scoring::FirstGoalWins,
    })
    .expect("playable")
}

/// The cells one step along the edge axes of an EGGG board.
fn egg_neighbours(game: &EggEngine, axes: &[(i64, i64)], cell: usize) -> Vec<usize> {
    let board = &game.description().board;
    let (width, height) = (board.width as i64, board.height as i64);
    let (x, y) = (cell as i64 % width, cell as i64 / width);
    let index_of_present = |c: usize| board.present[..c].iter().filter(|&&p| p).count();
    axes.iter()
        .flat_map(|&(dx, dy)| [(x + dx, y + dy), (x - dx, y - dy)])
        .filter(|&(nx, ny)| (0..width).contains(&nx) && (0..height).contains(&ny))
        .map(|(nx, ny)| (ny * width + nx) as usize)
        .filter(|&n| board.present[n])
        .map(index_of_present)
        .collect()
}

#[test]
fn egg_grids_of_squares_and_hexagons_are_drawn_as_their_axes() {
    let squares = egg_game(4, 3, false, None);
    let picture = squares.picture(&squares.initial_state());
    assert_eq!(picture.cells.len(), 12);
    assert_drawn_as_the_graph_says(&picture, |cell| {
        egg_neighbours(&squares, &[(1, 0), (0, 1)], cell)
    });
    // A hexagon of side 3 cut from a 5 × 5 rhombus, as `board is hexagon` makes it.
    let present = (0..25)
        .map(|cell: i64| {
            let (q, r) = (cell % 5 - 2, cell / 5 - 2);
            (q.abs() + r.abs() + (q + r).abs()) / 2 <= 2
        })
        .collect();
    let hexagon = egg_game(5, 5, true, Some(present));
    let picture = hexagon.picture(&hexagon.initial_state());
    assert_eq!(picture.cells.len(), 19);
    let present_cells: Vec<usize> = (0..25)
        .filter(|&c| hexagon.description().board.present[c])
        .collect();
    assert_drawn_as_the_graph_says(&picture, |index| {
        egg_neighbours(&hexagon, &[(1, 0), (0, 1), (1, -1)], present_cells[index])
    });
}

#[test]
fn inner_radius_of_a_unit_square_is_a_half() {
    let cell = Cell {
        outline: unit_square(2.0, 3.0),
        label: None,
        shade: 0,
    };
    assert!((cell.inner_radius() - 0.5).abs() < EPSILON);
    assert_eq!(cell.centre(), Point::new(2.5, 3.5));
}
