//! The position, the moves, and the [`Game`] implementation of [`EggEngine`], with a random
//! playout that works on one position in place instead of cloning one per ply.

use rand::{Rng, RngExt};

use super::{ChoiceTest, EggEngine, Goal, Moves, Scoring, Turns};
use crate::playout::{Playout, PlayoutEnd};
use crate::{Game, Reward, RoleIndex};

/// A move of one role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EggMove {
    /// Not this role's turn (alternating turns), or it has already chosen.
    Pass,
    /// Put the role's piece on this cell.
    Place(u16),
    /// Choose the option of this index (into [`super::Moves::Choose`]'s options).
    Choose(u8),
}

/// A position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EggState {
    /// Per cell, 0 when empty, else the piece's index plus one.
    cells: Box<[u8]>,
    /// Per role, 0 before it chose, else the chosen option's index plus one.
    choices: Box<[u8]>,
    /// Per role, how often it reached the goal.
    scores: Box<[u32]>,
    /// Turns played, for the alternation.
    turn: u32,
    /// Empty cells left on the board.
    empty: u16,
    over: bool,
}

impl EggState {
    /// The piece on `cell`, if any.
    pub fn piece_at(&self, cell: usize) -> Option<u8> {
        self.cells.get(cell).and_then(|&c| c.checked_sub(1))
    }

    /// Each role's score: how often it reached the goal.
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }

    /// The option `role` chose in this round (an index into [`super::Moves::Choose`]'s
    /// options), if it has chosen.
    pub fn choice(&self, role: usize) -> Option<u8> {
        self.choices.get(role).and_then(|&c| c.checked_sub(1))
    }
}

impl EggEngine {
    /// The role to move under alternating turns; `None` when all move at once.
    fn mover(&self, state: &EggState) -> Option<RoleIndex> {
        match &self.description.turns {
            Turns::Alternate { order } => Some(order[state.turn as usize % order.len()]),
            Turns::Simultaneous => None,
        }
    }

    /// Pushes the legal moves of `role` onto `out` (empty when terminal).
    fn push_moves(&self, state: &EggState, role: RoleIndex, out: &mut Vec<EggMove>) {
        if state.over {
            return;
        }
        let to_move = self.mover(state).is_none_or(|mover| mover == role);
        match &self.description.moves {
            Moves::Place { .. } if to_move => {
                let board = &self.description.board;
                for (cell, &piece) in state.cells.iter().enumerate() {
                    if piece == 0 && board.present[cell] {
                        // validate() bounds the board at u16::MAX cells.
                        out.push(EggMove::Place(cell as u16));
                    }
                }
            }
            Moves::Choose { options } if to_move && state.choices[role] == 0 => {
                out.extend((0..options.len()).map(|option| EggMove::Choose(option as u8)));
            }
            _ => out.push(EggMove::Pass),
        }
    }

    /// Plays `joint` on `state` in place. Moves that are not legal are ignored rather than
    /// trusted: the position stays a position of this game.
    fn apply(&self, state: &mut EggState, joint: &[EggMove]) {
        if state.over {
            return;
        }
        let description = &self.description;
        for (role, &played) in joint.iter().enumerate().take(description.roles.len()) {
            let to_move = self.mover(state).is_none_or(|mover| mover == role);
            match (played, &description.moves) {
                (EggMove::Place(cell), Moves::Place { piece_of_role }) if to_move => {
                    let cell = usize::from(cell);
                    let free = state.cells.get(cell) == Some(&0) && description.board.present[cell];
                    if free {
                        state.cells[cell] = piece_of_role[role] + 1;
                        state.empty -= 1;
                        if self.on_a_line(state, cell) {
                            state.scores[role] += 1;
                        }
                    }
                }
                (EggMove::Choose(option), Moves::Choose { options })
                    if to_move
                        && state.choices[role] == 0
                        && usize::from(option) < options.len() =>
                {
                    state.choices[role] = option + 1;
                }
                _ => {}
            }
        }
        state.turn = state.turn.wrapping_add(1);
        if let (Moves::Choose { options }, Goal::Outcome(alternatives)) =
            (&description.moves, &description.goal)
            && state.choices.iter().all(|&choice| choice != 0)
        {
            let chosen = |role: usize| options[usize::from(state.choices[role] - 1)];
            for role in 0..2 {
                let holds = |test: &ChoiceTest| match *test {
                    ChoiceTest::Own(piece) => chosen(role) == piece,
                    ChoiceTest::Opponent(piece) => chosen(1 - role) == piece,
                };
                if alternatives.iter().any(|tests| tests.iter().all(holds)) {
                    state.scores[role] += 1;
                }
            }
        }
        state.over = self.round_over(state);
    }

    /// Whether play stops: a goal reached under [`Scoring::FirstGoalWins`], or no move left.
    fn round_over(&self, state: &EggState) -> bool {
        let description = &self.description;
        if description.scoring == Scoring::FirstGoalWins && state.scores.iter().any(|&s| s > 0) {
            return true;
        }
        match &description.moves {
            Moves::Place { .. } => state.empty == 0,
            Moves::Choose { .. } => state.choices.iter().all(|&choice| choice != 0),
        }
    }

    /// Whether the piece just put on `cell` lies on one of the goal's lines.
    fn on_a_line(&self, state: &EggState, cell: usize) -> bool {
        let piece = state.cells[cell];
        // The run of equal pieces from `cell` one way, the cell itself not counted.
        let run = |direction: usize| {
            let steps = &self.steps[direction];
            let mut length = 0;
            let mut at = steps[cell];
            while at != super::NO_CELL && state.cells[usize::from(at)] == piece {
                length += 1;
                at = steps[usize::from(at)];
            }
            length
        };
        self.lines.iter().any(|(length, axes)| {
            axes.iter()
                .any(|&(forward, back)| 1 + run(forward) + run(back) >= *length)
        })
    }
}

impl Game for EggEngine {
    type State = EggState;
    type Move = EggMove;

    fn roles(&self) -> &[String] {
        &self.description.roles
    }

    fn initial_state(&self) -> EggState {
        let description = &self.description;
        let roles = description.roles.len();
        let mut state = EggState {
            cells: description
                .board
                .start
                .iter()
                .map(|piece| piece.map_or(0, |p| p + 1))
                .collect(),
            choices: vec![0; roles].into_boxed_slice(),
            scores: vec![0; roles].into_boxed_slice(),
            turn: 0,
            empty: 0,
            over: false,
        };
        let present = description.board.present.iter();
        let empty = state
            .cells
            .iter()
            .zip(present)
            .filter(|&(&c, &p)| p && c == 0);
        // validate() bounds the board at u16::MAX cells.
        state.empty = empty.count() as u16;
        state.over = self.round_over(&state);
        state
    }

    fn is_terminal(&self, state: &EggState) -> bool {
        state.over
    }

    fn legal_moves(&self, state: &EggState, role: RoleIndex) -> Vec<EggMove> {
        let mut moves = Vec::new();
        if role < self.description.roles.len() {
            self.push_moves(state, role, &mut moves);
        }
        moves
    }

    fn next_state(&self, state: &EggState, joint: &[EggMove]) -> EggState {
        let mut next = state.clone();
        self.apply(&mut next, joint);
        next
    }

    /// One role: 100 if it reached the goal, else 0. Several: 50 each when all scores are equal
    /// (nobody won, or everybody equally), else 100 for the highest scores and 0 for the rest.
    fn goals(&self, state: &EggState) -> Vec<Reward> {
        let scores = &state.scores;
        let best = scores.iter().copied().max().unwrap_or(0);
        if let [only] = scores.as_ref() {
            return vec![if *only > 0 { 100 } else { 0 }];
        }
        if scores.iter().all(|&score| score == best) {
            return vec![50; scores.len()];
        }
        scores
            .iter()
            .map(|&score| if score == best { 100 } else { 0 })
            .collect()
    }

    /// The same draws as [`crate::playout::step_by_step_playout`] (one uniform draw per role, in
    /// role order, among the moves in [`Game::legal_moves`]'s order), on one position in place.
    fn random_playout<R: Rng + ?Sized>(
        &self,
        state: &EggState,
        rng: &mut R,
        max_plies: usize,
    ) -> Playout {
        let mut state = state.clone();
        let mut moves = Vec::new();
        let mut joint = Vec::with_capacity(self.description.roles.len());
        let mut plies = 0;
        let end = loop {
            if state.over {
                break PlayoutEnd::Terminal;
            }
            if plies >= max_plies {
                break PlayoutEnd::PlyLimit;
            }
            joint.clear();
            let mut stuck = None;
            for role in 0..self.description.roles.len() {
                moves.clear();
                self.push_moves(&state, role, &mut moves);
                if moves.is_empty() {
                    stuck = Some(role);
                    break;
                }
                joint.push(moves[rng.random_range(0..moves.len())]);
            }
            if let Some(role) = stuck {
                break PlayoutEnd::NoLegalMove(role);
            }
            self.apply(&mut state, &joint);
            plies += 1;
        };
        let goals = (end == PlayoutEnd::Terminal).then(|| self.goals(&state));
        Playout {
            plies,
            end,
            goals,
            ambiguous_goals: false,
        }
    }
}
