//! Ludi positions: cells from the board graph's coordinates (module `ludi::board` describes
//! them), named as moves name them, with the pieces and stacks, the hands and scores.

use super::{Caption, Cell, Depict, Picture, PieceMark, Point, hexagon_centre, regular_polygon};
use crate::Game;
use crate::ludi::{CellIndex, LudiGame, LudiState, Tiling, UNLIMITED};

/// Space between the layers of a 3-D board, in cells.
const LAYER_GAP: f64 = 1.0;

impl Depict for LudiGame {
    fn picture(&self, state: &LudiState) -> Picture {
        let board = self.board();
        let tiling = self.description().board.tiling;
        let cells: Vec<[i32; 3]> = (0..board.cell_count())
            .filter_map(|cell| board.coordinates(cell as CellIndex))
            .collect();
        let width = cells.iter().map(|c| c[0]).max().map_or(0, |x| x + 1);
        let depth = cells.iter().map(|c| c[2]).max().map_or(0, |z| z + 1);
        let mut picture = Picture {
            roles: self.roles().to_vec(),
            ..Picture::default()
        };
        for (index, &coordinates) in cells.iter().enumerate() {
            let cell = index as CellIndex;
            let outline = outline(tiling, coordinates, width);
            picture.cells.push(Cell {
                outline,
                label: Some(self.cell_name(cell)),
                shade: board.phase(cell),
            });
            let top = state.piece(cell);
            if !top.is_empty() {
                let name = self
                    .description()
                    .pieces
                    .get(usize::from(top.kind))
                    .map_or_else(|| "?".to_owned(), |piece| piece.name.clone());
                picture.pieces.push(PieceMark {
                    cell: index,
                    owner: Some(usize::from(top.owner)),
                    name,
                    count: state.height(cell),
                });
            }
        }
        if depth > 1 {
            let top_row = cells.iter().map(|c| c[1]).max().unwrap_or(0);
            for layer in 0..depth {
                let left = f64::from(layer) * (f64::from(width) + LAYER_GAP);
                picture.captions.push(Caption {
                    at: Point::new(left + f64::from(width) / 2.0, f64::from(top_row) + 1.3),
                    text: format!("layer {}", layer + 1),
                });
            }
        }
        picture.notes = self.notes(state);
        picture
    }
}

/// The polygon of the cell at `c` (column, row, layer); `width` is the number of columns, by
/// which layers are set apart.
fn outline(tiling: Tiling, c: [i32; 3], width: i32) -> Vec<Point> {
    let (x, y) = (f64::from(c[0]), f64::from(c[1]));
    match tiling {
        Tiling::Square => {
            let left = x + f64::from(c[2]) * (f64::from(width) + LAYER_GAP);
            super::unit_square(left, y)
        }
        Tiling::Hex => regular_polygon(
            hexagon_centre(i64::from(c[0]), i64::from(c[1]), -0.5),
            6,
            1.0,
            30.0,
        ),
        Tiling::Tri => triangle(c[0], c[1]),
        Tiling::TruncSquare => {
            // Octagons 2 apart with flat sides facing each other: edge s, 2 = s (1 + √2).
            let edge = 2.0 / (1.0 + 2f64.sqrt());
            let centre = Point::new(x, y);
            if c[0] % 2 == 0 {
                let radius = (1.0 + (edge / 2.0).powi(2)).sqrt();
                let half_angle = (edge / 2.0).atan2(1.0).to_degrees();
                regular_polygon(centre, 8, radius, -half_angle)
            } else {
                // The small square between four octagons, standing on a corner.
                regular_polygon(centre, 4, 1.0 - edge / 2.0, 0.0)
            }
        }
    }
}

/// The triangle (x, y) of the triangular tiling: row y holds 2y + 1 triangles between the
/// lattice lines y and y + 1, even x with one corner on line y, odd x with two (the board
/// graph's `triangles_touch` uses the same corners). Lattice point (a, b) sits at
/// (a − b/2, b·√3/2), so that the lines are rows of equilateral triangles.
fn triangle(x: i32, y: i32) -> Vec<Point> {
    let point = |a: i32, b: i32| {
        Point::new(
            f64::from(a) - f64::from(b) / 2.0,
            f64::from(b) * 3f64.sqrt() / 2.0,
        )
    };
    let k = x.div_euclid(2);
    if x % 2 == 0 {
        vec![point(k, y), point(k + 1, y + 1), point(k, y + 1)]
    } else {
        vec![point(k, y), point(k + 1, y), point(k + 1, y + 1)]
    }
}

impl LudiGame {
    /// What the position holds besides the board: whose turn or the result, the pieces in
    /// hand, the scores and the captures.
    fn notes(&self, state: &LudiState) -> Vec<String> {
        let players = self.roles();
        let player = |index: usize| players.get(index).map_or("?", String::as_str);
        let mut notes = Vec::new();
        match state.result() {
            Some(goals) => notes.push(format!(
                "over: {}",
                goals
                    .iter()
                    .enumerate()
                    .map(|(role, goal)| format!("{} {goal}", player(role)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            None => notes.push(format!("to move: {}", player(state.mover()))),
        }
        let pieces = &self.description().pieces;
        if !pieces.is_empty() {
            for (slot, &held) in state.hands.iter().enumerate() {
                let (owner, kind) = (slot / pieces.len(), slot % pieces.len());
                if held != UNLIMITED {
                    notes.push(format!(
                        "{} holds {held} {}",
                        player(owner),
                        pieces[kind].name
                    ));
                }
            }
        }
        if state.scores.iter().any(|&score| score != 0) {
            notes.push(format!("scores: {}", tally(players, &state.scores)));
        }
        if state.captured.iter().any(|&taken| taken != 0) {
            notes.push(format!("captured: {}", tally(players, &state.captured)));
        }
        notes
    }
}

fn tally<T: std::fmt::Display>(players: &[String], values: &[T]) -> String {
    players
        .iter()
        .zip(values)
        .map(|(player, value)| format!("{player} {value}"))
        .collect::<Vec<_>>()
        .join(", ")
}
