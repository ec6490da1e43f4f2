//! The position: the top piece of every cell in one flat array, the pieces buried under stacks
//! in a side list (empty, and free to clone, in games without stacking), hands, scores,
//! captures, whose turn it is and how many moves were made.

use std::hash::{Hash, Hasher};

use super::board::{CellIndex, NO_CELL};
use crate::Reward;

/// A piece on the board: its owner, type, state, flags and orientation. [`Piece::EMPTY`] marks
/// an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub owner: u8,
    pub kind: u8,
    pub state: i16,
    /// The flags set, one bit each, numbered as the game lists its flags (`LudiGame::flag`).
    pub flags: u8,
    /// The piece's orientation: how many steps of the tiling's headings (quarter turns on
    /// square cells, sixths on hex cells) it has turned anticlockwise since it entered play
    /// facing its owner's direction. Turtle directions of its moves are relative to it
    /// (`LudiGame::facing` gives the board direction it faces).
    pub turn: u8,
}

impl Piece {
    pub const EMPTY: Piece = Piece {
        owner: u8::MAX,
        kind: 0,
        state: 0,
        flags: 0,
        turn: 0,
    };

    #[inline]
    pub fn is_empty(self) -> bool {
        self.owner == u8::MAX
    }
}

/// A hand that never runs out.
pub const UNLIMITED: u16 = u16::MAX;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LudiState {
    /// The top piece of each cell.
    pub(crate) top: Vec<Piece>,
    /// Pieces under the tops, bottom first, each with its cell.
    pub(crate) buried: Vec<(CellIndex, Piece)>,
    /// `hands[player * piece_types + kind]`: pieces held, or [`UNLIMITED`].
    pub(crate) hands: Vec<u16>,
    pub(crate) scores: Vec<i32>,
    /// The state of each cell, in games whose moves set one (empty otherwise: every cell 0).
    pub(crate) cell_states: Vec<i16>,
    /// Enemy pieces each player has captured.
    pub(crate) captured: Vec<u16>,
    /// For games whose pieces are only ever added (see `Traits::additive`): each player's
    /// longest line so far, kept up to date move by move instead of rescanning the board.
    pub(crate) longest_run: Vec<u8>,
    pub(crate) mover: u8,
    /// Moves made.
    pub(crate) plies: u16,
    /// Passes in a row: when every player has passed, nobody can do anything and it is a draw.
    pub(crate) passes: u8,
    /// Whether a pie-rule swap exchanged the two seats: the first role then plays the second
    /// colour and the second role the first. Pieces, `mover` and `result` speak of colours.
    pub(crate) swapped: bool,
    /// The goals, once the game is over.
    pub(crate) result: Option<Box<[Reward]>>,
}

/// One 64-bit digest of every field, handed to the hasher in a single write: searches keep
/// states in hash tables, and hashing the cells one small field at a time dominated their cost.
impl Hash for LudiState {
    fn hash<H: Hasher>(&self, hasher: &mut H) {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mix = |acc: u64, value: u64| (acc.rotate_left(5) ^ value).wrapping_mul(K);
        let piece = |p: &Piece| {
            u64::from(p.owner)
                | u64::from(p.kind) << 8
                | u64::from(p.state as u16) << 16
                | u64::from(p.flags) << 32
                | u64::from(p.turn) << 40
        };
        let mut acc = self.top.iter().fold(0, |acc, p| mix(acc, piece(p)));
        for (cell, p) in &self.buried {
            acc = mix(acc, piece(p) | u64::from(*cell) << 32);
        }
        for &cell_state in &self.cell_states {
            acc = mix(acc, u64::from(cell_state as u16));
        }
        for &h in &self.hands {
            acc = mix(acc, u64::from(h));
        }
        for (&score, &taken) in self.scores.iter().zip(&self.captured) {
            acc = mix(acc, u64::from(score as u32) | u64::from(taken) << 32);
        }
        for &run in &self.longest_run {
            acc = mix(acc, u64::from(run));
        }
        acc = mix(
            acc,
            u64::from(self.mover)
                | u64::from(self.plies) << 8
                | u64::from(self.passes) << 24
                | u64::from(self.swapped) << 32,
        );
        if let Some(result) = &self.result {
            for &goal in result.iter() {
                acc = mix(acc, u64::from(goal) | 1 << 16);
            }
        }
        hasher.write_u64(acc);
    }
}

impl LudiState {
    pub(crate) fn empty(cells: usize, players: usize, piece_types: usize) -> LudiState {
        LudiState {
            top: vec![Piece::EMPTY; cells],
            buried: Vec::new(),
            hands: vec![UNLIMITED; players * piece_types],
            scores: vec![0; players],
            cell_states: Vec::new(),
            captured: vec![0; players],
            longest_run: vec![0; players],
            mover: 0,
            plies: 0,
            passes: 0,
            swapped: false,
            result: None,
        }
    }

    /// The colour `role` plays: its own, unless a pie-rule swap exchanged the two seats.
    #[inline]
    pub fn colour_of(&self, role: usize) -> usize {
        if self.swapped && role < 2 {
            1 - role
        } else {
            role
        }
    }

    /// The role playing `colour` (the swap is its own inverse).
    #[inline]
    pub fn role_of(&self, colour: usize) -> usize {
        self.colour_of(colour)
    }

    /// Whether a pie-rule swap exchanged the seats.
    pub fn seats_swapped(&self) -> bool {
        self.swapped
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The colour to move (the role moving is [`Self::role_of`] it).
    pub fn mover(&self) -> usize {
        usize::from(self.mover)
    }

    pub fn plies(&self) -> usize {
        usize::from(self.plies)
    }

    /// The top piece on `cell`.
    pub fn piece(&self, cell: CellIndex) -> Piece {
        self.top
            .get(usize::from(cell))
            .copied()
            .unwrap_or(Piece::EMPTY)
    }

    /// The owner of the top piece on `cell`.
    pub fn owner(&self, cell: CellIndex) -> Option<usize> {
        let piece = self.piece(cell);
        (!piece.is_empty()).then_some(usize::from(piece.owner))
    }

    pub fn height(&self, cell: CellIndex) -> usize {
        if self.piece(cell).is_empty() {
            return 0;
        }
        1 + self.buried.iter().filter(|(c, _)| *c == cell).count()
    }

    /// The state of `cell` (0 unless a move set it).
    pub fn cell_state(&self, cell: CellIndex) -> i64 {
        self.cell_states
            .get(usize::from(cell))
            .map_or(0, |&s| i64::from(s))
    }

    /// The goals by colour, once the game is over ([`crate::Game::goals`] gives them by role).
    pub fn result(&self) -> Option<&[Reward]> {
        self.result.as_deref()
    }

    /// Puts `piece` on top of `cell`.
    pub(crate) fn push(&mut self, cell: CellIndex, piece: Piece) {
        let slot = &mut self.top[usize::from(cell)];
        if !slot.is_empty() {
            self.buried.push((cell, *slot));
        }
        *slot = piece;
    }

    /// Lifts the top piece off `cell`; the piece under it, if any, becomes the top.
    pub(crate) fn pop(&mut self, cell: CellIndex) -> Piece {
        let piece = self.top[usize::from(cell)];
        let below = self.buried.iter().rposition(|(c, _)| *c == cell);
        self.top[usize::from(cell)] = match below {
            Some(i) => self.buried.remove(i).1,
            None => Piece::EMPTY,
        };
        piece
    }

    /// Removes the whole stack on `cell`, returning how many pieces it held.
    pub(crate) fn clear(&mut self, cell: CellIndex) -> usize {
        let before = self.buried.len();
        self.buried.retain(|(c, _)| *c != cell);
        let slot = &mut self.top[usize::from(cell)];
        let had_top = !slot.is_empty();
        *slot = Piece::EMPTY;
        before - self.buried.len() + usize::from(had_top)
    }
}

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// The role is not to move (the turn-taking model's idle move).
    Noop,
    Pass,
    /// A piece from the hand onto `to`.
    Place,
    /// The top piece of `from` onto `to`.
    Step,
    /// The top piece of `from` off the board.
    Lift,
    /// The pie rule: the second player takes the first player's seat (and its first move)
    /// instead of moving.
    Swap,
}

/// A move: small and `Copy`, so that move lists are cheap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LudiMove {
    pub kind: MoveKind,
    /// The piece type moved or placed.
    pub piece: u8,
    /// The move rule of that piece type.
    pub rule: u8,
    pub from: CellIndex,
    pub to: CellIndex,
}

impl LudiMove {
    pub const NOOP: LudiMove = LudiMove {
        kind: MoveKind::Noop,
        piece: 0,
        rule: 0,
        from: NO_CELL,
        to: NO_CELL,
    };

    pub const SWAP: LudiMove = LudiMove {
        kind: MoveKind::Swap,
        piece: 0,
        rule: 0,
        from: NO_CELL,
        to: NO_CELL,
    };

    pub const PASS: LudiMove = LudiMove {
        kind: MoveKind::Pass,
        piece: 0,
        rule: 0,
        from: NO_CELL,
        to: NO_CELL,
    };
}
