//! The Ludi board engine (seed 004): a [`Description`] of a Ludi game — what the analysis layer
//! lowers a `.ludi` file to — compiled to a board graph and rules, played behind [`Game`].
//!
//! Layers, one file each: [`board`] (cells, neighbours, lines), [`state`] (the position),
//! [`rules`] (conditions, legal moves, their effects), [`end`] (end conditions, results),
//! [`playout`] (the allocation-free random playout), [`advisors`] (the evaluation the probe's
//! search players use). The meanings follow `docs/ludi.md` (clause order and tie rule,
//! `in-a-row` as *at least* N, captures, cell names).

pub mod advisors;
pub mod board;
mod end;
mod playout;
mod rules;
mod state;
#[cfg(test)]
mod tests;

/// A two-player placement game on the board `tiling`, `shape`, `size` describe: what the
/// engine's other tests (move names, pictures) need of a board.
#[cfg(test)]
pub(crate) fn placement_test_game(tiling: Tiling, shape: Shape, size: &[u32]) -> LudiGame {
    let board = BoardSpec {
        tiling,
        shape,
        size: size.to_vec(),
        diagonal_adjacency: false,
    };
    LudiGame::new(Description::placement_game(
        "Test",
        &["White", "Black"],
        board,
        Vec::new(),
    ))
    .expect("a playable board")
}

use rand::Rng;

pub use board::{Board, CellIndex};
pub use state::{LudiMove, LudiState, MoveKind, Piece, UNLIMITED};

use crate::{Game, Reward, RoleIndex};

/// The preferred game length of the seed (60 moves); a game exceeding twice it is a draw.
pub const PREFERRED_LENGTH: u16 = 60;
pub const MAX_LENGTH: u16 = 2 * PREFERRED_LENGTH;

/// Why a description cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LudiError {
    /// What is not executable, as a noun phrase ("boardless games").
    pub what: String,
}

impl LudiError {
    pub fn new(what: impl Into<String>) -> Self {
        LudiError { what: what.into() }
    }
}

impl std::fmt::Display for LudiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the Ludi engine cannot play {}", self.what)
    }
}

impl std::error::Error for LudiError {}

// ── The engine's input: a plain description (built by analysis/src/ludi/engine.rs) ───────────
//
// The rule types below (conditions, numbers, effects and the words they are made of) are also
// the analysis model's own: `analysis/src/ludi/model.rs` builds them straight from the source.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiling {
    Tri,
    Square,
    Hex,
    TruncSquare,
}

impl Tiling {
    pub const ALL: [Tiling; 4] = [
        Tiling::Tri,
        Tiling::Square,
        Tiling::Hex,
        Tiling::TruncSquare,
    ];

    /// The schema's word for the tiling.
    pub fn name(self) -> &'static str {
        match self {
            Tiling::Tri => "tri",
            Tiling::Square => "square",
            Tiling::Hex => "hex",
            Tiling::TruncSquare => "trunc-square",
        }
    }

    pub fn from_name(name: &str) -> Option<Tiling> {
        Tiling::ALL.into_iter().find(|tiling| tiling.name() == name)
    }

    /// The shape a board of this tiling has when `shape` is not given.
    pub fn natural_shape(self) -> Shape {
        match self {
            Tiling::Tri => Shape::Tri,
            Tiling::Square | Tiling::TruncSquare => Shape::Square,
            Tiling::Hex => Shape::Hex,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Tri,
    Square,
    Hex,
    Rhombus,
    Trapezium,
    Boardless,
}

impl Shape {
    pub const ALL: [Shape; 6] = [
        Shape::Tri,
        Shape::Square,
        Shape::Hex,
        Shape::Rhombus,
        Shape::Trapezium,
        Shape::Boardless,
    ];

    /// The schema's word for the shape.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Tri => "tri",
            Shape::Square => "square",
            Shape::Hex => "hex",
            Shape::Rhombus => "rhombus",
            Shape::Trapezium => "trapezium",
            Shape::Boardless => "boardless",
        }
    }

    pub fn from_name(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|shape| shape.name() == name)
    }

    /// The shapes `tiling` can be cut to, in the schema's order.
    pub fn fitting(tiling: Tiling) -> impl Iterator<Item = Shape> {
        Shape::ALL
            .into_iter()
            .filter(move |shape| shape.fits(tiling))
    }

    /// How many sizes the shape takes (the `size` ludeme's dimensions), inclusive.
    pub fn dimensions(self) -> (usize, usize) {
        match self {
            Shape::Tri | Shape::Hex | Shape::Boardless => (1, 1),
            Shape::Square => (1, 3),
            Shape::Rhombus => (1, 2),
            Shape::Trapezium => (2, 2),
        }
    }

    /// Whether a board of `tiling` can be cut to this shape.
    pub fn fits(self, tiling: Tiling) -> bool {
        match tiling {
            Tiling::Square | Tiling::TruncSquare => {
                matches!(self, Shape::Square | Shape::Boardless)
            }
            Tiling::Hex | Tiling::Tri => self != Shape::Square,
        }
    }
}

/// Compass points, in the order the board keeps its sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compass {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Compass {
    /// The compass point a name (`N`, `NE`, ...) writes.
    pub fn from_name(name: &str) -> Option<Compass> {
        Some(match name {
            "N" => Compass::N,
            "NE" => Compass::NE,
            "E" => Compass::E,
            "SE" => Compass::SE,
            "S" => Compass::S,
            "SW" => Compass::SW,
            "W" => Compass::W,
            "NW" => Compass::NW,
            _ => return None,
        })
    }

    pub fn opposite(self) -> Compass {
        match self {
            Compass::N => Compass::S,
            Compass::NE => Compass::SW,
            Compass::E => Compass::W,
            Compass::SE => Compass::NW,
            Compass::S => Compass::N,
            Compass::SW => Compass::NE,
            Compass::W => Compass::E,
            Compass::NW => Compass::SE,
        }
    }

    /// The (column, row) vector of the direction on a square board.
    pub fn vector(self) -> [i32; 3] {
        match self {
            Compass::N => [0, 1, 0],
            Compass::NE => [1, 1, 0],
            Compass::E => [1, 0, 0],
            Compass::SE => [1, -1, 0],
            Compass::S => [0, -1, 0],
            Compass::SW => [-1, -1, 0],
            Compass::W => [-1, 0, 0],
            Compass::NW => [-1, 1, 0],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSpec {
    pub tiling: Tiling,
    pub shape: Shape,
    /// The dimensions as written; missing ones are completed as `(size 5)` = 5×5.
    pub size: Vec<u32>,
    pub diagonal_adjacency: bool,
}

/// A cell as `A1` names it: column letters then row number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName {
    /// Zero-based column (A = 0, Z = 25, AA = 26).
    pub column: u32,
    /// Zero-based row (1 → 0).
    pub row: u32,
}

impl CellName {
    /// The cell a name such as `A1` or `AB12` writes; `None` for anything else.
    pub fn parse(text: &str) -> Option<CellName> {
        let split = text.find(|c: char| c.is_ascii_digit())?;
        let (letters, digits) = text.split_at(split);
        if letters.is_empty() || !letters.bytes().all(|b| b.is_ascii_uppercase()) {
            return None;
        }
        let column = letters.bytes().try_fold(0u32, |acc, b| {
            acc.checked_mul(26)?.checked_add(u32::from(b - b'A') + 1)
        })? - 1;
        let row = digits.parse::<u32>().ok()?.checked_sub(1)?;
        Some(CellName { column, row })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegionPart {
    Cell(CellName),
    Side(Compass),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionSpec {
    pub name: String,
    /// `None`: every player's.
    pub owner: Option<RoleIndex>,
    pub parts: Vec<RegionPart>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellRef {
    From,
    To,
    Current,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occupant {
    Empty,
    Enemy,
    Friend,
    Any,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    Greater,
    Less,
    AtLeast,
    AtMost,
    Equal,
    NotEqual,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arithmetic {
    Add,
    Subtract,
    Multiply,
    Divide,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turtle {
    Forward,
    Back,
    Left,
    Right,
}

impl Turtle {
    /// The heading a turtle step (`f`, `b`, `l`, `r`) writes.
    pub fn from_name(name: &str) -> Option<Turtle> {
        Some(match name {
            "f" => Turtle::Forward,
            "b" => Turtle::Back,
            "l" => Turtle::Left,
            "r" => Turtle::Right,
            _ => return None,
        })
    }
}

/// A move condition (`pre`, `if`). Trees are at most [`MAX_TREE_DEPTH`] deep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    And(Vec<Condition>),
    Or(Vec<Condition>),
    Not(Box<Condition>),
    Empty(CellRef),
    Owner(CellRef),
    Enemy(CellRef),
    Line,
    Connected,
    Steps(Vec<Turtle>),
    Compare(Comparison, Number, Number),
    /// The piece on the cell (`None`: the moving piece, on the origin) has the named flag set.
    Flag(String, Option<CellRef>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Number {
    Constant(i64),
    Between(Occupant),
    GroupSize(CellRef),
    Phase(CellRef),
    Neighbours(CellRef, Occupant),
    Distance,
    PieceState,
    Height(CellRef),
    /// The state of the cell itself (0 until a move sets it).
    CellState(CellRef),
    Arithmetic(Arithmetic, Vec<Number>),
}

/// How deep condition trees may nest: the engine evaluates them recursively.
pub const MAX_TREE_DEPTH: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Pass,
    Pop,
    Push,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Surround,
    DirectNeighbours,
    AllNeighbours,
    Flank,
    /// The enemy pieces the moved piece was pushed onto at the destination (capture by
    /// replacement, as in Chess): the stack under the new top.
    Replace,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Capture {
        methods: Vec<Method>,
        condition: Option<Condition>,
    },
    Convert {
        methods: Vec<Method>,
        condition: Option<Condition>,
    },
    IncrementState,
    DecrementState,
    SetState(i64),
    Score(i64),
    /// Set the named flag of the moved piece.
    SetFlag(String),
    /// Clear the named flag of the moved piece.
    ClearFlag(String),
    /// Set the state of a cell of the move (the destination or the origin).
    SetCellState(i64, CellRef),
    /// Push each piece next to the destination one cell further away along the line from the
    /// destination, when that cell is on the board and empty; `diagonal`: diagonal neighbours
    /// too, else only those across an edge.
    Displace {
        diagonal: bool,
    },
    /// Turn the moved piece: `Left` a step of the tiling's headings anticlockwise (a quarter
    /// turn on square cells, a sixth on hex cells), `Right` clockwise, `Back` half round,
    /// `Forward` not at all; `times` times.
    Rotate {
        turn: Turtle,
        times: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveDirection {
    Compass(Compass),
    Turtle(Turtle),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSpec {
    pub priority: i64,
    pub mandatory: bool,
    pub direction: Option<MoveDirection>,
    /// `None`: every player may make it.
    pub owner: Option<RoleIndex>,
    pub pre: Option<Condition>,
    pub actions: Vec<Action>,
    pub post: Vec<Effect>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    pub name: String,
    /// `None`: every player has pieces of this type.
    pub owner: Option<RoleIndex>,
    pub value: i64,
    pub state: i64,
    /// The flags pieces of this type carry (all clear at the start).
    pub flags: Vec<String>,
    pub moves: Vec<MoveSpec>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Cell(CellName),
    Region(String),
    Home,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementSpec {
    pub piece: usize,
    /// `None`: for every player.
    pub owner: Option<RoleIndex>,
    pub locations: Vec<Location>,
    /// `(cell-phase N)`: only the locations' cells of this phase.
    pub phase: Option<u8>,
    /// `(symmetric SYMMETRY PLAYER)`: the same pieces for that player on the image cells.
    pub symmetric: Option<(Symmetry, RoleIndex)>,
}

/// A symmetry of the board that maps a start placement to another player's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Half a turn about the board's centre.
    HalfTurn,
    /// The mirror image across the board's middle row (north and south exchanged).
    Reflect,
}

impl Symmetry {
    /// The schema's word for the symmetry.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::HalfTurn => "half-turn",
            Symmetry::Reflect => "reflect",
        }
    }

    pub fn from_name(name: &str) -> Option<Symmetry> {
        [Symmetry::HalfTurn, Symmetry::Reflect]
            .into_iter()
            .find(|symmetry| symmetry.name() == name)
    }
}

/// Which neighbours an end condition counts as adjacent: `d-nbors` (across an edge only) or
/// `i-nbors` (diagonal neighbours too); without one, the board's own adjacency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Adjacency {
    Direct,
    All,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InHandSpec {
    pub piece: usize,
    pub owner: Option<RoleIndex>,
    pub count: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Lose,
    Draw,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TieRule {
    #[default]
    MoverWins,
    MoverLoses,
    Draw,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConnectTarget {
    Region(String),
    OwnRegions,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Cell(CellName),
    Region(String),
    Side(Compass),
}

/// An end condition, evaluated for one player. `piece`: only pieces of that type count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndCondition {
    And(Vec<EndCondition>),
    Or(Vec<EndCondition>),
    Not(Box<EndCondition>),
    /// One chain touching `count` of the targets (`None`: all of them).
    Connect {
        targets: Vec<ConnectTarget>,
        count: Option<usize>,
        piece: Option<usize>,
        constraint: Constraint,
    },
    Group {
        size: Option<i64>,
        piece: Option<usize>,
        constraint: Constraint,
    },
    InARow {
        length: i64,
        piece: Option<usize>,
        /// Lines along these neighbours (`None`: the board's lines).
        adjacency: Option<Adjacency>,
    },
    Reach {
        target: Target,
        count: i64,
        piece: Option<usize>,
    },
    Capture {
        count: Option<i64>,
        piece: Option<usize>,
    },
    /// `None`: every opponent.
    Eliminate(Option<RoleIndex>),
    Score(i64),
    /// A stack of at least `height` with the player's piece (of that type) on top; `pure`:
    /// every piece of it the player's.
    Stack {
        height: i64,
        piece: Option<usize>,
        pure: bool,
    },
    State {
        value: i64,
        piece: Option<usize>,
    },
    NoMove,
}

/// The adjacency and stacking constraints of `connect` and `group`: which neighbours join
/// pieces into a chain, and how high a stack must be for its top piece to count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Constraint {
    /// `None`: the board's adjacency.
    pub adjacency: Option<Adjacency>,
    /// Only pieces on stacks at least this high count (`None`: every piece).
    pub min_height: Option<u16>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndClauseSpec {
    /// `None`: every player.
    pub player: Option<RoleIndex>,
    pub result: GameResult,
    pub condition: EndCondition,
}

/// A Ludi game as the engine takes it: names resolved to indices, defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    pub name: String,
    pub players: Vec<String>,
    pub directions: Vec<Option<Compass>>,
    pub board: BoardSpec,
    pub regions: Vec<RegionSpec>,
    pub pieces: Vec<PieceSpec>,
    pub placements: Vec<PlacementSpec>,
    pub in_hand: Vec<InHandSpec>,
    pub can_pass: bool,
    /// The pie rule (first-move equalizer): after the first move, the second player may swap
    /// seats with the first instead of moving.
    pub pie_rule: bool,
    pub end: Vec<EndClauseSpec>,
    pub tie: TieRule,
}

impl Description {
    /// The side of the board a player's home row is on: the side opposite their direction;
    /// without one, the first row (south) for the first player and the last (north) for the
    /// second; `None` for a third player without a direction (docs/ludi.md, *Home*).
    pub fn home_side(&self, player: usize) -> Option<Compass> {
        match self.directions.get(player).copied().flatten() {
            Some(direction) => Some(direction.opposite()),
            None => match player {
                0 => Some(Compass::S),
                1 => Some(Compass::N),
                _ => None,
            },
        }
    }

    /// The players a `home` placement of one player's pieces is also made for, each on their
    /// own home row: the seed's placements are "relative to each player's home row", so a game
    /// that places one player's pieces of a type every player has on `home` (and names no
    /// symmetry) gives the same to each player its start otherwise gives nothing — no
    /// placement names them and they have nothing in hand — and who has a home row.
    /// (Teiglith, as the paper prints it, places only White's stones; its rank among the
    /// viable games needs Black's.) A player the start names keeps exactly what it names
    /// (docs/ludi.md, *Home*). The engine's start and the rules in English both read it here.
    pub fn mirrored_home_owners(&self, placement: &PlacementSpec) -> Vec<usize> {
        let Some(owner) = placement.owner else {
            return Vec::new();
        };
        let every_players_type = self
            .pieces
            .get(placement.piece)
            .is_some_and(|spec| spec.owner.is_none());
        let on_home = placement.locations.contains(&Location::Home);
        if !every_players_type || !on_home || placement.symmetric.is_some() {
            return Vec::new();
        }
        let given = |player: usize| {
            self.placements.iter().any(|other| {
                other.owner.is_none_or(|o| o == player)
                    || other.symmetric.is_some_and(|(_, o)| o == player)
            }) || self
                .in_hand
                .iter()
                .any(|hand| hand.owner.is_none_or(|o| o == player) && hand.count > 0)
        };
        (0..self.players.len())
            .filter(|&player| player != owner && !given(player) && self.home_side(player).is_some())
            .collect()
    }

    /// The seed's default game on `board` for `players`: place a piece on an empty cell, with
    /// the given end clauses.
    pub fn placement_game(
        name: &str,
        players: &[&str],
        board: BoardSpec,
        end: Vec<EndClauseSpec>,
    ) -> Description {
        Description {
            name: name.to_owned(),
            players: players.iter().map(|&p| p.to_owned()).collect(),
            directions: vec![None; players.len()],
            board,
            regions: Vec::new(),
            pieces: vec![PieceSpec {
                name: "Piece".to_owned(),
                owner: None,
                value: 1,
                state: 0,
                flags: Vec::new(),
                moves: vec![MoveSpec {
                    priority: 0,
                    mandatory: false,
                    direction: None,
                    owner: None,
                    pre: Some(Condition::Empty(CellRef::To)),
                    actions: vec![Action::Push],
                    post: Vec::new(),
                }],
            }],
            placements: Vec::new(),
            in_hand: Vec::new(),
            can_pass: false,
            pie_rule: false,
            end,
            tie: TieRule::MoverWins,
        }
    }
}

// ── The compiled game ────────────────────────────────────────────────────────────────────────

/// A playable Ludi game.
#[derive(Clone, Debug)]
pub struct LudiGame {
    pub(crate) description: Description,
    pub(crate) board: Board,
    /// The cells of each region, by the description's region order.
    pub(crate) regions: Vec<Vec<CellIndex>>,
    pub(crate) initial: LudiState,
    /// What the fast paths may assume.
    pub(crate) traits: rules::Traits,
    /// Every flag any piece type declares, by name: a flag's bit in [`Piece::flags`] is its
    /// index here.
    pub(crate) flag_names: Vec<String>,
}

impl LudiGame {
    pub fn new(description: Description) -> Result<LudiGame, LudiError> {
        if description.players.is_empty() {
            return Err(LudiError::new("a game without players"));
        }
        if description.players.len() > usize::from(u8::MAX) - 1 {
            return Err(LudiError::new("more than 254 players"));
        }
        if description.pie_rule && description.players.len() != 2 {
            return Err(LudiError::new(
                "the pie rule with other than two players (it swaps two seats)",
            ));
        }
        if description.pieces.len() > usize::from(u8::MAX) {
            return Err(LudiError::new("more than 255 piece types"));
        }
        let board = Board::new(&description.board)?;
        let regions = description
            .regions
            .iter()
            .map(|region| {
                let mut cells = Vec::new();
                for part in &region.parts {
                    match part {
                        RegionPart::Cell(name) => cells.extend(board.cell_at(
                            name.column,
                            name.row,
                            description.board.tiling,
                        )),
                        RegionPart::Side(compass) => cells.extend_from_slice(board.side(*compass)),
                    }
                }
                cells.sort_unstable();
                cells.dedup();
                cells
            })
            .collect();
        let traits = rules::Traits::of(&description, &board)?;
        let mut flag_names: Vec<String> = Vec::new();
        for flag in description.pieces.iter().flat_map(|p| &p.flags) {
            if !flag_names.contains(flag) {
                flag_names.push(flag.clone());
            }
        }
        if flag_names.len() > 8 {
            return Err(LudiError::new("more than 8 distinct piece flags"));
        }
        let mut game = LudiGame {
            initial: LudiState::empty(0, 0, 0),
            description,
            board,
            regions,
            traits,
            flag_names,
        };
        game.initial = game.start_position()?;
        Ok(game)
    }

    pub fn description(&self) -> &Description {
        &self.description
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The state after `moves` (each the mover's move) from the initial state; `None` when one
    /// is not legal. For tests and replays.
    pub fn replay(&self, moves: &[LudiMove]) -> Option<LudiState> {
        let mut state = self.initial.clone();
        for &m in moves {
            if state.is_over() || !self.mover_moves(&state).contains(&m) {
                return None;
            }
            state = self.apply(&state, m);
        }
        Some(state)
    }

    /// The cell `A1` names, if on the board.
    pub fn cell(&self, name: &str) -> Option<CellIndex> {
        let cell = CellName::parse(name)?;
        self.board
            .cell_at(cell.column, cell.row, self.description.board.tiling)
    }
}

impl Game for LudiGame {
    type State = LudiState;
    type Move = LudiMove;

    fn roles(&self) -> &[String] {
        &self.description.players
    }

    fn initial_state(&self) -> LudiState {
        self.initial.clone()
    }

    fn is_terminal(&self, state: &LudiState) -> bool {
        state.is_over()
    }

    fn legal_moves(&self, state: &LudiState, role: RoleIndex) -> Vec<LudiMove> {
        if state.is_over() {
            return Vec::new();
        }
        if state.colour_of(role) != state.mover() {
            return vec![LudiMove::NOOP];
        }
        self.mover_moves(state)
    }

    fn next_state(&self, state: &LudiState, joint: &[LudiMove]) -> LudiState {
        // A move naming cells off the board (not one `legal_moves` gave) changes nothing.
        let cells = self.board.cell_count();
        let on_board = |cell: CellIndex| usize::from(cell) < cells;
        match joint.get(state.role_of(state.mover())) {
            Some(&m) if !state.is_over() => match m.kind {
                MoveKind::Place if !on_board(m.to) => state.clone(),
                MoveKind::Step if !on_board(m.from) || !on_board(m.to) => state.clone(),
                MoveKind::Lift if !on_board(m.from) => state.clone(),
                MoveKind::Swap if !self.pie_offered(state) => state.clone(),
                _ => self.apply(state, m),
            },
            _ => state.clone(),
        }
    }

    fn goals(&self, state: &LudiState) -> Vec<Reward> {
        match &state.result {
            // The result is by colour; after a pie-rule swap each role has the other's.
            Some(goals) => (0..goals.len())
                .map(|role| goals[state.colour_of(role)])
                .collect(),
            None => vec![50; self.description.players.len()],
        }
    }

    fn random_playout<R: Rng + ?Sized>(
        &self,
        state: &LudiState,
        rng: &mut R,
        max_plies: usize,
    ) -> crate::playout::Playout {
        self.fast_playout(state, rng, max_plies)
    }
}
