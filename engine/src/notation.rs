//! Moves as text: how each engine names a move ([`Notation`]), the cells of Ludi and EGGG
//! boards, and [`replay`], which plays a list of named moves from the initial state.
//!
//! A move is read by comparing it with the names of the legal moves, never by parsing it on its
//! own, so a name is always one the engine gives and reading cannot disagree with writing.
//! Names:
//!
//! - GDL: the action in KIF form, as in `(legal role action)`: `(mark 1 1)`, `noop`.
//! - Ludi: a placement is the cell (`C3`), prefixed by the piece's name when the game has
//!   several (`Queen C3`); a step `A1-B2`; a removal `remove A1`; `pass`; `noop` for the
//!   player not to move. Cells are named as the language names them (column letters, row
//!   number); cells the language cannot name get a suffix: a cell of the second layer of a 3-D
//!   board is `A1/2`, the small square north-east of the octagon `A1` on the 4.8.8 tiling
//!   `A1+`.
//! - EGGG: a placement is the cell (`A1` is the first cell of the first row as the game writes
//!   its board, rows counted downwards); a choice is the option's name (`Rock`); `pass`.
//!
//! When two legal moves of a role get the same name (two move rules of a Ludi piece reaching
//! the same cell), the second is `NAME #2`, the third `NAME #3`, in the engine's order.
//!
//! A ply (one joint move) is written as the moves of the roles that have a choice, in role
//! order, separated by `&` (`rock & paper` in a game of simultaneous moves); a role with a
//! single legal move plays it unnamed. Plies are separated by commas or semicolons outside
//! parentheses ([`split_plies`]).

use std::fmt;

use crate::egg::{EggEngine, EggMove, EggState, Moves};
use crate::gdl::{Reasoner, ReasonerMove, ReasonerState};
use crate::ludi::{CellIndex, LudiGame, LudiMove, LudiState, MoveKind, Tiling};
use crate::{Game, RoleIndex};

/// A game whose moves have names.
pub trait Notation: Game {
    /// The name of `action`, a move of `role` in `state` (see the module's opening).
    fn move_text(&self, state: &Self::State, role: RoleIndex, action: &Self::Move) -> String;
}

/// The legal moves of `role` in `state` with their names, in the engine's order; names that
/// repeat get ` #2`, ` #3`, ... so that each names one move.
pub fn named_moves<G: Notation>(
    game: &G,
    state: &G::State,
    role: RoleIndex,
) -> Vec<(String, G::Move)> {
    let mut named: Vec<(String, G::Move)> = Vec::new();
    for action in game.legal_moves(state, role) {
        let base = game.move_text(state, role, &action);
        let earlier = named
            .iter()
            .filter(|(name, _)| name == &base || is_numbered(name, &base))
            .count();
        let name = if earlier == 0 {
            base
        } else {
            format!("{base} #{}", earlier + 1)
        };
        named.push((name, action));
    }
    named
}

fn is_numbered(name: &str, base: &str) -> bool {
    name.strip_prefix(base)
        .and_then(|rest| rest.strip_prefix(" #"))
        .is_some_and(|number| number.bytes().all(|b| b.is_ascii_digit()))
}

/// Splits a list of plies at the commas and semicolons outside parentheses (an infix GDL move
/// such as `mark(1,2)` keeps its commas); empty items are dropped.
pub fn split_plies(text: &str) -> Vec<String> {
    let mut plies = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 && (c == ',' || c == ';') {
            plies.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    plies.push(current);
    plies
        .into_iter()
        .map(|ply| ply.trim().to_owned())
        .filter(|ply| !ply.is_empty())
        .collect()
}

/// Why a list of plies could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The ply that failed, counted from 1.
    pub ply: usize,
    /// The ply as written.
    pub text: String,
    pub problem: ReplayProblem,
    /// The legal moves at that point of each role that had a choice (or of every role, when
    /// none had): (role, move names).
    pub legal: Vec<(String, Vec<String>)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayProblem {
    /// The game was over before this ply.
    GameOver,
    /// This part of the ply is no legal move of any role still to be given a move.
    NotLegal(String),
    /// The ply gives no move to this role, which has several.
    MissingMove(String),
    /// This part of the ply names a move of a role the ply already gave a move to.
    SecondMove { part: String, role: String },
    /// The engine gave up or a role had no legal move.
    Failure(String),
}

/// At most this many legal moves are listed per role in a [`ReplayError`]'s message.
const LISTED_MOVES: usize = 60;

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} (`{}`): ", self.ply, self.text)?;
        match &self.problem {
            ReplayProblem::GameOver => write!(f, "the game is already over")?,
            ReplayProblem::NotLegal(part) if part == &self.text => write!(f, "not a legal move")?,
            ReplayProblem::NotLegal(part) => write!(f, "`{part}` is not a legal move")?,
            ReplayProblem::MissingMove(role) => {
                write!(f, "no move for {role}, who has several")?;
            }
            ReplayProblem::SecondMove { part, role } => {
                write!(f, "`{part}` would be a second move for {role}")?;
            }
            ReplayProblem::Failure(why) => write!(f, "{why}")?,
        }
        for (role, moves) in &self.legal {
            let shown: Vec<&str> = moves
                .iter()
                .take(LISTED_MOVES)
                .map(String::as_str)
                .collect();
            write!(f, "; the legal moves of {role} are {}", shown.join(", "))?;
            if moves.len() > LISTED_MOVES {
                write!(f, " and {} more", moves.len() - LISTED_MOVES)?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for ReplayError {}

/// Compares move names as a person types them: case, spaces and the spaces inside
/// parentheses do not matter.
fn normalise(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    collapsed
        .replace("( ", "(")
        .replace(" )", ")")
        .to_lowercase()
}

/// The state after `plies` (see the module's opening for how a ply is written) from the
/// initial state.
pub fn replay<G: Notation>(game: &G, plies: &[String]) -> Result<G::State, ReplayError> {
    replay_from(game, game.initial_state(), 0, plies)
}

/// The state after `plies` from `state`, the position after `played` earlier plies (which
/// number the plies in errors): a match goes on from where it was, instead of being played
/// again from the start at every move.
pub fn replay_from<G: Notation>(
    game: &G,
    state: G::State,
    played: usize,
    plies: &[String],
) -> Result<G::State, ReplayError> {
    let mut state = state;
    let roles = game.roles().len();
    for (index, ply) in plies.iter().enumerate() {
        let index = played + index;
        let moves: Vec<Vec<(String, G::Move)>> = (0..roles)
            .map(|role| named_moves(game, &state, role))
            .collect();
        let legal = || listed_moves(game.roles(), &moves);
        let fail = |problem| ReplayError {
            ply: index + 1,
            text: ply.clone(),
            problem,
            legal: legal(),
        };
        if game.is_terminal(&state) {
            return Err(ReplayError {
                legal: Vec::new(),
                ..fail(ReplayProblem::GameOver)
            });
        }
        let mut joint: Vec<Option<G::Move>> = vec![None; roles];
        for part in ply.split('&').map(str::trim).filter(|p| !p.is_empty()) {
            let wanted = normalise(part);
            let found = (0..roles)
                .filter(|&role| joint[role].is_none())
                .find_map(|role| {
                    let exact = moves[role].iter().find(|(name, _)| name == part);
                    let loose = || {
                        moves[role]
                            .iter()
                            .find(|(name, _)| normalise(name) == wanted)
                    };
                    exact
                        .or_else(loose)
                        .map(|(_, action)| (role, action.clone()))
                });
            match found {
                Some((role, action)) => joint[role] = Some(action),
                None => {
                    let taken = (0..roles).find(|&role| {
                        joint[role].is_some()
                            && moves[role]
                                .iter()
                                .any(|(name, _)| normalise(name) == wanted)
                    });
                    return Err(fail(match taken {
                        Some(role) => ReplayProblem::SecondMove {
                            part: part.to_owned(),
                            role: game.roles()[role].clone(),
                        },
                        None => ReplayProblem::NotLegal(part.to_owned()),
                    }));
                }
            }
        }
        let mut chosen = Vec::with_capacity(roles);
        for (role, action) in joint.into_iter().enumerate() {
            let name = || game.roles()[role].clone();
            match (action, moves[role].as_slice()) {
                (Some(action), _) => chosen.push(action),
                (None, [(_, only)]) => chosen.push(only.clone()),
                (None, []) => {
                    let why = game
                        .failure()
                        .unwrap_or_else(|| format!("{} has no legal move", name()));
                    return Err(fail(ReplayProblem::Failure(why)));
                }
                (None, _) => return Err(fail(ReplayProblem::MissingMove(name()))),
            }
        }
        state = game.next_state(&state, &chosen);
        if let Some(why) = game.failure() {
            return Err(fail(ReplayProblem::Failure(why)));
        }
    }
    Ok(state)
}

/// The move names of the roles with a choice, or of every role when none has one.
fn listed_moves<M>(roles: &[String], moves: &[Vec<(String, M)>]) -> Vec<(String, Vec<String>)> {
    let with_choice: Vec<usize> = (0..moves.len()).filter(|&r| moves[r].len() > 1).collect();
    let shown: Vec<usize> = if with_choice.is_empty() {
        (0..moves.len()).filter(|&r| !moves[r].is_empty()).collect()
    } else {
        with_choice
    };
    shown
        .into_iter()
        .map(|role| {
            let names = moves[role].iter().map(|(name, _)| name.clone()).collect();
            (roles.get(role).cloned().unwrap_or_default(), names)
        })
        .collect()
}

/// Column letters as cell names write them: 0 → `A`, 25 → `Z`, 26 → `AA`.
pub fn column_letters(column: u32) -> String {
    let mut letters = Vec::new();
    let mut rest = u64::from(column) + 1;
    while rest > 0 {
        let digit = ((rest - 1) % 26) as u8;
        letters.push(char::from(b'A' + digit));
        rest = (rest - 1) / 26;
    }
    letters.iter().rev().collect()
}

// ── GDL ──────────────────────────────────────────────────────────────────────────────────────

impl Notation for Reasoner {
    fn move_text(&self, _: &ReasonerState, _: RoleIndex, action: &ReasonerMove) -> String {
        self.render_move(action)
    }
}

// ── Ludi ─────────────────────────────────────────────────────────────────────────────────────

impl LudiGame {
    /// The name of `cell` (see the module's opening); `?` for a cell off the board.
    pub fn cell_name(&self, cell: CellIndex) -> String {
        let Some([x, y, z]) = self.board().coordinates(cell) else {
            return "?".to_owned();
        };
        let name = |column: i32, row: i32| {
            format!(
                "{}{}",
                column_letters(column.max(0) as u32),
                i64::from(row) + 1
            )
        };
        match self.description().board.tiling {
            Tiling::TruncSquare if x % 2 == 1 => format!("{}+", name(x / 2, y / 2)),
            Tiling::TruncSquare => name(x / 2, y / 2),
            _ if z > 0 => format!("{}/{}", name(x, y), i64::from(z) + 1),
            _ => name(x, y),
        }
    }
}

impl Notation for LudiGame {
    fn move_text(&self, _: &LudiState, _: RoleIndex, action: &LudiMove) -> String {
        match action.kind {
            MoveKind::Noop => "noop".to_owned(),
            MoveKind::Pass => "pass".to_owned(),
            MoveKind::Place => {
                let pieces = &self.description().pieces;
                match pieces.get(usize::from(action.piece)) {
                    Some(piece) if pieces.len() > 1 => {
                        format!("{} {}", piece.name, self.cell_name(action.to))
                    }
                    _ => self.cell_name(action.to),
                }
            }
            MoveKind::Step => format!(
                "{}-{}",
                self.cell_name(action.from),
                self.cell_name(action.to)
            ),
            MoveKind::Lift => format!("remove {}", self.cell_name(action.from)),
            MoveKind::Swap => "swap".to_owned(),
        }
    }
}

// ── EGGG ─────────────────────────────────────────────────────────────────────────────────────

impl EggEngine {
    /// The name of cell number `cell` (row by row, see [`crate::egg::Board`]): column letters
    /// and the row counted from 1 at the first row written.
    pub fn cell_name(&self, cell: usize) -> String {
        let width = self.description().board.width.max(1);
        format!(
            "{}{}",
            column_letters(u32::try_from(cell % width).unwrap_or(u32::MAX)),
            cell / width + 1
        )
    }
}

impl Notation for EggEngine {
    fn move_text(&self, _: &EggState, _: RoleIndex, action: &EggMove) -> String {
        let description = self.description();
        match *action {
            EggMove::Pass => "pass".to_owned(),
            EggMove::Place(cell) => self.cell_name(usize::from(cell)),
            EggMove::Choose(option) => match &description.moves {
                Moves::Choose { options } => options
                    .get(usize::from(option))
                    .and_then(|&piece| description.pieces.get(usize::from(piece)))
                    .cloned()
                    .unwrap_or_else(|| format!("option {}", u32::from(option) + 1)),
                Moves::Place { .. } => format!("option {}", u32::from(option) + 1),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludi::{CellName, Shape};

    #[test]
    fn column_letters_count_as_cell_names_do() {
        for column in [0, 1, 25, 26, 27, 51, 52, 701, 702, 18_277] {
            let name = format!("{}1", column_letters(column));
            let parsed = CellName::parse(&name).expect("a cell name");
            assert_eq!(parsed.column, column, "{name}");
        }
        assert_eq!(column_letters(0), "A");
        assert_eq!(column_letters(26), "AA");
    }

    /// Every cell the language can name gets that name back, on every tiling and shape.
    #[test]
    fn ludi_cell_names_are_the_languages_own() {
        let boards = [
            (Tiling::Square, Shape::Square, vec![4, 3]),
            (Tiling::Square, Shape::Square, vec![3, 3, 3]),
            (Tiling::Hex, Shape::Hex, vec![4]),
            (Tiling::Hex, Shape::Rhombus, vec![5, 4]),
            (Tiling::Hex, Shape::Tri, vec![5]),
            (Tiling::Hex, Shape::Trapezium, vec![4, 3]),
            (Tiling::Tri, Shape::Tri, vec![4]),
            (Tiling::TruncSquare, Shape::Square, vec![4]),
        ];
        for (tiling, shape, size) in boards {
            let game = crate::ludi::placement_test_game(tiling, shape, &size);
            let mut names = std::collections::HashSet::new();
            for cell in 0..game.board().cell_count() as CellIndex {
                let name = game.cell_name(cell);
                assert!(names.insert(name.clone()), "{name} twice on {tiling:?}");
                if !name.contains(['/', '+']) {
                    assert_eq!(
                        game.cell(&name),
                        Some(cell),
                        "{name} on {tiling:?} {shape:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn plies_split_outside_parentheses() {
        assert_eq!(
            split_plies("a1, mark(1,2); (mark 3 3) ,, "),
            ["a1", "mark(1,2)", "(mark 3 3)"]
        );
    }

    #[test]
    fn a_replay_reads_names_loosely_and_reports_the_legal_moves() {
        let game = crate::ludi::placement_test_game(Tiling::Square, Shape::Square, &[3, 3]);
        let plies = |text: &str| split_plies(text);
        let state = replay(&game, &plies("a1, B2")).expect("legal moves");
        assert_eq!(state.plies(), 2);
        let error = replay(&game, &plies("A1, A1")).expect_err("A1 is taken");
        assert_eq!(error.ply, 2);
        assert_eq!(error.problem, ReplayProblem::NotLegal("A1".to_owned()));
        assert_eq!(error.legal.len(), 1);
        assert_eq!(error.legal[0].0, "Black");
        assert_eq!(error.legal[0].1.len(), 8);
        assert!(!error.legal[0].1.contains(&"A1".to_owned()));
        let message = error.to_string();
        assert!(
            message.starts_with("move 2 (`A1`): not a legal move"),
            "{message}"
        );
    }

    /// Going on from a position reached is the same as replaying from the start, and an
    /// error numbers its ply in the whole match.
    #[test]
    fn a_replay_goes_on_from_a_position_reached() {
        let game = crate::ludi::placement_test_game(Tiling::Square, Shape::Square, &[3, 3]);
        let all = split_plies("A1, B2, C3, A3");
        let reached = replay(&game, &all[..2]).expect("legal moves");
        let went_on = replay_from(&game, reached.clone(), 2, &all[2..]).expect("legal moves");
        let from_start = replay(&game, &all).expect("legal moves");
        assert_eq!(went_on.plies(), 4);
        assert_eq!(went_on, from_start);
        let error =
            replay_from(&game, reached, 2, &split_plies("C3, B2")).expect_err("B2 is taken");
        assert_eq!(error.ply, 4);
        assert_eq!(error.problem, ReplayProblem::NotLegal("B2".to_owned()));
    }

    #[test]
    fn repeated_names_are_numbered() {
        assert!(is_numbered("A1 #2", "A1"));
        assert!(!is_numbered("A1 #x", "A1"));
        assert!(!is_numbered("A12", "A1"));
    }
}
