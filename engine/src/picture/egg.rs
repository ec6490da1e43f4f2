//! EGGG positions: the grid as the game writes it (first row at the top), of squares or of
//! hexagons, the pieces with the player who places each, the turn, the scores and the choices.

use super::{Cell, Depict, Picture, PieceMark, Point, hexagon_centre, regular_polygon};
use crate::Game;
use crate::egg::{EggEngine, EggState, Moves, Turns};

impl Depict for EggEngine {
    fn picture(&self, state: &EggState) -> Picture {
        let description = self.description();
        let board = &description.board;
        let width = board.width.max(1);
        let mut picture = Picture {
            roles: self.roles().to_vec(),
            ..Picture::default()
        };
        // The player who places each piece, when pieces are placed.
        let owner_of = |piece: u8| match &description.moves {
            Moves::Place { piece_of_role } => piece_of_role.iter().position(|&p| p == piece),
            Moves::Choose { .. } => None,
        };
        for cell in 0..board.cell_count().min(board.present.len()) {
            if !board.present[cell] {
                continue;
            }
            // Rows are written downwards; the plane's y points up.
            let (column, row) = ((cell % width) as i64, (cell / width) as i64);
            let (outline, shade) = if board.hexagon_cells {
                let centre = hexagon_centre(column, row, 0.5);
                let centre = Point::new(centre.x, -centre.y);
                let shade = (column - row).rem_euclid(3) as u8;
                (regular_polygon(centre, 6, 1.0, 30.0), shade)
            } else {
                let shade = ((column + row) % 2) as u8;
                (
                    super::unit_square(column as f64, -(row as f64) - 1.0),
                    shade,
                )
            };
            let index = picture.cells.len();
            picture.cells.push(Cell {
                outline,
                label: Some(self.cell_name(cell)),
                shade,
            });
            if let Some(piece) = state.piece_at(cell) {
                picture.pieces.push(PieceMark {
                    cell: index,
                    owner: owner_of(piece),
                    name: description
                        .pieces
                        .get(usize::from(piece))
                        .cloned()
                        .unwrap_or_else(|| "?".to_owned()),
                    count: 1,
                });
            }
        }
        picture.notes = self.notes(state);
        picture
    }
}

impl EggEngine {
    fn notes(&self, state: &EggState) -> Vec<String> {
        let description = self.description();
        let roles = self.roles();
        let mut notes = Vec::new();
        if self.is_terminal(state) {
            let goals = self.goals(state);
            let results: Vec<String> = roles
                .iter()
                .zip(&goals)
                .map(|(role, goal)| format!("{role} {goal}"))
                .collect();
            notes.push(format!("over: {}", results.join(", ")));
        } else if matches!(description.turns, Turns::Alternate { .. }) {
            let movers: Vec<&str> = (0..roles.len())
                .filter(|&role| {
                    self.legal_moves(state, role)
                        .iter()
                        .any(|m| *m != crate::egg::EggMove::Pass)
                })
                .map(|role| roles[role].as_str())
                .collect();
            if !movers.is_empty() {
                notes.push(format!("to move: {}", movers.join(", ")));
            }
        }
        if let Moves::Choose { options } = &description.moves {
            for (role, name) in roles.iter().enumerate() {
                // Choices are secret until the round is over.
                let chosen = state.choice(role).and_then(|option| {
                    let piece = options.get(usize::from(option))?;
                    description.pieces.get(usize::from(*piece))
                });
                match chosen {
                    Some(piece) if self.is_terminal(state) => {
                        notes.push(format!("{name} chose {piece}"));
                    }
                    Some(_) => notes.push(format!("{name} has chosen")),
                    None => {}
                }
            }
        }
        if state.scores().iter().any(|&score| score != 0) {
            let scores: Vec<String> = roles
                .iter()
                .zip(state.scores())
                .map(|(role, score)| format!("{role} {score}"))
                .collect();
            notes.push(format!("scores: {}", scores.join(", ")));
        }
        notes
    }
}
