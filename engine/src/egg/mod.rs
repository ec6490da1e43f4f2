//! The EGGG executable core: the part of Orwant's language (seed 000) that can be played without
//! guessing — place and choose moves on grid and hexagon boards, alternating and synchronised
//! turns, N-in-a-row goals, outcomes defined as a relation between the players' choices
//! (rock-paper-scissors' `Beat`), and score counting.
//!
//! The analysis layer (`analysis/src/egg/engine.rs`) lowers a `.egg` game into a [`Description`]
//! — names resolved to indices, line words to board axes — and says in a diagnostic which
//! statement falls outside the core; this module only plays what it is given, and
//! [`EggEngine::new`] refuses descriptions whose parts do not fit together.
//!
//! Layers, one file each: this one (the description and its validation), [`play`] (the position,
//! the moves, the [`Game`](crate::Game) implementation and the allocation-free random playout),
//! [`heuristics`] (the power of a piece and the generic static evaluator).

pub mod heuristics;
mod play;
#[cfg(test)]
mod tests;

pub use play::{EggMove, EggState};

/// A piece's index into [`Description::pieces`].
pub type PieceIndex = u8;

/// The most cells a board may have (cells are numbered with `u16`, the largest meaning none).
pub const MAX_CELLS: usize = u16::MAX as usize;

/// The most pieces a game may name (a cell stores its piece as a byte, 0 meaning empty).
pub const MAX_PIECES: usize = u8::MAX as usize - 1;

/// Why a description cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EggError {
    /// What is not executable, as a noun phrase ("synchronised placing").
    pub what: String,
}

impl EggError {
    pub fn new(what: impl Into<String>) -> Self {
        EggError { what: what.into() }
    }
}

impl std::fmt::Display for EggError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the EGGG engine cannot play {}", self.what)
    }
}

impl std::error::Error for EggError {}

// ── The engine's input: a plain description (built by analysis/src/egg/engine.rs) ─────────────

/// A game the core can play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    /// The role names, in the order the game names its players (the first moves first).
    pub roles: Vec<String>,
    /// The piece names (`X`, `O`; `Rock`, `Paper`, `Scissors`).
    pub pieces: Vec<String>,
    pub board: Board,
    pub turns: Turns,
    pub moves: Moves,
    pub goal: Goal,
    pub scoring: Scoring,
}

/// The board: a `width × height` array of cells, some of which may be cut away (a hexagonal
/// outline). Cells are numbered row by row, `y * width + x`. How cells neighbour one another is
/// not stored here: the line goals name the axes ([`LineGoal::axes`]) in these coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    /// Per cell, whether it is part of the board.
    pub present: Vec<bool>,
    /// Per cell, the piece it holds at the start.
    pub start: Vec<Option<PieceIndex>>,
    /// Whether the cells are hexagons (`squares are hexagons`): cell `(x, y)` is then at axial
    /// coordinates (column x, row y), its neighbours one step along (1, 0), (0, 1) and (1, −1).
    /// Only pictures read it; the line goals carry their own axes.
    pub hexagon_cells: bool,
}

impl Board {
    /// A full rectangular board with empty cells.
    pub fn rectangle(width: usize, height: usize) -> Board {
        let cells = width.saturating_mul(height);
        Board {
            width,
            height,
            present: vec![true; cells],
            start: vec![None; cells],
            hexagon_cells: false,
        }
    }

    pub fn cell_count(&self) -> usize {
        self.width.saturating_mul(self.height)
    }
}

/// Who moves when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turns {
    /// One role moves at a time, in this order, cycling; the others pass.
    Alternate { order: Vec<usize> },
    /// Every role moves at once (rock-paper-scissors' `turns synchronize`).
    Simultaneous,
}

/// What a move is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Moves {
    /// `move is place`: the mover puts its piece on an empty cell; per role, the piece it places.
    Place { piece_of_role: Vec<PieceIndex> },
    /// `move is choose`: each role chooses one of these pieces, once; when all have chosen, the
    /// round is over.
    Choose { options: Vec<PieceIndex> },
}

/// What the players play for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A move reaches the goal when the piece it places lies on any of these lines.
    Lines(Vec<LineGoal>),
    /// A role reaches the goal when one of the alternatives holds, each a list of tests that
    /// must all hold (`player(Rock) and opponent(Scissors) or ...`). Two roles only: the
    /// opponent is the other role.
    Outcome(Vec<Vec<ChoiceTest>>),
}

/// `three pieces in a row`: at least `length` of the mover's pieces in a straight line along one
/// of `axes` (a step `(dx, dy)` in board coordinates; the line runs both ways).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineGoal {
    pub length: usize,
    pub axes: Vec<(i32, i32)>,
}

/// One test of an outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChoiceTest {
    /// `player(Rock)`: the role itself chose this piece.
    Own(PieceIndex),
    /// `opponent(Scissors)`: the other role chose this piece.
    Opponent(PieceIndex),
}

/// How reaching the goal turns into a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// The first role to reach the goal wins and the game ends there.
    FirstGoalWins,
    /// `score increments`: every move that reaches the goal scores its role a point and play
    /// goes on until no move is left; the highest score wins.
    CountGoals,
}

/// A playable EGGG game.
#[derive(Clone, Debug)]
pub struct EggEngine {
    description: Description,
    /// Per direction (each axis of every line goal, both ways), per cell: the cell one step
    /// away, or [`NO_CELL`] off the board. Lines are measured by following these.
    steps: Vec<Vec<u16>>,
    /// The line goals with their axes as indices into `steps`: (length, [(forward, back)]).
    lines: Vec<(usize, Vec<(usize, usize)>)>,
}

/// No cell: off the board, or cut away. Cell numbers stop below it (see [`MAX_CELLS`]).
const NO_CELL: u16 = u16::MAX;

impl EggEngine {
    /// Checks that the parts of `description` fit together and are within the core.
    pub fn new(description: Description) -> Result<EggEngine, EggError> {
        validate(&description)?;
        let mut directions: Vec<(i32, i32)> = Vec::new();
        let mut index_of = |direction: (i32, i32)| {
            directions
                .iter()
                .position(|&d| d == direction)
                .unwrap_or_else(|| {
                    directions.push(direction);
                    directions.len() - 1
                })
        };
        let lines = match &description.goal {
            Goal::Lines(lines) => lines
                .iter()
                .map(|line| {
                    let axes = line
                        .axes
                        .iter()
                        .map(|&(dx, dy)| (index_of((dx, dy)), index_of((-dx, -dy))))
                        .collect();
                    (line.length, axes)
                })
                .collect(),
            Goal::Outcome(_) => Vec::new(),
        };
        let board = &description.board;
        let steps = directions
            .iter()
            .map(|&(dx, dy)| {
                (0..board.cell_count())
                    .map(|cell| {
                        let x = (cell % board.width) as i64 + i64::from(dx);
                        let y = (cell / board.width) as i64 + i64::from(dy);
                        let inside = (0..board.width as i64).contains(&x)
                            && (0..board.height as i64).contains(&y);
                        let target = (y * board.width as i64 + x) as usize;
                        if inside && board.present[target] {
                            // validate() bounds the board below NO_CELL cells.
                            target as u16
                        } else {
                            NO_CELL
                        }
                    })
                    .collect()
            })
            .collect();
        Ok(EggEngine {
            description,
            steps,
            lines,
        })
    }

    pub fn description(&self) -> &Description {
        &self.description
    }
}

fn validate(d: &Description) -> Result<(), EggError> {
    let roles = d.roles.len();
    if roles == 0 || roles > usize::from(u8::MAX) {
        return Err(EggError::new(format!("a game of {roles} players")));
    }
    if d.pieces.len() > MAX_PIECES {
        return Err(EggError::new(format!(
            "more than {MAX_PIECES} kinds of piece"
        )));
    }
    let piece_ok = |piece: PieceIndex| usize::from(piece) < d.pieces.len();
    let board = &d.board;
    let cells = board.cell_count();
    if cells == 0 || cells > MAX_CELLS || board.width.checked_mul(board.height).is_none() {
        return Err(EggError::new(format!(
            "a board of {} × {} cells",
            board.width, board.height
        )));
    }
    if board.present.len() != cells || board.start.len() != cells {
        return Err(EggError::new("a board whose cells do not match its size"));
    }
    if board.start.iter().flatten().any(|&piece| !piece_ok(piece)) {
        return Err(EggError::new("a board starting with an unknown piece"));
    }
    if let Turns::Alternate { order } = &d.turns
        && (order.is_empty() || order.iter().any(|&role| role >= roles))
    {
        return Err(EggError::new("a turn order naming unknown players"));
    }
    match (&d.moves, &d.goal) {
        (Moves::Place { piece_of_role }, Goal::Lines(lines)) => {
            if d.turns == Turns::Simultaneous {
                return Err(EggError::new(
                    "synchronised placing (two players may pick the same cell)",
                ));
            }
            if piece_of_role.len() != roles || !piece_of_role.iter().all(|&p| piece_ok(p)) {
                return Err(EggError::new("placing without a piece for every player"));
            }
            // Lines are told apart by piece: two players with one piece would share them.
            let mut distinct = piece_of_role.clone();
            distinct.sort_unstable();
            distinct.dedup();
            if distinct.len() != roles {
                return Err(EggError::new("players who place the same piece"));
            }
            let bad_line = |line: &LineGoal| {
                line.length == 0 || line.axes.is_empty() || line.axes.contains(&(0, 0))
            };
            if lines.is_empty() || lines.iter().any(bad_line) {
                return Err(EggError::new("a line goal without a length or a direction"));
            }
        }
        (Moves::Choose { options }, Goal::Outcome(alternatives)) => {
            if options.is_empty() || !options.iter().all(|&p| piece_ok(p)) {
                return Err(EggError::new("choosing among no pieces"));
            }
            // A choice is stored as its option's index plus one, in a byte.
            if options.len() >= usize::from(u8::MAX) {
                return Err(EggError::new(format!(
                    "a choice among {} options",
                    options.len()
                )));
            }
            if roles != 2 {
                return Err(EggError::new(format!(
                    "an outcome between a player and an opponent with {roles} players"
                )));
            }
            let test_ok = |test: &ChoiceTest| match *test {
                ChoiceTest::Own(piece) | ChoiceTest::Opponent(piece) => piece_ok(piece),
            };
            if alternatives.iter().flatten().any(|test| !test_ok(test)) {
                return Err(EggError::new("an outcome naming an unknown piece"));
            }
        }
        (Moves::Place { .. }, Goal::Outcome(_)) => {
            return Err(EggError::new(
                "an outcome between choices in a game where pieces are placed",
            ));
        }
        (Moves::Choose { .. }, Goal::Lines(_)) => {
            return Err(EggError::new(
                "a line goal in a game where pieces are chosen, not placed",
            ));
        }
    }
    Ok(())
}
